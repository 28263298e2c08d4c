// The screen model of `quarry dive` (dive/dive_model.h), driven with keys and read
// back as lines, without a terminal. tests/dive/dive_tmux_test.cc drives the real
// terminal UI.

#include "quarry/dive/dive_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include "quarry/cli/text_table.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

constexpr int kRows = 50;
constexpr int kColumns = 160;

DiveModel openModel(const std::string& name, int rows = kRows, int columns = kColumns) {
  return DiveModel(
      InspectedFile::open((quarry::testing::parquetTestingDir() / "data" / name).string()), rows,
      columns);
}

std::string cursorLine(const DiveModel& model) {
  return model.bodyLines().at(model.cursor());
}

/// Returns the first body line containing `text`, or "".
std::string lineWith(const DiveModel& model, std::string_view text) {
  for (const auto& line : model.bodyLines()) {
    if (line.find(text) != std::string::npos) return line;
  }
  return "";
}

void type(DiveModel& model, std::string_view keys) {
  for (char c : keys) model.handleKey(c);
}

/// Moves the cursor to the first line containing `text` with / search.
void searchFor(DiveModel& model, std::string_view text) {
  model.handleKey('/');
  type(model, text);
  model.handleKey(kKeyEnter);
}

TEST(DiveModel, OverviewListsTheFileAndOpensItsScreens) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_plain.parquet");
  EXPECT_EQ(model.view(), DiveView::kOverview);
  EXPECT_NE(lineWith(model, "row groups"), "");
  EXPECT_EQ(cursorLine(model), "> Schema");  // the first line that opens something
  model.handleKey(kKeyEnter);
  EXPECT_EQ(model.view(), DiveView::kSchema);
  EXPECT_NE(lineWith(model, "optional int32 id;  -- def 1 rep 0, column 0"), "");
  model.handleKey(kKeyEscape);
  EXPECT_EQ(model.view(), DiveView::kOverview);
  EXPECT_EQ(cursorLine(model), "> Schema");  // the screen keeps its cursor
}

// query-controls.txt: bounds are "reported as the file carries them ... by
// hardwood dive"; nan_in_stats.parquet's chunk carries max NaN, which pruning ignores.
TEST(DiveModel, ChunkDetailShowsNanBoundsAsCarriedAndTheDictionaryHoldsNan) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("nan_in_stats.parquet");
  searchFor(model, "> Row groups");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kRowGroups);
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumnChunks);
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kChunkDetail);
  EXPECT_NE(lineWith(model, "max_value"), "");
  EXPECT_NE(lineWith(model, "max_value").find("NaN"), std::string::npos);
  EXPECT_NE(lineWith(model, "min_value").find("1.0"), std::string::npos);
  EXPECT_NE(lineWith(model, "codec").find("SNAPPY"), std::string::npos);
  model.handleKey('d');
  ASSERT_EQ(model.view(), DiveView::kDictionary);
  EXPECT_NE(lineWith(model, "2 entries"), "");
  searchFor(model, "nan");  // case-insensitive
  EXPECT_NE(cursorLine(model).find("NaN"), std::string::npos) << cursorLine(model);
  model.handleKey(kKeyEscape);
  model.handleKey('p');
  ASSERT_EQ(model.view(), DiveView::kPages);
  EXPECT_NE(lineWith(model, "DICTIONARY_PAGE"), "");
  // The page's full header: Enter on a page row.
  searchFor(model, "DATA_PAGE ");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kPageHeader);
  EXPECT_NE(lineWith(model, "\"data_page_header\""), "");
  EXPECT_NE(lineWith(model, "\"definition_level_encoding\""), "");
}

TEST(DiveModel, ColumnChunksAreRankedBySizeLargestFirst) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_tiny_pages.parquet");
  searchFor(model, "> Row groups");
  model.handleKey(kKeyEnter);
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumnChunks);
  // Rows after the header: "#  column  codec  compressed ..."; read the compressed column.
  const auto& lines = model.bodyLines();
  const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("compressed") != std::string::npos;
  });
  ASSERT_NE(header, lines.end());
  std::vector<long> sizes;
  for (auto it = header + 1; it != lines.end(); ++it) {
    std::istringstream row(*it);
    std::string index, column, codec;
    long compressed = -1;
    row >> index >> column >> codec >> compressed;
    sizes.push_back(compressed);
  }
  ASSERT_EQ(sizes.size(), 13u);
  EXPECT_TRUE(std::is_sorted(sizes.rbegin(), sizes.rend())) << lines.front();
}

