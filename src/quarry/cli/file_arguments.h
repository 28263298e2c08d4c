#pragma once

#include <string>
#include <vector>

/// The FILE arguments of `quarry print`, `convert` and `inspect`: paths, URIs
/// and glob patterns (io/glob.h: *, ?, [...], ** as a whole segment).
namespace quarry::cli {

/// Expands `arguments` as io::expandFilePatterns does (io/file_patterns.h: each
/// pattern's matches sorted; InvalidArgument naming a pattern that matches nothing).
std::vector<std::string> expandFileArguments(const std::vector<std::string>& arguments);

}  // namespace quarry::cli
