#include "quarry/cli/arrow_convert.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/cli/arrow_output.h"
#include "quarry/cli/column_names.h"
#include "quarry/cli/error_report.h"
#include "quarry/cli/file_arguments.h"
#include "quarry/cli/filter_expression.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/output_stream.h"
#include "quarry/cli/schema_agreement.h"
#include "quarry/common/error.h"
#include "quarry/engine/source/format_reader_registry.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

/// What one file's scan reads: the reader, the request and the file's rows.
struct FileScan {
  const engine::FormatReader* reader = nullptr;
  engine::SourceMetadata metadata;
  engine::ReadRequest request;
  uint64_t rows = 0;
};

bool within(const std::string& name, const std::string& path) {
  return name == path || name.starts_with(path + ".");
}

/// Fills the request's columns and their types from --columns (all columns
/// without it): a struct's name takes its leaves, in the file's order.
void selectColumns(const PrintOptions& options, FileScan& scan) {
  const engine::SourceMetadata& metadata = scan.metadata;
  std::vector<std::string> wanted = options.columns;
  if (wanted.empty()) {
    for (const engine::Field& field : metadata.schema) wanted.push_back(field.name);
    for (const engine::UnreadColumn& column : metadata.unreadColumns) wanted.push_back(column.name);
  }
  for (const std::string& name : wanted) {
    for (const engine::UnreadColumn& column : metadata.unreadColumns) {
      if (within(column.name, name) || within(name, column.name)) {
        throw Unsupported("column '" + column.name + "' (" + column.what +
                          ") cannot be written as Arrow; leave it out with --columns");
      }
    }
    for (const engine::Field& field : metadata.schema) {
      if (!within(field.name, name)) continue;
      if (std::find(scan.request.columns.begin(), scan.request.columns.end(), field.name) !=
          scan.request.columns.end())
        continue;
      scan.request.columns.push_back(field.name);
      scan.request.outputSchema.push_back(field);
    }
  }
}

/// Opens `file`: its format told from its bytes, its columns and filter checked
/// against its schema (as print checks them) before a row is read.
FileScan openScan(const std::string& file, const PrintOptions& options) {
  FileScan scan;
  const engine::FormatReaderRegistry& formats = engine::FormatReaderRegistry::instance();
  auto object = io::openObject(file);
  if (isOrcObject(*object)) {
    scan.reader = formats.findByName("orc");
    const orc::OrcFileReader reader(std::move(object));
    requireColumns(options.columns, reader.schema(), file);
    if (!options.filter.empty())
      scan.request.filter = parseOrcFilterExpression(options.filter, reader.schema());
    scan.rows = reader.rowCount();
  } else {
    scan.reader = formats.findByName("parquet");
    auto reader = parquet::ParquetFileReader::open(std::move(object));
    requireColumns(options.columns, reader->schema(), file);
    if (!options.filter.empty())
      scan.request.filter = parseFilterExpression(options.filter, reader->schema());
    scan.rows = static_cast<uint64_t>(std::max<int64_t>(0, reader->metadata().num_rows));
  }
  scan.metadata = scan.reader->metadata(file);
  selectColumns(options, scan);
  return scan;
}

}  // namespace

int runArrowConvert(const PrintOptions& options, std::FILE* out) {
  std::string current = options.files.size() == 1 ? options.files.front() : std::string();
  std::unique_ptr<ArrowOutput> output;
  try {
    const std::vector<std::string> files = expandFileArguments(options.files);
    if (files.size() > 1 && options.tail >= 0) {
      throw InvalidArgument("--tail reads one file; " + std::to_string(files.size()) +
                            " files were given");
    }
    if (options.tail >= 0 && !options.filter.empty())
      throw InvalidArgument("--tail cannot be combined with --filter");
    // Several files: every schema is checked before a row is written.
    if (files.size() > 1) requireOneSchema(files, current);
    engine::Schema schema;
    std::string first;
    int64_t written = 0;
    for (const std::string& file : files) {
      current = file;
      FileScan scan = openScan(file, options);
      if (output == nullptr) {
        first = file;
        schema = scan.request.outputSchema;
        output = std::make_unique<ArrowOutput>(
            schema, [out](std::string_view bytes) { writeOutput(out, bytes); });
      } else if (scan.request.outputSchema != schema) {
        throw InvalidArgument(schemaClash(first));
      }
      // --tail: the rows before the file's last N are stepped over; --head counts over all files.
      uint64_t skip = options.tail >= 0 && static_cast<uint64_t>(options.tail) < scan.rows
                          ? scan.rows - static_cast<uint64_t>(options.tail)
                          : 0;
      auto wanted = [&] { return options.head < 0 ? INT64_MAX : options.head - written; };
      if (options.tail < 0 && options.head >= 0) scan.request.limit = wanted();
      for (const engine::FileSplit& split : scan.metadata.splits) {
        if (wanted() <= 0) break;
        engine::LocalSupplier pages = scan.reader->read(split, scan.request);
        while (wanted() > 0) {
          std::optional<engine::Page> page = pages();
          if (!page) break;
          const size_t n = page->positionCount();
          const size_t from = static_cast<size_t>(std::min<uint64_t>(skip, n));
          skip -= from;
          const size_t count = std::min<size_t>(n - from, static_cast<size_t>(wanted()));
          output->add(*page, from, count);
          written += static_cast<int64_t>(count);
        }
      }
    }
    if (output != nullptr) output->finish();
  } catch (const std::bad_alloc&) {
    std::cerr << errorLine(current, "out of memory") << std::endl;
    return 1;
  } catch (const std::exception& e) {
    // An incomplete stream has no end-of-stream marker: a reader sees it cut short.
    std::cerr << errorLine(current, e.what()) << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace quarry::cli
