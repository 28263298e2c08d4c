#pragma once

#include <cstdio>

#include "quarry/cli/print_command.h"

/// `quarry convert --to arrow FILE... [-o OUT]`: the files' rows as one Arrow
/// IPC stream (arrow_output.h). The rows are read through the engine's
/// FormatReader (Parquet, ORC), so each column has the type a query gives it
/// (data_type.h; quarry/arrow.h maps it to Arrow): a struct's leaves are columns
/// of their own named by their dotted paths, as in a query. --columns, --filter,
/// --head and --tail select rows and columns as they do for the text formats; a
/// column the engine does not read (a map, a list of lists) is refused, named.
namespace quarry::cli {

/// Writes the stream to `out`; returns the exit status, a failure said on
/// stderr naming the file.
int runArrowConvert(const PrintOptions& options, std::FILE* out);

}  // namespace quarry::cli
