#include "quarry/engine/expr/grok_pattern.h"

#include <re2/re2.h>

#include <charconv>
#include <cstdint>
#include <utility>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

namespace {

/// The named patterns: quarry's own expressions for what Elastic's grok
/// documentation describes each name to match, in RE2's syntax (no lookaround).
/// An expression may name others with %{NAME}.
constexpr std::pair<std::string_view, std::string_view> kLibrary[] = {
    // Words and text.
    {"WORD", R"re(\b\w+\b)re"},
    {"NOTSPACE", R"re(\S+)re"},
    {"SPACE", R"re(\s*)re"},
    {"DATA", R"re(.*?)re"},
    {"GREEDYDATA", R"re(.*)re"},
    {"QUOTEDSTRING", R"re("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)re"},
    {"QS", R"re(%{QUOTEDSTRING})re"},
    {"UUID", R"re([A-Fa-f0-9]{8}-(?:[A-Fa-f0-9]{4}-){3}[A-Fa-f0-9]{12})re"},
    {"USERNAME", R"re([a-zA-Z0-9._-]+)re"},
    {"USER", R"re(%{USERNAME})re"},
    {"EMAILLOCALPART",
     R"re([a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*)re"},
    {"EMAILADDRESS", R"re(%{EMAILLOCALPART}@%{HOSTNAME})re"},
    // Numbers.
    {"INT", R"re([+-]?[0-9]+)re"},
    {"BASE10NUM", R"re([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))re"},
    {"NUMBER", R"re(%{BASE10NUM})re"},
    {"BASE16NUM", R"re([+-]?(?:0[xX])?[0-9A-Fa-f]+)re"},
    {"POSINT", R"re(\b[1-9][0-9]*\b)re"},
    {"NONNEGINT", R"re(\b[0-9]+\b)re"},
    // Networks.
    {"IPV4",
     R"re((?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))re"},
    // The forms with an IPv4 tail first: RE2 takes the first alternative that matches.
    {"IPV6",
     R"re((?:[0-9A-Fa-f]{1,4}:){6}%{IPV4}|::(?:[fF]{4}:)?%{IPV4}|(?:[0-9A-Fa-f]{1,4}:){1,5}:%{IPV4}|)re"
     R"re((?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}:[0-9A-Fa-f]{1,4}|)re"
     R"re((?:[0-9A-Fa-f]{1,4}:){1,5}(?::[0-9A-Fa-f]{1,4}){1,2}|(?:[0-9A-Fa-f]{1,4}:){1,4}(?::[0-9A-Fa-f]{1,4}){1,3}|)re"
     R"re((?:[0-9A-Fa-f]{1,4}:){1,3}(?::[0-9A-Fa-f]{1,4}){1,4}|(?:[0-9A-Fa-f]{1,4}:){1,2}(?::[0-9A-Fa-f]{1,4}){1,5}|)re"
     R"re([0-9A-Fa-f]{1,4}:(?::[0-9A-Fa-f]{1,4}){1,6}|(?:[0-9A-Fa-f]{1,4}:){1,7}:|:(?:(?::[0-9A-Fa-f]{1,4}){1,7}|:))re"},
    {"IP", R"re(%{IPV6}|%{IPV4})re"},
    {"HOSTNAME", R"re(\b[0-9A-Za-z][0-9A-Za-z-]{0,62}(?:\.[0-9A-Za-z][0-9A-Za-z-]{0,62})*\.?)re"},
    {"HOST", R"re(%{HOSTNAME})re"},
    {"IPORHOST", R"re(%{IP}|%{HOSTNAME})re"},
    {"HOSTPORT", R"re(%{IPORHOST}:%{POSINT})re"},
    {"MAC", R"re((?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}|(?:[0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4})re"},
    // Paths and URIs.
    {"UNIXPATH", R"re((?:/[^/\s]*)+)re"},
    {"URIPROTO", R"re([A-Za-z][A-Za-z0-9+.-]*)re"},
    {"URIHOST", R"re(%{IPORHOST}(?::%{POSINT})?)re"},
    {"URIPATH", R"re((?:/[A-Za-z0-9$.+!*'(){},~:;=@#%&_-]*)+)re"},
    {"URIPARAM", R"re(\?[A-Za-z0-9$.+!*'|(){},~@#%&/=:;_?\[\]<>-]*)re"},
    {"URIPATHPARAM", R"re(%{URIPATH}(?:%{URIPARAM})?)re"},
    {"URI", R"re(%{URIPROTO}://(?:%{USER}(?::[^@]*)?@)?(?:%{URIHOST})?(?:%{URIPATHPARAM})?)re"},
    // Dates and times.
    {"MONTH",
     R"re(\b(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|[Mm]ay|[Jj]une?|[Jj]uly?|)re"
     R"re([Aa]ug(?:ust)?|[Ss]ep(?:t(?:ember)?)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)\b)re"},
    {"MONTHNUM", R"re(0?[1-9]|1[0-2])re"},
    {"MONTHDAY", R"re(0[1-9]|[12][0-9]|3[01]|[1-9])re"},
    {"DAY",
     R"re(\b(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)\b)re"},
    {"YEAR", R"re([0-9]{4}|[0-9]{2})re"},
    {"HOUR", R"re(2[0-3]|[01]?[0-9])re"},
    {"MINUTE", R"re([0-5][0-9])re"},
    {"SECOND", R"re((?:[0-5]?[0-9]|60)(?:[:.,][0-9]+)?)re"},
    {"TIME", R"re(%{HOUR}:%{MINUTE}(?::%{SECOND})?)re"},
    {"ISO8601_TIMEZONE", R"re(Z|[+-]%{HOUR}(?::?%{MINUTE})?)re"},
    {"TIMESTAMP_ISO8601",
     R"re(%{YEAR}-%{MONTHNUM}-%{MONTHDAY}[T ]%{HOUR}:?%{MINUTE}(?::?%{SECOND})?(?:%{ISO8601_TIMEZONE})?)re"},
    {"DATE_US", R"re(%{MONTHNUM}[/-]%{MONTHDAY}[/-]%{YEAR})re"},
    {"DATE_EU", R"re(%{MONTHDAY}[./-]%{MONTHNUM}[./-]%{YEAR})re"},
    {"HTTPDATE", R"re(%{MONTHDAY}/%{MONTH}/%{YEAR}:%{TIME} %{INT})re"},
    {"SYSLOGTIMESTAMP", R"re(%{MONTH} +%{MONTHDAY} %{TIME})re"},
    // Logs.
    {"LOGLEVEL",
     R"re([Aa]lert|ALERT|[Tt]race|TRACE|[Dd]ebug|DEBUG|[Nn]otice|NOTICE|[Ii]nfo(?:rmation)?|INFO(?:RMATION)?|)re"
     R"re([Ww]arn(?:ing)?|WARN(?:ING)?|[Ee]rr(?:or)?|ERR(?:OR)?|[Cc]rit(?:ical)?|CRIT(?:ICAL)?|[Ff]atal|FATAL|)re"
     R"re([Ss]evere|SEVERE|[Ee]merg(?:ency)?|EMERG(?:ENCY)?)re"},
};

constexpr int kMaxDepth = 16;

std::string_view libraryExpression(std::string_view name) {
  for (const auto& [n, e] : kLibrary) {
    if (n == name) return e;
  }
  return {};
}

class Expander {
 public:
  explicit Expander(std::string_view pattern) : pattern_(pattern) {}

