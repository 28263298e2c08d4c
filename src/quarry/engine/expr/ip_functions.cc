#include "quarry/engine/expr/ip_functions.h"

#include <arpa/inet.h>

#include <cstring>
#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/string_functions.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {
namespace {

/// The longest address text inet_pton is given: an IPv6 one with an IPv4 tail
/// is at most 45 characters; anything longer is no address.
constexpr size_t kMaxAddressText = 45;

bool isMappedIpv4(const IpAddress& a) {
  for (size_t k = 0; k < 10; ++k) {
    if (a[k] != 0) return false;
  }
  return a[10] == 0xFF && a[11] == 0xFF;
}

std::string quoted(std::string_view s) {
  return "\"" + std::string(s.substr(0, 60)) + (s.size() > 60 ? "...\"" : "\"");
}

const char* kCidrForm =
    "write an address, a slash and a prefix length: 0-32 after an IPv4 address (\"10.0.0.0/8\"), "
    "0-128 after an IPv6 one (\"2001:db8::/32\")";

Block toIpBlock(const Block& in, size_t n) {
  Block out(DataType::string());
  out.reserve(n);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    const std::optional<IpAddress> address =
        in.isNull(i) ? std::nullopt : parseIpAddress(in.bytes(i));
    if (!address) {
      out.appendNull();
      continue;
    }
    text.clear();
    appendIpText(*address, text);
    out.appendBytes(text);
  }
  return out;
}

/// TO_IP of an integer: the IPv4 address whose 32 bits it holds. An int32 is read
/// as its 32 bits (ClickBench's ClientIP: 200.1.1.1 is negative), a wider
/// integer outside [0, 2^32) is no IPv4 address (null).
Block integerToIpBlock(const Block& in, size_t n) {
  Block out(DataType::string());
  out.reserve(n);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    if (in.isNull(i)) {
      out.appendNull();
      continue;
    }
    uint64_t bits = 0;
    switch (in.type().kind) {
      case TypeKind::kInt32:
        bits = static_cast<uint32_t>(in.values<int32_t>()[i]);
        break;
      case TypeKind::kInt64:
        bits = in.values<int64_t>()[i] < 0 ? UINT64_MAX
                                           : static_cast<uint64_t>(in.values<int64_t>()[i]);
        break;
      default:
        bits = in.values<uint64_t>()[i];
        break;
    }
    if (bits > UINT32_MAX) {
      out.appendNull();
      continue;
    }
    IpAddress address{};
    address[10] = 0xFF;
    address[11] = 0xFF;
    for (size_t k = 0; k < 4; ++k) address[12 + k] = static_cast<uint8_t>(bits >> (24 - 8 * k));
    text.clear();
    appendIpText(address, text);
    out.appendBytes(text);
  }
  return out;
}

/// The block of argument `k` at row i; a literal's was checked when bound.
CidrBlock blockAt(const CallArgs& args, size_t k, size_t i) {
  const std::string_view text = args[k].bytes(i);
  const std::optional<CidrBlock> block = parseCidrBlock(text);
  if (!block) {
    throw InvalidArgument("cidr_match: argument " + std::to_string(k + 1) + ", " + quoted(text) +
                          ", is no CIDR block (" + kCidrForm + ")");
  }
  return *block;
}

Block cidrMatchBlock(const BoundExpr& call, const CallArgs& args, size_t n) {
  // A literal block (checked when bound) is parsed once, not per row.
  std::vector<std::optional<CidrBlock>> constant(args.size());
  for (size_t k = 1; k < args.size(); ++k) {
    const BoundExpr& arg = *call.children[k];
    if (arg.kind == BoundExpr::Kind::kLiteral && arg.type.kind == TypeKind::kString) {
      constant[k] = parseCidrBlock(std::get<std::string>(arg.literal));
    }
  }
  std::vector<uint8_t> values(n);
  std::vector<uint8_t> valid(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const std::optional<IpAddress> address =
        anyNull(args, i) ? std::nullopt : parseIpAddress(args[0].bytes(i));
    if (!address) {
      valid[i] = 0;
      continue;
    }
    for (size_t k = 1; k < args.size() && !values[i]; ++k) {
      values[i] = cidrContains(constant[k] ? *constant[k] : blockAt(args, k, i), *address);
    }
  }
  return booleanBlock(std::move(values), std::move(valid));
}

}  // namespace

std::optional<IpAddress> parseIpAddress(std::string_view text) {
  if (text.empty() || text.size() > kMaxAddressText) return std::nullopt;
  char buffer[kMaxAddressText + 1];
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  if (std::memchr(buffer, '\0', text.size()) != nullptr) return std::nullopt;
  IpAddress out{};
  if (text.find(':') != std::string_view::npos) {
    // glibc's inet_pton: RFC 4291's text forms, an IPv4 tail without leading zeros.
    if (::inet_pton(AF_INET6, buffer, out.data()) != 1) return std::nullopt;
    return out;
  }
  // Four decimal parts 0-255; glibc refuses a part with a leading zero, as ES|QL's
  // default (leading_zeros "reject") does.
  if (::inet_pton(AF_INET, buffer, out.data() + 12) != 1) return std::nullopt;
  out[10] = 0xFF;
  out[11] = 0xFF;
  return out;
}

