#include "quarry/common/uri_redaction.h"

#include <algorithm>
#include <cctype>

namespace quarry {
namespace {

constexpr std::string_view kRedacted = "***";

bool isSchemeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

/// Where the URI whose "://" is at `separator` ends in `text`: at a space, a
/// control character, a quote or an angle bracket, less trailing punctuation.
size_t uriEnd(std::string_view text, size_t separator) {
  size_t end = separator + 3;
  while (end < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[end]);
    if (c <= 0x20 || c == 0x7f || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>') break;
    ++end;
  }
  while (end > separator + 3 &&
         std::string_view(".,;:)]}!").find(text[end - 1]) != std::string_view::npos)
    --end;
  return end;
}

/// Appends to `out` the secrets of the URI text[begin, end) whose "://" is at `separator`.
void secretsOf(std::string_view text, size_t begin, size_t separator, size_t end,
               std::vector<std::pair<size_t, size_t>>& out) {
  auto add = [&out](size_t from, size_t to) {
    if (from < to) out.emplace_back(from, to);
  };
  const size_t authorityBegin = separator + 3;
  size_t authorityEnd = text.find_first_of("/?#", authorityBegin);
  if (authorityEnd == std::string_view::npos || authorityEnd > end) authorityEnd = end;
  // The user-info ends at the last '@' of the authority: a password may hold an
  // unescaped '@'. All of it goes: a user name may be a token.
  const std::string_view authority = text.substr(authorityBegin, authorityEnd - authorityBegin);
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) add(authorityBegin, authorityBegin + at);
  std::string scheme(text.substr(begin, separator - begin));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme == "file") return;  // a '?' there is part of a file's name
  size_t query = text.find('?', authorityEnd);
  if (query == std::string_view::npos || query >= end) return;
  size_t queryEnd = text.find('#', query);
  if (queryEnd == std::string_view::npos || queryEnd > end) queryEnd = end;
  for (size_t param = query + 1; param <= queryEnd;) {
    size_t paramEnd = text.find('&', param);
    if (paramEnd == std::string_view::npos || paramEnd > queryEnd) paramEnd = queryEnd;
    const size_t equals = text.find('=', param);
    add(equals < paramEnd ? equals + 1 : param, paramEnd);
    param = paramEnd + 1;
  }
}

std::string replaced(std::string_view text, const std::vector<std::pair<size_t, size_t>>& secrets) {
  if (secrets.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t done = 0;
  for (const auto& [from, to] : secrets) {
    out.append(text.substr(done, from - done));
    // Already redacted: left as it is, so that redacting twice changes nothing.
    out.append(kRedacted);
    done = to;
  }
  out.append(text.substr(done));
  return out;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> uriSecrets(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t from = 0;
  while (true) {
    const size_t separator = text.find("://", from);
    if (separator == std::string_view::npos) break;
    size_t begin = separator;
    while (begin > from && isSchemeChar(text[begin - 1])) --begin;
    while (begin < separator && std::isalpha(static_cast<unsigned char>(text[begin])) == 0) ++begin;
    const size_t end = uriEnd(text, separator);
    if (begin < separator) secretsOf(text, begin, separator, end, out);
    from = std::max(end, separator + 3);
  }
  return out;
}

std::string redactUris(std::string_view text) {
  return replaced(text, uriSecrets(text));
}

std::string redactUri(std::string_view uri) {
  // The whole text is the URI: a space in its path does not end it.
  const size_t separator = uri.find("://");
  if (separator == std::string_view::npos || separator == 0) return std::string(uri);
  for (size_t i = 0; i < separator; ++i) {
    if (!isSchemeChar(uri[i])) return redactUris(uri);
  }
  std::vector<std::pair<size_t, size_t>> secrets;
  secretsOf(uri, 0, separator, uri.size(), secrets);
  return replaced(uri, secrets);
}

}  // namespace quarry
