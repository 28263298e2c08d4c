#include "quarry/io/local_storage.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"
#include "quarry/io/local_stamp.h"

namespace quarry::io {
namespace {

/// Below this many bytes a batch is read on the calling thread: handing it to
/// the pool would cost more than the copies.
constexpr uint64_t kParallelReadBytes = 1 << 20;

/// What tells `now` from `pinned` in a message: "size 533 -> 600", "modification
/// time changed", "another file (inode)"; empty when they are the same file.
std::string changeOf(const LocalStamp& pinned, const LocalStamp& now) {
  std::string out;
  auto add = [&out](const std::string& what) { out += (out.empty() ? "" : ", ") + what; };
  if (pinned.device != now.device || pinned.inode != now.inode) add("another file (inode)");
  if (pinned.size != now.size)
    add("size " + std::to_string(pinned.size) + " -> " + std::to_string(now.size));
  if (pinned.modifiedNs != now.modifiedNs) add("modification time changed");
  return out;
}

std::string changedWhileRead(const std::string& path, const std::string& change) {
  return path + ": the file changed while it was being read (" + change + "); run the query again";
}

class LocalFile : public StorageObject {
 public:
  LocalFile(std::string path, int fd, const LocalStamp& pinned)
      : path_(std::move(path)),
        fd_(fd),
        size_(pinned.size),
        version_(localFileVersion(pinned)),
        pinned_(pinned) {}
  ~LocalFile() override { ::close(fd_); }
  LocalFile(const LocalFile&) = delete;
  LocalFile& operator=(const LocalFile&) = delete;

  const std::string& uri() const override { return path_; }
  uint64_t size() const override { return size_; }
  /// The modification time in nanoseconds: with the size, what tells a rewritten
  /// file from the one a cache holds the footer of.
  std::optional<std::string> version() const override { return version_; }
  uint64_t requestCount() const override { return requests_.load(std::memory_order_relaxed); }
  uint64_t bytesRead() const override { return bytes_.load(std::memory_order_relaxed); }

  void checkUnchanged() const override {
    const std::optional<LocalStamp> now = stampOf(fd_);
    if (!now) throw IoError(path_ + ": cannot stat: " + std::strerror(errno));
    const std::string change = changeOf(pinned_, *now);
    if (!change.empty()) throw IoError(changedWhileRead(path_, change));
  }

  void readRanges(std::span<const ReadRange> ranges) override {
    // Nothing to merge: a pread costs no round trip. Large batches are read in
    // parallel, as when each decoding thread read its own chunk: from the page
    // cache a pread is a copy, which one thread would do alone before decoding.
    uint64_t total = 0;
    for (const ReadRange& range : ranges) total += range.out.size();
    if (ranges.size() < 2 || total < kParallelReadBytes) {
      for (const ReadRange& range : ranges) readAt(range.offset, range.out);
      return;
    }
    ThreadPool::shared().parallelFor(ranges.size(),
                                     [&](size_t i) { readAt(ranges[i].offset, ranges[i].out); });
  }

  void readAt(uint64_t offset, std::span<uint8_t> out) override {
    if (offset > size_ || out.size() > size_ - offset) {
      throw IoError(path_ + ": read of bytes [" + std::to_string(offset) + ", " +
                    std::to_string(offset + out.size()) + ") is past the end of the file (" +
                    std::to_string(size_) + " bytes)");
    }
    requests_.fetch_add(1, std::memory_order_relaxed);
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done,
                                static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        throw IoError(path_ + ": read of " + std::to_string(out.size()) + " bytes at offset " +
                      std::to_string(offset) + " failed: " + std::strerror(errno));
      }
      if (n == 0) {
        throw IoError(path_ + ": the file ended at offset " + std::to_string(offset + done) +
                      " while reading " + std::to_string(out.size()) + " bytes at offset " +
                      std::to_string(offset) + " (it was truncated while open?)");
      }
      done += static_cast<size_t>(n);
    }
    bytes_.fetch_add(out.size(), std::memory_order_relaxed);
  }

 private:
  std::string path_;
  int fd_;
  uint64_t size_;
  std::string version_;
  LocalStamp pinned_;
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> bytes_{0};
};

}  // namespace

std::unique_ptr<StorageObject> LocalStorageProvider::open(const std::string& path) {
  return open(path, std::nullopt);
}

std::unique_ptr<StorageObject> LocalStorageProvider::open(
    const std::string& path, const std::optional<ObjectIdentity>& known) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
  return openDescriptor(path, fd, known);
}

std::unique_ptr<StorageObject> LocalStorageProvider::openDescriptor(
    std::string path, int fd, const std::optional<ObjectIdentity>& known) {
  const std::optional<LocalStamp> pinned = stampOf(fd);
  if (!pinned) {
    const int err = errno;
    ::close(fd);
    throw IoError(path + ": cannot stat: " + std::strerror(err));
  }
  if (isDirectory(*pinned)) {
    ::close(fd);
    throw IoError(path + ": is a directory, not a file");
  }
  if (known) {
    // The identity a footer read pinned: the footer and the offsets it gives hold
    // for that file only.
    std::string change;
    if (known->size != pinned->size)
      change = "size " + std::to_string(known->size) + " -> " + std::to_string(pinned->size);
    if (known->version && *known->version != localFileVersion(*pinned))
      change += (change.empty() ? "" : ", ") + std::string("modification time changed");
    if (!change.empty()) {
      ::close(fd);
      throw IoError(changedWhileRead(path, change));
    }
  }
  return std::make_unique<LocalFile>(std::move(path), fd, *pinned);
}

}  // namespace quarry::io
