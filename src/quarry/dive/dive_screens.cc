#include "quarry/dive/dive_screens.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "quarry/cli/column_chunk_view.h"
#include "quarry/cli/file_summary_view.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/page_view.h"
#include "quarry/cli/row_group_view.h"
#include "quarry/cli/statistic_value.h"
#include "quarry/cli/statistics_view.h"
#include "quarry/cli/text_table.h"
#include "quarry/cli/value_renderer.h"
#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"

namespace quarry::cli {

using parquet::ColumnChunk;
using parquet::PhysicalType;

void DiveScreen::add(std::string line, std::optional<DiveTarget> target) {
  lines.push_back(std::move(line));
  targets.push_back(target);
}

void DiveScreen::addText(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    add(text.substr(start, end - start));
    start = end + 1;
  }
}

namespace {

/// A dictionary page larger than this is not decoded for display.
constexpr int64_t kMaxDictionaryBytes = 256 << 20;

/// Sets the targets of the last `count` lines (a table's rows) to `target(i)`.
template <typename Target>
void targetLastLines(DiveScreen& screen, size_t count, Target target) {
  const size_t first = screen.lines.size() >= count ? screen.lines.size() - count : 0;
  for (size_t i = first; i < screen.lines.size(); ++i) screen.targets[i] = target(i - first);
}

const ColumnChunk& chunkAt(const InspectedFile& file, const DiveTarget& where) {
  const auto& groups = file.metadata().row_groups;
  if (where.rowGroup >= groups.size() || where.column >= groups[where.rowGroup].columns.size()) {
    throw InvalidArgument("no column chunk " + std::to_string(where.column) + " in row group " +
                          std::to_string(where.rowGroup));
  }
  return groups[where.rowGroup].columns[where.column];
}

std::string chunkTitle(const InspectedFile& file, const DiveTarget& where) {
  return "row group " + std::to_string(where.rowGroup) + " > column " +
         std::to_string(where.column) + " " +
         printableText(file.columnPath(chunkAt(file, where), where.column), 60);
}

std::string chunkMenuLine(char key, std::string_view name, bool present) {
  return "  [" + std::string(1, key) + "] " + std::string(name) + (present ? "" : "  (absent)");
}

void buildOverview(const InspectedFile& file, DiveScreen& screen) {
  screen.title = "overview";
  const auto& metadata = file.metadata();
  std::string text;
  constexpr size_t kWidth = 16;
  appendField(text, "", "file", printableText(file.uri()), kWidth);
  appendField(text, "", "file size", std::to_string(file.fileSize()) + " bytes", kWidth);
  appendField(text, "", "format version", std::to_string(metadata.version), kWidth);
  appendField(text, "", "created by",
              metadata.created_by ? printableText(*metadata.created_by, 100) : "(absent)", kWidth);
  appendField(text, "", "rows", std::to_string(metadata.num_rows), kWidth);
  appendField(text, "", "row groups", std::to_string(metadata.row_groups.size()), kWidth);
  appendField(text, "", "columns", std::to_string(file.schema().leafCount()), kWidth);
  appendField(text, "", "key/value pairs", std::to_string(metadata.key_value_metadata.size()),
              kWidth);
  screen.addText(text);
  screen.add("");
  screen.add("> Schema", DiveTarget{DiveView::kSchema});
  screen.add("> Row groups (" + std::to_string(metadata.row_groups.size()) + ")",
             DiveTarget{DiveView::kRowGroups});
  screen.add("> Columns across row groups (" + std::to_string(file.schema().leafCount()) + ")",
             DiveTarget{DiveView::kColumns});
  screen.add("> Data preview (first " + std::to_string(kDivePreviewRows) + " rows)",
             DiveTarget{DiveView::kDataPreview});
}

void buildRowGroups(const InspectedFile& file, DiveScreen& screen) {
  screen.title = "row groups";
  std::string text;
  appendRowGroupsText(file, text);
  screen.addText(text);
  targetLastLines(screen, file.metadata().row_groups.size(), [](size_t i) {
    return DiveTarget{DiveView::kColumnChunks, i};
  });
}

void buildColumnChunks(const InspectedFile& file, DiveScreen& screen) {
  const size_t rg = screen.where.rowGroup;
  const auto& group = file.metadata().row_groups.at(rg);
  screen.title = "row group " + std::to_string(rg) + " > column chunks by size";
  std::vector<size_t> order(group.columns.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto size = [&](size_t c) {
    const auto& meta = group.columns[c].meta_data;
    return meta ? meta->total_compressed_size : int64_t{0};
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return size(a) > size(b); });
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight},
                   {"column"},
                   {"codec"},
                   {"compressed", Align::kRight},
                   {"uncompressed", Align::kRight},
                   {"values", Align::kRight},
                   {"statistics"}});
  for (size_t c : order) {
    const ColumnChunk& chunk = group.columns[c];
    const auto& meta = chunk.meta_data;
    table.addRow({std::to_string(c), printableText(file.columnPath(chunk, c), 40),
                  meta ? parquet::toString(meta->codec) : "-",
                  meta ? std::to_string(meta->total_compressed_size) : "-",
                  meta ? std::to_string(meta->total_uncompressed_size) : "-",
                  meta ? std::to_string(meta->num_values) : "-",
                  meta && meta->statistics
                      ? summarizeStatistics(*meta->statistics, file.valueType(chunk, c))
                      : ""});
  }
  std::string text;
  table.render(text);
  screen.add(std::to_string(group.num_rows) + " rows, " + std::to_string(group.columns.size()) +
             " column chunks, largest first");
  screen.add("");
  screen.addText(text);
  targetLastLines(screen, order.size(), [&](size_t i) {
    return DiveTarget{DiveView::kChunkDetail, rg, order[i]};
  });
}

