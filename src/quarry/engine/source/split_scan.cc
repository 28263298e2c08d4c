#include "quarry/engine/source/split_scan.h"

#include <algorithm>

#include "quarry/engine/source/type_widening.h"

namespace quarry::engine {

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
    if (name == kFilePathColumn) {
      source = kPath;
      fileType = DataType::string();
    } else if (name == kFileSizeColumn) {
      source = kSize;
      fileType = DataType::int64();
    } else if (std::optional<FileColumn> column = find(i, name)) {
      source = column->source;
      fileType = column->type;
    }
    sources_.push_back(source);
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
        block = Block(DataType::string());
        block.reserve(n);
        for (size_t k = 0; k < n; ++k) block.appendBytes(split_.uri);
        break;
      case kSize:
        block = Block(DataType::int64());
        block.reserve(n);
        for (size_t k = 0; k < n; ++k) block.append<int64_t>(static_cast<int64_t>(fileSize_));
        break;
      default:
        block = fileColumn(i, offset, count);
        break;
    }
    if (!(block.type() == outTypes_[i])) block = widenBlock(std::move(block), outTypes_[i], what);
    blocks.push_back(std::move(block));
  }
  return Page(std::move(blocks), n);
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