TEST(DiveModel, ColumnIndexOffsetIndexAndDictionaryOfAChunk) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_tiny_pages.parquet");
  searchFor(model, "> Row groups");
  model.handleKey(kKeyEnter);
  model.handleKey(kKeyEnter);
  searchFor(model, "tinyint_col");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kChunkDetail);
  EXPECT_NE(lineWith(model, "[i] Column index"), "");
  EXPECT_EQ(lineWith(model, "[i] Column index").find("absent"), std::string::npos);
  model.handleKey('i');
  ASSERT_EQ(model.view(), DiveView::kColumnIndex);
  EXPECT_NE(lineWith(model, "boundary order"), "");
  EXPECT_NE(lineWith(model, "null page"), "");
  model.handleKey(kKeyEscape);
  model.handleKey('o');
  ASSERT_EQ(model.view(), DiveView::kOffsetIndex);
  EXPECT_NE(lineWith(model, "first row"), "");
  model.handleKey(kKeyEscape);
  model.handleKey('d');
  ASSERT_EQ(model.view(), DiveView::kDictionary);
  EXPECT_NE(lineWith(model, "10 entries"), "") << model.bodyLines().front();
}

TEST(DiveModel, OneColumnAcrossAllRowGroupsOpensEachChunk) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("floating_orders_nan_count.parquet");
  searchFor(model, "> Columns across");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumns);
  searchFor(model, "double_ieee754");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumnAcrossRowGroups);
  EXPECT_EQ(std::count_if(
                model.bodyLines().begin(), model.bodyLines().end(),
                [](const std::string& l) { return l.find("UNCOMPRESSED") != std::string::npos; }),
            5);
  model.handleKey(kKeyEnd);
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kChunkDetail);
  EXPECT_NE(lineWith(model, "Column 2: double_ieee754"), "");
}

TEST(DiveModel, DataPreviewTogglesLogicalAndPhysicalValues) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_plain.parquet");
  searchFor(model, "> Data preview");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kDataPreview);
  // timestamp_col is INT96: DuckDB's text logically, the 12 stored bytes physically.
  EXPECT_NE(lineWith(model, "2009-03-01 00:00:00"), "");
  model.handleKey('t');
  EXPECT_TRUE(model.physicalValues());
  EXPECT_EQ(lineWith(model, "2009-03-01 00:00:00"), "");
  EXPECT_NE(lineWith(model, "0x"), "");
  model.handleKey('t');
  EXPECT_NE(lineWith(model, "2009-03-01 00:00:00"), "");
}

TEST(DiveModel, FrameFitsTheTerminalAndFollowsResize) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_tiny_pages.parquet", 10, 40);
  searchFor(model, "> Row groups");
  model.handleKey(kKeyEnter);
  model.handleKey(kKeyEnter);
  model.handleKey(kKeyEnd);
  DiveFrame frame = model.frame();
  ASSERT_EQ(frame.lines.size(), 10u);
  for (const auto& line : frame.lines) EXPECT_LE(printableText(line).size(), 40u * 4) << line;
  EXPECT_EQ(frame.highlight, 8);  // the last body line: the cursor stays visible
  EXPECT_EQ(frame.lines.back().find("Enter open"), 0u);  // the footer, cut to 40 columns
  model.resize(30, 120);
  frame = model.frame();
  EXPECT_EQ(frame.lines.size(), 30u);
  EXPECT_GE(frame.highlight, 1);
  EXPECT_NE(frame.lines[static_cast<size_t>(frame.highlight)], "");
}

// ORC where the concepts exist: stripes, their streams, a column's row index.
TEST(DiveModel, OrcStripesStreamsAndRowIndex) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto path = quarry::testing::testdataDir() / "orc" / "examples" / "TestOrcFile.test1.orc";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "SKIPPED LOUDLY: no " << path;
  DiveModel model(orc::OrcFileReader::open(path.string()), kRows, kColumns);
  EXPECT_EQ(cursorLine(model), "> Schema");
  model.handleKey(kKeyEnter);
  EXPECT_NE(lineWith(model, "boolean1: boolean  -- column 1"), "");
  model.handleKey(kKeyEscape);
  searchFor(model, "> Stripes (1)");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kRowGroups);
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumnChunks);
  EXPECT_NE(lineWith(model, "2 rows"), "");
  EXPECT_NE(lineWith(model, "DICTIONARY_V2"), "");
  searchFor(model, "int1");
  searchFor(model, "ROW_INDEX");
  model.handleKey(kKeyEnter);
  ASSERT_EQ(model.view(), DiveView::kColumnIndex);
  EXPECT_NE(lineWith(model, "1 row groups of up to 10000 rows"), "");
  model.handleKey('p');  // no pages in ORC: a message
  EXPECT_EQ(model.view(), DiveView::kColumnIndex);
  model.handleKey('?');
  EXPECT_EQ(model.view(), DiveView::kHelp);
}

TEST(DiveModel, HelpQuitAndMessages) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  DiveModel model = openModel("alltypes_plain.parquet");
  EXPECT_TRUE(model.handleKey('p'));  // not on a chunk: a message, no screen
  EXPECT_EQ(model.view(), DiveView::kOverview);
  EXPECT_NE(model.frame().lines.back().find("open a column chunk first"), std::string::npos);
  model.handleKey('?');
  EXPECT_EQ(model.view(), DiveView::kHelp);
  EXPECT_NE(lineWith(model, "q                   quit"), "");
  searchFor(model, "no such text");
  EXPECT_NE(model.frame().lines.back().find("not found: no such text"), std::string::npos);
  EXPECT_FALSE(model.handleKey('q'));
}

}  // namespace
}  // namespace quarry::cli
