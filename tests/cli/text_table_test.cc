#include "quarry/cli/text_table.h"

#include <gtest/gtest.h>

namespace quarry::cli {
namespace {

TEST(TextTable, PadsColumnsToTheWidestCellAndAlignsNumbersRight) {
  TextTable table({{"#", TextTable::Align::kRight}, {"name"}, {"rows", TextTable::Align::kRight}});
  table.addRow({"0", "id", "8"});
  table.addRow({"10", "caf\xC3\xA9", "12345"});
  std::string out;
  table.render(out, "  ");
  EXPECT_EQ(out,
            "   #  name   rows\n"
            "   0  id        8\n"
            "  10  caf\xC3\xA9  12345\n");
}

TEST(TextTable, FillsMissingCellsAndTrimsTrailingSpace) {
  TextTable table({{"a"}, {"b"}});
  table.addRow({"x"});
  std::string out;
  table.render(out);
  EXPECT_EQ(out, "a  b\nx\n");
}

TEST(TextTable, PrintableTextEscapesControlsAndIllFormedBytesAndCuts) {
  EXPECT_EQ(printableText("a\tb\xFF"), "a\\x09b\\xff");
  bool truncated = false;
  EXPECT_EQ(printableText("h\xC3\xA9llo", 2, &truncated), "h\xC3\xA9");
  EXPECT_TRUE(truncated);
  EXPECT_EQ(printableText("ok", 2, &truncated), "ok");
  EXPECT_FALSE(truncated);
}

TEST(TextTable, FieldLinesAlignValues) {
  std::string out;
  appendField(out, "  ", "rows", "8", 8);
  appendField(out, "  ", "a long label", "x", 8);
  EXPECT_EQ(out, "  rows    8\n  a long label x\n");
}

}  // namespace
}  // namespace quarry::cli
