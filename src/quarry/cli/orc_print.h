#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "quarry/cli/print_command.h"
#include "quarry/cli/progress_bar.h"
#include "quarry/cli/table_writer.h"
#include "quarry/io/storage.h"

/// `quarry print` for ORC files. Values are written as JSON (see
/// orc::appendJson): ndjson one object per row, json one array, csv and table
/// one field per top-level column (strings bare, nested values as JSON).
namespace quarry::cli {

/// Prints ORC files in turn, as one output: the CSV header, the JSON array
/// or the table once, --head counted over all files. --filter is parsed with ORC
/// literal types (parseOrcFilterExpression) and applied with metadata pruning.
/// Rows are written as they are read (the table through TableWriter).
class OrcPrinter {
 public:
  /// Publishes the rows printed and the bytes read to `progress`.
  OrcPrinter(const PrintOptions& options, std::FILE* out, ProgressCounters& progress);
  ~OrcPrinter();
  OrcPrinter(const OrcPrinter&) = delete;
  OrcPrinter& operator=(const OrcPrinter&) = delete;

  /// Prints the rows of the opened ORC file `object`. Throws on a failure (the
  /// rows before it are on `out`) and InvalidArgument, naming the first file,
  /// when the file's schema differs from the first file's.
  void add(std::unique_ptr<io::StorageObject> object);
  /// Writes what follows the last row (the JSON array's end, the table).
  void end();

 private:
  const PrintOptions& options_;
  std::FILE* out_;
  ProgressCounters& progress_;
  uint64_t bytesBefore_ = 0;  // read from the files done
  bool begun_ = false;
  int64_t printed_ = 0;
  bool more_ = false;                  // rows were left unshown by a full table
  std::optional<uint64_t> total_ = 0;  // the rows of the files, while known
  std::string firstFile_;
  std::string firstSchema_;
  std::unique_ptr<TableWriter> table_;
};

}  // namespace quarry::cli
