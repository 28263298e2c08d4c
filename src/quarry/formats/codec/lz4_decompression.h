#pragma once

#include <cstdint>
#include <span>

/// The two LZ4 codecs of Parquet. LZ4_RAW (id 7) is one LZ4 block. The
/// deprecated LZ4 (id 5) was never pinned down by the spec, and writers
/// disagree on it: parquet-mr and Arrow since 2020 write Hadoop's framing,
/// parquet-cpp before that wrote a bare block, and some tools an LZ4 frame.
/// Both functions report failure by returning false so that decompress()
/// words the error once for every codec.
namespace quarry::parquet {

/// Returns whether `input` is one LZ4 block that decompresses to exactly
/// `output.size()` bytes (written into `output`).
bool decompressLz4Block(std::span<const uint8_t> input, std::span<uint8_t> output);

/// Returns whether `input` decompresses to exactly `output.size()` bytes in one
/// of the forms of the deprecated LZ4 codec, tried in this order: Hadoop framing,
/// a bare LZ4 block, then a sequence of LZ4 frames. On false, `output` holds
/// garbage.
bool decompressLz4Legacy(std::span<const uint8_t> input, std::span<uint8_t> output);

}  // namespace quarry::parquet
