#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

/// Parquet's SNAPPY codec: one raw snappy block (no framing), decoded by quarry
/// itself rather than through libsnappy, so that the decoder can use the slack
/// the reader leaves after its page buffer for wide copies.
///
/// A block is a ULEB128 preamble (the uncompressed length, at most 2^32 - 1)
/// followed by elements, each starting with a tag byte whose low two bits give
/// its kind:
///   - 00 literal: length - 1 in the upper six bits when below 60; 60..63 say
///     that the length - 1 follows in 1..4 little-endian bytes; then the bytes;
///   - 01 copy, 1-byte offset: length 4..11 in bits 2-4, offset bits 8-10 in
///     bits 5-7 and the low eight in the next byte;
///   - 10 copy, 2-byte offset: length 1..64 in the upper six bits, offset next
///     (little endian); 11 copy, 4-byte offset: the same with four offset bytes.
/// A copy repeats `length` bytes from `offset` bytes back in the output; an
/// offset smaller than the length repeats a pattern.
///
/// Worked example: "abcabcabcX" is preamble 0a, literal 08 'a' 'b' 'c' (length
/// 3), copy 09 03 (kind 01, length 4 + 2 = 6, offset 3) and literal 00 'X'.
namespace quarry::parquet {

/// Returns the uncompressed length a snappy block's preamble announces, or
/// nullopt when the preamble is cut off, longer than 5 bytes or above 2^32 - 1.
std::optional<uint64_t> snappyUncompressedLength(std::span<const uint8_t> input);

/// Decodes the snappy block `input` into `output`, whose size must be what the
/// preamble announces. `outputSlack` more bytes past output's end may be written
/// with scratch (the decoder then copies 16 bytes at a time up to the end);
/// bytes past that, and every byte of input past its end, are never touched.
/// Returns nullptr on success, else why the block is malformed: a bad preamble,
/// an element cut off, a copy reaching before the output's start, or an output
/// longer or shorter than `output.size()`.
const char* decompressSnappyBlock(std::span<const uint8_t> input, std::span<uint8_t> output,
                                  size_t outputSlack = 0);

}  // namespace quarry::parquet
