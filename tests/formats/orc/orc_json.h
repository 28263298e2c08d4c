#pragma once

#include <zlib.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

/// Test support for the ORC example files: gunzip of expected/*.jsn.gz and a
/// small JSON reader that compares two documents as trees (object keys in any
/// order, numbers by their exact decimal value or, failing that, as doubles).
namespace quarry::orc::testing {

inline std::string gunzip(const std::vector<uint8_t>& compressed) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2");
  stream.next_in = const_cast<Bytef*>(compressed.data());
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  char buffer[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof(buffer);
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&stream);
      throw std::runtime_error("gunzip failed");
    }
    out.append(buffer, sizeof(buffer) - stream.avail_out);
  }
  inflateEnd(&stream);
  return out;
}

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  std::string text;  // number text, string value, "true"/"false"
  std::vector<Json> items;
  std::map<std::string, Json> fields;
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}

  Json parse() {
    Json value = parseValue();
    skipSpace();
    if (pos_ != s_.size()) fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("JSON: " + why + " at " + std::to_string(pos_) + " in " + s_);
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool consume(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) == 0) {
      pos_ += w.size();
      return true;
    }
    return false;
  }
  std::string parseString() {
    std::string out;
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("escape cut off");
      c = s_[pos_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("\\u cut off");
          unsigned code = std::stoul(s_.substr(pos_, 4), nullptr, 16);
          pos_ += 4;
          if (code >= 0xd800 && code < 0xdc00 && s_.compare(pos_, 2, "\\u") == 0) {
            const unsigned low = std::stoul(s_.substr(pos_ + 2, 4), nullptr, 16);
            pos_ += 6;
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          }
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xc0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3f));
          } else if (code < 0x10000) {
            out += static_cast<char>(0xe0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
          } else {
            out += static_cast<char>(0xf0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
          }
          break;
        }
        default:
          out += c;
      }
    }
    if (pos_ >= s_.size()) fail("string not closed");
    ++pos_;
    return out;
  }
  Json parseValue() {
    skipSpace();
    if (pos_ >= s_.size()) fail("value expected");
    Json v;
    const char c = s_[pos_];
    if (c == '{') {
      v.kind = Json::Kind::kObject;
      ++pos_;
      skipSpace();
      if (s_[pos_] == '}') {
        ++pos_;
        return v;
      }
      while (true) {
        skipSpace();
        if (s_[pos_] != '"') fail("key expected");
        std::string key = parseString();
        skipSpace();
        if (s_[pos_++] != ':') fail("':' expected");
        v.fields[key] = parseValue();
        skipSpace();
        if (s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (s_[pos_++] != '}') fail("'}' expected");
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::kArray;
      ++pos_;
      skipSpace();
      if (s_[pos_] == ']') {
        ++pos_;
        return v;
      }
      while (true) {
        v.items.push_back(parseValue());
        skipSpace();
        if (s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (s_[pos_++] != ']') fail("']' expected");
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::kString;
      v.text = parseString();
      return v;
    }
    if (consume("null")) return v;
    if (consume("true") || consume("false")) {
      v.kind = Json::Kind::kBool;
      v.text = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u' ? "true" : "false";
      return v;
    }
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                std::strchr("+-.eE", s_[pos_]) != nullptr)) {
      ++pos_;
    }
    if (start == pos_) fail("unexpected character");
    v.kind = Json::Kind::kNumber;
    v.text = s_.substr(start, pos_ - start);
    return v;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

/// Returns a plain decimal number without exponent, leading or trailing zeros
/// ("1.50" -> "1.5", "-0.0" -> "0"), or "" when `text` has an exponent.
inline std::string canonicalDecimal(const std::string& text) {
  if (text.find_first_of("eE") != std::string::npos) return "";
  bool negative = !text.empty() && text[0] == '-';
  std::string digits = text.substr(negative ? 1 : 0);
  std::string whole = digits, fraction;
  if (const auto dot = digits.find('.'); dot != std::string::npos) {
    whole = digits.substr(0, dot);
    fraction = digits.substr(dot + 1);
  }
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  while (whole.size() > 1 && whole[0] == '0') whole.erase(0, 1);
  if (whole.empty()) whole = "0";
  if (whole == "0" && fraction.empty()) negative = false;
  return (negative ? "-" : "") + whole + (fraction.empty() ? "" : "." + fraction);
}

inline bool numbersEqual(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::string ca = canonicalDecimal(a), cb = canonicalDecimal(b);
  if (!ca.empty() && ca == cb) return true;
  const double da = std::strtod(a.c_str(), nullptr), db = std::strtod(b.c_str(), nullptr);
  // Floats are written by their shortest float form by quarry and as widened
  // doubles by Java: equal as floats.
  if (da == db) return true;
  // The expected files print doubles with 14 significant digits and floats with 7
  // (the C++ tools' "%.14g" / "%.7g"); quarry prints the shortest exact form.
  char ea[64], eb[64];
  std::snprintf(ea, sizeof(ea), "%.14g", da);
  std::snprintf(eb, sizeof(eb), "%.14g", db);
  if (std::strcmp(ea, eb) == 0) return true;
  // Only a float's shortest form (at most 9 significant digits) may match at 7.
  size_t digits = 0;
  bool leading = true;
  for (const char c : b) {
    if (c == 'e' || c == 'E') break;
    if (!std::isdigit(static_cast<unsigned char>(c)) || (leading && c == '0')) continue;
    leading = false;
    ++digits;
  }
  if (digits > 9) return false;
  std::snprintf(ea, sizeof(ea), "%.7g", static_cast<double>(static_cast<float>(da)));
  std::snprintf(eb, sizeof(eb), "%.7g", static_cast<double>(static_cast<float>(db)));
  return std::strcmp(ea, eb) == 0;
}

/// Returns whether decimal `actual` cut (toward zero) to the fraction digits of
/// `expected` equals it: how the C++ tools print Hive 0.11 decimals (scale 6).
inline bool truncatesTo(const std::string& expected, const std::string& actual) {
  const auto dotE = expected.find('.'), dotA = actual.find('.');
  if (dotE == std::string::npos || dotA == std::string::npos) return false;
  const size_t keep = expected.size() - dotE - 1;
  if (actual.size() - dotA - 1 < keep) return false;
  return actual.substr(0, dotA + 1 + keep) == expected;
}

/// Whether numbers may match by truncatesTo (set per file by the caller).
inline bool& allowHive11DecimalTruncation() {
  static bool allow = false;
  return allow;
}

/// Returns "" when equal, else the path of the first difference.
inline std::string difference(const Json& expected, const Json& actual, const std::string& path) {
  // A number written as a string (NaN) compares with its text.
  if (expected.kind != actual.kind) return path + ": kinds differ";
  switch (expected.kind) {
    case Json::Kind::kNull:
      return "";
    case Json::Kind::kBool:
    case Json::Kind::kString:
      return expected.text == actual.text
                 ? ""
                 : path + ": expected '" + expected.text + "', got '" + actual.text + "'";
    case Json::Kind::kNumber:
      return numbersEqual(expected.text, actual.text) ||
                     (allowHive11DecimalTruncation() && truncatesTo(expected.text, actual.text))
                 ? ""
                 : path + ": expected " + expected.text + ", got " + actual.text;
    case Json::Kind::kArray:
      if (expected.items.size() != actual.items.size()) {
        return path + ": expected " + std::to_string(expected.items.size()) + " items, got " +
               std::to_string(actual.items.size());
      }
      for (size_t i = 0; i < expected.items.size(); ++i) {
        auto d =
            difference(expected.items[i], actual.items[i], path + "[" + std::to_string(i) + "]");
        if (!d.empty()) return d;
      }
      return "";
    case Json::Kind::kObject:
      if (expected.fields.size() != actual.fields.size()) return path + ": field counts differ";
      for (const auto& [key, value] : expected.fields) {
        auto it = actual.fields.find(key);
        if (it == actual.fields.end()) return path + "." + key + ": missing";
        auto d = difference(value, it->second, path + "." + key);
        if (!d.empty()) return d;
      }
      return "";
  }
  return "";
}

}  // namespace quarry::orc::testing
