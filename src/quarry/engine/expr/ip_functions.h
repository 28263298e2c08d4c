#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// ES|QL's IP functions. quarry has no ip type: an IP address is a string in its
/// canonical text, the form ES|QL prints an ip in, so that TO_IP's result is
/// what ES|QL shows, compares equal exactly when the addresses are equal, and
/// passes through files, the cluster and Arrow as any string. Underneath, an
/// address is 16 bytes, an IPv4 one mapped into IPv6 (::ffff:a.b.c.d), as
/// Elasticsearch stores ips. What differs from an ip type: SORT, MIN / MAX and
/// < compare the text, not the address.
///
///   to_ip(s)                  string: the canonical text of the address s, IPv4
///                             (dotted decimal; a part with a leading zero is no
///                             address, ES|QL's default "reject") or IPv6 (RFC
///                             5952: lowercase, no leading zeros, the longest run
///                             of two or more zero groups, the first of equal
///                             ones, as "::"; an IPv4-mapped address is printed
///                             as its IPv4 one, as Java's InetAddress does); null
///                             when s is no address (ES|QL adds a warning)
///   to_ip(n)                  string: the IPv4 address of the integer n's 32 bits
///                             (quarry's: ES|QL takes strings only), for columns that
///                             hold IPv4 addresses as numbers; an int32 is read as its
///                             32 bits (a negative one is an address from 128.0.0.0),
///                             an int64 or uint64 outside [0, 2^32) gives null
///   cidr_match(ip, block, ...) boolean: whether the address ip (a string, read as
///                             to_ip reads it) is inside one of the CIDR blocks
///                             ("10.0.0.0/8", "2001:db8::/32"); an IPv4 block
///                             covers the IPv4 addresses, an IPv6 one also the
///                             IPv4 addresses its mapped range holds (::/0 all);
///                             null when an argument is null or ip is no address;
///                             a block that is none fails the query
///
/// Example: to_ip("2001:0DB8:0:0:0:0:0:1") is "2001:db8::1", to_ip("1.1.010.1")
/// is null, cidr_match("10.1.2.3", "192.168.0.0/16", "10.0.0.0/8") is true.
namespace quarry::engine {

/// An address as 16 bytes, network order; IPv4 mapped (::ffff:a.b.c.d).
using IpAddress = std::array<uint8_t, 16>;

/// The address `text` spells (IPv4 or IPv6 text, nothing around it), if any.
std::optional<IpAddress> parseIpAddress(std::string_view text);

/// Appends the canonical text of `address` (to_ip's) to `out`.
void appendIpText(const IpAddress& address, std::string& out);

/// A CIDR block: the addresses whose first `bits` bits (of 128) are `prefix`'s.
struct CidrBlock {
  IpAddress prefix{};
  int bits = 0;
};

/// The block `text` spells ("address/length", length 0-32 after an IPv4 address,
/// 0-128 after an IPv6 one), if any.
std::optional<CidrBlock> parseCidrBlock(std::string_view text);

/// Whether `address` is inside `block`.
bool cidrContains(const CidrBlock& block, const IpAddress& address);

/// Whether `name` (lower case) is one of the functions above.
bool isIpFunction(const std::string& name);

/// Checks the arguments of the call `call` and returns its result type; throws
/// QueryError at `line`, `column`.
DataType bindIpFunction(const BoundExpr& call, int line, int column);

/// Evaluates a bound call over its arguments' blocks (n positions each).
Block evaluateIpFunction(const BoundExpr& call, const CallArgs& args, size_t n);

}  // namespace quarry::engine
