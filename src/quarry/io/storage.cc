#include "quarry/io/storage.h"

#include <algorithm>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/io/local_storage.h"

namespace quarry::io {

std::vector<uint8_t> StorageObject::readTail(uint64_t length) {
  const uint64_t total = size();
  const uint64_t n = std::min(length, total);
  std::vector<uint8_t> out(n);
  readAt(total - n, out);
  return out;
}

std::unique_ptr<StorageObject> openObject(const std::string& uri) {
  static constexpr std::string_view kFileScheme = "file://";
  if (uri.starts_with(kFileScheme)) return LocalStorageProvider().open(uri.substr(kFileScheme.size()));
  const auto scheme = uri.find("://");
  if (scheme != std::string::npos) {
    throw IoError(uri + ": the scheme '" + uri.substr(0, scheme) + "' is not supported");
  }
  return LocalStorageProvider().open(uri);
}

}  // namespace quarry::io
