// libFuzzer target for the footer path: the input is taken as the tail of a
// Parquet file (metadata, length, magic). Everything readFooter and
// FileSchema::build do must end in a decoded footer or one of quarry's errors.
// The same input is also decoded as a page header, column index, offset index
// and Bloom filter header, the other thrift structures a reader meets, and read
// as a file holding a Bloom filter at offset 0 (whole, and probed block by
// block, with and without a recorded length).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/bloom_filter.h"
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
  if (size > 0) {
    auto file = quarry::io::MemoryObject::borrow("fuzz://input", bytes);
    SchemaNode leaf;
    leaf.path = "x";
    ColumnMetaData meta;
    meta.bloom_filter_offset = 0;
    const uint64_t hashes[] = {bloomHash(std::string_view(reinterpret_cast<const char*>(data), size)),
                               0x9e3779b97f4a7c15ULL * size, ~uint64_t{0}};
    for (const std::optional<int32_t> length :
         {std::optional<int32_t>(), std::optional<int32_t>(static_cast<int32_t>(size > 0x7fffffff ? 0x7fffffff : size))}) {
      meta.bloom_filter_length = length;
      refusedOrDecoded([&] { readBloomFilter(file, 0, meta, leaf); });
      refusedOrDecoded([&] { bloomFilterMayContain(file, 0, meta, leaf, hashes); });
    }
  }
  return 0;
}
