// libFuzzer target for what a coordinator takes off the wire: the input is
// parsed as a cluster.proto Page and converted against a fixed schema of every
// kind, then against the schema the page itself declares (so that mutations
// reach the value checks, not only the type check). Everything must end in a
// Page or a CorruptFile.
#include <cstddef>
#include <cstdint>

#include "quarry/cluster/wire.h"
#include "quarry/common/error.h"

namespace {

using quarry::engine::DataType;
using quarry::engine::TimeUnit;

const quarry::engine::Schema& fixedSchema() {
  static const quarry::engine::Schema schema = {
      {"n", DataType::null()},
      {"b", DataType::boolean()},
      {"i32", DataType::int32()},
      {"i64", DataType::int64()},
      {"u64", DataType::uint64()},
      {"f", DataType::float64()},
      {"d", DataType::decimal(20, 2)},
      {"s", DataType::string()},
      {"bin", DataType::binary()},
      {"date", DataType::date()},
      {"time", DataType::time(TimeUnit::kMicros)},
      {"ts", DataType::timestamp(TimeUnit::kNanos, true)},
      {"uuid", DataType::uuid()},
  };
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  quarry::cluster::proto::Page page;
  if (!page.ParseFromArray(data, static_cast<int>(size))) return 0;
  try {
    quarry::cluster::fromProto(page, fixedSchema());
  } catch (const quarry::CorruptFile&) {
  }
  try {
    quarry::engine::Schema declared;
    for (const auto& column : page.columns())
      declared.push_back({"c", quarry::cluster::fromProto(column.type())});
    quarry::cluster::fromProto(page, declared);
  } catch (const quarry::CorruptFile&) {
  }
  return 0;
}
