#include "quarry/io/local_storage.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"

namespace quarry::io {
namespace {

/// Below this many bytes a batch is read on the calling thread: handing it to
/// the pool would cost more than the copies.
constexpr uint64_t kParallelReadBytes = 1 << 20;

class LocalFile : public StorageObject {
 public:
  LocalFile(std::string path, int fd, uint64_t size, std::string version)
      : path_(std::move(path)), fd_(fd), size_(size), version_(std::move(version)) {}
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
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> bytes_{0};
};

}  // namespace

std::unique_ptr<StorageObject> LocalStorageProvider::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
  return openDescriptor(path, fd);
}

std::unique_ptr<StorageObject> LocalStorageProvider::openDescriptor(std::string path, int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(path + ": cannot stat: " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IoError(path + ": is a directory, not a file");
  }
  const std::string mtime = std::to_string(static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
                                           st.st_mtim.tv_nsec);
  return std::make_unique<LocalFile>(std::move(path), fd, static_cast<uint64_t>(st.st_size),
                                     "mtime:" + mtime);
}

}  // namespace quarry::io