void buildChunkDetail(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  const ColumnChunk& chunk = chunkAt(file, where);
  screen.title = chunkTitle(file, where);
  std::string text;
  appendColumnChunkText(file, chunk, where.column, text);
  screen.addText(text);
  screen.add("");
  const bool hasDictionary =
      chunk.meta_data && (chunk.meta_data->dictionary_page_offset.has_value() ||
                          std::any_of(chunk.meta_data->encodings.begin(),
                                      chunk.meta_data->encodings.end(), [](parquet::Encoding e) {
                                        return e == parquet::Encoding::PLAIN_DICTIONARY ||
                                               e == parquet::Encoding::RLE_DICTIONARY;
                                      }));
  DiveTarget target = where;
  target.view = DiveView::kPages;
  screen.add(chunkMenuLine('p', "Pages", true), target);
  target.view = DiveView::kColumnIndex;
  screen.add(chunkMenuLine('i', "Column index", chunk.column_index_offset.has_value()), target);
  target.view = DiveView::kOffsetIndex;
  screen.add(chunkMenuLine('o', "Offset index", chunk.offset_index_offset.has_value()), target);
  target.view = DiveView::kDictionary;
  screen.add(chunkMenuLine('d', "Dictionary", hasDictionary), target);
}

void buildPages(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  screen.title = chunkTitle(file, where) + " > pages";
  const ChunkPages chunk = readChunkPages(file, where.rowGroup, where.column);
  if (!chunk.skipped.empty()) {
    screen.add("pages not walked: " + chunk.skipped);
    return;
  }
  screen.add(std::to_string(chunk.pages.size()) + " pages in bytes " +
             std::to_string(chunk.range.start) + ".." +
             std::to_string(chunk.range.start + chunk.range.length) +
             "; Enter shows a page's full header");
  screen.add("");
  std::string text;
  appendPageTable(chunk, text);
  screen.addText(text);
  targetLastLines(screen, chunk.pages.size(), [&](size_t i) {
    DiveTarget target = where;
    target.view = DiveView::kPageHeader;
    target.page = i;
    return target;
  });
}

