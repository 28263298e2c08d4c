#include "quarry/formats/orc/orc_file_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "quarry/common/error.h"
#include "quarry/common/json_text.h"
#include "quarry/common/values.h"
#include "quarry/formats/orc/encoding/decimal_decoder.h"
#include "quarry/formats/orc/orc_bloom_filter.h"
#include "quarry/formats/orc/orc_row_filter.h"
#include "quarry/formats/orc/orc_statistics.h"

namespace quarry::orc {
namespace {

template <typename T>
void appendNumber(T value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

void appendTimestamp(int64_t seconds, int32_t nanos, std::string& out) {
  // Java's Timestamp.toString: the fraction without trailing zeros, at least ".0".
  std::string text = Instant{seconds, 0}.toString(0);
  std::string fraction = std::to_string(nanos);
  fraction.insert(0, 9 - fraction.size(), '0');
  while (fraction.size() > 1 && fraction.back() == '0') fraction.pop_back();
  out += '"';
  out += text;
  out += '.';
  out += fraction;
  out += '"';
}

}  // namespace

std::shared_ptr<const OrcFileMeta> readOrcFileMeta(io::StorageObject& file) {
  auto meta = std::make_shared<OrcFileMeta>();
  meta->tail = readOrcTail(file);
  meta->schema = OrcSchema::build(meta->tail.footer, meta->tail.uri);
  return meta;
}

OrcFileReader::OrcFileReader(std::unique_ptr<io::StorageObject> file)
    : file_(std::move(file)), meta_(readOrcFileMeta(*file_)) {}

OrcFileReader::OrcFileReader(std::unique_ptr<io::StorageObject> file, std::shared_ptr<const OrcFileMeta> meta)
    : file_(std::move(file)), meta_(std::move(meta)) {}

std::unique_ptr<OrcFileReader> OrcFileReader::open(const std::string& uri) {
  return std::make_unique<OrcFileReader>(io::openObject(uri));
}

std::vector<bool> OrcFileReader::projectAll() const {
  return std::vector<bool>(meta_->schema.columnCount(), true);
}

std::vector<bool> OrcFileReader::project(const std::vector<std::string>& paths) const {
  std::vector<bool> flags(meta_->schema.columnCount(), false);
  flags[0] = true;
  for (const std::string& path : paths) {
    const OrcType* type = meta_->schema.find(path);
    if (type == nullptr) {
      throw InvalidArgument(meta_->tail.uri + ": no column '" + path + "' in the ORC schema " +
                            meta_->schema.root().toTypeString());
    }
    for (uint32_t id = type->columnId; id <= type->maximumColumnId; ++id) flags[id] = true;
    for (const OrcType* p = type->parent; p != nullptr; p = p->parent) flags[p->columnId] = true;
  }
  return flags;
}

StripeFooter OrcFileReader::readStripeFooter(size_t index) {
  return orc::readStripeFooter(*file_, meta_->tail, meta_->schema, index);
}

std::unique_ptr<ColumnVector> OrcFileReader::readStripe(size_t index,
                                                        const std::vector<bool>& projected) {
  if (projected.size() != meta_->schema.columnCount()) {
    throw InvalidArgument(meta_->tail.uri + ": the projection has " + std::to_string(projected.size()) +
                          " flags for " + std::to_string(meta_->schema.columnCount()) + " columns");
  }
  if (index >= stripeCount()) {
    throw InvalidArgument(meta_->tail.uri + ": no stripe " + std::to_string(index) + " (the file has " +
                          std::to_string(stripeCount()) + ")");
  }
  const StripeData stripe = orc::readStripe(*file_, meta_->tail, meta_->schema, index, projected, false);
  ++metrics_.stripesRead;
  metrics_.streamBytesDecompressed += stripe.streams.totalBytes();
  return decodeColumn(meta_->schema.root(), stripe.footer.rowCount, stripe.footer, stripe.streams,
                      projected, meta_->tail.uri + ": stripe " + std::to_string(index));
}

OrcRowReader::OrcRowReader(OrcFileReader& reader, std::vector<bool> projected,
                           OrcScanOptions options)
    : reader_(reader),
      projected_(std::move(projected)),
      pruning_(options.metadataPruning),
      byteRange_(options.byteRange) {
  if (projected_.size() != reader_.schema().columnCount()) {
    throw InvalidArgument(reader_.tail().uri + ": the projection has " +
                          std::to_string(projected_.size()) + " flags for " +
                          std::to_string(reader_.schema().columnCount()) + " columns");
  }
  if (options.filter) filter_ = OrcBoundPredicate::bind(*options.filter, reader_.schema());
  bloomFilters_ = bloomFiltersUsable(reader_.tail());
  // HIVE-8732 (writer version 1) fixed the string bounds of earlier writers.
  pruningContext_.stringBoundsUsable = reader_.tail().postscript.writerversion() >= 1;
}

bool OrcRowReader::nextStripe() {
  if (!loadNextStripe()) return false;
  metrics_.rowsReturned += static_cast<int64_t>(selected_.size());
  return true;
}

bool OrcRowReader::next() {
  if (stripe_ && position_ + 1 < selected_.size()) {
    slot_ = selected_[++position_];
    ++metrics_.rowsReturned;
    return true;
  }
  if (!loadNextStripe()) return false;
  position_ = 0;
  slot_ = selected_[0];
  ++metrics_.rowsReturned;
  return true;
}

namespace {

/// The Bloom filters of one row group, by column id.
class RowGroupBloomFilters : public MembershipProbe {
 public:
  RowGroupBloomFilters(const std::vector<std::vector<OrcBloomFilter>>& filters,
                       const std::vector<bool>& legacy, size_t rowGroup)
      : filters_(filters), legacy_(legacy), rowGroup_(rowGroup) {}
  bool provesAbsent(const OrcBoundNode& node) const override {
    const uint32_t id = node.column->columnId;
    // A legacy BLOOM_FILTER hashed strings in the writer's JVM charset: not for text.
    if (filters_[id].empty() || (legacy_[id] && node.domain == OrcBoundNode::Domain::kBytes))
      return false;
    return bloomProvesAbsent(filters_[id][rowGroup_], node);
  }

