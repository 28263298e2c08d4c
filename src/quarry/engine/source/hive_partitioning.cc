#include "quarry/engine/source/hive_partitioning.h"

#include <algorithm>
#include <charconv>

#include "quarry/common/error.h"
#include "quarry/common/percent_decoding.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/common/values.h"

namespace quarry::engine {
namespace {

constexpr std::string_view kDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

bool isNullText(std::string_view text) {
  if (text == kDefaultPartition) return true;
  if (text.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    const char c =
        static_cast<char>(text[i] >= 'a' && text[i] <= 'z' ? text[i] - 'a' + 'A' : text[i]);
    if (c != "NULL"[i]) return false;
  }
  return true;
}

/// The path part of `uri`: after "scheme://authority" (an S3 bucket, an HTTP
/// host), before an HTTP query or fragment.
std::string_view pathOf(std::string_view uri) {
  const size_t scheme = uri.find("://");
  if (scheme == std::string_view::npos) return uri;
  const std::string_view kind = uri.substr(0, scheme);
  std::string_view rest = uri.substr(scheme + 3);
  if (kind == "file") return rest;
  const size_t slash = rest.find('/');
  rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  if (kind == "http" || kind == "https") rest = rest.substr(0, rest.find_first_of("?#"));
  return rest;
}

/// Reads `count` (1..max) decimal digits at `text[pos]`, advancing `pos`.
bool digits(std::string_view text, size_t& pos, size_t minCount, size_t maxCount, int64_t& out) {
  size_t n = 0;
  out = 0;
  while (pos < text.size() && n < maxCount && text[pos] >= '0' && text[pos] <= '9') {
    out = out * 10 + (text[pos] - '0');
    ++pos;
    ++n;
  }
  return n >= minCount;
}

std::optional<Date> parseDatePrefix(std::string_view text, size_t& pos) {
  int64_t year = 0, month = 0, day = 0;
  if (!digits(text, pos, 4, 4, year) || pos >= text.size() || text[pos++] != '-')
    return std::nullopt;
  if (!digits(text, pos, 1, 2, month) || pos >= text.size() || text[pos++] != '-')
    return std::nullopt;
  if (!digits(text, pos, 1, 2, day)) return std::nullopt;
  if (month < 1 || month > 12 || day < 1) return std::nullopt;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int last = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  if (day > last) return std::nullopt;
  return Date::ofCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
}

std::optional<int32_t> parseDate(std::string_view text) {
  size_t pos = 0;
  std::optional<Date> date = parseDatePrefix(text, pos);
  if (!date || pos != text.size()) return std::nullopt;
  return date->daysSinceEpoch;
}

/// Microseconds since the epoch of a local date-time (a date alone is its midnight).
std::optional<int64_t> parseTimestamp(std::string_view text) {
  size_t pos = 0;
  std::optional<Date> date = parseDatePrefix(text, pos);
  if (!date) return std::nullopt;
  int64_t micros = static_cast<int64_t>(date->daysSinceEpoch) * 86'400'000'000;
  if (pos == text.size()) return micros;
  if (text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  ++pos;
  int64_t hour = 0, minute = 0, second = 0, fraction = 0;
  if (!digits(text, pos, 2, 2, hour) || pos >= text.size() || text[pos++] != ':')
    return std::nullopt;
  if (!digits(text, pos, 2, 2, minute)) return std::nullopt;
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!digits(text, pos, 2, 2, second)) return std::nullopt;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      size_t n = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (n < 6) fraction = fraction * 10 + (text[pos] - '0');
        ++pos;
        ++n;
      }
      if (n == 0 || n > 9) return std::nullopt;
      for (size_t k = n; k < 6; ++k) fraction *= 10;
    }
  }
  if (pos < text.size() && text[pos] == 'Z') ++pos;
  if (pos != text.size() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  return micros + ((hour * 60 + minute) * 60 + second) * 1'000'000 + fraction;
}

