#pragma once

#include <string>
#include <vector>

/// The FILE arguments of `quarry print`, `convert` and `inspect`: paths, URIs
/// and glob patterns (io/glob.h: *, ?, [...], ** as a whole segment).
namespace quarry::cli {

/// Expands `arguments` in the order given, each pattern's matches sorted:
///   local paths and file:// URIs with a wildcard   io::globLocal (regular files)
///   s3:// URIs with a wildcard                      io::listS3 (ListObjectsV2)
///   http:// and https:// URIs                       taken literally (no listing)
///   anything without a wildcard                     taken literally
/// Throws InvalidArgument naming the pattern when a pattern matches nothing.
std::vector<std::string> expandFileArguments(const std::vector<std::string>& arguments);

}  // namespace quarry::cli