 private:
  const std::vector<std::vector<OrcBloomFilter>>& filters_;
  const std::vector<bool>& legacy_;
  size_t rowGroup_;
};

}  // namespace

std::vector<UnitDecision> OrcRowReader::decideStrides(const StripeFooter& footer,
                                                      const StripeStreams& index) {
  const uint64_t stride = reader_.tail().footer.rowindexstride();
  const uint64_t rows = footer.rowCount;
  const size_t strides = static_cast<size_t>((rows + stride - 1) / stride);
  std::vector<UnitDecision> out(strides, UnitDecision::kSome);
  const OrcSchema& schema = reader_.schema();
  const std::vector<bool>& columns = filter_->columns();
  std::vector<std::vector<OrcColumnStatistics>> statistics(schema.columnCount());
  std::vector<std::vector<OrcBloomFilter>> blooms(schema.columnCount());
  std::vector<bool> legacy(schema.columnCount(), false);
  const std::string context = reader_.tail().uri + ": stripe " + std::to_string(footer.stripeIndex);
  for (uint32_t c = 0; c < schema.columnCount(); ++c) {
    if (!columns[c]) continue;
    const std::string where = context + " column " + std::to_string(c);
    bool found = false;
    const auto rowIndex = index.find(c, proto::Stream::ROW_INDEX, found);
    if (found) {
      statistics[c] = rowIndexStatistics(rowIndex, schema.column(c), where);
      if (statistics[c].size() != strides)
        statistics[c].clear();  // not one entry per row group: unusable
    }
    auto bloom = index.find(c, proto::Stream::BLOOM_FILTER_UTF8, found);
    if (!found) {
      bloom = index.find(c, proto::Stream::BLOOM_FILTER, found);
      legacy[c] = found;
    }
    if (found && bloomFilters_) {
      blooms[c] = OrcBloomFilter::decodeIndex(bloom, where);
      if (blooms[c].size() != strides) blooms[c].clear();
    }
  }
  std::vector<const OrcColumnStatistics*> byColumn(schema.columnCount(), nullptr);
  for (size_t s = 0; s < strides; ++s) {
    for (uint32_t c = 0; c < schema.columnCount(); ++c) {
      byColumn[c] = statistics[c].empty() ? nullptr : &statistics[c][s];
    }
    const uint64_t strideRows = std::min<uint64_t>(stride, rows - s * stride);
    out[s] = decideUnit(*filter_, byColumn, strideRows, pruningContext_);
    if (out[s] == UnitDecision::kSome) {
      const RowGroupBloomFilters probe(blooms, legacy, s);
      out[s] = decideUnit(*filter_, byColumn, strideRows, pruningContext_, &probe);
      if (out[s] == UnitDecision::kNone) ++metrics_.stridesPrunedByBloomFilter;
    }
  }
  return out;
}

namespace {

/// Drops the children (struct fields) that `projected` does not flag: filter
/// columns decoded for evaluation only.
void dropUnprojected(ColumnVector& column, const std::vector<bool>& projected) {
  for (auto& child : column.children) {
    if (!child) continue;
    if (!projected[child->type->columnId]) {
      child.reset();
    } else {
      dropUnprojected(*child, projected);
    }
  }
}

}  // namespace

bool OrcRowReader::loadNextStripe() {
  io::StorageObject& file = reader_.file();
  const OrcTail& tail = reader_.tail();
  const OrcSchema& schema = reader_.schema();
  const uint64_t stride = tail.footer.rowindexstride();
  while (nextStripe_ < reader_.stripeCount()) {
    const size_t index = nextStripe_++;
    const auto& information = tail.footer.stripes(static_cast<int>(index));
    if (byteRange_) {
      const uint64_t length =
          information.indexlength() + information.datalength() + information.footerlength();
      const uint64_t midpoint = information.offset() + length / 2;
      if (midpoint < byteRange_->first || midpoint >= byteRange_->second) continue;
    }
    const uint64_t rows = information.numberofrows();
    const int64_t strides = stride > 0 ? static_cast<int64_t>((rows + stride - 1) / stride) : 0;
    ++metrics_.stripesTotal;
    metrics_.stridesTotal += strides;
    UnitDecision decision = filter_ ? UnitDecision::kSome : UnitDecision::kAll;
    if (filter_ && pruning_) {
      const std::vector<OrcColumnStatistics> stats = stripeStatistics(tail, schema, index);
      std::vector<const OrcColumnStatistics*> byColumn;
      for (const auto& s : stats) byColumn.push_back(&s);
      decision = decideUnit(*filter_, byColumn, rows, pruningContext_);
      if (decision == UnitDecision::kNone) {
        ++metrics_.stripesPrunedByStatistics;
        metrics_.stridesSkipped += strides;
        continue;
      }
      if (decision == UnitDecision::kAll) {
        ++metrics_.stripesMatchedByStatistics;
        metrics_.stridesMatchedByStatistics += strides;
      }
    }
    std::vector<bool> columns = projected_;
    if (decision == UnitDecision::kSome) {
      for (size_t c = 0; c < columns.size(); ++c) columns[c] = columns[c] || filter_->columns()[c];
    }
    const uint64_t bytesBefore = file.bytesRead();
    const uint64_t requestsBefore = file.requestCount();
    const auto countFetched = [&] {
      metrics_.bytesFetched += file.bytesRead() - bytesBefore;
      metrics_.requestsFetched += file.requestCount() - requestsBefore;
    };
    std::vector<UnitDecision> strideDecisions;
    std::optional<StripeData> data;
    if (decision == UnitDecision::kSome && pruning_ && stride > 0) {
      StripeFooter footer = orc::readStripeFooter(file, tail, schema, index);
      const StripeStreams indexStreams =
          readStripeStreams(file, tail, footer, filter_->columns(), true, nullptr, true);
      const int64_t bloomBefore = metrics_.stridesPrunedByBloomFilter;
      strideDecisions = decideStrides(footer, indexStreams);
      int64_t none = 0;
      for (UnitDecision d : strideDecisions) {
        none += d == UnitDecision::kNone ? 1 : 0;
        metrics_.stridesMatchedByStatistics += d == UnitDecision::kAll ? 1 : 0;
      }
      metrics_.stridesSkipped += none;
      if (none == static_cast<int64_t>(strideDecisions.size())) {
        ++(metrics_.stridesPrunedByBloomFilter > bloomBefore ? metrics_.stripesPrunedByBloomFilter
                                                             : metrics_.stripesPrunedByRowIndex);
        countFetched();
        continue;
      }
      StripeStreams streams = readStripeStreams(file, tail, footer, columns, false);
      data.emplace(StripeData{std::move(footer), std::move(streams)});
    } else {
      data.emplace(readStripe(file, tail, schema, index, columns, false));
    }
    countFetched();
    ++metrics_.stripesRead;
    stripe_ = decodeColumn(schema.root(), data->footer.rowCount, data->footer, data->streams,
                           columns, tail.uri + ": stripe " + std::to_string(index));
    metrics_.rowsDecoded += static_cast<int64_t>(stripe_->size);
    selected_.clear();
    std::vector<uint8_t> truth;
    if (decision == UnitDecision::kSome) {
      truth = selectRows(*filter_, *stripe_);
      dropUnprojected(*stripe_, projected_);
    }
    for (uint64_t r = 0; r < stripe_->size; ++r) {
      const UnitDecision d = strideDecisions.empty() ? decision : strideDecisions[r / stride];
      if (d == UnitDecision::kAll || (d == UnitDecision::kSome && truth[r] != 0))
        selected_.push_back(r);
    }
    if (!selected_.empty()) return true;
  }
  stripe_.reset();
  selected_.clear();
  return false;
}

void OrcRowReader::appendRowJson(std::string& out) const {
  appendJson(*stripe_, slot_, out);
}

void appendJson(const ColumnVector& column, uint64_t slot, std::string& out) {
  if (column.isNull(slot)) {
    out += "null";
    return;
  }
  const uint64_t i = column.valueIndex(slot);
  const OrcType& type = *column.type;
  switch (type.kind) {
    case TypeKind::kBoolean:
      out += column.longs[i] != 0 ? "true" : "false";
      return;
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      out += std::to_string(column.longs[i]);
      return;
    case TypeKind::kFloat:
      appendNumber(static_cast<float>(column.doubles[i]), out);
      return;
    case TypeKind::kDouble:
      appendNumber(column.doubles[i], out);
      return;
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      appendJsonString(out,
                       std::string_view(column.bytes)
                           .substr(column.offsets[i], column.offsets[i + 1] - column.offsets[i]));
      return;
    case TypeKind::kBinary:
      out += '[';
      for (uint64_t b = column.offsets[i]; b < column.offsets[i + 1]; ++b) {
        if (b > column.offsets[i]) out += ", ";
        out += std::to_string(static_cast<unsigned char>(column.bytes[b]));
      }
      out += ']';
      return;
    case TypeKind::kDate:
      out += '"' + Date{static_cast<int32_t>(column.longs[i])}.toString() + '"';
      return;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      appendTimestamp(column.wallClockSeconds(i), column.nanos[i], out);
      return;
    case TypeKind::kDecimal:
      if (!column.decimalScales.empty()) {
        out += decimalToString(column.wideDecimals[i], column.decimalScales[i]);
      } else if (!column.wideDecimals.empty()) {
        out += decimalToString(column.wideDecimals[i], static_cast<int32_t>(type.scale));
      } else {
        out += decimalToString(column.longs[i], static_cast<int32_t>(type.scale));
      }
      return;
    case TypeKind::kStruct: {
      out += '{';
      bool first = true;
      for (size_t c = 0; c < column.children.size(); ++c) {
        if (!column.children[c]) continue;
        if (!first) out += ", ";
        first = false;
        appendJsonString(out, type.children[c]->name);
        out += ": ";
        appendJson(*column.children[c], i, out);
      }
      out += '}';
      return;
    }
    case TypeKind::kList:
      out += '[';
      for (uint64_t e = column.offsets[i]; e < column.offsets[i + 1]; ++e) {
        if (e > column.offsets[i]) out += ", ";
        appendJson(*column.children[0], e, out);
      }
      out += ']';
      return;
    case TypeKind::kMap:
      out += '[';
      for (uint64_t e = column.offsets[i]; e < column.offsets[i + 1]; ++e) {
        if (e > column.offsets[i]) out += ", ";
        out += "{\"key\": ";
        appendJson(*column.children[0], e, out);
        out += ", \"value\": ";
        appendJson(*column.children[1], e, out);
        out += '}';
      }
      out += ']';
      return;
    case TypeKind::kUnion: {
      const auto tag = static_cast<size_t>(column.longs[i]);
      out += "{\"tag\": " + std::to_string(tag) + ", \"value\": ";
      appendJson(*column.children[tag], column.unionSlots[i], out);
      out += '}';
      return;
    }
  }
}

}  // namespace quarry::orc
