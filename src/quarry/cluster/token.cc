#include "quarry/cluster/token.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

/// What a byte outside 0x21-0x7E is, for an error message.
std::string kindOf(unsigned char byte) {
  char code[8];
  std::snprintf(code, sizeof(code), "0x%02X", byte);
  switch (byte) {
    case '\n':
      return std::string("a line break (") + code + ")";
    case '\r':
      return std::string("a carriage return (") + code + ")";
    case '\t':
      return std::string("a tab (") + code + ")";
    case ' ':
      return std::string("a space (") + code + ")";
    case 0x7F:
      return std::string("a DEL control byte (") + code + ")";
    default:
      break;
  }
  if (byte < 0x20) return std::string("a control byte (") + code + ")";
  return std::string("a non-ASCII byte (") + code + ")";
}

}  // namespace

std::string tokenProblem(std::string_view token) {
  if (token.empty()) return "is empty";
  for (size_t i = 0; i < token.size(); ++i) {
    const auto byte = static_cast<unsigned char>(token[i]);
    if (byte < 0x21 || byte > 0x7E) {
      return "has " + kindOf(byte) + " at byte " + std::to_string(i + 1) +
             "; a token is printable ASCII without spaces (0x21-0x7E), and only one trailing "
             "line break is taken off";
    }
  }
  return "";
}

std::string readTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("cannot read the token file " + path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InvalidArgument("cannot read the token file " + path);
  std::string token = content.str();
  if (!token.empty() && token.back() == '\n') {
    token.pop_back();
    if (!token.empty() && token.back() == '\r') token.pop_back();
  }
  if (const std::string problem = tokenProblem(token); !problem.empty()) {
    throw InvalidArgument("the token file " + path + " " + problem);
  }
  return token;
}

bool tokensEqual(std::string_view a, std::string_view b) {
  // Every byte of the longer one is visited whatever the content, and the
  // lengths are folded into the same accumulator: no early exit.
  const size_t length = a.size() > b.size() ? a.size() : b.size();
  volatile unsigned char difference = static_cast<unsigned char>(a.size() != b.size());
  for (size_t i = 0; i < length; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    difference = difference | static_cast<unsigned char>(x ^ y);
  }
  return difference == 0;
}

}  // namespace quarry::cluster
