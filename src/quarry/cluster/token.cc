#include "quarry/cluster/token.h"

#include <fstream>
#include <sstream>

#include "quarry/common/error.h"

namespace quarry::cluster {

std::string readTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("cannot read the token file " + path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InvalidArgument("cannot read the token file " + path);
  std::string token = content.str();
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ' ||
                            token.back() == '\t')) {
    token.pop_back();
  }
  if (token.empty()) throw InvalidArgument("the token file " + path + " is empty");
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
