#include "quarry/cli/orc_inspect.h"

#include <charconv>
#include <cstring>

#include "quarry/cli/json_writer.h"
#include "quarry/cli/text_table.h"
#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/orc/orc_statistics.h"
#include "quarry/io/storage.h"

namespace quarry::cli {
namespace {

using orc::OrcColumnStatistics;
using orc::OrcFileReader;

std::string writerName(const orc::OrcTail& tail) {
  if (!tail.footer.has_writer()) return "unknown";
  switch (tail.footer.writer()) {
    case 0:
      return "ORC Java";
    case 1:
      return "ORC C++";
    case 2:
      return "Presto";
    case 3:
      return "Scritchley Go";
    case 4:
      return "Trino";
    case 5:
      return "CUDF";
  }
  return "writer " + std::to_string(tail.footer.writer());
}

std::string doubleText(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string minText(const OrcColumnStatistics& s) {
  if (s.intMinimum) return std::to_string(*s.intMinimum);
  if (s.doubleMinimum) return doubleText(*s.doubleMinimum);
  if (s.stringMinimum)
    return (s.stringMinimumIsBound ? ">= " : "") + printableText(*s.stringMinimum, 40);
  if (s.decimalMinimum) return *s.decimalMinimum;
  if (s.dateMinimum) return s.dateMinimum->toString();
  if (s.timestampMinimum) return s.timestampMinimum->toString(3);
  return "";
}

std::string maxText(const OrcColumnStatistics& s) {
  if (s.intMaximum) return std::to_string(*s.intMaximum);
  if (s.doubleMaximum) return doubleText(*s.doubleMaximum);
  if (s.stringMaximum)
    return (s.stringMaximumIsBound ? "<= " : "") + printableText(*s.stringMaximum, 40);
  if (s.decimalMaximum) return *s.decimalMaximum;
  if (s.dateMaximum) return s.dateMaximum->toString();
  if (s.timestampMaximum) return s.timestampMaximum->toString(3);
  return "";
}

void appendColumnsText(const OrcFileReader& reader, std::string& out) {
  const auto stats = orc::fileStatistics(reader.tail(), reader.schema());
  TextTable table({{"#", TextTable::Align::kRight},
                   {"path"},
                   {"type"},
                   {"values", TextTable::Align::kRight},
                   {"has null"},
                   {"min"},
                   {"max"}});
  for (uint32_t c = 0; c < reader.schema().columnCount(); ++c) {
    const auto& type = reader.schema().column(c);
    std::vector<std::string> row = {
        std::to_string(c), type.path.empty() ? "(root)" : type.path,
        type.isCompound() ? orc::toString(type.kind) : type.toTypeString()};
    if (c < stats.size()) {
      row.push_back(stats[c].valueCount ? std::to_string(*stats[c].valueCount) : "");
      row.push_back(stats[c].hasNull ? (*stats[c].hasNull ? "yes" : "no") : "");
      row.push_back(minText(stats[c]));
      row.push_back(maxText(stats[c]));
    } else {
      row.insert(row.end(), {"", "", "", ""});
    }
    table.addRow(std::move(row));
  }
  table.render(out);
}

void appendStripesText(const OrcFileReader& reader, std::string& out) {
  TextTable table({{"#", TextTable::Align::kRight},
                   {"offset", TextTable::Align::kRight},
                   {"rows", TextTable::Align::kRight},
                   {"index", TextTable::Align::kRight},
                   {"data", TextTable::Align::kRight},
                   {"footer", TextTable::Align::kRight}});
  int i = 0;
  for (const auto& s : reader.tail().footer.stripes()) {
    table.addRow({std::to_string(i++), std::to_string(s.offset()), std::to_string(s.numberofrows()),
                  std::to_string(s.indexlength()), std::to_string(s.datalength()),
                  std::to_string(s.footerlength())});
  }
  table.render(out);
}

void appendFileText(const OrcFileReader& reader, std::string& out) {
  const auto& tail = reader.tail();
  appendField(out, "", "file", tail.uri);
  appendField(out, "", "file size", std::to_string(tail.fileSize) + " bytes");
  appendField(out, "", "format", "ORC " + tail.versionString());
  appendField(out, "", "writer", writerName(tail));
  appendField(out, "", "compression", orc::toString(tail.compression.kind));
  if (tail.compression.kind != orc::CompressionKind::kNone) {
    appendField(out, "", "compression block",
                std::to_string(tail.compression.blockSize) + " bytes");
  }
  appendField(out, "", "rows", std::to_string(reader.rowCount()));
  appendField(out, "", "stripes", std::to_string(reader.stripeCount()));
  appendField(out, "", "row index stride", std::to_string(tail.footer.rowindexstride()));
  appendField(out, "", "columns", std::to_string(reader.schema().columnCount()));
  appendField(out, "", "schema", reader.schema().root().toTypeString());
  out += "\nColumns\n";
  appendColumnsText(reader, out);
}

void writeStatisticsJson(const OrcColumnStatistics& s, JsonWriter& json) {
  json.key("values").value(s.valueCount);
  json.key("has_null").value(s.hasNull);
  const std::string min = minText(s), max = maxText(s);
  json.key("min");
  if (min.empty())
    json.null();
  else
    json.value(min);
  json.key("max");
  if (max.empty())
    json.null();
  else
    json.value(max);
}

void writeJson(const OrcFileReader& reader, InspectView view, JsonWriter& json) {
  const auto& tail = reader.tail();
  json.beginObject();
  json.key("file").value(tail.uri);
  json.key("format").value("ORC");
  if (view == InspectView::kFile) {
    json.key("file_size").value(tail.fileSize);
    json.key("version").value(tail.versionString());
    json.key("writer").value(writerName(tail));
    json.key("compression").value(orc::toString(tail.compression.kind));
    json.key("compression_block_size").value(tail.compression.blockSize);
    json.key("rows").value(reader.rowCount());
    json.key("stripes").value(static_cast<uint64_t>(reader.stripeCount()));
    json.key("row_index_stride").value(tail.footer.rowindexstride());
    json.key("schema").value(reader.schema().root().toTypeString());
  }
  if (view == InspectView::kRowGroups) {
    json.key("stripes").beginArray();
    for (const auto& s : tail.footer.stripes()) {
      json.beginObject(true);
      json.key("offset").value(s.offset());
      json.key("rows").value(s.numberofrows());
      json.key("index_length").value(s.indexlength());
      json.key("data_length").value(s.datalength());
      json.key("footer_length").value(s.footerlength());
      json.endObject();
    }
    json.endArray();
  }
  if (view == InspectView::kFile || view == InspectView::kColumns) {
    const auto stats = orc::fileStatistics(tail, reader.schema());
    json.key("columns").beginArray();
    for (uint32_t c = 0; c < reader.schema().columnCount(); ++c) {
      const auto& type = reader.schema().column(c);
      json.beginObject(true);
      json.key("id").value(c);
      json.key("path").value(type.path);
      json.key("type").value(type.isCompound() ? orc::toString(type.kind) : type.toTypeString());
      if (c < stats.size()) writeStatisticsJson(stats[c], json);
      json.endObject();
    }
    json.endArray();
  }
  json.endObject();
}

}  // namespace

bool isOrcFile(const std::string& uri) {
  try {
    auto object = io::openObject(uri);
    return isOrcObject(*object);
  } catch (const Error&) {
    return false;
  }
}

bool isOrcObject(io::StorageObject& object) {
  try {
    const uint64_t size = object.size();
    if (size < 4) return false;
    // A Parquet file ends with PAR1; its tail is what opening a remote object
    // fetched already, so the common case costs no further request.
    uint8_t last[4];
    object.readAt(size - 4, last);
    if (std::memcmp(last, "PAR1", 4) == 0) return false;
    uint8_t magic[3];
    object.readAt(0, magic);
    return std::memcmp(magic, "ORC", 3) == 0;
  } catch (const Error&) {
    return false;
  }
}

std::string orcMinText(const orc::OrcColumnStatistics& statistics) {
  return minText(statistics);
}
std::string orcMaxText(const orc::OrcColumnStatistics& statistics) {
  return maxText(statistics);
}
void appendOrcFileText(const orc::OrcFileReader& reader, std::string& out) {
  appendFileText(reader, out);
}
void appendOrcStripesText(const orc::OrcFileReader& reader, std::string& out) {
  appendStripesText(reader, out);
}

void runOrcInspect(const InspectOptions& options, std::unique_ptr<io::StorageObject> object,
                   std::string& out) {
  if (options.view == InspectView::kPages) {
    throw Unsupported(options.file +
                      ": ORC files have no pages; use the file, rowgroups "
                      "(stripes) or columns view");
  }
  OrcFileReader reader(std::move(object));
  if (options.json) {
    JsonWriter json(out);
    writeJson(reader, options.view, json);
    return;
  }
  switch (options.view) {
    case InspectView::kFile:
      appendFileText(reader, out);
      break;
    case InspectView::kRowGroups:
      appendStripesText(reader, out);
      break;
    case InspectView::kColumns:
      appendColumnsText(reader, out);
      break;
    case InspectView::kPages:
      break;
  }
}

}  // namespace quarry::cli
