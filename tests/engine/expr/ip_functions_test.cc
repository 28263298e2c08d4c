// ES|QL's TO_IP and CIDR_MATCH (ip_functions.h): addresses as their canonical text.
// The rules quoted are ES|QL's reference (TO_IP: "the input ... isn't possible ...
// the result is a null value"; leading zeros rejected by default; CIDR_MATCH:
// "true if the provided IP is contained in one of the provided CIDR blocks") and
// RFC 5952 for the text of an IPv6 address. DuckDB's inet extension is not among
// the oracle's, so the expected values are written out here.

#include "quarry/engine/expr/ip_functions.h"

#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::eval;
using testing::eval1;
using testing::Table;
using V = std::vector<std::string>;

std::string toIp(const std::string& text) {
  return eval1("to_ip(\"" + text + "\")");
}

TEST(IpFunctions, ToIpGivesIpv4InDottedDecimal) {
  EXPECT_EQ(toIp("1.1.1.1"), "1.1.1.1");
  EXPECT_EQ(toIp("0.0.0.0"), "0.0.0.0");
  EXPECT_EQ(toIp("255.255.255.255"), "255.255.255.255");
  // ES|QL's example: the last conversion "isn't possible" and gives null.
  EXPECT_EQ(toIp("foo"), "NULL");
  // leading_zeros "reject", ES|QL's default: 1.1.010.1 is no address.
  EXPECT_EQ(toIp("1.1.010.1"), "NULL");
  for (const char* bad :
       {"256.1.1.1", "1.2.3", "1.2.3.4.5", " 1.2.3.4", "1.2.3.4 ", "", "1.2.3.4/8", "0x1.2.3.4"}) {
    EXPECT_EQ(toIp(bad), "NULL") << bad;
  }
}

// RFC 5952: lowercase, no leading zeros in a group, the longest run of two or
// more zero groups as "::" (the first of equal runs), a lone zero group kept.
TEST(IpFunctions, ToIpGivesIpv6InRfc5952Text) {
  EXPECT_EQ(toIp("2001:0DB8:0:0:0:0:0:1"), "2001:db8::1");
  EXPECT_EQ(toIp("fe80::cae2:65ff:fece:feb9"), "fe80::cae2:65ff:fece:feb9");
  EXPECT_EQ(toIp("::"), "::");
  EXPECT_EQ(toIp("::1"), "::1");
  EXPECT_EQ(toIp("1::"), "1::");
  EXPECT_EQ(toIp("1:0:0:2:0:0:0:3"), "1:0:0:2::3");
  EXPECT_EQ(toIp("1:0:0:2:0:0:3:4"), "1::2:0:0:3:4");
  EXPECT_EQ(toIp("1:2:3:4:5:6:0:8"), "1:2:3:4:5:6:0:8");
  EXPECT_EQ(toIp("0:0:1:0:0:0:0:0"), "0:0:1::");
  // An IPv4-mapped address is the IPv4 address (Java's InetAddress makes it one);
  // an IPv4-compatible one stays IPv6.
  EXPECT_EQ(toIp("::ffff:10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(toIp("::FFFF:a00:1"), "10.0.0.1");
  EXPECT_EQ(toIp("::1.2.3.4"), "::102:304");
  for (const char* bad :
       {"1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::", "::1%eth0", ":", "::ffff:1.2.3.04"}) {
    EXPECT_EQ(toIp(bad), "NULL") << bad;
  }
}

TEST(IpFunctions, ToIpOfAColumnAndTheIpCast) {
  Table t;
  t.add("s", DataType::string(),
        {std::string("10.0.0.1"), std::monostate{}, std::string("nope"),
         std::string("::FFFF:7F00:1")});
  EXPECT_EQ(eval("to_ip(s)", t), (V{"10.0.0.1", "NULL", "NULL", "127.0.0.1"}));
  EXPECT_EQ(eval("s::ip", t), (V{"10.0.0.1", "NULL", "NULL", "127.0.0.1"}));
  // TO_IP of an address's text is that text.
  EXPECT_EQ(eval("to_ip(to_ip(s))", t), (V{"10.0.0.1", "NULL", "NULL", "127.0.0.1"}));
  EXPECT_EQ(eval1("to_ip(NULL)"), "NULL");
  EXPECT_THROW(eval1("to_ip(1.5)"), QueryError);
  EXPECT_THROW(eval1("to_ip(true)"), QueryError);
  EXPECT_THROW(eval1("to_ip(\"1.1.1.1\", \"x\")"), QueryError);
}

// quarry's addition: an integer column holding IPv4 addresses (ClickBench's ClientIP
// is an int32) read as the address of its 32 bits.
TEST(IpFunctions, ToIpOfAnIntegerIsTheIpv4AddressOfItsBits) {
  Table t;
  t.add("i", DataType::int32(),
        {int32_t{0}, int32_t{167772161}, int32_t{-1}, int32_t{-939524096}, std::monostate{}});
  EXPECT_EQ(eval("to_ip(i)", t),
            (V{"0.0.0.0", "10.0.0.1", "255.255.255.255", "200.0.0.0", "NULL"}));
  Table w;
  w.add("l", DataType::int64(),
        {int64_t{3232235777}, int64_t{4294967295}, int64_t{4294967296}, int64_t{-1}});
  w.add("u", DataType::uint64(),
        {uint64_t{16909060}, uint64_t{0}, uint64_t{4294967296}, uint64_t{18446744073709551615ULL}});
  EXPECT_EQ(eval("to_ip(l)", w), (V{"192.168.1.1", "255.255.255.255", "NULL", "NULL"}));
  EXPECT_EQ(eval("to_ip(u)", w), (V{"1.2.3.4", "0.0.0.0", "NULL", "NULL"}));
  EXPECT_EQ(eval1("cidr_match(to_ip(167772161), \"10.0.0.0/8\")"), "true");
  EXPECT_EQ(eval1("167772161::ip"), "10.0.0.1");
}

TEST(IpFunctions, CidrMatchTestsEveryBlock) {
  // ES|QL's examples.
  EXPECT_EQ(eval1("cidr_match(to_ip(\"1.1.1.1\"), \"1.0.0.0/8\")"), "true");
  EXPECT_EQ(eval1("cidr_match(to_ip(\"127.0.0.2\"), \"127.0.0.2/32\", \"127.0.0.3/32\")"), "true");
  EXPECT_EQ(eval1("cidr_match(to_ip(\"127.0.0.1\"), \"127.0.0.2/32\", \"127.0.0.3/32\")"), "false");
  EXPECT_EQ(
      eval1("cidr_match(to_ip(\"fe80::cae2:65ff:fece:feb9\"), \"127.0.0.2/32\", \"127.0.0.3/32\")"),
      "false");
  EXPECT_EQ(eval1("cidr_match(\"10.1.2.3\", \"192.168.0.0/16\", \"10.0.0.0/8\")"), "true");
  // A prefix that ends inside a byte, and host bits set in the block.
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.255\", \"10.0.0.128/25\")"), "true");
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.127\", \"10.0.0.128/25\")"), "false");
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.127\", \"10.0.0.1/24\")"), "true");
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.1\", \"0.0.0.0/0\")"), "true");
  // IPv6 blocks; an IPv4 address is inside ::/0 and ::ffff:0:0/96, as the IPv4-mapped
  // address Elasticsearch stores; an IPv6 one is outside 0.0.0.0/0.
  EXPECT_EQ(eval1("cidr_match(\"2001:db8::1\", \"2001:db8::/32\")"), "true");
  EXPECT_EQ(eval1("cidr_match(\"2001:db9::1\", \"2001:db8::/32\")"), "false");
  EXPECT_EQ(eval1("cidr_match(\"2001:db8::1\", \"0.0.0.0/0\")"), "false");
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.1\", \"::/0\")"), "true");
  EXPECT_EQ(eval1("cidr_match(\"10.0.0.1\", \"::ffff:0:0/96\")"), "true");
  EXPECT_EQ(eval1("cidr_match(\"2001:db8::1\", \"2001:db8::1/128\")"), "true");
}

