#pragma once

#include <string>
#include <vector>

namespace quarry {
class ThreadPool;
}

/// File arguments and FROM sources: paths, URIs and glob patterns (glob.h: *, ?,
/// [...], ** as a whole segment), expanded the same way by the CLI and the engine.
namespace quarry::io {

/// Expands `patterns` in the order given, each pattern's matches sorted:
///   local paths and file:// URIs with a wildcard   globLocal (regular files)
///   s3:// URIs with a wildcard                      listS3 (ListObjectsV2)
///   http:// and https:// URIs                       taken literally (no listing)
///   anything without a wildcard                     taken literally
/// Throws InvalidArgument naming the pattern when a pattern matches nothing. A
/// `pool` lists local directories in parallel (globLocal).
std::vector<std::string> expandFilePatterns(const std::vector<std::string>& patterns,
                                            ThreadPool* pool = nullptr);

}  // namespace quarry::io
