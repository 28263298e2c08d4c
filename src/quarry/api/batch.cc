#include "quarry/batch.h"

#include <stdexcept>

#include "quarry/api/batch_impl.h"
#include "quarry/cli/block_text.h"
#include "quarry/common/error.h"

namespace quarry {

namespace {

using engine::Block;

/// Returns the block of `column` after checking `row`; throws std::out_of_range.
const Block& blockAt(const Batch::Impl& impl, size_t column, size_t row) {
  if (column >= impl.page.blockCount()) {
    throw std::out_of_range("column " + std::to_string(column) + " of a batch of " +
                            std::to_string(impl.page.blockCount()) + " columns");
  }
  if (row >= impl.page.positionCount()) {
    throw std::out_of_range("row " + std::to_string(row) + " of a batch of " +
                            std::to_string(impl.page.positionCount()) + " rows");
  }
  return impl.page.block(column);
}

[[noreturn]] void wrongKind(const Batch::Impl& impl, size_t column, const char* getter) {
  const Field& field = (*impl.schema)[column];
  throw InvalidArgument(std::string(getter) + " on column " + field.name + " of type " +
                        field.type.toString());
}

/// Returns the block of a non-null value of one of `kinds`; throws otherwise.
template <typename... Kinds>
const Block& typedBlock(const Batch::Impl& impl, size_t column, size_t row, const char* getter,
                        Kinds... kinds) {
  const Block& block = blockAt(impl, column, row);
  if (!((block.type().kind == kinds) || ...)) wrongKind(impl, column, getter);
  if (block.isNull(row)) {
    throw InvalidArgument(std::string(getter) + " on a null value: column " +
                          (*impl.schema)[column].name + ", row " + std::to_string(row));
  }
  return block;
}

}  // namespace

Batch::Batch(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

size_t Batch::rowCount() const {
  return impl_->page.positionCount();
}

size_t Batch::columnCount() const {
  return impl_->page.blockCount();
}

const Schema& Batch::schema() const {
  return *impl_->schema;
}

bool Batch::isNull(size_t column, size_t row) const {
  return blockAt(*impl_, column, row).isNull(row);
}

bool Batch::getBoolean(size_t column, size_t row) const {
  return typedBlock(*impl_, column, row, "getBoolean", engine::TypeKind::kBoolean)
             .values<uint8_t>()[row] != 0;
}

int64_t Batch::getInt64(size_t column, size_t row) const {
  using engine::TypeKind;
  const Block& block =
      typedBlock(*impl_, column, row, "getInt64", TypeKind::kInt32, TypeKind::kInt64,
                 TypeKind::kDate, TypeKind::kTime, TypeKind::kTimestamp);
  const TypeKind kind = block.type().kind;
  if (kind == TypeKind::kInt32 || kind == TypeKind::kDate) return block.values<int32_t>()[row];
  return block.values<int64_t>()[row];
}

uint64_t Batch::getUInt64(size_t column, size_t row) const {
  return typedBlock(*impl_, column, row, "getUInt64", engine::TypeKind::kUInt64)
      .values<uint64_t>()[row];
}

double Batch::getDouble(size_t column, size_t row) const {
  return typedBlock(*impl_, column, row, "getDouble", engine::TypeKind::kDouble)
      .values<double>()[row];
}

__int128 Batch::getDecimal(size_t column, size_t row) const {
  return typedBlock(*impl_, column, row, "getDecimal", engine::TypeKind::kDecimal)
      .values<engine::Int128>()[row];
}

std::string_view Batch::getString(size_t column, size_t row) const {
  using engine::TypeKind;
  return typedBlock(*impl_, column, row, "getString", TypeKind::kString, TypeKind::kBinary,
                    TypeKind::kUuid)
      .bytes(row);
}

std::string Batch::text(size_t column, size_t row) const {
  std::string out;
  cli::appendBlockText(blockAt(*impl_, column, row), row, out);
  return out;
}

std::string Batch::json(size_t column, size_t row) const {
  std::string out;
  cli::appendBlockJson(blockAt(*impl_, column, row), row, out);
  return out;
}

}  // namespace quarry
