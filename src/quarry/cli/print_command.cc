#include "quarry/cli/print_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "quarry/cli/arrow_convert.h"
#include "quarry/cli/arrow_output.h"
#include "quarry/cli/column_names.h"
#include "quarry/cli/csv_text.h"
#include "quarry/cli/error_report.h"
#include "quarry/cli/file_arguments.h"
#include "quarry/cli/filter_expression.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/memory_limit_option.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/orc_print.h"
#include "quarry/cli/output_stream.h"
#include "quarry/cli/progress_bar.h"
#include "quarry/cli/schema_agreement.h"
#include "quarry/cli/table_writer.h"
#include "quarry/cli/value_renderer.h"
#include "quarry/common/error.h"
#include "quarry/common/huge_pages.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

/// Output is handed to stdout in pieces of about this size.
constexpr size_t kFlushBytes = 1 << 20;

/// Whether a top-level field renders as a number (aligned right in a table).
bool isNumericField(const parquet::SchemaNode& node) {
  if (!node.isLeaf() || node.repetition == parquet::FieldRepetitionType::REPEATED) return false;
  using S = ValueRenderer::Scalar;
  switch (ValueRenderer::scalarOf(node)) {
    case S::kInt8: case S::kInt16: case S::kInt32: case S::kInt64: case S::kUInt8:
    case S::kUInt16: case S::kUInt32: case S::kUInt64: case S::kFloat: case S::kDouble:
    case S::kDecimal:
      return true;
    default:
      return false;
  }
}

/// Collects the output of one print run in the chosen format.
class RowPrinter {
 public:
  RowPrinter(const PrintOptions& options, std::FILE* out) : options_(options), format_(options.format), out_(out) {}

  void begin(const parquet::RowReader& rows) {
    std::vector<TableWriter::Column> columns;
    // The names come from the projection: the reader has no current row yet.
    const auto& fields = rows.projection().root().children;
    for (size_t i = 0; i < fields.size(); ++i) {
      const std::string& name = fields[i]->node->name;
      names_.push_back(name);
      columns.push_back({name, isNumericField(*fields[i]->node)});
      if (format_ == PrintFormat::kCsv) {
        if (i > 0) pending_ += ',';
        appendCsvField(name, pending_);
      }
    }
    if (format_ == PrintFormat::kCsv) pending_ += '\n';
    if (format_ == PrintFormat::kTable) table_ = makeTableWriter(std::move(columns), options_, out_);
    if (format_ == PrintFormat::kJson) pending_ += '[';
  }

  /// Whether another row is wanted: false once a table shows all it may.
  bool wantsRows() const { return table_ == nullptr || table_->wantsRows(); }

  /// Renders the current row. A failure part-way leaves nothing of the row
  /// behind, unless a CSV field of it was longer than kFlushBytes: that field
  /// goes out as it is quoted (a value can be a gigabyte long), with the row's
  /// text before it.
  void addRow(const parquet::RowReader& rows, const ValueRenderer& renderer) {
    rowStart_ = pending_.size();
    try {
      renderRow(rows, renderer);
    } catch (...) {
      pending_.resize(rowStart_);
      throw;
    }
    ++rowCount_;
    if (format_ != PrintFormat::kJson && pending_.size() >= kFlushBytes) flush();
  }

  /// Writes what is left after the last row; a table's footer tells `total`
  /// rows (when known) or whether `more` were left unshown.
  void end(std::optional<uint64_t> total, bool more) {
    if (table_ != nullptr) table_->finish(total, more);
    if (format_ == PrintFormat::kJson) pending_ += rowCount_ == 0 ? "]\n" : "\n]\n";
    flush();
  }

  /// Writes the complete rows rendered before a failure (a JSON array not at all).
  void abandon() {
    if (format_ == PrintFormat::kJson) return;
    if (table_ != nullptr) table_->endBatch();
    flush();
  }