void buildPageHeader(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  const ChunkPages chunk = readChunkPages(file, where.rowGroup, where.column);
  screen.title = chunkTitle(file, where) + " > page " + std::to_string(where.page);
  if (where.page >= chunk.pages.size()) {
    screen.add("the chunk has no page " + std::to_string(where.page));
    return;
  }
  std::string text;
  JsonWriter json(text);
  writePageHeaderJson(chunk.pages[where.page], chunk.valueType, json);
  screen.addText(text);
}

std::string countAt(const std::optional<std::vector<int64_t>>& counts, size_t i) {
  return counts && i < counts->size() ? std::to_string((*counts)[i]) : "";
}

/// Returns entries [i * width, (i + 1) * width) of a flattened per-page histogram.
std::string histogramSlice(const std::vector<int64_t>& values, size_t pages, size_t i) {
  if (values.empty() || pages == 0 || values.size() % pages != 0) return "";
  const size_t width = values.size() / pages;
  std::string out = "[";
  for (size_t k = 0; k < width && k < 8; ++k) {
    out += (k ? ", " : "") + std::to_string(values[i * width + k]);
  }
  return out + (width > 8 ? ", ...]" : "]");
}

void buildColumnIndex(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  const ColumnChunk& chunk = chunkAt(file, where);
  screen.title = chunkTitle(file, where) + " > column index";
  if (!chunk.column_index_offset.has_value() && !chunk.column_index_length.has_value()) {
    screen.add("this column chunk has no column index");
    return;
  }
  const ChunkLocation location{where.rowGroup, where.column, file.columnPath(chunk, where.column)};
  const parquet::ColumnIndex index = readColumnIndex(file.object(), chunk, location);
  const ValueType type = file.valueType(chunk, where.column);
  screen.add("boundary order " + parquet::toString(index.boundary_order) + ", " +
             std::to_string(index.null_pages.size()) + " pages; bounds as the file carries them");
  screen.add("");
  using Align = TextTable::Align;
  TextTable table({{"page", Align::kRight},
                   {"null page"},
                   {"min"},
                   {"max"},
                   {"nulls", Align::kRight},
                   {"nans", Align::kRight},
                   {"rep levels"},
                   {"def levels"}});
  const size_t pages =
      std::max({index.null_pages.size(), index.min_values.size(), index.max_values.size()});
  for (size_t i = 0; i < pages; ++i) {
    const bool nullPage = i < index.null_pages.size() && index.null_pages[i];
    const auto bound = [&](const std::vector<std::string>& values) {
      if (i >= values.size() || (nullPage && values[i].empty())) return std::string();
      return boundText(values[i], type, 40);
    };
    table.addRow({std::to_string(i), i < index.null_pages.size() ? (nullPage ? "yes" : "no") : "",
                  bound(index.min_values), bound(index.max_values), countAt(index.null_counts, i),
                  countAt(index.nan_counts, i),
                  histogramSlice(index.repetition_level_histograms, pages, i),
                  histogramSlice(index.definition_level_histograms, pages, i)});
  }
  std::string text;
  table.render(text);
  screen.addText(text);
}

void buildOffsetIndex(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  const ColumnChunk& chunk = chunkAt(file, where);
  screen.title = chunkTitle(file, where) + " > offset index";
  if (!chunk.offset_index_offset.has_value() && !chunk.offset_index_length.has_value()) {
    screen.add("this column chunk has no offset index");
    return;
  }
  const ChunkLocation location{where.rowGroup, where.column, file.columnPath(chunk, where.column)};
  const parquet::OffsetIndex index = readOffsetIndex(file.object(), chunk, location);
  screen.add(std::to_string(index.page_locations.size()) + " page locations");
  screen.add("");
  using Align = TextTable::Align;
  TextTable table({{"page", Align::kRight},
                   {"offset", Align::kRight},
                   {"compressed", Align::kRight},
                   {"first row", Align::kRight},
                   {"unencoded bytes", Align::kRight}});
  for (size_t i = 0; i < index.page_locations.size(); ++i) {
    const auto& location = index.page_locations[i];
    const auto& unencoded = index.unencoded_byte_array_data_bytes;
    table.addRow({std::to_string(i), std::to_string(location.offset),
                  std::to_string(location.compressed_page_size),
                  std::to_string(location.first_row_index),
                  i < unencoded.size() ? std::to_string(unencoded[i]) : ""});
  }
  std::string text;
  table.render(text);
  screen.addText(text);
}

