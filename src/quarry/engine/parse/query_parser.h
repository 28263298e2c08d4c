#pragma once

#include <string_view>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/parse/query_parameters.h"

/// The query language, ES|QL-style: a FROM clause, then commands joined by '|'.
///
///   query    := FROM string (',' string)* [WITH '{' option (',' option)* '}']
///               ('|' command)*
///   option   := "format" ':' ("parquet" | "orc")
///             | "schema_resolution" ':' ("first_file_wins" | "strict" | "union_by_name")
///             | "hive_partitioning" ':' (true | false | "true" | "false")
///             | "hive_types" ':' '{' string ':' string (',' string ':' string)* '}'
///   command  := WHERE expr
///             | EVAL name '=' expr (',' name '=' expr)*
///             | STATS [item (',' item)*] [BY item (',' item)*]   (item := [name '='] expr)
///             | SORT expr [ASC | DESC] [NULLS (FIRST | LAST)] (',' ...)*
///             | KEEP name (',' name)* | DROP name (',' name)*
///             | RENAME name AS name (',' name AS name)*
///             | LIMIT integer
///
/// Keywords are case-insensitive; column names are not. Expressions are read
/// by ExpressionParser (expression_parser.h).
namespace quarry::engine {

/// Parses a whole query. Throws QueryError (line, column, hint) for text that
/// is not one; renderQueryError (query_diagnostic.h) shows it with a caret.
/// `?name` placeholders take their values from `parameters` (query_parameters.h).
Query parseQuery(std::string_view text, const QueryParameters& parameters = {});

/// Parses text that is exactly one expression (for tools and tests).
Expr parseExpression(std::string_view text);

}  // namespace quarry::engine