 private:
  /// Renders the current row straight into pending_ (a table's into its cells):
  /// rows are rendered once, not built apart and copied.
  void renderRow(const parquet::RowReader& rows, const ValueRenderer& renderer) {
    if (format_ == PrintFormat::kJson) pending_ += rowCount_ == 0 ? "\n" : ",\n";
    std::vector<std::string> cells;
    for (size_t i = 0; i < names_.size(); ++i) {
      const parquet::FieldValue value = rows.field(i);
      switch (format_) {
        case PrintFormat::kTable: {
          std::string text;
          renderer.appendText(value, text);
          cells.push_back(std::move(text));
          break;
        }
        case PrintFormat::kCsv:
          if (i > 0) pending_ += ',';
          if (!renderer.isSqlNull(value)) {  // NULL is the empty field
            cell_.clear();
            renderer.appendText(value, cell_);
            appendCsvCell();
          }
          break;
        case PrintFormat::kJson:
        case PrintFormat::kNdjson:
          pending_ += i == 0 ? '{' : ',';
          appendJsonString(pending_, names_[i]);
          pending_ += ':';
          renderer.appendJson(value, pending_);
          break;
      }
    }
    switch (format_) {
      case PrintFormat::kTable:
        table_->addRow(std::move(cells));
        break;
      case PrintFormat::kCsv:
        pending_ += '\n';
        break;
      case PrintFormat::kJson:
      case PrintFormat::kNdjson:
        if (names_.empty()) pending_ += '{';
        pending_ += '}';
        if (format_ == PrintFormat::kNdjson) pending_ += '\n';
        break;
    }
  }

  /// Appends cell_ to pending_ as a CSV field. A long one is quoted and written
  /// piece by piece, not copied whole into pending_ first.
  void appendCsvCell() {
    if (cell_.size() < kFlushBytes) {
      appendCsvField(cell_, pending_);
      return;
    }
    const bool quoted = csvFieldNeedsQuotes(cell_);
    if (quoted) pending_ += '"';
    for (size_t at = 0; at < cell_.size(); at += kFlushBytes) {
      const std::string_view part = std::string_view(cell_).substr(at, kFlushBytes);
      if (quoted) {
        appendCsvQuotedText(part, pending_);
      } else {
        pending_.append(part);
      }
      if (pending_.size() >= kFlushBytes) {
        flush();
        rowStart_ = 0;  // the row's first part is out
      }
    }
    if (quoted) pending_ += '"';
  }

  void flush() {
    writeOutput(out_, pending_);
    pending_.clear();
  }

  const PrintOptions& options_;
  PrintFormat format_;
  std::FILE* out_;
  std::vector<std::string> names_;
  std::unique_ptr<TableWriter> table_;
  std::string pending_;
  /// Where the row being rendered starts in pending_.
  size_t rowStart_ = 0;
  /// A CSV field's text before it is quoted; its memory is reused row after row.
  std::string cell_;
  int64_t rowCount_ = 0;
};

/// Prints Parquet files in turn through one RowPrinter, --head counted over all.
class ParquetRows {
 public:
  ParquetRows(const PrintOptions& options, RowPrinter& printer, ProgressCounters& progress)
      : options_(options), printer_(printer), progress_(progress) {}

  void add(std::unique_ptr<io::StorageObject> object) {
    auto file = parquet::ParquetFileReader::open(std::move(object));
    const std::string signature = schemaSignature(file->schema());
    if (firstFile_.empty()) {
      firstFile_ = file->uri();
      firstSignature_ = signature;
      // One file: its rows are the whole (several: runPrint counted them all first).
      if (progress_.total == 0) progress_.total = expectedRows(options_, file->metadata().num_rows);
    } else if (signature != firstSignature_) {
      throw InvalidArgument(schemaClash(firstFile_));  // changed since runPrint checked it
    }
    countRows(file->metadata().num_rows);
    // Past --head, or past a full table known to leave rows unshown: only counted.
    if (begun_ && ((options_.head >= 0 && printed_ >= options_.head) || more_)) return;
    parquet::RowReaderBuilder builder = file->buildRowReader();
    if (!options_.columns.empty()) {
      requireColumns(options_.columns, file->schema(), file->uri());
      builder.projection(parquet::ColumnProjection::columns(options_.columns));
    }
    if (!options_.filter.empty())
      builder.filter(parseFilterExpression(options_.filter, file->schema()));
    if (options_.tail >= 0) builder.tail(options_.tail);
    if (options_.head >= 0) builder.head(options_.head - printed_);
    auto rows = builder.build();
    const ValueRenderer renderer(file->metadata(), options_.jsonBigNumbersAsStrings
                                                       ? BigNumbers::kStrings
                                                       : BigNumbers::kNumbers);
    if (!begun_) printer_.begin(*rows);
    begun_ = true;
    while (rows->next()) {
      if (!printer_.wantsRows()) {  // a full table: the rest is counted, not read
        more_ = true;
        break;
      }
      printer_.addRow(*rows, renderer);
      ++printed_;
      progress_.done = static_cast<uint64_t>(printed_);
      if (printed_ % 1024 == 0) progress_.bytesRead = bytesBefore_ + file->storage().bytesRead();
    }
    file->storage().checkUnchanged();  // the rows came from the file as opened
    bytesBefore_ += file->storage().bytesRead();
    progress_.bytesRead = bytesBefore_;
  }