  InvalidArgument failure(const std::string& why) const {
    return InvalidArgument("GROK pattern " + quoteString(pattern_) + ": " + why);
  }

  /// Appends `text` with each %{...} expanded; captures only at depth 0.
  void expand(std::string_view text, int depth, std::string& out) {
    if (depth > kMaxDepth)
      throw failure("named patterns nest deeper than " + std::to_string(kMaxDepth));
    size_t i = 0;
    while (i < text.size()) {
      const size_t open = text.find("%{", i);
      if (open == std::string_view::npos) {
        out += text.substr(i);
        break;
      }
      out += text.substr(i, open - i);
      const size_t close = text.find('}', open + 2);
      if (close == std::string_view::npos) {
        throw failure("the %{ at byte " + std::to_string(open) + " is not closed by }");
      }
      reference(text.substr(open + 2, close - open - 2), depth, out);
      i = close + 1;
    }
  }

  Schema fields;
  std::vector<std::string> groupNames;

 private:
  /// `SYNTAX[:name[:type]]`.
  void reference(std::string_view inner, int depth, std::string& out) {
    const size_t colon = inner.find(':');
    const std::string_view syntax = inner.substr(0, colon);
    const std::string_view expression = libraryExpression(syntax);
    if (expression.empty()) {
      const std::string guess = closestName(syntax, namedGrokPatterns());
      throw failure("unknown pattern %{" + std::string(syntax) + "}" +
                    (guess.empty() ? "" : "; did you mean %{" + guess + "}?"));
    }
    if (colon == std::string_view::npos) {
      out += "(?:";
      expand(expression, depth + 1, out);
      out += ')';
      return;
    }
    std::string_view name = inner.substr(colon + 1);
    DataType type = DataType::string();
    if (const size_t typeColon = name.find(':'); typeColon != std::string_view::npos) {
      const std::string_view typeName = name.substr(typeColon + 1);
      name = name.substr(0, typeColon);
      if (typeName == "int") {
        type = DataType::int32();
      } else if (typeName == "long") {
        type = DataType::int64();
      } else if (typeName == "float" || typeName == "double") {
        type = DataType::float64();
      } else {
        throw failure("unknown type :" + std::string(typeName) + " in %{" + std::string(inner) +
                      "}: the types are int, long, float and double");
      }
    }
    if (name.empty()) throw failure("%{" + std::string(inner) + "} names no column");
    for (const Field& field : fields) {
      if (field.name == name) {
        throw failure("the column " + std::string(name) +
                      " is captured twice (quarry makes no list of them)");
      }
    }
    const std::string group = "q" + std::to_string(fields.size());
    fields.push_back({std::string(name), type});
    groupNames.push_back(group);
    out += "(?P<" + group + ">";
    expand(expression, depth + 1, out);
    out += ')';
  }

