#include "quarry/engine/source/orc_file_statistics.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_statistics.h"

namespace quarry::engine {
namespace {

using orc::TypeKind;

bool underListOrMap(const orc::OrcType& type) {
  for (const orc::OrcType* p = type.parent; p != nullptr; p = p->parent) {
    if (p->kind == TypeKind::kList || p->kind == TypeKind::kMap) return true;
  }
  return false;
}

int64_t checkedRows(uint64_t rows, const orc::OrcTail& tail, const std::string& what) {
  if (rows > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    throw CorruptFile(tail.uri + ": " + what + " row count " + std::to_string(rows) +
                      " exceeds int64");
  }
  return static_cast<int64_t>(rows);
}

ColumnStatistics convert(const orc::OrcColumnStatistics& s, const orc::OrcType& type,
                         int64_t rowCount) {
  ColumnStatistics out;
  if (underListOrMap(type)) return out;
  if (s.valueCount && *s.valueCount <= static_cast<uint64_t>(rowCount)) {
    const int64_t nulls = rowCount - static_cast<int64_t>(*s.valueCount);
    // A writer that says "no null" must agree with the counts.
    if (!(s.hasNull == std::optional<bool>{false} && nulls != 0)) out.nullCount = nulls;
  }
  if (!out.nullCount) return out;              // bounds are only used alongside a known count
  if (*out.nullCount == rowCount) return out;  // all null: no bound
  switch (type.kind) {
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      if (s.intMinimum && s.intMaximum) {
        out.min = *s.intMinimum;
        out.max = *s.intMaximum;
      }
      break;
    case TypeKind::kBoolean:
      if (s.trueCount && s.valueCount && *s.trueCount <= *s.valueCount) {
        out.min = *s.trueCount == *s.valueCount;  // false unless every value is true
        out.max = *s.trueCount > 0;
      }
      break;
    case TypeKind::kDate:
      if (s.dateMinimum && s.dateMaximum) {
        out.min = *s.dateMinimum;
        out.max = *s.dateMaximum;
      }
      break;
    case TypeKind::kString:
    case TypeKind::kVarchar:
      if (s.stringMinimum && !s.stringMinimumIsBound) out.min = *s.stringMinimum;
      if (s.stringMaximum && !s.stringMaximumIsBound) out.max = *s.stringMaximum;
      break;
    default:
      break;
  }
  if (out.min && out.max) {
    const auto order = compareStatisticValues(*out.min, *out.max);
    if (!order || *order > 0) {  // reversed bounds bracket nothing
      out.min.reset();
      out.max.reset();
    }
  }
  return out;
}

}  // namespace

SourceStatistics OrcFileStatistics::fromColumns(
    const std::vector<orc::OrcColumnStatistics>& columns, const orc::OrcSchema& schema,
    int64_t rowCount) {
  SourceStatistics out;
  out.rowCount = rowCount;
  for (uint32_t id = 1; id < schema.columnCount(); ++id) {
    const orc::OrcType& type = schema.column(id);
    if (type.isCompound()) continue;
    out.columns[type.path] =
        id < columns.size() ? convert(columns[id], type, rowCount) : ColumnStatistics{};
  }
  return out;
}

SourceStatistics OrcFileStatistics::extract(const orc::OrcTail& tail,
                                            const orc::OrcSchema& schema) {
  const int64_t rows = checkedRows(tail.footer.numberofrows(), tail, "file");
  return fromColumns(orc::fileStatistics(tail, schema), schema, rows);
}

SourceStatistics OrcFileStatistics::extractStripes(const orc::OrcTail& tail,
                                                   const orc::OrcSchema& schema, size_t first,
                                                   size_t count) {
  const size_t stripes = tail.stripeCount();
  first = std::min(first, stripes);
  const size_t last = first + std::min(count, stripes - first);
  SourceStatistics out;
  if (first == last) return fromColumns({}, schema, 0);
  for (size_t i = first; i < last; ++i) {
    const int64_t rows = checkedRows(tail.footer.stripes(static_cast<int>(i)).numberofrows(), tail,
                                     "stripe " + std::to_string(i));
    SourceStatistics part = fromColumns(orc::stripeStatistics(tail, schema, i), schema, rows);
    out = i == first ? std::move(part) : merge(out, part);
  }
  return out;
}

}  // namespace quarry::engine
