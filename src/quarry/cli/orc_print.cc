#include "quarry/cli/orc_print.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/cli/column_names.h"
#include "quarry/cli/csv_text.h"
#include "quarry/cli/filter_expression.h"
#include "quarry/cli/schema_agreement.h"
#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_file_reader.h"

namespace quarry::cli {
namespace {

using orc::ColumnVector;
using orc::TypeKind;

/// Renders one top-level field for csv/table: strings bare, the rest as JSON.
std::string fieldText(const ColumnVector& column, uint64_t slot) {
  if (column.isNull(slot)) return "NULL";
  const TypeKind kind = column.type->kind;
  if (kind == TypeKind::kString || kind == TypeKind::kVarchar || kind == TypeKind::kChar) {
    const uint64_t i = column.valueIndex(slot);
    return column.bytes.substr(column.offsets[i], column.offsets[i + 1] - column.offsets[i]);
  }
  std::string out;
  orc::appendJson(column, slot, out);
  if (out.size() >= 2 && out.front() == '"' && kind != TypeKind::kStruct) {
    out = out.substr(1, out.size() - 2);  // dates and timestamps
  }
  return out;
}

bool isNumeric(TypeKind kind) {
  switch (kind) {
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
      return true;
    default:
      return false;
  }
}

}  // namespace

OrcPrinter::OrcPrinter(const PrintOptions& options, std::FILE* out, ProgressCounters& progress)
    : options_(options), out_(out), progress_(progress) {}

OrcPrinter::~OrcPrinter() = default;

void OrcPrinter::add(std::unique_ptr<io::StorageObject> object) {
  auto reader = std::make_unique<orc::OrcFileReader>(std::move(object));
  const std::string schema = reader->schema().root().toTypeString();
  if (firstFile_.empty()) {
    firstFile_ = reader->file().uri();
    firstSchema_ = schema;
    // One file: its rows are the whole (several: runPrint counted them all first).
    if (progress_.total == 0)
      progress_.total = expectedRows(options_, static_cast<int64_t>(reader->rowCount()));
  } else if (schema != firstSchema_) {
    throw InvalidArgument(schemaClash(firstFile_, schema));  // changed since runPrint checked it
  }
  // The rows the table's footer tells, while the footers tell them (not with --filter).
  if (!options_.filter.empty()) {
    total_.reset();
  } else if (total_) {
    const uint64_t fileRows = reader->rowCount();
    *total_ += options_.tail >= 0 ? std::min(fileRows, static_cast<uint64_t>(options_.tail)) : fileRows;
  }
  if (begun_ && ((options_.head >= 0 && printed_ >= options_.head) || more_)) return;
  orc::OrcScanOptions scan;
  if (!options_.filter.empty()) {
    if (options_.tail >= 0) throw InvalidArgument("--tail cannot be combined with --filter");
    scan.filter = parseOrcFilterExpression(options_.filter, reader->schema());
  }
  if (!options_.columns.empty()) {
    requireColumns(options_.columns, reader->schema(), reader->file().uri());
  }
  const auto projection =
      options_.columns.empty() ? reader->projectAll() : reader->project(options_.columns);
  orc::OrcRowReader rows(*reader, projection, std::move(scan));
  const orc::OrcType& root = reader->schema().root();
  const bool flat = root.kind == TypeKind::kStruct;
  std::vector<size_t> fields;
  for (size_t c = 0; c < root.children.size(); ++c) {
    if (projection[root.children[c]->columnId]) fields.push_back(c);
  }
  std::string line;
  if (!begun_) {
    begun_ = true;
    if (options_.format == PrintFormat::kCsv) {
      for (size_t k = 0; k < fields.size(); ++k) {
        if (k > 0) line += ',';
        appendCsvField(root.children[fields[k]]->name, line);
      }
      line += '\n';
      std::fputs(line.c_str(), out_);
    }
    if (options_.format == PrintFormat::kTable) {
      std::vector<TableWriter::Column> headers;
      for (size_t f : fields) headers.push_back({root.children[f]->name, isNumeric(root.children[f]->kind)});
      if (!flat) headers = {{"value", isNumeric(root.kind)}};
      table_ = makeTableWriter(std::move(headers), options_, out_);
    }
    if (options_.format == PrintFormat::kJson) std::fputs("[\n", out_);
  }
  // --tail: the rows before the last N are stepped over (ORC has no tail limit).
  const uint64_t total = reader->rowCount();
  uint64_t before = options_.tail >= 0 && static_cast<uint64_t>(options_.tail) < total
                        ? total - static_cast<uint64_t>(options_.tail)
                        : 0;
  for (; before > 0 && rows.next(); --before) {
  }
  while ((options_.head < 0 || printed_ < options_.head) && rows.next()) {
    if (table_ != nullptr && !table_->wantsRows()) {  // a full table: the rest is counted, not read
      more_ = true;
      break;
    }
    line.clear();
    switch (options_.format) {
      case PrintFormat::kNdjson:
      case PrintFormat::kJson:
        if (options_.format == PrintFormat::kJson && printed_ > 0) std::fputs(",\n", out_);
        rows.appendRowJson(line);
        if (options_.format == PrintFormat::kNdjson) line += '\n';
        std::fputs(line.c_str(), out_);
        break;
      case PrintFormat::kCsv:
      case PrintFormat::kTable: {
        std::vector<std::string> cells;
        if (!flat) {
          cells.push_back(fieldText(rows.root(), rows.slot()));
        } else if (!rows.root().isNull(rows.slot())) {
          const uint64_t i = rows.root().valueIndex(rows.slot());
          for (size_t f : fields) cells.push_back(fieldText(*rows.root().children[f], i));
        } else {
          cells.assign(fields.size(), "NULL");
        }
        if (options_.format == PrintFormat::kTable) {
          table_->addRow(std::move(cells));
          break;
        }
        for (size_t k = 0; k < cells.size(); ++k) {
          if (k > 0) line += ',';
          appendCsvField(cells[k], line);
        }
        line += '\n';
        std::fputs(line.c_str(), out_);
        break;
      }
    }
    ++printed_;
    progress_.done = static_cast<uint64_t>(printed_);
    if (printed_ % 1024 == 0) progress_.bytesRead = bytesBefore_ + reader->file().bytesRead();
  }
  reader->file().checkUnchanged();  // the rows came from the file as opened
  bytesBefore_ += reader->file().bytesRead();
  progress_.bytesRead = bytesBefore_;
}

void OrcPrinter::end() {
  if (!begun_) return;
  if (options_.format == PrintFormat::kJson) std::fputs(printed_ > 0 ? "\n]\n" : "]\n", out_);
  if (table_ != nullptr) {
    std::optional<uint64_t> total = total_;
    if (total && options_.head >= 0) total = std::min(*total, static_cast<uint64_t>(options_.head));
    if (!more_) total = static_cast<uint64_t>(printed_);
    table_->finish(total, more_);
  }
}

}  // namespace quarry::cli
