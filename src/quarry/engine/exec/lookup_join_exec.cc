#include "quarry/engine/exec/lookup_join_exec.h"

#include <algorithm>

#include "quarry/engine/exec/operator_timer.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

namespace {

/// Rows of `keys` (one block per key column) where no key is null.
std::vector<uint32_t> rowsWithoutNullKey(const std::vector<const Block*>& keys, size_t rows) {
  std::vector<uint32_t> kept;
  kept.reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    bool null = false;
    for (const Block* key : keys) null = null || key->isNull(r);
    if (!null) kept.push_back(static_cast<uint32_t>(r));
  }
  return kept;
}

/// The fewest unmatched groups that make the table be built again.
constexpr size_t kMinStrayGroups = 65536;

}  // namespace

LookupJoinExec::LookupJoinExec(OperatorPtr input, std::shared_ptr<const LookupFile> lookup,
                               std::vector<int> keyChannels, std::vector<int> lookupKeys,
                               std::vector<int> lookupColumns)
    : input_(std::move(input)),
      lookup_(std::move(lookup)),
      keyChannels_(std::move(keyChannels)),
      lookupKeys_(std::move(lookupKeys)),
      schema_(input_->schema()) {
  stats_.name = "LookupJoinExec";
  std::vector<const Block*> keys;
  for (int column : lookupKeys_) {
    keyTypes_.push_back(lookup_->schema.at(static_cast<size_t>(column)).type);
    keys.push_back(&lookup_->columns.at(static_cast<size_t>(column)));
  }
  fileKeyRows_ = rowsWithoutNullKey(keys, lookup_->rows);
  for (const Block* key : keys) fileKeys_.push_back(key->take(fileKeyRows_));
  // The file rows of each group, in file order (a counting sort of the groups).
  const std::vector<uint32_t> groups = buildTable();
  groupOffsets_.assign(fileGroups_ + 1, 0);
  for (uint32_t g : groups) ++groupOffsets_[g + 1];
  for (size_t g = 0; g < fileGroups_; ++g) groupOffsets_[g + 1] += groupOffsets_[g];
  matchRows_.resize(groups.size());
  std::vector<uint32_t> filled(groupOffsets_.begin(), groupOffsets_.end() - 1);
  for (size_t i = 0; i < groups.size(); ++i) matchRows_[filled[groups[i]]++] = fileKeyRows_[i];

  for (int column : lookupColumns) {
    schema_.push_back(lookup_->schema.at(static_cast<size_t>(column)));
    Block block = lookup_->columns.at(static_cast<size_t>(column));
    block.appendNull();
    added_.push_back(std::move(block));
  }
}

std::vector<uint32_t> LookupJoinExec::buildTable() {
  table_ = std::make_unique<GroupByHash>(keyTypes_);
  std::vector<const Block*> keys;
  for (const Block& key : fileKeys_) keys.push_back(&key);
  std::vector<uint32_t> groups;
  if (!fileKeyRows_.empty()) table_->addRows(keys, groups);
  fileGroups_ = static_cast<uint32_t>(table_->groupCount());
  return groups;
}

void LookupJoinExec::probe(const Page& page) {
  const size_t rows = page.positionCount();
  std::vector<const Block*> keys;
  for (int channel : keyChannels_) keys.push_back(&page.block(static_cast<size_t>(channel)));
  std::vector<uint32_t> groups;
  table_->addRows(keys, groups);
  rowGroups_.assign(rows, kNoMatch);
  for (size_t r = 0; r < rows; ++r) {
    if (groups[r] >= fileGroups_) continue;
    bool null = false;
    for (const Block* key : keys) null = null || key->isNull(r);
    if (!null) rowGroups_[r] = groups[r];
  }
  if (table_->groupCount() - fileGroups_ > std::max<size_t>(fileGroups_, kMinStrayGroups))
    buildTable();
}

std::optional<Page> LookupJoinExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (!page_) {
    page_ = input_->next();
    if (!page_) return std::nullopt;
    probe(*page_);
    nextRow_ = 0;
    nextMatch_ = 0;
  }
  const uint32_t noMatchRow = static_cast<uint32_t>(lookup_->rows);
  std::vector<uint32_t> inputRows;
  std::vector<uint32_t> fileRows;
  const size_t rows = page_->positionCount();
  while (nextRow_ < rows && inputRows.size() < kMaxPageRows) {
    const uint32_t group = rowGroups_[nextRow_];
    if (group == kNoMatch) {
      inputRows.push_back(static_cast<uint32_t>(nextRow_++));
      fileRows.push_back(noMatchRow);
      continue;
    }
    const size_t begin = groupOffsets_[group] + nextMatch_;
    const size_t end = groupOffsets_[group + 1];
    const size_t stop = std::min(end, begin + (kMaxPageRows - inputRows.size()));
    for (size_t m = begin; m < stop; ++m) {
      inputRows.push_back(static_cast<uint32_t>(nextRow_));
      fileRows.push_back(matchRows_[m]);
    }
    if (stop == end) {
      ++nextRow_;
      nextMatch_ = 0;
    } else {
      nextMatch_ = stop - groupOffsets_[group];
    }
  }
  std::vector<Block> blocks;
  blocks.reserve(schema_.size());
  for (size_t c = 0; c < page_->blockCount(); ++c)
    blocks.push_back(page_->block(c).take(inputRows));
  for (const Block& column : added_) blocks.push_back(column.take(fileRows));
  Page out(std::move(blocks), inputRows.size());
  if (nextRow_ == rows) page_.reset();
  ++stats_.pagesOut;
  stats_.rowsOut += out.positionCount();
  return out;
}

void LookupJoinExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
