#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "quarry/formats/codec/compression_codec.h"

/// Page decompression for every codec Parquet defines. The caller sizes the
/// output from the page header, so no codec ever allocates what a corrupt
/// length field inside the compressed bytes asks for.
namespace quarry::parquet {

/// Decompresses `input` (one page's compressed bytes) into `output`, whose size is
/// the page header's uncompressed_page_size. Writes straight into `output` with no
/// intermediate copy. Throws CorruptFile, naming the codec and both sizes, when the
/// bytes do not decompress to exactly `output.size()` bytes, and Unsupported for LZO
/// and for codec ids the spec does not define. Safe to call from several threads.
void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output);

/// Same as above, for a caller whose buffer extends `outputSlack` bytes past
/// output's end: codecs that can (SNAPPY) write scratch there to copy in wide
/// moves. Those bytes hold garbage afterwards; none past them is touched.
void decompress(CompressionCodec codec, std::span<const uint8_t> input, std::span<uint8_t> output,
                size_t outputSlack);

}  // namespace quarry::parquet