  void end() {
    if (!begun_) return;
    std::optional<uint64_t> total = total_;
    if (total && options_.head >= 0) total = std::min(*total, static_cast<uint64_t>(options_.head));
    if (!more_) total = static_cast<uint64_t>(printed_);
    printer_.end(total, more_);
  }

 private:
  /// Adds a file's rows to the total the table's footer tells, while it can be
  /// told from the footers (not with --filter).
  void countRows(int64_t fileRows) {
    if (!options_.filter.empty() || fileRows < 0) {
      total_.reset();
      return;
    }
    uint64_t rows = static_cast<uint64_t>(fileRows);
    if (options_.tail >= 0) rows = std::min(rows, static_cast<uint64_t>(options_.tail));
    if (total_) *total_ += rows;
  }

  const PrintOptions& options_;
  RowPrinter& printer_;
  ProgressCounters& progress_;
  bool begun_ = false;
  bool more_ = false;  // rows were left unshown by a full table
  std::optional<uint64_t> total_ = 0;
  int64_t printed_ = 0;
  uint64_t bytesBefore_ = 0;  // read from the files done
  std::string firstFile_;
  std::string firstSignature_;
};

}  // namespace

std::unique_ptr<TableWriter> makeTableWriter(std::vector<TableWriter::Column> columns,
                                             const PrintOptions& options, std::FILE* out) {
  TableWriter::Limits limits;
  if (options.maxRows >= 0) limits.maxRows = static_cast<uint64_t>(options.maxRows);
  limits.width = outputWidth(out);
  return std::make_unique<TableWriter>(std::move(columns), limits,
                                       [out](std::string_view text) { writeOutput(out, text); });
}

namespace {

/// Adds the options print and convert share.
void addRowOptions(CLI::App& command, PrintOptions& options) {
  command
      .add_option("FILE", options.files,
                  "Parquet or ORC files: local paths, file://, http(s):// or s3:// URIs; local "
                  "and s3:// globs (*, ?, [...], **) expand to their matches, sorted")
      ->required();
  command
      .add_option("--columns", options.columns,
                  "Columns to print, comma-separated: top-level names, struct names or dotted "
                  "paths (default: all)")
      ->delimiter(',');
  command.add_option("--head", options.head, "At most N rows (after --tail)")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  command.add_option("--tail", options.tail,
                     "The file's last N rows only (not with --filter, one file only)")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  addMemoryLimitOption(command);
  command.add_flag("--json-big-numbers-as-strings", options.jsonBigNumbersAsStrings,
                   "JSON: write integers beyond 2^53 and decimals of over 15 digits as strings "
                   "(for parsers that read numbers as doubles)");
  command.add_option(
      "--filter", options.filter,
      "Rows matching EXPR, e.g. \"fare > 10 AND (vendor IN ('A','B') OR tip IS NULL)\" "
      "(Parquet and ORC)");
}

}  // namespace

CLI::App& addPrintCommand(CLI::App& app, PrintOptions& options) {
  CLI::App* print =
      app.add_subcommand("print", "Print a file's rows, each value as DuckDB renders it");
  addRowOptions(*print, options);
  print
      ->add_option("--max-rows", options.maxRows,
                   "Table format: show at most N rows (default 40; 0: all); csv and json are never capped")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  print
      ->add_option_function<std::string>(
          "--format",
          [&options](const std::string& name) {
            static const std::map<std::string, PrintFormat> kFormats{
                {"table", PrintFormat::kTable},
                {"csv", PrintFormat::kCsv},
                {"json", PrintFormat::kJson},
                {"ndjson", PrintFormat::kNdjson}};
            options.format = kFormats.at(CLI::detail::to_lower(name));
          },
          "table (default), csv, json (one array) or ndjson (one object per line)")
      ->check(CLI::IsMember({"table", "csv", "json", "ndjson"}, CLI::ignore_case));
  return *print;
}

