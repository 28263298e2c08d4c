// libFuzzer target for ORC metadata: the input is taken as a whole ORC file.
// Everything readOrcTail, OrcSchema::build, the stripe footers and the column
// decoding of the first stripes do must end in decoded values or one of
// quarry's errors. The same input is also parsed as a lone stripe footer of a
// one-column file.
#include <cstddef>
#include <cstdint>
#include <span>

#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/orc/orc_statistics.h"
#include "quarry/io/memory_storage.h"

namespace {

template <typename F>
void refusedOrDecoded(F&& decode) {
  try {
    decode();
  } catch (const quarry::Error&) {
  }
}

/// Stripes whose rows the fuzzer decodes: a corrupt row count must not make it
/// spend its time allocating.
constexpr uint64_t kMaxFuzzRows = 1 << 16;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quarry::orc;
  const std::span<const uint8_t> bytes(data, size);
  refusedOrDecoded([&] {
    auto file = std::make_unique<quarry::io::MemoryObject>(
        quarry::io::MemoryObject::borrow("fuzz://input.orc", bytes));
    OrcFileReader reader(std::move(file));
    fileStatistics(reader.tail(), reader.schema());
    for (size_t s = 0; s < reader.stripeCount() && s < 2; ++s) {
      stripeStatistics(reader.tail(), reader.schema(), s);
      if (reader.tail().footer.stripes(static_cast<int>(s)).numberofrows() > kMaxFuzzRows) break;
      reader.readStripe(s, reader.projectAll());
    }
  });
  refusedOrDecoded([&] {
    OrcTail tail;
    tail.uri = "fuzz://stripe-footer";
    auto* root = tail.footer.add_types();
    root->set_kind(proto::Type::STRUCT);
    root->add_subtypes(1);
    root->add_fieldnames("s");
    tail.footer.add_types()->set_kind(proto::Type::STRING);
    auto* stripe = tail.footer.add_stripes();
    stripe->set_offset(3);
    stripe->set_datalength(size);
    stripe->set_footerlength(size);
    const OrcSchema schema = OrcSchema::build(tail.footer, tail.uri);
    decodeStripeFooter(bytes, tail, schema, 0, tail.uri);
  });
  return 0;
}
