#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <openssl/types.h>

/// SHA-256 and HMAC-SHA256 for AWS Signature Version 4, and the digests of the
/// language's MD5, SHA1 and SHA256, from OpenSSL's libcrypto.so.3 loaded with dlopen on
/// first use. quarry does not link OpenSSL: a query that hashes nothing must not pay for
/// it at start-up. Linked from libcrypto.a instead, `quarry` grew by 4.4 MB (3.4 MB of
/// code, 16,700 more relocations) and `quarry --version` took 1.2-1.7 ms longer (1,000
/// alternated runs under process_timer on a loaded 2-core machine: best 3.8 -> 5.1 ms,
/// tenth percentile 5.0 -> 6.3 ms), every query paying; loading it costs a query that
/// hashes about 1.4 ms (best 9.3 ms linked, 10.7 ms loaded; 4.1 ms without a digest,
/// most of the difference OpenSSL's own initialization). <openssl/*.h> is used for types only.
namespace quarry::io {

using Sha256Digest = std::array<uint8_t, 32>;

/// Returns the SHA-256 digest of `data`; throws Unsupported naming libcrypto.so.3 when it
/// cannot be loaded.
Sha256Digest sha256(std::span<const uint8_t> data);
Sha256Digest sha256(std::string_view data);

/// Returns HMAC-SHA256 of `data` under `key`; throws Unsupported like sha256.
Sha256Digest hmacSha256(std::span<const uint8_t> key, std::string_view data);

enum class DigestAlgorithm : uint8_t { kMd5, kSha1, kSha256 };

/// Computes one algorithm's digests of one value after another on a context of its own
/// (one per thread; the algorithm is fetched once, not per value).
class Digester {
 public:
  /// Throws Unsupported naming `purpose` (what needs the digest, e.g. "md5") when
  /// libcrypto.so.3 cannot be loaded or does not offer the algorithm.
  Digester(DigestAlgorithm algorithm, const std::string& purpose);
  ~Digester();
  Digester(const Digester&) = delete;
  Digester& operator=(const Digester&) = delete;

  /// Appends the digest of `data` to `out` as lowercase hexadecimal (32, 40 or 64 digits).
  void appendHex(std::string_view data, std::string& out);

 private:
  EVP_MD* md_ = nullptr;
  EVP_MD_CTX* context_ = nullptr;
  std::string purpose_;
};

/// Returns `bytes` as lowercase hexadecimal (two digits a byte), the form SigV4 signs and sends.
std::string hexEncode(std::span<const uint8_t> bytes);

}  // namespace quarry::io
