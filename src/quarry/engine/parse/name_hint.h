#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

/// Hints for a name the query got wrong: the closest candidate by edit
/// distance, shared by the parser (commands), the binder (columns, functions)
/// and the planner (KEEP / DROP / RENAME).
namespace quarry::engine {

/// Levenshtein distance, ASCII letters compared case-insensitively.
size_t editDistance(std::string_view a, std::string_view b);

/// "did you mean X?" for the closest of `candidates` within a third of the
/// word's length (at least 2 edits), else "`what`: " and the first few
/// candidates; "" when there are none.
template <typename Names>
std::string closestHint(std::string_view word, const Names& candidates, const char* what) {
  std::string best;
  size_t bestDistance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const size_t distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = std::string(candidate);
      bestDistance = distance;
    }
  }
  if (!best.empty()) return "did you mean " + best + "?";
  std::string list;
  size_t shown = 0;
  for (const auto& candidate : candidates) {
    if (shown == 8) {
      list += ", ...";
      break;
    }
    list += (shown++ == 0 ? "" : ", ") + std::string(candidate);
  }
  return list.empty() ? std::string() : std::string(what) + ": " + list;
}

}  // namespace quarry::engine
