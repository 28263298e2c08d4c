#pragma once

#include <string>
#include <string_view>
#include <vector>

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

/// Lists the regular files matching a local `pattern`, sorted; a pattern without
/// wildcards gives itself when that file exists. Directories that cannot be read are
/// skipped; no match gives an empty list (the caller words that error). With a
/// `pool`, the directories of one depth are listed in parallel on it (a dataset
/// partitioned into 1,000 directories is 1,000 listings, each a few system calls).
std::vector<std::string> globLocal(const std::string& pattern, ThreadPool* pool = nullptr);

}  // namespace quarry::io
