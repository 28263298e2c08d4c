#pragma once

#include "quarry/io/storage.h"

/// Local files, read with pread so that concurrent readers share one descriptor.
namespace quarry::io {

class LocalStorageProvider : public StorageProvider {
 public:
  /// Opens a local file; throws IoError naming the path and the system's reason.
  std::unique_ptr<StorageObject> open(const std::string& path) override;

  /// Reads the file already open as `fd` (taken: closed with the object, or at
  /// once when this throws); `path` names it in errors. No path is resolved:
  /// a caller that checked what it opened (a data node confining its reads to
  /// its allowed roots) reads exactly that file. Throws IoError naming `path`
  /// when `fd` is a directory or cannot be stat'ed.
  static std::unique_ptr<StorageObject> openDescriptor(std::string path, int fd);
};

}  // namespace quarry::io
