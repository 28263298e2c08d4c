#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

/// A fresh directory under /tmp for one test, removed with everything in it
/// when the test is done with it.
namespace quarry::testing {

class TempDir {
 public:
  /// Creates /tmp/<prefix>_XXXXXX; path() is empty when that fails (check valid()).
  explicit TempDir(const std::string& prefix = "quarry") {
    std::string pattern = "/tmp/" + prefix + "_XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool valid() const { return !path_.empty(); }
  const std::filesystem::path& path() const { return path_; }

  /// Copies `source` to `relative` inside the directory, creating its parents.
  void copy(const std::filesystem::path& source, const std::string& relative) const {
    const std::filesystem::path target = path_ / relative;
    std::filesystem::create_directories(target.parent_path());
    std::filesystem::copy_file(source, target);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace quarry::testing
