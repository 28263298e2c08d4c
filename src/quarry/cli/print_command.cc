#include "quarry/cli/print_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "quarry/cli/column_names.h"
#include "quarry/cli/csv_text.h"
#include "quarry/cli/error_report.h"
#include "quarry/cli/file_arguments.h"
#include "quarry/cli/filter_expression.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/memory_limit_option.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/orc_print.h"
#include "quarry/cli/progress_bar.h"
#include "quarry/cli/schema_agreement.h"
#include "quarry/cli/text_table.h"
#include "quarry/cli/value_renderer.h"
#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

/// Output is handed to stdout in pieces of about this size.
constexpr size_t kFlushBytes = 1 << 20;

/// Collects the output of one print run in the chosen format.
class RowPrinter {
 public:
  RowPrinter(PrintFormat format, std::FILE* out) : format_(format), out_(out) {}

  void begin(const parquet::RowReader& rows) {
    std::vector<TextTable::Column> columns;
    // The names come from the projection: the reader has no current row yet.
    const auto& fields = rows.projection().root().children;
    for (size_t i = 0; i < fields.size(); ++i) {
      const std::string& name = fields[i]->node->name;
      names_.push_back(name);
      columns.push_back(TextTable::Column{printableText(name)});
      if (format_ == PrintFormat::kCsv) {
        if (i > 0) pending_ += ',';
        appendCsvField(name, pending_);
      }
    }
    if (format_ == PrintFormat::kCsv) pending_ += '\n';
    if (format_ == PrintFormat::kTable) table_ = std::make_unique<TextTable>(std::move(columns));
    if (format_ == PrintFormat::kJson) pending_ += '[';
  }

  /// Renders the current row; a failure part-way leaves nothing of the row behind.
  void addRow(const parquet::RowReader& rows, const ValueRenderer& renderer) {
    std::string line;
    std::vector<std::string> cells;
    for (size_t i = 0; i < names_.size(); ++i) {
      const parquet::FieldValue value = rows.field(i);
      switch (format_) {
        case PrintFormat::kTable: {
          std::string text;
          renderer.appendText(value, text);
          cells.push_back(printableText(text));
          break;
        }
        case PrintFormat::kCsv: {
          if (i > 0) line += ',';
          if (!renderer.isSqlNull(value)) {  // NULL is the empty field
            std::string text;
            renderer.appendText(value, text);
            appendCsvField(text, line);
          }
          break;
        }
        case PrintFormat::kJson:
        case PrintFormat::kNdjson:
          line += i == 0 ? '{' : ',';
          appendJsonString(line, names_[i]);
          line += ':';
          renderer.appendJson(value, line);
          break;
      }
    }
    switch (format_) {
      case PrintFormat::kTable:
        table_->addRow(std::move(cells));
        return;
      case PrintFormat::kCsv:
        pending_ += line;
        pending_ += '\n';
        break;
      case PrintFormat::kJson:
      case PrintFormat::kNdjson:
        if (names_.empty()) line += '{';
        line += '}';
        if (format_ == PrintFormat::kJson) pending_ += rowCount_ == 0 ? "\n" : ",\n";
        pending_ += line;
        if (format_ == PrintFormat::kNdjson) pending_ += '\n';
        break;
    }
    ++rowCount_;
    if (format_ != PrintFormat::kJson && pending_.size() >= kFlushBytes) flush();
  }

  /// Writes what is left after the last row.
  void end() {
    if (format_ == PrintFormat::kTable) table_->render(pending_);
    if (format_ == PrintFormat::kJson) pending_ += rowCount_ == 0 ? "]\n" : "\n]\n";
    flush();
  }

  /// Writes the complete rows rendered before a failure (a JSON array not at all).
  void abandon() {
    if (format_ == PrintFormat::kJson) return;
    if (format_ == PrintFormat::kTable && table_ != nullptr) table_->render(pending_);
    flush();
  }

 private:
  void flush() {
    if (!pending_.empty() &&
        std::fwrite(pending_.data(), 1, pending_.size(), out_) != pending_.size()) {
      throw IoError("cannot write the output");
    }
    pending_.clear();
  }

  PrintFormat format_;
  std::FILE* out_;
  std::vector<std::string> names_;
  std::unique_ptr<TextTable> table_;
  std::string pending_;
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
    if (begun_ && options_.head >= 0 && printed_ >= options_.head) return;
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
    const ValueRenderer renderer(file->metadata());
    if (!begun_) printer_.begin(*rows);
    begun_ = true;
    while (rows->next()) {
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
    if (begun_) printer_.end();
  }

 private:
  const PrintOptions& options_;
  RowPrinter& printer_;
  ProgressCounters& progress_;
  bool begun_ = false;
  int64_t printed_ = 0;
  uint64_t bytesBefore_ = 0;  // read from the files done
  std::string firstFile_;
  std::string firstSignature_;
};

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
  CLI::App* convert = app.add_subcommand(
      "convert", "Convert a file's rows to CSV (as DuckDB's COPY TO writes it) or NDJSON");
  addRowOptions(*convert, options);
  convert
      ->add_option_function<std::string>(
          "--to",
          [&options](const std::string& name) {
            options.format =
                CLI::detail::to_lower(name) == "csv" ? PrintFormat::kCsv : PrintFormat::kNdjson;
          },
          "csv or ndjson")
      ->required()
      ->check(CLI::IsMember({"csv", "ndjson"}, CLI::ignore_case));
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
  if (options.output.empty() || options.output == "-") return runPrint(options, stdout);
  std::FILE* out = std::fopen(options.output.c_str(), "wb");
  if (out == nullptr) {
    std::cerr << errorLine(options.output, "cannot open the output for writing") << std::endl;
    return 1;
  }
  int code = runPrint(options, out);
  if (std::fclose(out) != 0 && code == 0) {
    std::cerr << errorLine(options.output, "cannot write the output") << std::endl;
    code = 1;
  }
  return code;
}

int runPrint(const PrintOptions& options, std::FILE* out) {
  RowPrinter printer(options.format, out);
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
