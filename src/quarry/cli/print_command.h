#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "quarry/cli/table_writer.h"

namespace CLI {
class App;
}

/// `quarry print FILE... [--columns a,b.c] [--head N | --tail N] [--filter EXPR]
/// [--format table|csv|json|ndjson] [--max-rows N] [--json-big-numbers-as-strings]`:
/// the rows of Parquet or ORC files, each Parquet value rendered as DuckDB
/// renders it (see ValueRenderer), so that a script can compare the output with
/// DuckDB's. FILE arguments may be glob patterns (file_arguments.h); the rows
/// of all files are printed in turn as one output.
namespace quarry::cli {

enum class PrintFormat { kTable, kCsv, kJson, kNdjson };

struct PrintOptions {
  /// FILE arguments: paths, URIs and glob patterns (expandFileArguments).
  std::vector<std::string> files;
  /// Projection names (top-level fields, struct names or dotted paths); empty = all.
  std::vector<std::string> columns;
  /// Rows to print at most; negative = all.
  int64_t head = -1;
  /// The file's last N rows only; negative = all. Not with --filter, nor with
  /// several files.
  int64_t tail = -1;
  /// A --filter expression (filter_expression.h); empty = every row.
  std::string filter;
  PrintFormat format = PrintFormat::kTable;
  /// `convert --to arrow`: an Arrow IPC stream (arrow_convert.h) instead of `format`.
  bool arrow = false;
  /// Where `convert -o` writes; empty = stdout.
  std::string output;
  /// Table format: rows shown at most; negative: TableWriter::kDefaultMaxRows; 0: all.
  int64_t maxRows = -1;
  /// JSON formats: big integers and decimals as strings (json_numbers.h).
  bool jsonBigNumbersAsStrings = false;
};

/// The table writer of a print run to `out`: --max-rows, and the width of `out`.
std::unique_ptr<TableWriter> makeTableWriter(std::vector<TableWriter::Column> columns,
                                             const PrintOptions& options, std::FILE* out);

/// Adds the `print` subcommand to `app`; parsing fills `options`, which must
/// outlive the parse.
CLI::App& addPrintCommand(CLI::App& app, PrintOptions& options);

/// Adds the `convert` subcommand (`--to csv|ndjson|arrow`, `-o OUT`): print's CSV
/// and NDJSON output written to a file or stdout, with the same options, or an
/// Arrow IPC stream of the same rows (arrow_convert.h).
CLI::App& addConvertCommand(CLI::App& app, PrintOptions& options);

/// Returns the rows print writes of a file (or files) of `rows` rows: --tail
/// and --head applied; 0, not known, with --filter. What the progress line counts to.
uint64_t expectedRows(const PrintOptions& options, int64_t rows);

/// Runs `convert`: opens `options.output` (stdout when empty) and prints to it
/// (an Arrow stream is refused to a terminal, status 2).
int runConvert(const PrintOptions& options);

/// Prints the rows of `options.files` to `out` and returns the exit code: 0, or
/// 1 after one line on stderr naming the file when reading fails (or the
/// pattern that matched nothing, or both files when two schemas differ). Several
/// files' formats and schemas are all checked before the first row is written
/// (schema_agreement.h), --columns against the file (column_names.h). Each object
/// is opened once for reading: its format is told from the object the reader uses.
/// Rows are written as they are read (the table's first batch once measured, the
/// JSON array at its end), so a failure part-way leaves the rows before it on
/// `out`; a JSON array is then not written at all rather than cut. On a terminal,
/// long work shows a progress line on stderr (progress_bar.h).
int runPrint(const PrintOptions& options, std::FILE* out);

}  // namespace quarry::cli
