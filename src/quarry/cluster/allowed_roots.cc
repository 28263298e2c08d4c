#include "quarry/cluster/allowed_roots.h"

#include <algorithm>
#include <cctype>

#include "quarry/common/error.h"
#include "quarry/io/local_storage.h"

namespace quarry::cluster {

namespace {

enum class UriKind { kLocal, kRemote, kUnknown };

UriKind kindOf(const std::string& uri) {
  const size_t scheme = uri.find("://");
  if (scheme == std::string::npos) return UriKind::kLocal;
  std::string name = uri.substr(0, scheme);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (name == "file") return UriKind::kLocal;
  if (name == "http" || name == "https" || name == "s3") return UriKind::kRemote;
  return UriKind::kUnknown;
}

std::string localPath(const std::string& uri) {
  return uri.rfind("file://", 0) == 0 ? uri.substr(7) : uri;
}

std::filesystem::path canonical(const std::string& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  if (error) return {};
  std::filesystem::path resolved = std::filesystem::weakly_canonical(absolute, error);
  if (error) return {};
  return resolved;
}

/// Whether a segment of the URI's path is `.` or `..`, written plainly or percent-encoded.
bool hasDotSegment(const std::string& uri) {
  std::string lower = uri;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  std::string decoded;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (lower.compare(i, 3, "%2e") == 0) {
      decoded += '.';
      i += 2;
    } else if (lower.compare(i, 3, "%2f") == 0 || lower.compare(i, 3, "%5c") == 0 ||
               lower[i] == '\\') {
      decoded += '/';
      if (lower[i] == '%') i += 2;
    } else {
      decoded += lower[i];
    }
  }
  const size_t scheme = decoded.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  size_t begin = start;
  while (begin <= decoded.size()) {
    size_t end = decoded.find_first_of("/?#", begin);
    if (end == std::string::npos) end = decoded.size();
    const std::string segment = decoded.substr(begin, end - begin);
    if (segment == ".." || segment == ".") return true;
    if (end < decoded.size() && (decoded[end] == '?' || decoded[end] == '#')) break;
    begin = end + 1;
  }
  return false;
}

}  // namespace

AllowedRoots::AllowedRoots(const std::vector<std::string>& roots) {
  if (roots.empty()) throw InvalidArgument("at least one allowed root is needed");
  for (const std::string& root : roots) {
    switch (kindOf(root)) {
      case UriKind::kLocal: {
        std::filesystem::path path = canonical(localPath(root));
        std::error_code error;
        if (path.empty() || !std::filesystem::is_directory(path, error)) {
          throw InvalidArgument("the allowed root " + root + " is not a directory");
        }
        localRoots_.push_back(std::move(path));
        break;
      }
      case UriKind::kRemote:
        if (hasDotSegment(root))
          throw InvalidArgument("the allowed root " + root + " has a '.' or '..' segment");
        uriRoots_.push_back(root);
        break;
      case UriKind::kUnknown:
        throw InvalidArgument("the allowed root " + root +
                              " is neither a local directory nor an http(s):// or s3:// prefix");
    }
  }
}

std::optional<std::string> AllowedRoots::refusal(const std::string& uri) const {
  switch (kindOf(uri)) {
    case UriKind::kLocal: {
      const std::filesystem::path path = canonical(localPath(uri));
      if (path.empty()) return uri + " cannot be resolved to a local path";
      for (const std::filesystem::path& root : localRoots_) {
        if (underRoot(path, root)) return std::nullopt;
      }
      return uri + " is outside the allowed roots";
    }
    case UriKind::kRemote:
      if (hasDotSegment(uri)) return uri + " has a '.' or '..' segment";
      for (const std::string& root : uriRoots_) {
        // At a segment boundary: s3://bucket allows s3://bucket/x, not s3://bucket2/x.
        if (uri.compare(0, root.size(), root) == 0 &&
            (root.back() == '/' || uri.size() == root.size() || uri[root.size()] == '/')) {
          return std::nullopt;
        }
      }
      return uri + " is outside the allowed roots";
    case UriKind::kUnknown:
      break;
  }
  return uri + " has a scheme a data node does not read";
}

std::unique_ptr<io::StorageObject> AllowedRoots::openLocal(const std::string& uri) const {
  if (kindOf(uri) != UriKind::kLocal) throw InvalidArgument(uri + " is not a local path");
  const std::string path = localPath(uri);
  ConfinedFile file = openConfined(path, localRoots_);
  return io::LocalStorageProvider::openDescriptor(path, file.release());
}

}  // namespace quarry::cluster
