#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/// What a local file or directory was when it was looked at: enough to tell, by
/// looking again, that it has not changed since. An answer derived from its
/// contents (a footer, a directory listing) may be reused while a new stamp of the
/// same path equals the one taken before the contents were read.
///
/// Writing a file's or a directory's contents updates its modification and change
/// times; replacing it (rename over it) gives another inode; chmod and utimes
/// update the change time, which no call can set back. What a stamp cannot see is
/// a second change within the same tick of the file system's clock: a stamp is
/// `settled`, and only then worth relying on, when its times are at least
/// kSettleMargin older than the moment it was taken (git's "racily clean" rule),
/// and when its file system keeps times that way (ext2/3/4, XFS, Btrfs, tmpfs,
/// overlayfs, F2FS, ZFS: local file systems, one clock, updated on every write).
namespace quarry {
class ThreadPool;
}

namespace quarry::io {

struct LocalStamp {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t modifiedNs = 0;  // mtime, nanoseconds since the epoch
  int64_t changedNs = 0;   // ctime
  uint32_t mode = 0;       // type and permission bits
  bool operator==(const LocalStamp&) const = default;
};

/// Times this close to (or after) the moment of the stamp might share a clock
/// tick with a change that is still to come.
inline constexpr int64_t kSettleMarginNs = 1'000'000'000;

/// The stamp of `path` (symbolic links followed), or nullopt when it cannot be
/// stat'ed.
std::optional<LocalStamp> stampOf(const std::string& path);

/// The stamp of an open file or directory.
std::optional<LocalStamp> stampOf(int fd);

/// The stamps of `paths`, as stampOf would give them one by one. The deepest
/// directory the paths share is opened once and each path is looked up from it:
/// the kernel walks the shared components once rather than for every path (a
/// thousand files under one directory tree stamp in about two thirds of the time).
/// With a `pool`, kStampChunk paths at a time are stamped on it: statx of paths
/// not looked at lately waits on memory, which cores overlap.
std::vector<std::optional<LocalStamp>> stampsOf(std::span<const std::string_view> paths,
                                                ThreadPool* pool = nullptr);
inline constexpr size_t kStampChunk = 256;

/// The current time, nanoseconds since the epoch, as stamps' times count it.
int64_t nowNs();

/// Whether `stamp` of `path`, taken at `takenAtNs` (nowNs() before the stat), can
/// vouch for contents read after it: times older than the margin, on a file system
/// that keeps them (asked once per device).
bool settled(const std::string& path, const LocalStamp& stamp, int64_t takenAtNs,
             int64_t marginNs = kSettleMarginNs);

/// The version a local file's StorageObject reports ("mtime:" and the modification
/// time in nanoseconds): with the size, the identity a split pins and a later open
/// checks. Neither device nor inode: a data node may read another copy of the file.
std::string localFileVersion(const LocalStamp& stamp);

bool isDirectory(const LocalStamp& stamp);
bool isRegularFile(const LocalStamp& stamp);

}  // namespace quarry::io
