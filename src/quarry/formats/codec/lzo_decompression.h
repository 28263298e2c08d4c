#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

/// LZO1X, the LZO variant ORC writes: each compressed chunk of an ORC stream is
/// one raw LZO1X block (no header, no length prefix; Apache ORC's Java writer uses
/// aircompressor's LzoCompressor, its C++ reader an LZO1X decompressor). Decoded
/// with liblzo2's lzo1x_decompress_safe, which checks every read against the
/// input's end and every write against the output's, so corrupt bytes can neither
/// read nor write out of bounds.
namespace quarry::parquet {

/// Decompresses the LZO1X block `input` into `output`; returns the number of bytes
/// written, or nullopt (with a reason in `*reason`) when the block is malformed,
/// is cut off, ends before its end-of-stream marker, has bytes after it, or would
/// decode to more than `output.size()` bytes. Safe to call from several threads.
std::optional<size_t> decompressLzo1x(std::span<const uint8_t> input, std::span<uint8_t> output,
                                      const char** reason);

}  // namespace quarry::parquet
