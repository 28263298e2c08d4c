// The `quarry dive` screens of an ORC file, where ORC has the concept:
// overview, schema, stripes -> a stripe's streams -> a column's row index (the
// row-group statistics of its ROW_INDEX stream, as carried).

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/schema_command.h"
#include "quarry/cli/text_table.h"
#include "quarry/common/error.h"
#include "quarry/dive/dive_screens.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/orc/orc_statistics.h"
#include "quarry/formats/orc/stripe_reader.h"

namespace quarry::cli {

namespace {

void buildOrcOverview(orc::OrcFileReader& reader, DiveScreen& screen) {
  screen.title = "overview (ORC)";
  screen.add("> Schema", DiveTarget{DiveView::kSchema});
  screen.add("> Stripes (" + std::to_string(reader.stripeCount()) + ")",
             DiveTarget{DiveView::kRowGroups});
  screen.add("");
  std::string text;
  appendOrcFileText(reader, text);
  screen.addText(text);
}

void buildOrcStripes(orc::OrcFileReader& reader, DiveScreen& screen) {
  screen.title = "stripes";
  std::string text;
  appendOrcStripesText(reader, text);
  screen.addText(text);
  const size_t stripes = reader.stripeCount();
  const size_t first = screen.lines.size() - std::min(stripes, screen.lines.size());
  for (size_t i = first; i < screen.lines.size(); ++i) {
    screen.targets[i] = DiveTarget{DiveView::kColumnChunks, i - first};
  }
}

void buildOrcStreams(orc::OrcFileReader& reader, DiveScreen& screen) {
  const size_t stripe = screen.where.rowGroup;
  screen.title = "stripe " + std::to_string(stripe) + " > streams";
  const orc::StripeFooter footer = reader.readStripeFooter(stripe);
  screen.add(std::to_string(footer.rowCount) + " rows, " + std::to_string(footer.streams.size()) +
             " streams in file order; Enter on a ROW_INDEX stream shows the row index");
  if (!footer.writerTimezone.empty()) screen.add("writer time zone " + footer.writerTimezone);
  screen.add("");
  using Align = TextTable::Align;
  TextTable table({{"column", Align::kRight},
                   {"path"},
                   {"kind"},
                   {"offset", Align::kRight},
                   {"length", Align::kRight},
                   {"encoding"}});
  std::vector<std::optional<DiveTarget>> targets;
  const auto& schema = reader.schema();
  for (const auto& stream : footer.streams) {
    const bool known = stream.column < schema.columnCount();
    const bool hasEncoding = static_cast<int>(stream.column) < footer.message.columns_size();
    std::string encoding;
    if (hasEncoding) {
      encoding = orc::proto::ColumnEncoding::Kind_Name(footer.encoding(stream.column));
      if (footer.dictionarySize(stream.column) > 0) {
        encoding += " (" + std::to_string(footer.dictionarySize(stream.column)) + " entries)";
      }
    }
    table.addRow({std::to_string(stream.column),
                  known ? printableText(schema.column(stream.column).path, 40) : "?",
                  orc::toString(stream.kind), std::to_string(stream.offset),
                  std::to_string(stream.length), encoding});
    std::optional<DiveTarget> target;
    if (stream.kind == orc::proto::Stream::ROW_INDEX && known) {
      target = DiveTarget{DiveView::kColumnIndex, stripe, stream.column};
    }
    targets.push_back(target);
  }
  std::string text;
  table.render(text);
  screen.addText(text);
  const size_t first = screen.lines.size() - targets.size();
  for (size_t i = 0; i < targets.size(); ++i) screen.targets[first + i] = targets[i];
}

void buildOrcRowIndex(orc::OrcFileReader& reader, DiveScreen& screen) {
  const size_t stripe = screen.where.rowGroup;
  const auto column = static_cast<uint32_t>(screen.where.column);
  const orc::OrcType& type = reader.schema().column(column);
  screen.title = "stripe " + std::to_string(stripe) + " > column " + std::to_string(column) + " " +
                 printableText(type.path, 60) + " > row index";
  const orc::StripeFooter footer = reader.readStripeFooter(stripe);
  const std::string context = reader.file().uri() + ": stripe " + std::to_string(stripe) +
                              ", column " + std::to_string(column);
  for (const auto& stream : footer.streams) {
    if (stream.column != column || stream.kind != orc::proto::Stream::ROW_INDEX) continue;
    if (stream.offset > reader.tail().fileSize ||
        stream.length > reader.tail().fileSize - stream.offset) {
      throw CorruptFile(context + ": the ROW_INDEX stream runs past the end of the file");
    }
    std::vector<uint8_t> raw(stream.length);
    reader.file().readAt(stream.offset, raw);
    const std::vector<uint8_t> bytes =
        orc::decompressStream(reader.tail().compression, raw, context + " ROW_INDEX");
    const auto entries = orc::rowIndexStatistics(bytes, type, context);
    screen.add(std::to_string(entries.size()) + " row groups of up to " +
               std::to_string(reader.tail().footer.rowindexstride()) +
               " rows; statistics as carried");
    screen.add("");
    using Align = TextTable::Align;
    TextTable table(
        {{"entry", Align::kRight}, {"values", Align::kRight}, {"has null"}, {"min"}, {"max"}});
    for (size_t i = 0; i < entries.size(); ++i) {
      const auto& s = entries[i];
      table.addRow({std::to_string(i), s.valueCount ? std::to_string(*s.valueCount) : "",
                    s.hasNull ? (*s.hasNull ? "yes" : "no") : "", orcMinText(s), orcMaxText(s)});
    }
    std::string text;
    table.render(text);
    screen.addText(text);
    return;
  }
  screen.add("this stripe has no ROW_INDEX stream for column " + std::to_string(column));
}

}  // namespace

void buildOrcDiveScreen(orc::OrcFileReader& reader, DiveScreen& screen) {
  screen.lines.clear();
  screen.targets.clear();
  switch (screen.where.view) {
    case DiveView::kOverview:
      buildOrcOverview(reader, screen);
      break;
    case DiveView::kSchema: {
      screen.title = "schema (ORC)";
      std::string text;
      appendOrcSchemaText(reader.schema().root(), text);
      screen.addText(text);
      break;
    }
    case DiveView::kRowGroups:
      buildOrcStripes(reader, screen);
      break;
    case DiveView::kColumnChunks:
      buildOrcStreams(reader, screen);
      break;
    case DiveView::kColumnIndex:
      buildOrcRowIndex(reader, screen);
      break;
    default:
      screen.title = "not in ORC";
      screen.add("ORC files have no such screen; Esc goes back");
      break;
  }
}

}  // namespace quarry::cli