void appendIpText(const IpAddress& a, std::string& out) {
  if (isMappedIpv4(a)) {
    for (size_t k = 12; k < 16; ++k) {
      if (k > 12) out.push_back('.');
      out += std::to_string(a[k]);
    }
    return;
  }
  uint16_t groups[8];
  for (size_t g = 0; g < 8; ++g) groups[g] = static_cast<uint16_t>((a[2 * g] << 8) | a[2 * g + 1]);
  // RFC 5952 4.2: the longest run of two or more zero groups, the first of equal ones, is "::".
  int bestStart = -1;
  int bestLength = 1;
  for (int g = 0; g < 8;) {
    if (groups[g] != 0) {
      ++g;
      continue;
    }
    int end = g;
    while (end < 8 && groups[end] == 0) ++end;
    if (end - g > bestLength) {
      bestStart = g;
      bestLength = end - g;
    }
    g = end;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int g = 0; g < 8; ++g) {
    if (g == bestStart) {
      out += "::";
      g += bestLength - 1;
      continue;
    }
    if (g > 0 && g != bestStart + bestLength) out.push_back(':');
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const int digit = (groups[g] >> shift) & 0xF;
      if (digit != 0 || started || shift == 0) {
        out.push_back(kDigits[digit]);
        started = true;
      }
    }
  }
}

std::optional<CidrBlock> parseCidrBlock(std::string_view text) {
  const size_t slash = text.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::optional<IpAddress> prefix = parseIpAddress(text.substr(0, slash));
  const std::string_view digits = text.substr(slash + 1);
  if (!prefix || digits.empty() || digits.size() > 3) return std::nullopt;
  int length = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + (c - '0');
  }
  const bool ipv4 = text.substr(0, slash).find(':') == std::string_view::npos;
  if (length > (ipv4 ? 32 : 128)) return std::nullopt;
  return CidrBlock{*prefix, ipv4 ? 96 + length : length};
}

bool cidrContains(const CidrBlock& block, const IpAddress& address) {
  const int whole = block.bits / 8;
  if (std::memcmp(block.prefix.data(), address.data(), static_cast<size_t>(whole)) != 0)
    return false;
  const int rest = block.bits % 8;
  if (rest == 0) return true;
  const auto mask = static_cast<uint8_t>(0xFF << (8 - rest));
  return (block.prefix[whole] & mask) == (address[whole] & mask);
}

bool isIpFunction(const std::string& name) {
  return name == "to_ip" || name == "cidr_match";
}

DataType bindIpFunction(const BoundExpr& call, int line, int column) {
  const std::vector<BoundExprPtr>& args = call.children;
  const auto expectString = [&](size_t k) {
    const TypeKind kind = args[k]->type.kind;
    if (kind == TypeKind::kString || kind == TypeKind::kNull) return;
    failCall(
        call,
        "argument " + std::to_string(k + 1) + " must be a string, got " + args[k]->type.toString(),
        k == 0 ? "pass an address as text (\"192.168.1.1\"); to_ip(n) reads an integer's"
               : kCidrForm,
        line, column);
  };
  if (call.name == "to_ip") {
    if (args.size() != 1) {
      failCall(call, "expected 1 argument, got " + std::to_string(args.size()),
               "call it as to_ip(string)", line, column);
    }
    const TypeKind kind = args[0]->type.kind;
    if (kind != TypeKind::kString && kind != TypeKind::kNull && !isIntegerKind(kind)) {
      failCall(call, "argument 1 must be a string or an integer, got " + args[0]->type.toString(),
               "pass an address as text (\"192.168.1.1\") or an IPv4 address as an integer", line,
               column);
    }
    return DataType::string();
  }
  if (call.name != "cidr_match") throw std::logic_error("bindIpFunction: " + call.name);
  if (args.size() < 2) {
    failCall(call, "expected 2 or more arguments, got " + std::to_string(args.size()),
             "call it as cidr_match(ip, \"10.0.0.0/8\", ...)", line, column);
  }
  for (size_t k = 0; k < args.size(); ++k) expectString(k);
  for (size_t k = 1; k < args.size(); ++k) {
    const BoundExpr& block = *args[k];
    if (block.kind != BoundExpr::Kind::kLiteral || block.type.kind != TypeKind::kString) continue;
    const std::string& text = std::get<std::string>(block.literal);
    if (!parseCidrBlock(text)) {
      failCall(call,
               "argument " + std::to_string(k + 1) + ", " + quoted(text) + ", is no CIDR block",
               kCidrForm, line, column);
    }
  }
  return DataType::boolean();
}

Block evaluateIpFunction(const BoundExpr& call, const CallArgs& args, size_t n) {
  for (const Block& a : args) {
    if (a.type().kind == TypeKind::kNull) return Block::nulls(call.type, n);
  }
  if (call.name == "to_ip") {
    return isIntegerKind(args[0].type().kind) ? integerToIpBlock(args[0], n)
                                              : toIpBlock(args[0], n);
  }
  return cidrMatchBlock(call, args, n);
}

}  // namespace quarry::engine
