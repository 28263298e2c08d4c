// Issue 26, item 8: "`query` flattens a struct (\"device.os\") where `print`
// nests it" -- one struct shape for both commands: nested objects.

#include "quarry/cli/json_row_shape.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace quarry::cli {
namespace {

std::string row(const std::vector<std::string>& names, const std::set<std::string>& paths) {
  const JsonRowShape shape(names, [&](const std::string& name) { return paths.count(name) > 0; });
  std::string out;
  shape.appendRow([&](size_t c, std::string& text) { text += std::to_string(c); }, out);
  return out;
}

TEST(JsonRowShape, NestsTheLeavesOfAStructAsPrintDoes) {
  EXPECT_EQ(row({"n", "device.os", "device.browser"}, {"device.os", "device.browser"}),
            "{\"n\":0,\"device\":{\"os\":1,\"browser\":2}}");
  // Deeper structs, and leaves of one struct apart in the column order.
  EXPECT_EQ(row({"a.b.c", "x", "a.d"}, {"a.b.c", "a.d"}),
            "{\"a\":{\"b\":{\"c\":0},\"d\":2},\"x\":1}");
}

TEST(JsonRowShape, NamesThatAreNotPathsOfTheSourceStayFlat) {
  EXPECT_EQ(row({"AVG(a.b)", "_file.path"}, {}), "{\"AVG(a.b)\":0,\"_file.path\":1}");
}

TEST(JsonRowShape, ANameWhosePlaceIsTakenStaysFlatSoNoKeyRepeats) {
  EXPECT_EQ(row({"device.os", "device"}, {"device.os"}), "{\"device.os\":0,\"device\":1}");
  EXPECT_EQ(row({"device", "device.os"}, {"device.os"}), "{\"device\":0,\"device.os\":1}");
  EXPECT_EQ(row({"a..b"}, {"a..b"}), "{\"a..b\":0}");
}

}  // namespace
}  // namespace quarry::cli
