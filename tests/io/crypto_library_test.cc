// io::Digester (crypto_library.h): libcrypto's MD5, SHA-1 and SHA-256 digests in
// lowercase hexadecimal, checked against RFC 1321's and FIPS 180-2's test vectors;
// one Digester serves many values, its context reset for each.

#include "quarry/io/crypto_library.h"

#include <gtest/gtest.h>

#include <string>

namespace quarry::io {
namespace {

std::string hexOf(DigestAlgorithm algorithm, std::string_view data) {
  Digester digester(algorithm, "test");
  std::string out;
  digester.appendHex(data, out);
  return out;
}

TEST(Digester, GivesTheStandardsTestVectors) {
  EXPECT_EQ(hexOf(DigestAlgorithm::kMd5, "abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(hexOf(DigestAlgorithm::kMd5, "message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(hexOf(DigestAlgorithm::kSha1, "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(
      hexOf(DigestAlgorithm::kSha256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Digester, ServesManyValuesAndAppends) {
  Digester digester(DigestAlgorithm::kSha1, "test");
  std::string out = "x";
  digester.appendHex("abc", out);
  digester.appendHex("", out);
  EXPECT_EQ(out,
            "xa9993e364706816aba3e25717850c26c9cd0d89dda39a3ee5e6b4b0d3255bfef95601890afd80709");
  // The same Digester again gives the same digest: nothing of the previous value remains.
  std::string again;
  digester.appendHex("abc", again);
  EXPECT_EQ(again, "a9993e364706816aba3e25717850c26c9cd0d89d");
}

}  // namespace
}  // namespace quarry::io
