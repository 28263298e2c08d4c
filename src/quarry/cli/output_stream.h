#pragma once

#include <cstdio>
#include <string_view>

/// Writing a command's result where a reader may stop reading early
/// (`quarry query ... | head -1`).
namespace quarry::cli {

/// Writes `bytes` to `out` and flushes it. When the reader has closed the pipe
/// (EPIPE: SIGPIPE was ignored, else the signal has already ended the process)
/// the process ends at once, quietly, as SIGPIPE ends it: the reader wanted no
/// more, which is no error to report. Any other failure throws IoError.
void writeOutput(std::FILE* out, std::string_view bytes);

}  // namespace quarry::cli
