#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quarry::parquet {
class FileSchema;
}

/// `print` and `convert` write the rows of several files as one output, which
/// needs one schema. Every file's schema is checked before the first row is
/// written: a clash found part-way would leave the first files' rows behind
/// (and a CSV or NDJSON consumer would take them for the whole answer).
namespace quarry::cli {

/// Returns a text that is equal for two Parquet schemas when their leaves have
/// the same paths, repetitions, physical and logical types.
std::string schemaSignature(const parquet::FileSchema& schema);

/// The message for a file whose schema differs from that of `firstFile`
/// (`detail`: what differs, may be empty).
std::string schemaClash(const std::string& firstFile, const std::string& detail = {});

/// The files' formats and schemas as checked before printing.
struct AgreedFiles {
  bool orc = false;
  /// The rows the files hold, all of them.
  uint64_t rows = 0;
};

/// Opens each of `files` in turn (reading its footer, not its rows) and throws
/// InvalidArgument naming the first file when one is of the other format
/// (Parquet, ORC) or has another schema; `current` is then the file that
/// differs (or the one that failed to open).
AgreedFiles requireOneSchema(const std::vector<std::string>& files, std::string& current);

}  // namespace quarry::cli
