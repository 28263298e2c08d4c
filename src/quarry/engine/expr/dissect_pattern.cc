#include "quarry/engine/expr/dissect_pattern.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

DissectPattern::DissectPattern(std::string_view pattern, std::string_view appendSeparator)
    : pattern_(pattern), separator_(appendSeparator) {
  const auto failure = [&](const std::string& why) {
    return InvalidArgument("DISSECT pattern " + quoteString(pattern) + ": " + why);
  };
  size_t at = pattern.find("%{");
  if (at == std::string_view::npos) throw failure("it has no %{key}");
  leading_ = pattern.substr(0, at);
  while (at != std::string_view::npos) {
    const size_t close = pattern.find('}', at + 2);
    if (close == std::string_view::npos)
      throw failure("the %{ at byte " + std::to_string(at) + " is not closed by }");
    std::string_view text = pattern.substr(at + 2, close - at - 2);
    const size_t next = pattern.find("%{", close + 1);
    Part part;
    part.delimiter = pattern.substr(
        close + 1, next == std::string_view::npos ? std::string_view::npos : next - close - 1);
    Key& key = part.key;
    if (text.ends_with("->")) {
      key.rightPadding = true;
      text.remove_suffix(2);
    }
    if (!text.empty() && (text[0] == '*' || text[0] == '&')) {
      throw failure("the reference key %{" + std::string(text) +
                    "} is not supported (ES|QL's DISSECT has none)");
    }
    if (!text.empty() && text[0] == '+') {
      key.append = true;
      text.remove_prefix(1);
      const size_t slash = text.rfind('/');
      if (slash != std::string_view::npos) {
        const std::string_view digits = text.substr(slash + 1);
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), key.order);
        if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
          throw failure("the append order of %{+" + std::string(text) + "} is not a number");
        }
        text = text.substr(0, slash);
      }
    } else if (!text.empty() && text[0] == '?') {
      key.skip = true;
      text.remove_prefix(1);
    }
    key.name = text;
    if (key.name.empty()) key.skip = true;
    parts_.push_back(std::move(part));
    at = next;
  }
  // A name appended anywhere is appended everywhere (its plain key comes first).
  std::set<std::string> appended;
  for (const Part& part : parts_) {
    if (part.key.append) appended.insert(part.key.name);
  }
  std::map<std::string, int> fieldOf;
  for (Part& part : parts_) {
    if (appended.count(part.key.name)) part.key.append = true;
    if (part.key.skip) continue;
    const auto [it, added] = fieldOf.try_emplace(part.key.name, static_cast<int>(fields_.size()));
    if (added) fields_.push_back({part.key.name, DataType::string()});
    part.key.field = it->second;
  }
  if (fields_.empty()) throw failure("every key is skipped: it names no column");
}

std::optional<std::vector<std::string>> DissectPattern::match(std::string_view value) const {
  // The leading text must start the value, which must be longer than it.
  if (value.size() <= leading_.size() || !value.starts_with(leading_)) return std::nullopt;
  const size_t n = value.size();
  std::vector<std::optional<std::string_view>> got(parts_.size());
  size_t k = 0;
  size_t i = leading_.size();
  size_t start = i;
  std::string_view delimiter = parts_[0].delimiter;
  const auto delimiterAt = [&](size_t p) {
    return !delimiter.empty() && value.compare(p, delimiter.size(), delimiter) == 0;
  };
  while (i < n) {
    if (!delimiterAt(i)) {
      ++i;
      continue;
    }
    got[k] = value.substr(start, i - start);
    i += delimiter.size();
    // A repeat of the delimiter is padding (->), else an empty value for the next key.
    while (i < n && delimiterAt(i)) {
      i += delimiter.size();
      if (parts_[k].key.rightPadding) continue;
      if (k + 1 == parts_.size()) break;
      got[++k] = std::string_view();
    }
    if (k + 1 == parts_.size()) break;
    delimiter = parts_[++k].delimiter;
    start = i;
  }
  // The last key without a delimiter after it takes the rest.
  if (!got[k] && delimiter.empty()) got[k] = value.substr(start);
  for (const auto& g : got) {
    if (!g) return std::nullopt;
  }
  std::vector<std::string> out(fields_.size());
  // Appended values join in their order (`/n`), then as written.
  std::vector<std::vector<std::pair<int, std::string_view>>> pieces(fields_.size());
  for (size_t p = 0; p < parts_.size(); ++p) {
    const Key& key = parts_[p].key;
    if (key.field < 0) continue;
    if (key.append) {
      pieces[key.field].emplace_back(key.order, *got[p]);
    } else {
      out[key.field] = *got[p];  // a name written twice keeps its last value
    }
  }
  for (size_t f = 0; f < fields_.size(); ++f) {
    if (pieces[f].empty()) continue;
    std::stable_sort(pieces[f].begin(), pieces[f].end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string joined;
    for (size_t j = 0; j < pieces[f].size(); ++j) {
      if (j > 0) joined += separator_;
      joined += pieces[f][j].second;
    }
    out[f] = std::move(joined);
  }
  return out;
}

void DissectPattern::extract(const Block& input, std::vector<Block>& out) const {
  for (size_t r = 0; r < input.size(); ++r) {
    std::optional<std::vector<std::string>> values;
    if (!input.isNull(r)) values = match(input.bytes(r));
    for (size_t f = 0; f < fields_.size(); ++f) {
      if (values) {
        out[f].appendBytes((*values)[f]);
      } else {
        out[f].appendNull();
      }
    }
  }
}

std::string DissectPattern::describe() const {
  std::string out = "DISSECT " + quoteString(pattern_);
  if (!separator_.empty()) out += " APPEND_SEPARATOR=" + quoteString(separator_);
  return out;
}

}  // namespace quarry::engine