/// Splits a PLAIN-encoded dictionary page into its values' bytes.
std::vector<std::string_view> plainValues(std::string_view page, const ValueType& type,
                                          int32_t count, const std::string& where) {
  std::vector<std::string_view> values;
  size_t width = 0;
  switch (type.physical) {
    case PhysicalType::INT32:
    case PhysicalType::FLOAT:
      width = 4;
      break;
    case PhysicalType::INT64:
    case PhysicalType::DOUBLE:
      width = 8;
      break;
    case PhysicalType::INT96:
      width = 12;
      break;
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
      width = static_cast<size_t>(std::max(type.typeLength, 0));
      break;
    case PhysicalType::BYTE_ARRAY:
      break;
    case PhysicalType::BOOLEAN:
      throw CorruptFile(where + ": a BOOLEAN column has no dictionary");
  }
  size_t at = 0;
  for (int32_t i = 0; i < count; ++i) {
    size_t length = width;
    if (type.physical == PhysicalType::BYTE_ARRAY) {
      if (page.size() - at < 4) break;
      uint32_t prefix = 0;
      std::memcpy(&prefix, page.data() + at, 4);  // little-endian hosts only, as the reader
      at += 4;
      length = prefix;
    }
    if (page.size() - at < length || (width == 0 && type.physical != PhysicalType::BYTE_ARRAY)) {
      throw CorruptFile(where + ": dictionary value " + std::to_string(i) +
                        " runs past the page's " + std::to_string(page.size()) + " bytes");
    }
    values.push_back(page.substr(at, length));
    at += length;
  }
  if (values.size() != static_cast<size_t>(std::max(count, 0))) {
    throw CorruptFile(where + ": the dictionary page holds " + std::to_string(values.size()) +
                      " values, its header says " + std::to_string(count));
  }
  return values;
}

void buildDictionary(const InspectedFile& file, DiveScreen& screen) {
  const DiveTarget& where = screen.where;
  screen.title = chunkTitle(file, where) + " > dictionary";
  const ChunkPages chunk = readChunkPages(file, where.rowGroup, where.column);
  const auto page = std::find_if(chunk.pages.begin(), chunk.pages.end(), [](const PageEntry& p) {
    return p.header.dictionary_page_header.has_value();
  });
  if (page == chunk.pages.end()) {
    screen.add("this column chunk has no dictionary page");
    return;
  }
  const std::string location = chunk.where.describe(file.object()) +
                               ", dictionary page at offset " + std::to_string(page->offset);
  const auto& header = page->header;
  if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0 ||
      header.uncompressed_page_size > kMaxDictionaryBytes) {
    throw CorruptFile(location + ": page sizes " + std::to_string(header.compressed_page_size) +
                      " / " + std::to_string(header.uncompressed_page_size) + " are not plausible");
  }
  const uint64_t bodyOffset = page->offset + page->headerSize;
  const auto compressedSize = static_cast<uint64_t>(header.compressed_page_size);
  if (bodyOffset > file.fileSize() || compressedSize > file.fileSize() - bodyOffset) {
    throw CorruptFile(location + ": the page's " + std::to_string(compressedSize) +
                      " bytes run past the end of the file");
  }
  std::vector<uint8_t> compressed(compressedSize);
  file.object().readAt(bodyOffset, compressed);
  std::string body(static_cast<size_t>(header.uncompressed_page_size), '\0');
  parquet::decompress(chunk.chunk->meta_data->codec, compressed,
                      std::span(reinterpret_cast<uint8_t*>(body.data()), body.size()));
  const int32_t count = header.dictionary_page_header->num_values;
  const auto values = plainValues(body, chunk.valueType, count, location);
  screen.add(std::to_string(values.size()) + " entries (" +
             parquet::toString(header.dictionary_page_header->encoding) + ", " +
             std::to_string(header.uncompressed_page_size) + " bytes); / searches");
  screen.add("");
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight}, {"value"}});
  for (size_t i = 0; i < values.size(); ++i) {
    table.addRow({std::to_string(i), formatForText(renderValue(values[i], chunk.valueType), 100)});
  }
  std::string text;
  table.render(text);
  screen.addText(text);
}

