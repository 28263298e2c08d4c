#include "quarry/common/memory_budget.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "quarry/common/error.h"

namespace quarry {
namespace {

/// Restores the process's limit when a test that changes it ends.
class MemoryBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = memoryLimit(); }
  void TearDown() override { setMemoryLimit(saved_); }
  uint64_t saved_ = 0;
};

// --memory-limit "accepting e.g. 512MB, 2GB".
TEST(ParseMemorySizeTest, ReadsUnitsAsPowersOf1024) {
  EXPECT_EQ(parseMemorySize("512MB"), uint64_t{512} << 20);
  EXPECT_EQ(parseMemorySize("2GB"), uint64_t{2} << 30);
  EXPECT_EQ(parseMemorySize("2 gb"), uint64_t{2} << 30);
  EXPECT_EQ(parseMemorySize("1.5GiB"), uint64_t{3} << 29);
  EXPECT_EQ(parseMemorySize("64k"), uint64_t{64} << 10);
  EXPECT_EQ(parseMemorySize("1048576"), uint64_t{1} << 20);
  EXPECT_EQ(parseMemorySize("1TB"), uint64_t{1} << 40);
}

TEST(ParseMemorySizeTest, RefusesWhatIsNoSizeNamingIt) {
  for (const char* text : {"", "MB", "2XB", "0", "0MB", "-1GB", "1.2.3GB", "GB2"}) {
    try {
      parseMemorySize(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + std::string(text) + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(FormatMemorySizeTest, PrintsTheLargestWholeUnit) {
  EXPECT_EQ(formatMemorySize(uint64_t{2} << 30), "2 GB");
  EXPECT_EQ(formatMemorySize(uint64_t{512} << 20), "512 MB");
  EXPECT_EQ(formatMemorySize(uint64_t{3} << 29), "1.5 GB");
  EXPECT_EQ(formatMemorySize(300), "300 bytes");
}

TEST(DefaultMemoryLimitTest, IsAtMostHalfOfPhysicalMemory) {
  const uint64_t limit = defaultMemoryLimit();
  EXPECT_GE(limit, uint64_t{64} << 20);
  const uint64_t physical = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                            static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_LE(limit, std::max<uint64_t>(physical / 2, uint64_t{64} << 20));
}

// "turns any remaining runaway allocation ... into a clear error": a charge past
// the limit throws, names the limit, and charges nothing.
TEST_F(MemoryBudgetTest, ChargePastTheLimitThrowsAndChargesNothing) {
  setMemoryLimit(uint64_t{1} << 20);
  const uint64_t before = memoryCharged();
  MemoryCharge charge;
  charge.add(512 << 10, "a first page");
  EXPECT_EQ(memoryCharged(), before + (512 << 10));
  try {
    charge.add(uint64_t{4} << 30, "the definition levels of a page");
    FAIL() << "no MemoryLimitExceeded";
  } catch (const MemoryLimitExceeded& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("memory limit of 1 MB"), std::string::npos) << message;
    EXPECT_NE(message.find("the definition levels of a page need 4294967296 bytes"), std::string::npos)
        << message;
  }
  EXPECT_EQ(charge.bytes(), uint64_t{512} << 10);
  EXPECT_EQ(memoryCharged(), before + (512 << 10));
}

TEST_F(MemoryBudgetTest, ChargesAreReturnedWhenTheirOwnerGoes) {
  setMemoryLimit(uint64_t{1} << 20);
  const uint64_t before = memoryCharged();
  {
    MemoryCharge a;
    a.add(600 << 10, "a page");
    MemoryCharge moved = std::move(a);
    EXPECT_EQ(a.bytes(), 0u);
    EXPECT_EQ(moved.bytes(), uint64_t{600} << 10);
    const MemoryCharge copy = moved;  // a copy holds nothing of the original's charge
    EXPECT_EQ(copy.bytes(), 0u);
    EXPECT_THROW(MemoryCharge().add(600 << 10, "a second page"), MemoryLimitExceeded);
  }
  EXPECT_EQ(memoryCharged(), before);
  MemoryCharge again;
  again.add(600 << 10, "a second page");  // room again
  again.atLeast(300 << 10, "a reused buffer");  // already charged: nothing more
  EXPECT_EQ(again.bytes(), uint64_t{600} << 10);
}

}  // namespace
}  // namespace quarry
