// Peak memory of `quarry print` on a value of a hundred megabytes. Values can be
// a gigabyte long (parquet-testing's large_string_map.brotli.parquet holds two):
// a value's text must not be copied into a string of its own, then into the
// row's line, then into the output buffer. Bound: the value decoded from the
// file's bytes plus its rendered text once (the chunk as read from the file, the
// decoded value, the text: 3 copies) and half a copy to spare, plus a fixed
// margin for the process itself. Before, both formats peaked at 4 copies.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "quarry/formats/parquet/metadata.h"
#include "tests/formats/parquet/in_memory_row_group.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/support/build_paths.h"
#include "tests/support/fixture_file.h"
#include "tests/support/sanitizer.h"
#include "tests/support/temp_dir.h"

namespace {

constexpr size_t kValueBytes = size_t{96} << 20;
constexpr long kMarginKb = 16 * 1024;

struct PeakRun {
  int exitCode = -1;
  long maxRssKb = 0;
};

/// Runs `quarry print --format FORMAT FILE` with stdout to `outPath` and returns
/// its exit code and peak resident set (wait4's rusage of that child alone).
PeakRun printPeak(const std::string& format, const std::string& file, const std::string& outPath) {
  PeakRun run;
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || dup2(out, STDOUT_FILENO) < 0) _exit(126);
    setenv("QUARRY_CACHE_DIR", "off", 1);
    execl(QUARRY_BINARY, "quarry", "print", "--format", format.c_str(), file.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid < 0) return run;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return run;
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.maxRssKb = usage.ru_maxrss;
  return run;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::string text(static_cast<size_t>(std::max<std::streamoff>(in.tellg(), 0)), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

class PrintMemory : public ::testing::Test {
 protected:
  /// Writes the file once for the suite (the fixture writer takes seconds on it).
  static void SetUpTestSuite() {
    using namespace quarry::parquet;
    using namespace quarry::parquet::testing;
    dir_.emplace("quarry_print_memory");
    // A comma and a quote (CSV quotes the field, doubles the quote; JSON escapes
    // it) and a two-byte UTF-8 character, then plain text.
    value_ = std::string("\xC3\xA9,\"" + std::string(kValueBytes - 4, 'a'));
    ParquetFixtureWriter w;
    w.column(withLogical(leafElement("s", PhysicalType::BYTE_ARRAY),
                         logical(LogicalType::Kind::STRING)));
    w.rowGroup({FixtureChunk{{value_}, std::nullopt, std::nullopt}});
    if (dir_->valid()) quarry::testing::writeFileBytes(file(), w.bytes());
  }
  static void TearDownTestSuite() {
    dir_.reset();
    value_.clear();
  }
  void SetUp() override { ASSERT_TRUE(dir_->valid()); }

  static std::string file() { return (dir_->path() / "large_value.parquet").string(); }

  /// Prints the file as `format`, which must give exactly `expected`, within
  /// 3.5 times the value and the margin.
  static void expectPrint(const std::string& format, const std::string& expected) {
    const std::string out = (dir_->path() / ("out." + format)).string();
    const PeakRun run = printPeak(format, file(), out);
    ASSERT_EQ(run.exitCode, 0);
    EXPECT_TRUE(readFile(out) == expected) << "the " << format << " output differs";
    // AddressSanitizer keeps freed memory in quarantine (256 MiB) and adds its shadow: the
    // bound is the release build's; the sanitizer build checks the output and the memory errors.
    if (quarry::testing::kUnderAddressSanitizer) return;
    EXPECT_LE(run.maxRssKb, static_cast<long>(kValueBytes * 7 / 2 / 1024) + kMarginKb)
        << "peak RSS " << run.maxRssKb << " KB for a value of " << kValueBytes / 1024 << " KB";
  }

  static inline std::optional<quarry::testing::TempDir> dir_;
  static inline std::string value_;
};

TEST_F(PrintMemory, CsvOfAHundredMegabyteValueKeepsFewCopiesOfIt) {
  // DuckDB's COPY TO CSV: the field quoted, its quote doubled.
  expectPrint("csv", "s\n\"\xC3\xA9,\"\"" + value_.substr(4) + "\"\n");
}

TEST_F(PrintMemory, NdjsonOfAHundredMegabyteValueKeepsFewCopiesOfIt) {
  expectPrint("ndjson", "{\"s\":\"\xC3\xA9,\\\"" + value_.substr(4) + "\"}\n");
}

}  // namespace