/// `strict` (autocast): only the text an integer prints as (no leading zero, no
/// sign but '-', not "-0"); otherwise (a type hive_types gives) any sign and zeros.
std::optional<int64_t> parseInteger(std::string_view text, bool strict) {
  if (!strict && !text.empty() && text[0] == '+') text.remove_prefix(1);
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view body = text.substr(negative ? 1 : 0);
  if (body.empty() || (strict && body[0] == '0' && (body.size() > 1 || negative))) return std::nullopt;
  if (!std::all_of(body.begin(), body.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::pair<std::string, std::optional<std::string>>> hivePathSegments(
    std::string_view uri) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  std::string_view path = pathOf(uri);
  const size_t lastSlash = path.rfind('/');
  if (lastSlash == std::string_view::npos) return out;
  path = path.substr(0, lastSlash);  // the directories only
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    const size_t eq = segment.find('=');
    if (eq != std::string_view::npos && eq > 0) {
      std::string key(segment.substr(0, eq));
      const bool seen =
          std::any_of(out.begin(), out.end(), [&](const auto& kv) { return kv.first == key; });
      if (!seen) {
        std::string value = percentDecode(segment.substr(eq + 1));
        out.emplace_back(std::move(key), isNullText(value)
                                             ? std::nullopt
                                             : std::optional<std::string>(std::move(value)));
      }
    }
    start = end + 1;
  }
  return out;
}

DataType autocastHiveType(std::span<const std::string> values) {
  if (values.empty()) return DataType::string();
  auto all = [&](auto&& reads) { return std::all_of(values.begin(), values.end(), reads); };
  if (all([](const std::string& v) { return parseDate(v).has_value(); })) return DataType::date();
  if (all([](const std::string& v) { return parseTimestamp(v).has_value(); })) {
    return DataType::timestamp(TimeUnit::kMicros, false);
  }
  if (all([](const std::string& v) { return parseInteger(v, true).has_value(); }))
    return DataType::int64();
  return DataType::string();
}

std::optional<Scalar> castHiveValue(std::string_view text, const DataType& type) {
  switch (type.kind) {
    case TypeKind::kString:
      return Scalar(std::string(text));
    case TypeKind::kDate:
      if (std::optional<int32_t> days = parseDate(text)) return Scalar(*days);
      return std::nullopt;
    case TypeKind::kTimestamp:
      if (std::optional<int64_t> micros = parseTimestamp(text)) return Scalar(*micros);
      return std::nullopt;
    case TypeKind::kInt64:
      if (std::optional<int64_t> value = parseInteger(text, false)) return Scalar(*value);
      return std::nullopt;
    case TypeKind::kInt32: {
      std::optional<int64_t> value = parseInteger(text, false);
      if (!value || *value < INT32_MIN || *value > INT32_MAX) return std::nullopt;
      return Scalar(static_cast<int32_t>(*value));
    }
    case TypeKind::kDouble: {
      double value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
      return Scalar(value);
    }
    case TypeKind::kBoolean:
      if (text == "true") return Scalar(uint8_t{1});
      if (text == "false") return Scalar(uint8_t{0});
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

DataType hiveTypeNamed(std::string_view name) {
  if (name == "integer" || name == "int" || name == "int32") return DataType::int32();
  if (name == "bigint" || name == "int64") return DataType::int64();
  if (name == "double") return DataType::float64();
  if (name == "date") return DataType::date();
  if (name == "timestamp") return DataType::timestamp(TimeUnit::kMicros, false);
  if (name == "boolean" || name == "bool") return DataType::boolean();
  return DataType::string();
}

HivePartitions readHivePartitions(std::span<const std::string> uris, std::optional<bool> enabled,
                                  std::span<const HiveType> hiveTypes) {
  HivePartitions out;
  if (enabled == false || uris.empty()) return out;
  const bool explicitly = enabled == true || !hiveTypes.empty();
  std::vector<std::vector<std::pair<std::string, std::optional<std::string>>>> segments;
  segments.reserve(uris.size());
  for (const std::string& uri : uris) segments.push_back(hivePathSegments(uri));
  // Every path must have the keys of the first (and no other).
  auto keysOf = [](const auto& pairs) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : pairs) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  const std::vector<std::string> keys = keysOf(segments[0]);
  if (keys.empty() && !explicitly) return out;
  for (size_t f = 1; f < uris.size(); ++f) {
    const std::vector<std::string> other = keysOf(segments[f]);
    if (other == keys) continue;
    if (!explicitly) return out;
    const bool missingHere = std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
      return !std::binary_search(other.begin(), other.end(), k);
    });
    std::string key;
    for (const std::string& k : missingHere ? keys : other) {
      const std::vector<std::string>& in = missingHere ? other : keys;
      if (!std::binary_search(in.begin(), in.end(), k)) {
        key = k;
        break;
      }
    }
    throw InvalidArgument("hive partitioning: " + redactUri(uris[missingHere ? 0 : f]) +
                          " has the key \"" + key + "\", which " +
                          redactUri(uris[missingHere ? f : 0]) +
                          " does not have; every path needs the same key=value folders, or WITH "
                          "{\"hive_partitioning\": false} reads them as plain folders");
  }
  for (const HiveType& given : hiveTypes) {
    if (!std::binary_search(keys.begin(), keys.end(), given.column)) {
      std::string list;
      for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
      throw InvalidArgument(
          "hive_types names \"" + given.column + "\", which is no partition key of the paths" +
          (list.empty() ? std::string(" (they have none)") : " (keys: " + list + ")"));
    }
  }
  // The values of each key, by file, then the column's type.
  out.values.assign(uris.size(), std::vector<Scalar>(keys.size()));
  for (size_t k = 0; k < keys.size(); ++k) {
    std::vector<const std::optional<std::string>*> texts(uris.size());
    std::vector<std::string> present;
    for (size_t f = 0; f < uris.size(); ++f) {
      for (const auto& [key, value] : segments[f]) {
        if (key != keys[k]) continue;
        texts[f] = &value;
        if (value) present.push_back(*value);
      }
    }
    const auto given = std::find_if(hiveTypes.begin(), hiveTypes.end(),
                                    [&](const HiveType& t) { return t.column == keys[k]; });
    const DataType type =
        given != hiveTypes.end() ? hiveTypeNamed(given->type) : autocastHiveType(present);
    out.columns.push_back(Field{keys[k], type});
    for (size_t f = 0; f < uris.size(); ++f) {
      if (!*texts[f]) continue;  // null
      std::optional<Scalar> value = castHiveValue(**texts[f], type);
      if (!value) {
        throw InvalidArgument("hive partitioning: " + redactUri(uris[f]) + ": the value \"" +
                              **texts[f] + "\" of partition column \"" + keys[k] + "\" is not a " +
                              type.toString() + " (hive_types gives it that type)");
      }
      out.values[f][k] = std::move(*value);
    }
  }
  return out;
}

}  // namespace quarry::engine
