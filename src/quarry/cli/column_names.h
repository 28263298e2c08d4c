#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace quarry::parquet {
class FileSchema;
}
namespace quarry::orc {
class OrcSchema;
}

/// print's and convert's --columns checked against a file's schema before any row
/// is read, so that a misspelt name gets a message naming the file and the column
/// it was probably meant to be.
namespace quarry::cli {

/// Throws InvalidArgument "no column 'vendr' in FILE; did you mean 'vendor'?" (the
/// hint when a column's path is close, name_hint.h) for the first of `names` that
/// is no column path of `schema` (a top-level field, a struct, a dotted path).
void requireColumns(const std::vector<std::string>& names, const parquet::FileSchema& schema,
                    std::string_view file);
void requireColumns(const std::vector<std::string>& names, const orc::OrcSchema& schema,
                    std::string_view file);

}  // namespace quarry::cli