TEST(IpFunctions, CidrMatchNulls) {
  Table t;
  t.add("ip", DataType::string(),
        {std::string("10.0.0.1"), std::monostate{}, std::string("no address"),
         std::string("192.168.1.1")});
  t.add("b", DataType::string(),
        {std::string("10.0.0.0/8"), std::string("10.0.0.0/8"), std::string("10.0.0.0/8"),
         std::monostate{}});
  EXPECT_EQ(eval("cidr_match(ip, b)", t), (V{"true", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval("cidr_match(ip, \"192.168.0.0/16\", b)", t), (V{"true", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval("cidr_match(ip, \"192.168.0.0/16\")", t), (V{"false", "NULL", "NULL", "true"}));
  EXPECT_EQ(eval1("cidr_match(NULL, \"10.0.0.0/8\")"), "NULL");
}

TEST(IpFunctions, CidrMatchRefusesWhatIsNoBlock) {
  for (const char* bad :
       {"10.0.0.0/33", "10.0.0.0", "10.0.0.0/", "10.0.0.0/-1", "::/129", "x/8", "10.0.0.0/8/8"}) {
    EXPECT_THROW(eval1("cidr_match(\"10.0.0.1\", \"" + std::string(bad) + "\")"), QueryError)
        << bad;
  }
  Table t;
  t.add("ip", DataType::string(), {std::string("10.0.0.1")});
  t.add("b", DataType::string(), {std::string("10.0.0.0/40")});
  try {
    eval("cidr_match(ip, b)", t);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(
        std::string(e.what()).find("cidr_match: argument 2, \"10.0.0.0/40\", is no CIDR block"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(eval1("cidr_match(\"10.0.0.1\")"), QueryError);
  EXPECT_THROW(eval1("cidr_match(\"10.0.0.1\", 8)"), QueryError);
}

}  // namespace
}  // namespace quarry::engine
