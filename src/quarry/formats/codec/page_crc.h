#pragma once

#include <cstdint>
#include <span>

/// The CRC-32 a page header may record over its page's bytes (parquet-format:
/// the standard CRC-32 of zlib and gzip, over the page as stored: compressed,
/// and for DATA_PAGE_V2 with its levels).
namespace quarry::parquet {

/// Returns the CRC-32 of `bytes`, with libdeflate's carry-less-multiply code
/// (about 30 GB/s here, five times zlib's crc32).
uint32_t pageCrc32(std::span<const uint8_t> bytes);

/// Throws CorruptFile "CRC mismatch: the <what> header records 0x..., the page's
/// bytes give 0x..." unless `body` has the CRC `expected`.
void verifyPageCrc(int32_t expected, std::span<const uint8_t> body, const char* what);

}  // namespace quarry::parquet
