#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "quarry/common/error.h"

/// Opening a local file so that what is read is what was checked. A path is
/// resolved once, by this code, and the descriptor it ends with is the one
/// returned: a symlink swapped after the check cannot send the read elsewhere.
///
/// - Fast path: a path lexically under a root, without `..`, is opened with
///   openat2 from the root's directory with RESOLVE_BENEATH |
///   RESOLVE_NO_SYMLINKS: the kernel resolves it below the root and fails
///   rather than follow a symlink.
/// - Otherwise (a symlink on the way, a `..`, a path outside every root that a
///   symlink may bring into one), or where the kernel has no openat2 (ENOSYS)
///   or a seccomp filter refuses it (EPERM): a walk from `/`, one component at
///   a time, each opened with openat(O_PATH | O_NOFOLLOW) relative to the
///   directory descriptor before it. A symlink is read (readlinkat) and its
///   target's components take its place (at most 40 links, as the kernel); `..`
///   returns to the parent descriptor kept from the walk. The canonical path
///   so found must be under a root before the file is opened for reading,
///   again with O_NOFOLLOW relative to its directory's descriptor, and the
///   descriptor's device and inode (fstat) must be those the walk examined;
///   else the walk starts again (three times at most).
///
/// Example, root /data: /data/a/x.parquet opens in the fast path;
/// /data/link.parquet -> sub/x.parquet is walked and opens /data/sub/x.parquet;
/// /data/link.parquet -> /etc/passwd is walked and refused before /etc/passwd
/// is opened for reading; a link from /tmp/in.parquet to /data/x.parquet is
/// walked and opens /data/x.parquet.
namespace quarry::cluster {

/// Signals a local path that leads outside every allowed root: a refusal
/// (PERMISSION_DENIED on the wire), not a storage failure.
class OutsideAllowedRoots : public InvalidArgument {
 public:
  explicit OutsideAllowedRoots(const std::string& message) : InvalidArgument(message) {}
};

/// How openConfined resolves a path.
enum class PathResolution {
  /// The kernel's openat2 where it applies, the walk otherwise.
  kKernelFirst,
  /// The walk only (what a kernel without openat2 gets).
  kWalk,
};

/// A file descriptor owned: closed with the object unless released.
class Descriptor {
 public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  ~Descriptor();
  Descriptor(Descriptor&& other) noexcept : fd_(other.release()) {}
  Descriptor& operator=(Descriptor&& other) noexcept;
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  /// Gives the descriptor up to the caller.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

/// A regular file open for reading (its descriptor owned) and its canonical path.
class ConfinedFile {
 public:
  ConfinedFile(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  ConfinedFile(ConfinedFile&&) noexcept = default;
  ConfinedFile& operator=(ConfinedFile&&) = delete;

  int fd() const { return fd_.get(); }
  const std::filesystem::path& path() const { return path_; }
  /// Gives the descriptor up to the caller.
  int release() { return fd_.release(); }

 private:
  Descriptor fd_;
  std::filesystem::path path_;
};

/// Whether `path` is `root` or below it, compared by components (both absolute
/// and canonical): /data/a is under /data, /data2/a is not.
bool underRoot(const std::filesystem::path& path, const std::filesystem::path& root);

/// Opens the regular file at `path` (absolute, or relative to the working
/// directory) for reading, as the comment above says. `roots` are canonical
/// directories. Throws OutsideAllowedRoots when the file's canonical path is
/// under none of them, and IoError naming `path` when it cannot be resolved or
/// opened (missing, a directory, not a regular file, too many symlinks, changed
/// on every attempt).
ConfinedFile openConfined(const std::string& path, std::span<const std::filesystem::path> roots,
                          PathResolution resolution = PathResolution::kKernelFirst);

}  // namespace quarry::cluster
