// libFuzzer target for the footer path: the input is taken as the tail of a
// Parquet file (metadata, length, magic). Everything readFooter and
// FileSchema::build do must end in a decoded footer or one of quarry's errors.
// The same input is also decoded as a page header, column index, offset index
// and Bloom filter header, the other thrift structures a reader meets.
#include <cstddef>
#include <cstdint>
#include <span>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/memory_storage.h"

namespace {

template <typename F>
void refusedOrDecoded(F&& decode) {
  try {
    decode();
  } catch (const quarry::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quarry::parquet;
  const std::span<const uint8_t> bytes(data, size);
  refusedOrDecoded([&] {
    auto file = quarry::io::MemoryObject::borrow("fuzz://input", bytes);
    const ParquetFooter footer = readFooter(file);
    FileSchema::build(footer.metadata.schema);
  });
  refusedOrDecoded([&] {
    uint32_t headerSize = 0;
    decodePageHeader(bytes, headerSize);
  });
  refusedOrDecoded([&] { decodeColumnIndex(bytes); });
  refusedOrDecoded([&] { decodeOffsetIndex(bytes); });
  refusedOrDecoded([&] {
    uint32_t headerSize = 0;
    decodeBloomFilterHeader(bytes, headerSize);
  });
  return 0;
}
