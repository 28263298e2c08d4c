#include "quarry/engine/source/split_scan.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/common/values.h"
#include "quarry/engine/source/type_widening.h"

namespace quarry::engine {
namespace {

/// The type a partition value is produced as when the request gives no output type.
DataType typeOfScalar(const Scalar& value) {
  if (std::holds_alternative<uint8_t>(value)) return DataType::boolean();
  if (std::holds_alternative<int32_t>(value)) return DataType::int32();
  if (std::holds_alternative<int64_t>(value)) return DataType::int64();
  if (std::holds_alternative<double>(value)) return DataType::float64();
  if (std::holds_alternative<std::string>(value)) return DataType::string();
  return DataType::null();
}

/// A value of `type` for a message.
std::string render(const Scalar& value, const DataType& type) {
  if (std::holds_alternative<std::monostate>(value)) return "null";
  if (const std::string* v = std::get_if<std::string>(&value)) return "\"" + *v + "\"";
  if (const int32_t* v = std::get_if<int32_t>(&value)) {
    return type.kind == TypeKind::kDate ? Date{*v}.toString() : std::to_string(*v);
  }
  if (const int64_t* v = std::get_if<int64_t>(&value)) {
    if (type.kind == TypeKind::kTimestamp) {
      return Instant::ofEpochUnits(*v, unitsPerSecond(type.unit)).toString(6);
    }
    return std::to_string(*v);
  }
  if (const double* v = std::get_if<double>(&value)) return std::to_string(*v);
  if (const uint8_t* v = std::get_if<uint8_t>(&value)) return *v ? "true" : "false";
  return "?";
}

}  // namespace

std::optional<Page> SplitScan::next() {
  if (!opened_) {
    opened_ = true;
    open();
  }
  while (true) {
    if (request_.limit && returned_ >= *request_.limit) return finish();
    if (batchOffset_ >= batchRows_ && !advance()) return finish();
    int64_t count = std::min<int64_t>(batchRows_ - batchOffset_, kMaxPageRows);
    if (request_.limit) count = std::min(count, *request_.limit - returned_);
    Page page = makePage(batchOffset_, count);
    batchOffset_ += count;
    returned_ += count;
    if (count > 0) return page;
  }
}

void SplitScan::resolveColumns(
    const std::function<std::optional<FileColumn>(size_t i, const std::string& name)>& find) {
  for (size_t i = 0; i < request_.columns.size(); ++i) {
    const std::string& name = request_.columns[i];
    DataType fileType = DataType::null();
    int source = kAbsent;
    int check = -1;
    int partition = -1;
    for (size_t k = 0; k < split_.partition.size(); ++k) {
      if (split_.partition[k].column == name) partition = static_cast<int>(k);
    }
    if (partition >= 0) {
      if (std::optional<FileColumn> column = find(i, name)) {
        source = column->source;
        fileType = column->type;
        check = partition;
      } else {
        source = kPartition - partition;
        fileType = request_.outputSchema.size() == request_.columns.size()
                       ? request_.outputSchema[i].type
                       : typeOfScalar(split_.partition[static_cast<size_t>(partition)].value);
      }
    } else if (name == kFilePathColumn) {
      source = kPath;
      fileType = DataType::string();
    } else if (name == kFileSizeColumn) {
      source = kSize;
      fileType = DataType::int64();
    } else if (name == kRowPositionColumn) {
      source = kRowPosition;
      fileType = DataType::int64();
      wantsRowPositions_ = true;
    } else if (std::optional<FileColumn> column = find(i, name)) {
      source = column->source;
      fileType = column->type;
    }
    sources_.push_back(source);
    partitionChecks_.push_back(check);
    fileTypes_.push_back(fileType);
    outTypes_.push_back(request_.outputSchema.size() == request_.columns.size() ? request_.outputSchema[i].type
                                                                                : fileType);
  }
}

bool SplitScan::advance() {
  batchOffset_ = 0;
  batchRows_ = 0;
  const bool more = advanceReader();
  publish();
  if (!more) return false;
  batchRows_ = batchRows();
  return true;
}

Page SplitScan::makePage(int64_t offset, int64_t count) {
  std::vector<Block> blocks;
  blocks.reserve(sources_.size());
  const size_t n = static_cast<size_t>(count);
  for (size_t i = 0; i < sources_.size(); ++i) {
    Block block;
    const std::string what = split_.uri + ": column " + request_.columns[i];
    switch (sources_[i]) {
      case kAbsent:
        block = Block::nulls(outTypes_[i], n);
        break;
      case kPath:
        // One dictionary entry for the split: no copy of the path per row (a
        // late materialization's first phase reads it for every row).
        if (!pathDictionary_) {
          auto dictionary = std::make_shared<ByteDictionary>();
          dictionary->append(split_.uri);
          pathDictionary_ = std::move(dictionary);
        }
        block = Block::fromDictionary(DataType::string(), pathDictionary_, std::vector<uint32_t>(n, 0));
        break;
      case kSize:
        block = Block(DataType::int64());
        block.reserve(n);
        for (size_t k = 0; k < n; ++k) block.append<int64_t>(static_cast<int64_t>(fileSize_));
        break;
      case kRowPosition:
        block = rowPositions(offset, count);
        break;
      default:
        if (sources_[i] <= kPartition) {
          const Scalar& value = split_.partition[static_cast<size_t>(kPartition - sources_[i])].value;
          if (std::holds_alternative<std::monostate>(value)) {
            block = Block::nulls(outTypes_[i], n);
            break;
          }
          block = Block(outTypes_[i]);
          block.reserve(n);
          for (size_t k = 0; k < n; ++k) block.appendScalar(value);
          break;
        }
        block = fileColumn(i, offset, count);
        break;
    }
    if (!(block.type() == outTypes_[i])) block = widenBlock(std::move(block), outTypes_[i], what);
    if (partitionChecks_[i] >= 0) checkPartition(block, i);
    blocks.push_back(std::move(block));
  }
  return Page(std::move(blocks), n);
}

Block SplitScan::rowPositions(int64_t offset, int64_t count) {
  (void)offset, (void)count;
  throw Unsupported(split_.uri + ": the " + split_.format + " reader gives no row positions (" +
                    kRowPositionColumn + ")");
}

void SplitScan::checkPartition(const Block& block, size_t i) const {
  const PartitionValue& expected = split_.partition[static_cast<size_t>(partitionChecks_[i])];
  for (size_t k = 0; k < block.size(); ++k) {
    const Scalar got = block.scalarAt(k);
    if (got == expected.value) continue;
    throw InvalidArgument(split_.uri + ": column \"" + expected.column + "\" holds " + render(got, outTypes_[i]) +
                          " where the path's hive partition " + expected.column + "=... says " +
                          render(expected.value, outTypes_[i]) +
                          "; a partition column that is also a file column must agree with it (WITH "
                          "{\"hive_partitioning\": false} reads the file's column alone)");
  }
}

void SplitScan::publish() {
  if (request_.metrics != nullptr) publishTo(*request_.metrics);
}

std::optional<Page> SplitScan::finish() {
  publish();
  closeReader();
  return std::nullopt;
}

}  // namespace quarry::engine
