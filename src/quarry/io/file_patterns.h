#pragma once

#include <optional>
#include <string>
#include <vector>

#include "quarry/io/glob.h"
#include "quarry/io/storage.h"

namespace quarry {
class ThreadPool;
}

/// File arguments and FROM sources: paths, URIs and glob patterns (glob.h: *, ?,
/// [...], ** as a whole segment), expanded the same way by the CLI and the engine.
namespace quarry::io {

/// Remembers local glob listings across queries (the engine's MetadataCache), and
/// learns what remote listings say of the objects they list.
class ListingMemory {
 public:
  virtual ~ListingMemory() = default;
  /// The files a local `pattern` matched when last listed, when nothing its
  /// listing read has changed since; nullopt otherwise.
  virtual std::optional<std::vector<std::string>> recall(const std::string& pattern,
                                                         ThreadPool* pool) = 0;
  /// Keeps what listing `pattern` found (when `listing` is reusable).
  virtual void remember(const std::string& pattern, const GlobListing& listing,
                        const std::vector<std::string>& matches) = 0;
  /// Learns the size and version (ETag) a remote listing gave for `uri`.
  virtual void listed(const std::string& uri, const ObjectIdentity& identity) = 0;
  /// What the remote `pattern` matched when last listed, while that listing is
  /// younger than the time to live the user opted into (the objects' identities
  /// as they were then, told through `listed`); nullopt otherwise, and always
  /// without that opt-in: listing again is how a change is seen.
  virtual std::optional<std::vector<std::string>> recallRemoteListing(const std::string& pattern) = 0;
  /// Keeps what listing the remote `pattern` found, when a time to live is set.
  virtual void rememberRemoteListing(const std::string& pattern,
                                     const std::vector<std::string>& matches) = 0;
};

/// The s3:// URIs an s3:// glob matches (listS3), each object's identity told to
/// `memory` when there is one; a listing `memory` recalls is not repeated.
std::vector<std::string> listS3Pattern(const std::string& pattern, ListingMemory* memory);

/// Expands `patterns` in the order given, each pattern's matches sorted:
///   local paths and file:// URIs with a wildcard   globLocal (regular files)
///   s3:// URIs with a wildcard                      listS3 (ListObjectsV2)
///   http:// and https:// URIs                       taken literally (no listing)
///   anything without a wildcard                     taken literally
/// Throws InvalidArgument naming the pattern when a pattern matches nothing. A
/// `pool` lists local directories in parallel (globLocal); a `memory` answers local
/// globs it recalls without listing them, and learns the others, and the identities
/// of the objects S3 listings find.
std::vector<std::string> expandFilePatterns(const std::vector<std::string>& patterns,
                                            ThreadPool* pool = nullptr,
                                            ListingMemory* memory = nullptr);

}  // namespace quarry::io
