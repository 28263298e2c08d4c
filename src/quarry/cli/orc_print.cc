#include "quarry/cli/orc_print.h"

#include <iostream>
#include <string>
#include <vector>

#include "quarry/cli/error_report.h"
#include "quarry/cli/text_table.h"
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

void appendCsv(const std::string& text, std::string& out) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void print(const PrintOptions& options, std::FILE* out) {
  auto reader = orc::OrcFileReader::open(options.file);
  if (!options.filter.empty()) {
    throw Unsupported("--filter reads Parquet files only; ORC files are not filtered yet");
  }
  const auto projection =
      options.columns.empty() ? reader->projectAll() : reader->project(options.columns);
  orc::OrcRowReader rows(*reader, projection);
  const orc::OrcType& root = reader->schema().root();
  const bool flat = root.kind == TypeKind::kStruct;
  std::vector<size_t> fields;
  for (size_t c = 0; c < root.children.size(); ++c) {
    if (projection[root.children[c]->columnId]) fields.push_back(c);
  }
  std::string line;
  if (options.format == PrintFormat::kCsv) {
    for (size_t k = 0; k < fields.size(); ++k) {
      if (k > 0) line += ',';
      appendCsv(root.children[fields[k]]->name, line);
    }
    line += '\n';
    std::fputs(line.c_str(), out);
  }
  std::vector<TextTable::Column> headers;
  for (size_t f : fields) headers.push_back({root.children[f]->name});
  if (!flat) headers = {{"value"}};
  TextTable table(headers);
  if (options.format == PrintFormat::kJson) std::fputs("[\n", out);
  int64_t printed = 0;
  // --tail: the rows before the last N are stepped over (ORC has no tail limit).
  const uint64_t total = reader->rowCount();
  uint64_t before = options.tail >= 0 && static_cast<uint64_t>(options.tail) < total
                        ? total - static_cast<uint64_t>(options.tail)
                        : 0;
  for (; before > 0 && rows.next(); --before) {
  }
  while ((options.head < 0 || printed < options.head) && rows.next()) {
    line.clear();
    switch (options.format) {
      case PrintFormat::kNdjson:
      case PrintFormat::kJson:
        if (options.format == PrintFormat::kJson && printed > 0) std::fputs(",\n", out);
        rows.appendRowJson(line);
        if (options.format == PrintFormat::kNdjson) line += '\n';
        std::fputs(line.c_str(), out);
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
        if (options.format == PrintFormat::kTable) {
          for (auto& cell : cells) cell = printableText(cell, 60);
          table.addRow(std::move(cells));
          break;
        }
        for (size_t k = 0; k < cells.size(); ++k) {
          if (k > 0) line += ',';
          appendCsv(cells[k], line);
        }
        line += '\n';
        std::fputs(line.c_str(), out);
        break;
      }
    }
    ++printed;
  }
  if (options.format == PrintFormat::kJson) std::fputs(printed > 0 ? "\n]\n" : "]\n", out);
  if (options.format == PrintFormat::kTable) {
    std::string text;
    table.render(text);
    std::fputs(text.c_str(), out);
  }
}

}  // namespace

int runOrcPrint(const PrintOptions& options, std::FILE* out) {
  try {
    print(options, out);
  } catch (const std::exception& e) {
    std::fflush(out);
    std::cerr << errorLine(options.file, e.what()) << std::endl;
    return 1;
  }
  if (std::fflush(out) != 0) {
    std::cerr << "quarry: cannot write the output" << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace quarry::cli
