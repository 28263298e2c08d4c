#include "quarry/io/local_stamp.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "quarry/common/thread_pool.h"

namespace quarry::io {
namespace {

LocalStamp fromStatx(const struct statx& s) {
  LocalStamp stamp;
  stamp.device = makedev(s.stx_dev_major, s.stx_dev_minor);
  stamp.inode = s.stx_ino;
  stamp.size = s.stx_size;
  stamp.modifiedNs = static_cast<int64_t>(s.stx_mtime.tv_sec) * 1'000'000'000 + s.stx_mtime.tv_nsec;
  stamp.changedNs = static_cast<int64_t>(s.stx_ctime.tv_sec) * 1'000'000'000 + s.stx_ctime.tv_nsec;
  stamp.mode = s.stx_mode;
  return stamp;
}

constexpr unsigned kStatxFields =
    STATX_TYPE | STATX_MODE | STATX_INO | STATX_SIZE | STATX_MTIME | STATX_CTIME;

// statfs f_type values of the file systems whose times settle (linux/magic.h).
bool keepsTimes(int64_t type) {
  switch (static_cast<uint64_t>(type) & 0xffffffffu) {
    case 0xEF53:      // ext2, ext3, ext4
    case 0x58465342:  // XFS
    case 0x9123683E:  // Btrfs
    case 0x01021994:  // tmpfs
    case 0x794c7630:  // overlayfs
    case 0xF2F52010:  // F2FS
    case 0x2fc12fc1:  // ZFS
      return true;
    default:
      return false;
  }
}

/// Whether the file system of `device` (which holds `path`) keeps times: asked
/// with statfs once per device.
bool deviceKeepsTimes(uint64_t device, const std::string& path) {
  static std::mutex mutex;
  static auto* known = new std::unordered_map<uint64_t, bool>();  // never destroyed
  {
    std::lock_guard lock(mutex);
    auto it = known->find(device);
    if (it != known->end()) return it->second;
  }
  struct statfs fs {};
  if (::statfs(path.empty() ? "." : path.c_str(), &fs) != 0) return false;
  const bool keeps = keepsTimes(static_cast<int64_t>(fs.f_type));
  std::lock_guard lock(mutex);
  known->emplace(device, keeps);
  return keeps;
}

}  // namespace

std::optional<LocalStamp> stampOf(const std::string& path) {
  struct statx s {};
  if (::statx(AT_FDCWD, path.c_str(), 0, kStatxFields, &s) != 0) return std::nullopt;
  return fromStatx(s);
}

std::optional<LocalStamp> stampOf(int fd) {
  struct statx s {};
  if (::statx(fd, "", AT_EMPTY_PATH, kStatxFields, &s) != 0) return std::nullopt;
  return fromStatx(s);
}

namespace {

/// Stamps `paths` into `stamps` (as many), from the deepest directory they share.
void stampFromBase(std::span<const std::string_view> paths,
                   std::span<std::optional<LocalStamp>> stamps) {
  if (paths.empty()) return;
  // The longest prefix ending in '/' that every path starts with.
  std::string_view base = paths[0];
  base = base.substr(0, base.rfind('/') + 1);
  for (const std::string_view path : paths) {
    while (!base.empty() && !path.starts_with(base)) {
      base.remove_suffix(1);
      base = base.substr(0, base.rfind('/') + 1);
    }
  }
  const int fd =
      base.empty() ? -1 : ::open(std::string(base).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  std::string path;  // the part after `base` (or all of it), NUL-terminated for statx
  for (size_t i = 0; i < paths.size(); ++i) {
    path.assign(paths[i].substr(fd < 0 ? 0 : base.size()));
    struct statx s {};
    const int status =
        fd < 0 ? ::statx(AT_FDCWD, path.c_str(), 0, kStatxFields, &s)
               : ::statx(fd, path.c_str(), path.empty() ? AT_EMPTY_PATH : 0, kStatxFields, &s);
    if (status == 0) stamps[i] = fromStatx(s);
  }
  if (fd >= 0) ::close(fd);
}

}  // namespace

std::vector<std::optional<LocalStamp>> stampsOf(std::span<const std::string_view> paths,
                                                ThreadPool* pool) {
  std::vector<std::optional<LocalStamp>> stamps(paths.size());
  const size_t chunks = (paths.size() + kStampChunk - 1) / kStampChunk;
  auto stampChunk = [&](size_t chunk) {
    const size_t begin = chunk * kStampChunk;
    const size_t n = std::min(paths.size() - begin, kStampChunk);
    stampFromBase(paths.subspan(begin, n), std::span(stamps).subspan(begin, n));
  };
  if (pool != nullptr && pool->size() > 1 && chunks > 1) {
    pool->parallelFor(chunks, stampChunk);
  } else {
    for (size_t i = 0; i < chunks; ++i) stampChunk(i);
  }
  return stamps;
}

int64_t nowNs() {
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

bool settled(const std::string& path, const LocalStamp& stamp, int64_t takenAtNs,
             int64_t marginNs) {
  const int64_t latest = std::max(stamp.modifiedNs, stamp.changedNs);
  if (latest > takenAtNs - marginNs) return false;
  return deviceKeepsTimes(stamp.device, path);
}

std::string localFileVersion(const LocalStamp& stamp) {
  return "mtime:" + std::to_string(stamp.modifiedNs);
}

bool isDirectory(const LocalStamp& stamp) {
  return S_ISDIR(stamp.mode);
}
bool isRegularFile(const LocalStamp& stamp) {
  return S_ISREG(stamp.mode);
}

}  // namespace quarry::io
