#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/io/local_stamp.h"

namespace quarry {
class ThreadPool;
}

/// Glob patterns over '/'-separated paths, the same for local files and S3 keys:
///   *       any run of characters within one path segment
///   ?       one character other than '/'
///   [a-c]   one character of a set ([!a-c] or [^a-c]: not of it)
///   **      as a whole segment, zero or more segments: "data/**/*.parquet" matches
///           data/x.parquet and data/2024/01/x.parquet (elsewhere it acts as '*')
namespace quarry::io {

/// Returns whether `pattern` holds a wildcard (*, ? or [).
bool hasGlob(std::string_view pattern);

/// Returns the part of `pattern` before its first wildcard, the prefix every match
/// starts with ("data/2024-*/x" -> "data/2024-"); all of it when it has none.
std::string_view globLiteralPrefix(std::string_view pattern);

/// Returns whether `path` matches `pattern` in full.
bool globMatch(std::string_view pattern, std::string_view path);

/// The directories a local glob read, each stamped (local_stamp.h) before it was
/// read: while every stamp holds, the glob matches the same files. `reusable` is
/// false when no stamp can vouch for the listing: a directory that could not be
/// read, a symbolic link or an entry of unknown type in one (what it points to can
/// change with no change to the directory), a stamp not settled, or a pattern
/// without wildcards.
struct GlobListing {
  std::vector<std::pair<std::string, LocalStamp>> directories;  // "" is the working directory
  bool reusable = true;
};

/// Lists the regular files matching a local `pattern`, sorted; a pattern without
/// wildcards gives itself when that file exists. Directories that cannot be read are
/// skipped; no match gives an empty list (the caller words that error). With a
/// `pool`, the directories of one depth are listed in parallel on it (a dataset
/// partitioned into 1,000 directories is 1,000 listings, each a few system calls).
/// With a `listing`, records what the result depends on.
std::vector<std::string> globLocal(const std::string& pattern, ThreadPool* pool = nullptr,
                                   GlobListing* listing = nullptr);

}  // namespace quarry::io
