#pragma once

#include "quarry/io/storage.h"

/// Local files, read with pread so that concurrent readers share one descriptor.
namespace quarry::io {

class LocalStorageProvider : public StorageProvider {
 public:
  /// Opens a local file; throws IoError naming the path and the system's reason.
  std::unique_ptr<StorageObject> open(const std::string& path) override;
};

}  // namespace quarry::io
