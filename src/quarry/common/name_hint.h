#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

/// "did you mean ...?" for a name the user got wrong: a query's command, option,
/// column or function, a subcommand, an option or a view of the command line, a
/// --columns name. One distance and one threshold for all of them, so that a typo
/// gets the same suggestion wherever it is made.
namespace quarry {

/// Damerau-Levenshtein distance (optimal string alignment: insertions, deletions,
/// substitutions and transpositions of two adjacent characters cost 1 each), ASCII
/// letters compared case-insensitively. "qeury" is 1 from "query", "vendr" 1 from
/// "vendor".
size_t editDistance(std::string_view a, std::string_view b);

/// The largest distance at which `word` is taken for a typo of a candidate: a
/// third of its length, at least 2.
inline size_t typoDistance(std::string_view word) {
  return std::max<size_t>(2, word.size() / 3);
}

/// Returns the candidate closest to `word` within typoDistance(word) (the first of
/// equally close ones), or "" when none is that close.
template <typename Names>
std::string closestName(std::string_view word, const Names& candidates) {
  std::string best;
  size_t bestDistance = typoDistance(word) + 1;
  for (const auto& candidate : candidates) {
    const std::string_view name(candidate);
    const size_t distance = editDistance(word, name);
    if (distance < bestDistance) {
      best = std::string(name);
      bestDistance = distance;
    }
  }
  return best;
}

/// "did you mean X?" for closestName(word, candidates), else "`what`: " and the
/// first `most` candidates (then "..."); "" when there are none. Lists the user
/// should read whole (function names) pass SIZE_MAX; a wide table's columns do not.
template <typename Names>
std::string closestHint(std::string_view word, const Names& candidates, const char* what,
                        size_t most = 8) {
  const std::string best = closestName(word, candidates);
  if (!best.empty()) return "did you mean " + best + "?";
  std::string list;
  size_t shown = 0;
  for (const auto& candidate : candidates) {
    if (shown == most) {
      list += ", ...";
      break;
    }
    list += (shown++ == 0 ? "" : ", ") + std::string(std::string_view(candidate));
  }
  return list.empty() ? std::string() : std::string(what) + ": " + list;
}

}  // namespace quarry
