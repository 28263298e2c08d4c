#include "quarry/io/local_storage.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "quarry/common/error.h"
#include "quarry/io/memory_storage.h"

namespace quarry::io {
namespace {

std::filesystem::path writeTempFile(const std::string& content) {
  auto path = std::filesystem::temp_directory_path() /
              ("quarry-local-storage-" + std::to_string(::getpid()) + ".bin");
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(LocalStorageTest, ReadsRangesAndCountsRequests) {
  const auto path = writeTempFile("0123456789");
  auto file = openObject(path.string());
  EXPECT_EQ(file->size(), 10u);
  std::vector<uint8_t> out(3);
  file->readAt(4, out);
  EXPECT_EQ(std::string(out.begin(), out.end()), "456");
  const auto tail = file->readTail(4);
  EXPECT_EQ(std::string(tail.begin(), tail.end()), "6789");
  EXPECT_EQ(file->requestCount(), 2u);
  EXPECT_EQ(file->bytesRead(), 7u);
  std::filesystem::remove(path);
}

TEST(LocalStorageTest, TailLongerThanTheFileReturnsTheWholeFile) {
  const auto path = writeTempFile("abc");
  auto file = openObject("file://" + path.string());
  const auto tail = file->readTail(64 * 1024);
  EXPECT_EQ(std::string(tail.begin(), tail.end()), "abc");
  std::filesystem::remove(path);
}

TEST(LocalStorageTest, ReadPastTheEndNamesTheFileAndRange) {
  const auto path = writeTempFile("abc");
  auto file = openObject(path.string());
  std::vector<uint8_t> out(4);
  try {
    file->readAt(1, out);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("[1, 5)"), std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST(LocalStorageTest, MissingFileIsAnIoErrorNamingIt) {
  try {
    openObject("/nonexistent/quarry/file.parquet");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/quarry/file.parquet"), std::string::npos);
  }
}

TEST(LocalStorageTest, DirectoryIsRefused) {
  EXPECT_THROW(openObject(std::filesystem::temp_directory_path().string()), IoError);
}

TEST(LocalStorageTest, UnknownSchemeIsRefusedByName) {
  try {
    openObject("gopher://host/file.parquet");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("gopher"), std::string::npos);
  }
}

TEST(MemoryObjectTest, BorrowedBytesReadLikeAFile) {
  const std::vector<uint8_t> bytes = {1, 2, 3, 4, 5};
  auto object = MemoryObject::borrow("mem://x", bytes);
  EXPECT_EQ(object.size(), 5u);
  EXPECT_EQ(object.readTail(2), (std::vector<uint8_t>{4, 5}));
  std::vector<uint8_t> out(2);
  EXPECT_THROW(object.readAt(4, out), IoError);
}

}  // namespace
}  // namespace quarry::io
