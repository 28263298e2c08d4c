#pragma once

#include <string>

#include "quarry/engine/parse/ast.h"

/// Renders an AST as canonical query text: keywords in upper case, function
/// names in lower case, `==` for equality, one space around binary operators,
/// parentheses only where precedence needs them, ASC/DESC and NULLS always
/// written, strings in double quotes. Parsing the text gives back an equal
/// tree: parseQuery(printQuery(q)) == q for every q that parseQuery returns.
namespace quarry::engine {

/// Returns the query on one line, commands joined by " | ".
std::string printQuery(const Query& query);

/// Returns one expression.
std::string printExpr(const Expr& expr);

/// Returns a column name, each part bare when it can be and backquoted otherwise.
std::string printIdentifier(const Identifier& name);

/// Returns `value` as a double-quoted string literal with escapes.
std::string quoteString(std::string_view value);

}  // namespace quarry::engine
