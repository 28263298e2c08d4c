#pragma once

#include <optional>

#include "quarry/io/storage.h"

/// Local files, read with pread so that concurrent readers share one descriptor.
///
/// A file's identity (device, inode, size, modification time in nanoseconds) is
/// pinned when it is opened, and checked again by checkUnchanged once a split or
/// a command's reads are done: a file written to in place meanwhile (`cp new
/// old`, an editor saving) would otherwise give bytes of neither version, hence a
/// silently wrong answer. Opened with the identity an earlier open learnt (a
/// split carries its footer read's), the file must still have that size and
/// modification time. Either change is an IoError naming the file; a file
/// replaced by a rename is not one, as the descriptor keeps reading the file it
/// opened.
namespace quarry::io {

class LocalStorageProvider : public StorageProvider {
 public:
  /// Opens a local file; throws IoError naming the path and the system's reason.
  std::unique_ptr<StorageObject> open(const std::string& path) override;

  /// Opens a local file that must still be `known` (its size, and its version
  /// when given); throws IoError naming the path when it is not.
  std::unique_ptr<StorageObject> open(const std::string& path,
                                      const std::optional<ObjectIdentity>& known);

  /// Reads the file already open as `fd` (taken: closed with the object, or at
  /// once when this throws); `path` names it in errors. No path is resolved:
  /// a caller that checked what it opened (a data node confining its reads to
  /// its allowed roots) reads exactly that file. Throws IoError naming `path`
  /// when `fd` is a directory or cannot be stat'ed, or is not `known`.
  static std::unique_ptr<StorageObject> openDescriptor(
      std::string path, int fd, const std::optional<ObjectIdentity>& known = std::nullopt);
};

}  // namespace quarry::io
