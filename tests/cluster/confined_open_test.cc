// cluster/confined_open.h: "resolve once and open the resolved path with
// O_NOFOLLOW on every component ... and check the opened descriptor against
// what was checked". Each case runs through the kernel's openat2 (where it
// applies) and through the component-by-component walk.

#include "quarry/cluster/confined_open.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "quarry/cluster/allowed_roots.h"
#include "tests/engine/fragment_test_support.h"

namespace quarry::cluster {
namespace {

namespace fs = std::filesystem;
using engine::testing::ScratchDir;

std::string contentOf(int fd) {
  char buffer[64];
  const ssize_t n = ::pread(fd, buffer, sizeof(buffer), 0);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
}

class ConfinedOpenTest : public ::testing::TestWithParam<PathResolution> {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "root" / "sub");
    fs::create_directories(dir_.path() / "outside");
    std::ofstream(dir_.path() / "root" / "sub" / "in.parquet") << "inside";
    std::ofstream(dir_.path() / "outside" / "secret.parquet") << "secret";
    roots_ = {fs::canonical(dir_.path() / "root")};
  }
  fs::path at(const std::string& relative) const { return dir_.path() / relative; }
  ConfinedFile open(const fs::path& path) const {
    return openConfined(path.string(), roots_, GetParam());
  }

  ScratchDir dir_{"quarry-confined-open"};
  std::vector<fs::path> roots_;
};

TEST_P(ConfinedOpenTest, AFileUnderTheRootOpensWithItsCanonicalPath) {
  ConfinedFile file = open(at("root/sub/in.parquet"));
  EXPECT_EQ(contentOf(file.fd()), "inside");
  EXPECT_EQ(file.path(), roots_[0] / "sub" / "in.parquet");
  ConfinedFile again = open(at("root/sub/../sub/./in.parquet"));
  EXPECT_EQ(contentOf(again.fd()), "inside");
}

TEST_P(ConfinedOpenTest, SymlinksThatStayInsideAreResolvedOnce) {
  fs::create_symlink("sub/in.parquet", at("root/relative.parquet"));
  fs::create_symlink(at("root/sub"), at("root/absolute-dir"));
  fs::create_symlink(at("root/sub/in.parquet"), at("outside/into-root.parquet"));
  for (const char* path :
       {"root/relative.parquet", "root/absolute-dir/in.parquet", "outside/into-root.parquet"}) {
    ConfinedFile file = open(at(path));
    EXPECT_EQ(contentOf(file.fd()), "inside") << path;
    EXPECT_EQ(file.path(), roots_[0] / "sub" / "in.parquet") << path;
  }
}

TEST_P(ConfinedOpenTest, PathsLeavingTheRootAreRefused) {
  fs::create_symlink(at("outside/secret.parquet"), at("root/escape.parquet"));
  fs::create_symlink("../../outside/secret.parquet", at("root/sub/relative-escape.parquet"));
  fs::create_symlink(at("outside"), at("root/escape-dir"));
  fs::create_symlink("escape.parquet", at("root/chain.parquet"));
  for (const char* path : {"outside/secret.parquet", "root/../outside/secret.parquet",
                           "root/escape.parquet", "root/sub/relative-escape.parquet",
                           "root/escape-dir/secret.parquet", "root/chain.parquet"}) {
    EXPECT_THROW(open(at(path)), OutsideAllowedRoots) << path;
  }
}

TEST_P(ConfinedOpenTest, DirectoriesFifosLoopsAndMissingFilesAreStorageErrors) {
  ASSERT_EQ(::mkfifo(at("root/pipe.parquet").c_str(), 0600), 0);
  fs::create_symlink("loop-b", at("root/loop-a"));
  fs::create_symlink("loop-a", at("root/loop-b"));
  const auto started = std::chrono::steady_clock::now();
  for (const char* path : {"root/sub", "root", "root/pipe.parquet", "root/loop-a",
                           "root/missing.parquet", "root/sub/in.parquet/x"}) {
    EXPECT_THROW(open(at(path)), IoError) << path;
  }
  // The FIFO was not waited on.
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

INSTANTIATE_TEST_SUITE_P(Resolutions, ConfinedOpenTest,
                         ::testing::Values(PathResolution::kKernelFirst, PathResolution::kWalk),
                         [](const ::testing::TestParamInfo<PathResolution>& info) {
                           return info.param == PathResolution::kWalk ? "Walk" : "KernelFirst";
                         });

// "The opened descriptor must be the one the reader reads": the object
// AllowedRoots opens keeps reading the file it checked after the link flips.
TEST(AllowedRootsOpenLocal, TheObjectReadsTheCheckedFileAfterTheLinkFlips) {
  ScratchDir dir("quarry-open-local");
  fs::create_directories(dir.path() / "root");
  fs::create_directories(dir.path() / "outside");
  std::ofstream(dir.path() / "root" / "in.data") << "inside";
  std::ofstream(dir.path() / "outside" / "secret.data") << "secret";
  const fs::path link = dir.path() / "root" / "link.parquet";
  fs::create_symlink(dir.path() / "root" / "in.data", link);
  const AllowedRoots roots({(dir.path() / "root").string()});
  std::unique_ptr<io::StorageObject> object = roots.openLocal("file://" + link.string());
  EXPECT_EQ(object->uri(), link.string());
  fs::remove(link);
  fs::create_symlink(dir.path() / "outside" / "secret.data", link);
  std::string bytes(6, '\0');
  object->readAt(0, std::span<uint8_t>(reinterpret_cast<uint8_t*>(bytes.data()), bytes.size()));
  EXPECT_EQ(bytes, "inside");
  EXPECT_THROW(roots.openLocal(link.string()), OutsideAllowedRoots);
}

}  // namespace
}  // namespace quarry::cluster
