#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/cluster/confined_open.h"
#include "quarry/io/storage.h"

/// Where a data node may read: local directories and URI prefixes given with
/// `quarry serve --allow-root`. A split outside them is refused before anything
/// is opened.
///
/// - A local path (a root or a split's URI without a scheme, or file://) is made
///   absolute and canonical (std::filesystem::weakly_canonical: `.`, `..` and
///   every symlink of the existing part resolved), then compared with each local
///   root by path components: /data/a is under /data, /data2/a is not, and a
///   symlink under /data pointing at /etc is not. That check refuses early;
///   the file itself is opened by openLocal, which resolves the path again,
///   once, and reads the descriptor it checked (confined_open.h): a symlink
///   flipped between the two cannot lead the read outside.
/// - An http://, https:// or s3:// URI with a `..` or `.` segment (also
///   percent-encoded) is refused; else it is allowed when it starts with a URI
///   root at a segment boundary (s3://bucket allows s3://bucket/x, not
///   s3://bucket2/x).
/// - Any other scheme is refused.
namespace quarry::cluster {

class AllowedRoots {
 public:
  /// Throws InvalidArgument for an empty list, a local root that is not a
  /// directory, or a root with an unknown scheme.
  explicit AllowedRoots(const std::vector<std::string>& roots);

  /// Returns why `uri` may not be read, or nullopt when it may.
  std::optional<std::string> refusal(const std::string& uri) const;

  /// Opens the local file `uri` names (a path or file://) for reading with
  /// openConfined under the local roots: the object reads the file that was
  /// checked, whatever its path names later. Throws OutsideAllowedRoots when
  /// it resolves outside them, IoError when it cannot be opened.
  std::unique_ptr<io::StorageObject> openLocal(const std::string& uri) const;

 private:
  std::vector<std::filesystem::path> localRoots_;
  std::vector<std::string> uriRoots_;
};

}  // namespace quarry::cluster
