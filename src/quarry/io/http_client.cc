#include "quarry/io/http_client.h"

#include <algorithm>
#include <charconv>

// fetchRange is where remote reads become trustworthy: a server (or a proxy between)
// may answer a range request with 503, with a body cut short, with the whole object
// (200, Range ignored) or with a different range than asked. Each answer is either
// accepted with exactly the requested bytes, retried when another attempt may
// succeed, or turned into an IoError that names the object, the range and the
// server's words, so that a wrong byte never reaches a decoder.
namespace quarry::io {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
           return lower(x) == lower(y);
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

/// Parses a run of decimal digits filling all of `s`; nullopt on anything else or overflow.
std::optional<uint64_t> parseNumber(std::string_view s) {
  uint64_t value = 0;
  if (s.empty()) return std::nullopt;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

/// Removes the "bytes" unit and the space after it; nullopt when the unit is another.
std::optional<std::string_view> afterBytesUnit(std::string_view value) {
  value = trim(value);
  constexpr std::string_view kUnit = "bytes";
  if (value.size() <= kUnit.size() || !equalsIgnoreCase(value.substr(0, kUnit.size()), kUnit)) {
    return std::nullopt;
  }
  value.remove_prefix(kUnit.size());
  if (value.front() != ' ' && value.front() != '\t') return std::nullopt;
  return trim(value);
}

std::string describe(const RangeRequest& range) {
  if (range.suffix) return "the last " + std::to_string(range.length) + " bytes";
  return "bytes [" + std::to_string(range.offset) + ", " + std::to_string(range.offset + range.length) +
         ")";
}

std::string rangeHeader(const RangeRequest& range) {
  if (range.suffix) return "bytes=-" + std::to_string(range.length);
  return "bytes=" + std::to_string(range.offset) + "-" + std::to_string(range.offset + range.length - 1);
}

/// Returns the start of an error body (S3 puts its Code and Message there), printable and short.
std::string bodyExcerpt(const std::vector<uint8_t>& body) {
  constexpr size_t kMaxExcerpt = 300;
  std::string out;
  bool space = false;
  for (uint8_t c : body) {
    if (out.size() >= kMaxExcerpt) {
      out += "...";
      break;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

/// Returns the text of the first <tag>...</tag> in an XML error body, or nullopt.
std::optional<std::string> xmlElement(std::string_view body, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t start = body.find(open);
  if (start == std::string_view::npos) return std::nullopt;
  const size_t end = body.find(close, start + open.size());
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(body.substr(start + open.size(), end - start - open.size()));
}

std::string serverSaid(const HttpResponse& response) {
  std::string out = "the server answered HTTP " + std::to_string(response.status);
  // An S3 error body also echoes the access key id and the string it signed: keep only
  // its Code and Message, which say what went wrong without naming the credentials.
  const std::string_view text(reinterpret_cast<const char*>(response.body.data()), response.body.size());
  if (const auto code = xmlElement(text, "Code")) {
    const auto message = xmlElement(text, "Message");
    const std::string said = *code + (message ? ": " + *message : "");
    return out + ": " + bodyExcerpt(std::vector<uint8_t>(said.begin(), said.end()));
  }
  const std::string excerpt = bodyExcerpt(response.body);
  if (!excerpt.empty()) out += ": " + excerpt;
  return out;
}

/// The verdict on one attempt: the bytes, or why not and whether to try again.
struct Attempt {
  std::optional<RangeResponse> result;
  std::string failure;
  bool retriable = false;
  /// What a 429 or 503 answer's Retry-After header asked for.
  std::optional<std::chrono::milliseconds> retryAfter;
};

Attempt fail(std::string failure, bool retriable) {
  Attempt attempt;
  attempt.failure = std::move(failure);
  attempt.retriable = retriable;
  return attempt;
}

std::string pastTheEnd(const RangeRequest& range, uint64_t objectSize) {
  return describe(range) + " lie past the end of the object (" + std::to_string(objectSize) + " bytes)";
}

/// Judges a 206 Partial Content answer against the range asked for.
Attempt judgePartial(HttpResponse& response, const RangeRequest& range) {
  const auto header = response.header("Content-Range");
  const auto contentRange = header ? parseContentRange(*header) : std::nullopt;
  if (!contentRange) {
    return fail("the server answered 206 with " +
                    (header ? "an invalid Content-Range '" + *header + "'" : "no Content-Range"),
                true);
  }
  const auto total = contentRange->completeLength;
  uint64_t first = range.offset;
  uint64_t last = range.offset + range.length - 1;
  if (range.suffix) {
    if (!total) return fail("the server answered a suffix range without the object's size ('" + *header + "')", true);
    const uint64_t n = std::min(range.length, *total);
    first = *total - n;
    last = *total - 1;
  } else if (total && last >= *total) {
    return fail(pastTheEnd(range, *total), false);
  }
  if (contentRange->first != first || contentRange->last != last) {
    return fail("the server answered with Content-Range '" + *header + "' for the request '" +
                    rangeHeader(range) + "'",
                true);
  }
  const uint64_t expected = last - first + 1;
  if (response.body.size() != expected) {
    return fail("the body has " + std::to_string(response.body.size()) + " bytes where Content-Range '" +
                    *header + "' promises " + std::to_string(expected) + " (truncated)",
                true);
  }
  Attempt attempt;
  attempt.result = RangeResponse{std::move(response.body), total.value_or(last + 1), response.header("ETag")};
  return attempt;
}

/// Judges a 200 OK answer: the whole object, from a server that ignores Range (or an empty object).
Attempt judgeWhole(HttpResponse& response, const RangeRequest& range) {
  const uint64_t total = response.body.size();
  uint64_t first = 0;
  uint64_t n = 0;
  if (range.suffix) {
    n = std::min(range.length, total);
    first = total - n;
  } else {
    if (range.offset > total || range.length > total - range.offset) return fail(pastTheEnd(range, total), false);
    first = range.offset;
    n = range.length;
  }
  std::vector<uint8_t> body;
  if (first == 0 && n == total) {
    body = std::move(response.body);
  } else {
    body.assign(response.body.begin() + static_cast<ptrdiff_t>(first),
                response.body.begin() + static_cast<ptrdiff_t>(first + n));
  }
  Attempt attempt;
  attempt.result = RangeResponse{std::move(body), total, response.header("ETag")};
  return attempt;
}

Attempt judge(HttpResponse& response, const RangeRequest& range) {
  if (response.status == 206) return judgePartial(response, range);
  if (response.status == 200) return judgeWhole(response, range);
  if (response.status == 416) {
    const auto header = response.header("Content-Range");
    const auto total = header ? parseUnsatisfiedRange(*header) : std::nullopt;
    // An empty object has no last byte, so even a suffix range is unsatisfiable.
    if (range.suffix && total == 0u) {
      Attempt attempt;
      attempt.result = RangeResponse{{}, 0, response.header("ETag")};
      return attempt;
    }
    if (total) return fail(pastTheEnd(range, *total), false);
    return fail(serverSaid(response), false);
  }
  Attempt attempt = fail(serverSaid(response), RetryPolicy::isRetriable(response.status));
  if (response.status == 429 || response.status == 503) {
    if (const auto header = response.header("Retry-After")) {
      attempt.retryAfter = RetryPolicy::parseRetryAfter(*header, std::chrono::system_clock::now());
    }
  }
  return attempt;
}

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (equalsIgnoreCase(key, name)) return value;
  }
  return std::nullopt;
}

std::optional<ContentRange> parseContentRange(std::string_view value) {
  const auto spec = afterBytesUnit(value);
  if (!spec) return std::nullopt;
  const size_t dash = spec->find('-');
  const size_t slash = spec->find('/');
  if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) return std::nullopt;
  const auto first = parseNumber(spec->substr(0, dash));
  const auto last = parseNumber(spec->substr(dash + 1, slash - dash - 1));
  if (!first || !last || *first > *last) return std::nullopt;
  ContentRange range{*first, *last, std::nullopt};
  const std::string_view complete = spec->substr(slash + 1);
  if (complete != "*") {
    range.completeLength = parseNumber(complete);
    if (!range.completeLength || *last >= *range.completeLength) return std::nullopt;
  }
  return range;
}

std::optional<uint64_t> parseUnsatisfiedRange(std::string_view value) {
  const auto spec = afterBytesUnit(value);
  if (!spec || !spec->starts_with("*/")) return std::nullopt;
  return parseNumber(spec->substr(2));
}

RangeResponse fetchRange(HttpClient& client, const std::string& uri, const std::string& url,
                         const RangeRequest& range, const std::function<void(HttpRequest&)>& prepare,
                         const RetryPolicy& policy, std::string_view refusalNote) {
  if (range.length == 0) {
    throw InvalidArgument(redactUri(uri) + ": a range read needs at least one byte (" + describe(range) + ")");
  }
  if (!range.suffix && range.offset > UINT64_MAX - range.length) {
    throw InvalidArgument(redactUri(uri) + ": the range at offset " + std::to_string(range.offset) +
                          " of " + std::to_string(range.length) + " bytes overflows");
  }
  const int maxAttempts = std::max(policy.maxAttempts, 1);
  std::string failure;
  long status = 0;
  int attempts = 0;
  while (true) {
    ++attempts;
    HttpRequest request;
    request.url = url;
    request.headers.emplace_back("Range", rangeHeader(range));
    if (prepare) prepare(request);
    Attempt attempt;
    status = 0;
    try {
      HttpResponse response = client.send(request);
      status = response.status;
      attempt = judge(response, range);
    } catch (const HttpTransportError& e) {
      attempt = fail(e.what(), e.retriable());
    }
    if (attempt.result) return std::move(*attempt.result);
    failure = std::move(attempt.failure);
    if (!attempt.retriable || attempts >= maxAttempts) break;
    policy.sleepBeforeRetry(attempts, attempt.retryAfter);
  }
  const std::string tries =
      attempts == 1 ? std::string() : " (after " + std::to_string(attempts) + " attempts)";
  const bool refused = status == 401 || status == 403;
  if (refused && !refusalNote.empty()) failure += "; " + std::string(refusalNote);
  throw IoError(redactUri(uri) + ": reading " + describe(range) + " failed" + tries + ": " + failure);
}

}  // namespace quarry::io