void buildColumns(const InspectedFile& file, DiveScreen& screen) {
  screen.title = "columns";
  using Align = TextTable::Align;
  TextTable table({{"#", Align::kRight}, {"path"}, {"physical"}, {"logical"}, {"repetition"}});
  for (const auto* leaf : file.schema().leaves()) {
    table.addRow({std::to_string(leaf->leafIndex), printableText(leaf->path, 60),
                  parquet::toString(*leaf->physicalType),
                  leaf->logicalType.kind == parquet::LogicalType::Kind::NONE
                      ? ""
                      : parquet::toString(leaf->logicalType),
                  parquet::toString(leaf->repetition)});
  }
  std::string text;
  table.render(text);
  screen.add("Enter shows a column across every row group");
  screen.add("");
  screen.addText(text);
  targetLastLines(screen, file.schema().leafCount(), [&](size_t i) {
    return DiveTarget{DiveView::kColumnAcrossRowGroups, 0,
                      static_cast<size_t>(file.schema().leaves()[i]->leafIndex)};
  });
}

void buildColumnAcrossRowGroups(const InspectedFile& file, DiveScreen& screen) {
  const size_t c = screen.where.column;
  const auto* leaf = file.leaf(c);
  screen.title = "column " + std::to_string(c) + " " +
                 (leaf ? printableText(leaf->path, 60) : std::string()) + " across row groups";
  using Align = TextTable::Align;
  TextTable table({{"row group", Align::kRight},
                   {"codec"},
                   {"compressed", Align::kRight},
                   {"uncompressed", Align::kRight},
                   {"values", Align::kRight},
                   {"statistics"}});
  const auto& groups = file.metadata().row_groups;
  std::vector<size_t> shown;
  for (size_t rg = 0; rg < groups.size(); ++rg) {
    if (c >= groups[rg].columns.size()) continue;
    const ColumnChunk& chunk = groups[rg].columns[c];
    const auto& meta = chunk.meta_data;
    table.addRow({std::to_string(rg), meta ? parquet::toString(meta->codec) : "-",
                  meta ? std::to_string(meta->total_compressed_size) : "-",
                  meta ? std::to_string(meta->total_uncompressed_size) : "-",
                  meta ? std::to_string(meta->num_values) : "-",
                  meta && meta->statistics
                      ? summarizeStatistics(*meta->statistics, file.valueType(chunk, c))
                      : ""});
    shown.push_back(rg);
  }
  std::string text;
  table.render(text);
  screen.addText(text);
  targetLastLines(screen, shown.size(), [&](size_t i) {
    return DiveTarget{DiveView::kChunkDetail, shown[i], c};
  });
}

/// Renders a top-level leaf as its physical type stores it; other values as DuckDB does.
std::string physicalText(const parquet::FieldValue& value, const ValueRenderer& renderer) {
  const parquet::SchemaNode& node = value.node();
  if (!node.isLeaf() || value.isNull()) {
    std::string text;
    renderer.appendText(value, text);
    return text;
  }
  switch (*node.physicalType) {
    case PhysicalType::BOOLEAN:
      return value.getBoolean() ? "true" : "false";
    case PhysicalType::INT32:
      return std::to_string(value.getInt());
    case PhysicalType::INT64:
      return std::to_string(value.getLong());
    case PhysicalType::FLOAT:
      return std::to_string(value.getFloat());
    case PhysicalType::DOUBLE:
      return std::to_string(value.getDouble());
    case PhysicalType::BYTE_ARRAY:
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
    case PhysicalType::INT96:
      return "0x" + toHex(value.rawBytes());
  }
  return "";
}

