#include "quarry/cli/json_row_shape.h"

#include <algorithm>
#include <string_view>

#include "quarry/common/json_text.h"

namespace quarry::cli {

namespace {

std::string quoted(std::string_view key) {
  std::string out;
  appendJsonString(out, key);
  return out;
}

std::vector<std::string> pathParts(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

}  // namespace

JsonRowShape::JsonRowShape(const std::vector<std::string>& names,
                           const std::function<bool(const std::string&)>& isPath) {
  const auto find = [](std::vector<Member>& members, const std::string& key) {
    return std::find_if(members.begin(), members.end(),
                        [&](const Member& m) { return m.key == key; });
  };
  std::vector<std::vector<std::string>> paths(names.size());
  std::vector<std::string> flatNames;
  for (size_t c = 0; c < names.size(); ++c) {
    if (names[c].find('.') != std::string::npos && isPath(names[c])) paths[c] = pathParts(names[c]);
    if (paths[c].empty()) flatNames.push_back(names[c]);
  }
  for (size_t c = 0; c < names.size(); ++c) {
    const std::string& name = names[c];
    const std::vector<std::string>& parts = paths[c];
    bool placed = false;
    if (parts.size() > 1 &&
        std::none_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); }) &&
        std::find(flatNames.begin(), flatNames.end(), parts.front()) == flatNames.end()) {
      // Walk the objects the path names; a leaf in the way, or the path's end
      // already taken, leaves the column flat.
      std::vector<Member>* level = &top_;
      bool blocked = false;
      for (size_t k = 0; k + 1 < parts.size() && !blocked; ++k) {
        const std::string key = quoted(parts[k]);
        auto it = find(*level, key);
        if (it == level->end()) {
          level->push_back(Member{key, -1, {}});
          level = &level->back().members;
        } else if (it->column >= 0) {
          blocked = true;
        } else {
          level = &it->members;
        }
      }
      const std::string key = quoted(parts.back());
      if (!blocked && find(*level, key) == level->end()) {
        level->push_back(Member{key, static_cast<int>(c), {}});
        placed = true;
      }
    }
    if (!placed) top_.push_back(Member{quoted(name), static_cast<int>(c), {}});
  }
}

}  // namespace quarry::cli
