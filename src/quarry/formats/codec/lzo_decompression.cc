#include "quarry/formats/codec/lzo_decompression.h"

#include <lzo/lzo1x.h>

#include <stdexcept>

namespace quarry::parquet {
namespace {

/// lzo_init() checks that the library was built for this ABI; it must run once
/// before the first call (a function-local static makes that thread-safe).
void initializeLzo() {
  static const bool ok = lzo_init() == LZO_E_OK;
  if (!ok) throw std::runtime_error("liblzo2 failed to initialize (lzo_init)");
}

const char* describe(int rc) {
  switch (rc) {
    case LZO_E_INPUT_OVERRUN:
      return "the LZO1X block is cut off";
    case LZO_E_OUTPUT_OVERRUN:
      return "the LZO1X block decodes to more than the block size";
    case LZO_E_LOOKBEHIND_OVERRUN:
      return "the LZO1X block copies from before its start";
    case LZO_E_EOF_NOT_FOUND:
      return "the LZO1X block has no end-of-stream marker";
    case LZO_E_INPUT_NOT_CONSUMED:
      return "bytes follow the LZO1X block's end-of-stream marker";
    default:
      return "the LZO1X block is malformed";
  }
}

}  // namespace

std::optional<size_t> decompressLzo1x(std::span<const uint8_t> input, std::span<uint8_t> output,
                                      const char** reason) {
  initializeLzo();
  if (input.empty()) {
    *reason = "the LZO1X block is empty";
    return std::nullopt;
  }
  lzo_uint written = output.size();
  // An empty span may have no storage; the decompressor must still get a pointer.
  uint8_t none = 0;
  const int rc = lzo1x_decompress_safe(input.data(), input.size(),
                                       output.empty() ? &none : output.data(), &written, nullptr);
  if (rc != LZO_E_OK) {
    *reason = describe(rc);
    return std::nullopt;
  }
  return static_cast<size_t>(written);
}

}  // namespace quarry::parquet