CLI::App& addConvertCommand(CLI::App& app, PrintOptions& options) {
  CLI::App* convert = app.add_subcommand("convert",
                                         "Convert a file's rows to CSV (as DuckDB's COPY TO writes "
                                         "it), NDJSON or an Arrow IPC stream");
  addRowOptions(*convert, options);
  convert
      ->add_option_function<std::string>(
          "--to",
          [&options](const std::string& name) {
            const std::string to = CLI::detail::to_lower(name);
            options.arrow = to == "arrow";
            options.format = to == "csv" ? PrintFormat::kCsv : PrintFormat::kNdjson;
          },
          "csv, ndjson or arrow (an Arrow IPC stream of the columns as a query types them; "
          "not to a terminal)")
      ->required()
      ->check(CLI::IsMember({"csv", "ndjson", "arrow"}, CLI::ignore_case));
  convert->add_option("-o,--output", options.output, "Write to OUT (default: stdout)");
  return *convert;
}

uint64_t expectedRows(const PrintOptions& options, int64_t rows) {
  if (!options.filter.empty() || rows < 0) return 0;
  int64_t n = rows;
  if (options.tail >= 0) n = std::min(n, options.tail);
  if (options.head >= 0) n = std::min(n, options.head);
  return static_cast<uint64_t>(n);
}

int runConvert(const PrintOptions& options) {
  const auto run = [&options](std::FILE* out) {
    return options.arrow ? runArrowConvert(options, out) : runPrint(options, out);
  };
  if (options.output.empty() || options.output == "-") {
    if (options.arrow && refuseBinaryToTerminal(stdout, "--to arrow")) return 2;
    return run(stdout);
  }
  std::FILE* out = std::fopen(options.output.c_str(), "wb");
  if (out == nullptr) {
    std::cerr << errorLine(options.output, "cannot open the output for writing") << std::endl;
    return 1;
  }
  int code = run(out);
  if (std::fclose(out) != 0 && code == 0) {
    std::cerr << errorLine(options.output, "cannot write the output") << std::endl;
    code = 1;
  }
  return code;
}

int runPrint(const PrintOptions& options, std::FILE* out) {
  RowPrinter printer(options, out);
  // The file (or pattern) errors name: the one being read.
  std::string current = options.files.size() == 1 ? options.files.front() : std::string();
  const auto fail = [&](const char* message) {
    try {
      printer.abandon();
    } catch (const std::exception&) {
      // The output is broken too; the message below says what failed first.
    }
    std::fflush(out);
    std::cerr << errorLine(current, message) << std::endl;
    return 1;
  };
  try {
    const std::vector<std::string> files = expandFileArguments(options.files);
    if (files.size() > 1 && options.tail >= 0) {
      throw InvalidArgument("--tail reads one file; " + std::to_string(files.size()) +
                            " files were given");
    }
    ProgressCounters progress;
    // Several files: every schema is checked before a row is written.
    if (files.size() > 1) {
      const uint64_t rows = requireOneSchema(files, current).rows;
      progress.total = expectedRows(options, static_cast<int64_t>(rows));
    }
    ParquetRows parquetRows(options, printer, progress);
    OrcPrinter orcRows(options, out, progress);
    const bool streams =
        options.format == PrintFormat::kCsv || options.format == PrintFormat::kNdjson;
    std::optional<ProgressBar> bar;
    bar.emplace(ProgressBar::wanted(streams), "rows", [&progress] { return progress.sample(); });
    std::string first;
    bool firstIsOrc = false;
    for (const std::string& file : files) {
      current = file;
      // One open per object: the format is told from the object the reader then uses.
      auto object = io::openObject(file);
      const bool orc = isOrcObject(*object);
      if (first.empty()) {
        first = file;
        firstIsOrc = orc;
      } else if (orc != firstIsOrc) {
        throw InvalidArgument(std::string(orc ? "an ORC" : "a Parquet") + " file, but " +
                              first + " is " + (firstIsOrc ? "ORC" : "Parquet") +
                              "; files printed together must have one schema");
      }
      if (orc) {
        orcRows.add(std::move(object));
      } else {
        parquetRows.add(std::move(object));
      }
    }
    bar.reset();  // erased before the table or the JSON array's end is written
    if (firstIsOrc) {
      orcRows.end();
    } else {
      parquetRows.end();
    }
  } catch (const Error& e) {
    return fail(e.what());
  } catch (const InvalidArgument& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  if (std::fflush(out) != 0) {
    std::cerr << "quarry: cannot write the output" << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace quarry::cli
