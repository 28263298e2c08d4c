// Issue 26, item 7: "The table format holds every row before printing anything
// ... no row cap ... no fit to the terminal width, CJK and emoji counted as one
// cell so columns go out of line, `print` left-aligns numbers where `query`
// right-aligns." TableWriter is the one table of both commands.

#include "quarry/cli/table_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/common/display_width.h"

namespace quarry::cli {
namespace {

struct Captured {
  std::string text;
  size_t writes = 0;
};

TableWriter makeWriter(Captured& out, std::vector<TableWriter::Column> columns,
                       TableWriter::Limits limits = {}) {
  return TableWriter(std::move(columns), limits, [&out](std::string_view text) {
    out.text += text;
    ++out.writes;
  });
}

// "the writer emits the first batch before the source is exhausted": a fake
// source of 1,000 batches; the first batch is on the output before the second
// is pulled, and a full table stops pulling (the source is never drained).
TEST(TableWriter, EmitsTheFirstBatchBeforeTheSourceEndsAndStopsPullingWhenFull) {
  Captured out;
  TableWriter table = makeWriter(out, {{"id", true}, {"name"}}, {.maxRows = 5, .width = 0});
  size_t batchesPulled = 0;
  bool more = false;
  const auto pullBatch = [&]() {
    ++batchesPulled;
    std::vector<std::vector<std::string>> rows;
    for (int i = 0; i < 3; ++i) {
      const size_t id = (batchesPulled - 1) * 3 + static_cast<size_t>(i);
      rows.push_back({std::to_string(id), "row" + std::to_string(id)});
    }
    return rows;
  };
  while (batchesPulled < 1000 && !more) {
    for (auto& row : pullBatch()) {
      if (!table.wantsRows()) {
        more = true;
        break;
      }
      table.addRow(std::move(row));
    }
    table.endBatch();
    if (batchesPulled == 1) {
      // Written now, not at the end: the header and the first batch's rows.
      EXPECT_EQ(out.text, "id  name\n 0  row0\n 1  row1\n 2  row2\n");
    }
  }
  EXPECT_EQ(batchesPulled, 2u);  // 5 rows shown, the 6th seen: no third batch
  table.finish(std::nullopt, more);
  EXPECT_EQ(out.text,
            "id  name\n 0  row0\n 1  row1\n 2  row2\n 3  row3\n 4  row4\n"
            "(5 rows shown, more not counted; --max-rows N shows more, 0 all; --format csv for "
            "every row)\n");
}

// "a default row cap with a footer (\"10 of 3,000,000 rows ...\")"
TEST(TableWriter, FooterGivesShownAndTotalRowsWithSeparators) {
  Captured out;
  TableWriter table = makeWriter(out, {{"n", true}}, {.maxRows = 2, .width = 0});
  table.addRow({"1"});
  table.addRow({"2"});
  EXPECT_FALSE(table.wantsRows());
  table.finish(3'000'000, true);
  EXPECT_EQ(out.text,
            "n\n1\n2\n(2 of 3,000,000 rows shown; --max-rows N shows more, 0 all; --format csv "
            "for every row)\n");
}

TEST(TableWriter, AResultThatFitsSaysHowManyRowsItHas) {
  Captured one;
  TableWriter a = makeWriter(one, {{"x"}});
  a.addRow({"v"});
  a.finish(1, false);
  EXPECT_EQ(one.text, "x\nv\n(1 row)\n");
  Captured none;
  TableWriter b = makeWriter(none, {{"x"}, {"y"}});
  b.finish(0, false);
  EXPECT_EQ(none.text, "x  y\n(0 rows)\n");
  EXPECT_EQ(TableWriter::kDefaultMaxRows, 40u);
  Captured all;
  TableWriter c = makeWriter(all, {{"x"}}, {.maxRows = 0, .width = 0});  // 0: every row
  for (int i = 0; i < 100; ++i) c.addRow({"r"});
  EXPECT_TRUE(c.wantsRows());
}

// "numbers right-aligned everywhere"; "cells counted by display width: East
// Asian wide and emoji as 2".
TEST(TableWriter, AlignsCjkEmojiAndCombiningAccentsByDisplayWidth) {
  Captured out;
  TableWriter table = makeWriter(out, {{"city"}, {"n", true}});
  table.addRow({"\xE6\x9D\xB1\xE4\xBA\xAC", "1"});  // 東京: 4 columns
  table.addRow({"\xF0\x9F\x9A\x80!", "22"});        // 🚀!: 3 columns
  table.addRow({"Cafe\xCC\x81", "333"});            // Café with U+0301: 4 columns
  table.addRow({"Oslo", "4444"});
  table.finish(4, false);
  EXPECT_EQ(out.text,
            "city     n\n"
            "\xE6\x9D\xB1\xE4\xBA\xAC     1\n"
            "\xF0\x9F\x9A\x80!     22\n"
            "Cafe\xCC\x81   333\n"
            "Oslo  4444\n"
            "(4 rows)\n");
}

// "column widths from the first batch ... long values cut with an ellipsis"
TEST(TableWriter, WidthsComeFromTheFirstBatchAndLaterLongValuesAreCut) {
  Captured out;
  TableWriter table = makeWriter(out, {{"name"}, {"v", true}}, {.maxRows = 0, .width = 0});
  table.addRow({"short", "1"});
  table.endBatch();
  table.addRow({"a much longer value", "123456"});
  table.addRow({"\xE6\x9D\xB1\xE4\xBA\xAC\xE9\x83\xBD", "7"});  // 東京都: 6 columns, cut at 5
  table.finish(3, false);
  EXPECT_EQ(out.text,
            "name   v\n"
            "short  1\n"
            "a mu\xE2\x80\xA6  \xE2\x80\xA6\n"
            "\xE6\x9D\xB1\xE4\xBA\xAC\xE2\x80\xA6  7\n"
            "(3 rows)\n");
}

// "fit to the terminal width": the widest columns give way first.
TEST(TableWriter, NarrowsTheWidestColumnsToTheTerminalWidth) {
  Captured out;
  TableWriter table =
      makeWriter(out, {{"id", true}, {"text"}, {"tag"}}, {.maxRows = 40, .width = 20});
  table.addRow({"1", "abcdefghijklmnopqrstuvwxyz", "red"});
  table.addRow({"2",
                "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80"
                "\xF0\x9F\x98\x80",
                "blue"});
  table.finish(2, false);
  // 20 columns: id 2, tag 4, two separators of 2: text gets 10.
  EXPECT_EQ(
      out.text,
      "id  text        tag\n"
      " 1  abcdefghi\xE2\x80\xA6  red\n"
      " 2  \xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xE2\x80\xA6   blue\n"
      "(2 rows)\n");
  for (size_t start = 0, end; (end = out.text.find('\n', start)) != std::string::npos;
       start = end + 1) {
    const std::string line = out.text.substr(start, end - start);
    if (line.rfind("(", 0) != 0) {
      EXPECT_LE(displayWidth(line), 20u) << line;
    }
  }
}

TEST(TableWriter, EscapesControlCharactersInCells) {
  Captured out;
  TableWriter table = makeWriter(out, {{"a\tb"}});
  table.addRow({"x\ny"});
  table.finish(1, false);
  EXPECT_EQ(out.text, "a\\x09b\nx\\x0ay\n(1 row)\n");
}

TEST(TableWriter, GroupsCountsByThousands) {
  EXPECT_EQ(groupedCount(0), "0");
  EXPECT_EQ(groupedCount(999), "999");
  EXPECT_EQ(groupedCount(1000), "1,000");
  EXPECT_EQ(groupedCount(3'000'000), "3,000,000");
}

}  // namespace
}  // namespace quarry::cli
