#pragma once

#include <string_view>

#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// The `--filter` expression of `quarry print` and `quarry convert`: a small
/// text form of a FilterPredicate (query-controls.txt, "Supported filter
/// predicates"). It is the CLI's own, kept small; a query language is not.
///
///   expr    := or
///   or      := and ("OR" and)*
///   and     := unary ("AND" unary)*
///   unary   := "NOT" unary | "(" expr ")" | term
///   term    := column ("=" | "!=" | "<>" | "<" | "<=" | ">" | ">=") literal
///            | column ["NOT"] "IN" "(" literal ("," literal)* ")"
///            | column "IS" ["NOT"] "NULL"
///   column  := name ("." name)*  (a name is [A-Za-z_][A-Za-z0-9_]* or `back quoted`)
///   literal := number | 'text' | "text" | TRUE | FALSE   (quotes doubled inside)
///
/// Keywords are case-insensitive. A literal takes the type the column's schema
/// asks for: a number is an int32_t on an INT32 column, a double on a DOUBLE
/// one, a Decimal on a DECIMAL one; text is a Date on a DATE column
/// ('2024-01-31'), an Instant or LocalDateTime on a TIMESTAMP one
/// ('2024-01-31 12:00:00.5'), a Uuid on a UUID one, else a string. Example:
///   fare > 10.5 AND (vendor IN ('A', 'B') OR tip IS NULL)
namespace quarry::cli {

/// Parses `text` into a predicate over `schema`'s columns. Throws
/// InvalidArgument naming the position (1-based character) and what was
/// expected for a syntax error, and for a literal the column cannot take
/// (e.g. 3000000000 on an INT32 column). Columns are checked when the reader
/// binds the predicate.
parquet::FilterPredicate parseFilterExpression(std::string_view text,
                                               const parquet::FileSchema& schema);

/// The same expression over an ORC file's columns (dotted paths through
/// structs): a number is an int64_t on an integer column, a double on a
/// float/double one, a Decimal on a decimal one; text is a Date on a date
/// column, a LocalDateTime on a timestamp one, an Instant on a timestamp with
/// local time zone, bytes on a binary one, else a string (orc_predicate.h says
/// what each ORC type takes).
parquet::FilterPredicate parseOrcFilterExpression(std::string_view text,
                                                  const orc::OrcSchema& schema);

}  // namespace quarry::cli
