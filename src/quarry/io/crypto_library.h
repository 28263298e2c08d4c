#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

/// SHA-256 and HMAC-SHA256 for AWS Signature Version 4, from OpenSSL's libcrypto.so.3
/// loaded with dlopen on first use. quarry does not link OpenSSL: a query over local
/// files must not pay for resolving it at start-up. <openssl/*.h> is used for types only.
namespace quarry::io {

using Sha256Digest = std::array<uint8_t, 32>;

/// Returns the SHA-256 digest of `data`; throws Unsupported naming libcrypto.so.3 when it
/// cannot be loaded.
Sha256Digest sha256(std::span<const uint8_t> data);
Sha256Digest sha256(std::string_view data);

/// Returns HMAC-SHA256 of `data` under `key`; throws Unsupported like sha256.
Sha256Digest hmacSha256(std::span<const uint8_t> key, std::string_view data);

/// Returns `bytes` as lowercase hexadecimal (two digits a byte), the form SigV4 signs and sends.
std::string hexEncode(std::span<const uint8_t> bytes);

}  // namespace quarry::io
