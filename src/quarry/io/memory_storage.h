#pragma once

#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/io/storage.h"

/// Bytes already in memory as a StorageObject: for embedders that hold a file's
/// bytes, for fuzzers, and for tests that mutate files without touching disk.
namespace quarry::io {

class MemoryObject : public StorageObject {
 public:
  /// Owns a copy of `bytes`.
  MemoryObject(std::string uri, std::vector<uint8_t> bytes)
      : uri_(std::move(uri)), owned_(std::move(bytes)), view_(owned_) {}

  MemoryObject(MemoryObject&&) = default;
  MemoryObject(const MemoryObject&) = delete;
  MemoryObject& operator=(const MemoryObject&) = delete;

  /// Borrows `bytes`, which must outlive this object.
  static MemoryObject borrow(std::string uri, std::span<const uint8_t> bytes) {
    return MemoryObject(std::move(uri), bytes);
  }

  const std::string& uri() const override { return uri_; }
  uint64_t size() const override { return view_.size(); }
  uint64_t requestCount() const override { return requests_; }
  uint64_t bytesRead() const override { return bytes_; }

  void readAt(uint64_t offset, std::span<uint8_t> out) override {
    if (offset > view_.size() || out.size() > view_.size() - offset) {
      throw IoError(uri_ + ": read of bytes [" + std::to_string(offset) + ", " +
                    std::to_string(offset + out.size()) + ") is past the end (" +
                    std::to_string(view_.size()) + " bytes)");
    }
    ++requests_;
    bytes_ += out.size();
    if (!out.empty()) std::memcpy(out.data(), view_.data() + offset, out.size());
  }

 private:
  MemoryObject(std::string uri, std::span<const uint8_t> view)
      : uri_(std::move(uri)), view_(view) {}

  std::string uri_;
  std::vector<uint8_t> owned_;
  std::span<const uint8_t> view_;
  uint64_t requests_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace quarry::io