  std::string_view pattern_;
};

template <typename T>
void appendNumber(std::string_view text, Block& out) {
  T value{};
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;  // from_chars takes no plus sign
  const auto [end, error] = std::from_chars(first, last, value);
  if (first == last || error != std::errc() || end != last) {
    out.appendNull();
  } else {
    out.append<T>(value);
  }
}

}  // namespace

std::vector<std::string> namedGrokPatterns() {
  std::vector<std::string> names;
  for (const auto& [name, expression] : kLibrary) names.emplace_back(name);
  return names;
}

GrokPattern::GrokPattern(std::string_view pattern) : pattern_(pattern) {
  Expander expander(pattern);
  expander.expand(pattern, 0, expression_);
  if (expander.fields.empty())
    throw expander.failure("it captures no column: write %{SYNTAX:name}");
  fields_ = std::move(expander.fields);
  re2::RE2::Options options;
  options.set_log_errors(false);
  re_ =
      std::make_unique<re2::RE2>(re2::StringPiece(expression_.data(), expression_.size()), options);
  if (!re_->ok()) throw expander.failure("RE2 cannot read it: " + re_->error());
  const auto& named = re_->NamedCapturingGroups();
  for (const std::string& group : expander.groupNames) groups_.push_back(named.at(group));
}

GrokPattern::~GrokPattern() = default;

std::optional<std::vector<std::optional<std::string_view>>> GrokPattern::match(
    std::string_view value) const {
  const int groups = re_->NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> pieces(static_cast<size_t>(groups));
  const re2::StringPiece text(value.data(), value.size());
  if (!re_->Match(text, 0, text.size(), re2::RE2::UNANCHORED, pieces.data(), groups))
    return std::nullopt;
  std::vector<std::optional<std::string_view>> out;
  out.reserve(groups_.size());
  for (int group : groups_) {
    const re2::StringPiece& piece = pieces[static_cast<size_t>(group)];
    if (piece.data() == nullptr) {
      out.emplace_back();
    } else {
      out.emplace_back(std::string_view(piece.data(), piece.size()));
    }
  }
  return out;
}

void GrokPattern::extract(const Block& input, std::vector<Block>& out) const {
  for (size_t r = 0; r < input.size(); ++r) {
    std::optional<std::vector<std::optional<std::string_view>>> values;
    if (!input.isNull(r)) values = match(input.bytes(r));
    for (size_t f = 0; f < fields_.size(); ++f) {
      if (!values || !(*values)[f]) {
        out[f].appendNull();
        continue;
      }
      const std::string_view text = *(*values)[f];
      switch (fields_[f].type.kind) {
        case TypeKind::kInt32:
          appendNumber<int32_t>(text, out[f]);
          break;
        case TypeKind::kInt64:
          appendNumber<int64_t>(text, out[f]);
          break;
        case TypeKind::kDouble:
          appendNumber<double>(text, out[f]);
          break;
        default:
          out[f].appendBytes(text);
      }
    }
  }
}

std::string GrokPattern::describe() const {
  return "GROK " + quoteString(pattern_);
}

}  // namespace quarry::engine