void buildDataPreview(const InspectedFile& file, bool physical, DiveScreen& screen) {
  screen.title =
      std::string("data preview (") + (physical ? "physical" : "logical") + " values; t toggles)";
  auto reader = parquet::ParquetFileReader::open(file.uri());
  auto rows = reader->buildRowReader().head(kDivePreviewRows).build();
  const ValueRenderer renderer(reader->metadata());
  std::vector<TextTable::Column> columns{{"row", TextTable::Align::kRight}};
  const auto& fields = rows->projection().root().children;
  for (const auto& field : fields) columns.push_back({printableText(field->node->name, 30)});
  TextTable table(std::move(columns));
  while (rows->next()) {
    std::vector<std::string> cells{std::to_string(rows->rowIndex())};
    for (size_t i = 0; i < fields.size(); ++i) {
      const parquet::FieldValue value = rows->field(i);
      std::string text;
      if (physical) {
        text = physicalText(value, renderer);
      } else {
        renderer.appendText(value, text);
      }
      cells.push_back(printableText(text, 40));
    }
    table.addRow(std::move(cells));
  }
  std::string text;
  table.render(text);
  screen.addText(text);
}

}  // namespace

void buildDiveHelp(DiveScreen& screen) {
  screen.title = "help";
  screen.addText(
      "Keys\n"
      "  Up/Down, j/k        move the cursor\n"
      "  PgUp/PgDn, g/G      page up / down, first / last line\n"
      "  Enter, Right, l     open the line under the cursor (lines marked > or a table row)\n"
      "  Left, h, Esc, Bksp  back to the previous screen\n"
      "  p i o d             in a column chunk: its pages, column index, offset index, dictionary\n"
      "  t                   data preview: toggle logical / physical values\n"
      "  /TEXT Enter, n      search this screen for TEXT (case-insensitive), next match\n"
      "  ?                   this help\n"
      "  q                   quit\n"
      "\n"
      "Statistics and page index bounds are shown as the file carries them: reversed\n"
      "min/max pairs and NaN bounds, which pruning ignores, are not hidden.\n");
}

void buildDiveScreen(const InspectedFile& file, bool physicalValues, DiveScreen& screen) {
  screen.lines.clear();
  screen.targets.clear();
  switch (screen.where.view) {
    case DiveView::kOverview:
      buildOverview(file, screen);
      break;
    case DiveView::kSchema: {
      screen.title = "schema";
      std::string text;
      appendSchemaText(file, /*withLevels=*/true, text);
      screen.addText(text);
      break;
    }
    case DiveView::kRowGroups:
      buildRowGroups(file, screen);
      break;
    case DiveView::kColumnChunks:
      buildColumnChunks(file, screen);
      break;
    case DiveView::kChunkDetail:
      buildChunkDetail(file, screen);
      break;
    case DiveView::kPages:
      buildPages(file, screen);
      break;
    case DiveView::kPageHeader:
      buildPageHeader(file, screen);
      break;
    case DiveView::kColumnIndex:
      buildColumnIndex(file, screen);
      break;
    case DiveView::kOffsetIndex:
      buildOffsetIndex(file, screen);
      break;
    case DiveView::kDictionary:
      buildDictionary(file, screen);
      break;
    case DiveView::kColumns:
      buildColumns(file, screen);
      break;
    case DiveView::kColumnAcrossRowGroups:
      buildColumnAcrossRowGroups(file, screen);
      break;
    case DiveView::kDataPreview:
      buildDataPreview(file, physicalValues, screen);
      break;
    case DiveView::kHelp:
      buildDiveHelp(screen);
      break;
  }
}

}  // namespace quarry::cli
