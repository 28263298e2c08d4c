#include "quarry/engine/exec/aggregate_exec.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

namespace {

/// One table of groups and their aggregation states: the whole of an aggregation on one thread,
/// or one partition of a parallel merge.
class GroupTable {
 public:
  GroupTable(const std::vector<DataType>& keyTypes, const std::vector<int>& groupChannels,
             const std::vector<AggregateSpec>& aggregates, bool rawInput)
      : groupChannels_(groupChannels), rawInput_(rawInput), keys_(groupChannels.size()) {
    for (const AggregateSpec& spec : aggregates) aggregators_.push_back(makeAggregator(spec));
    if (groupChannels_.empty()) {
      groups_ = 1;
    } else {
      hash_ = std::make_unique<GroupByHash>(keyTypes);
    }
    for (auto& aggregator : aggregators_) aggregator->resize(groups_);
  }

  size_t groupCount() const { return groups_; }
  bool grouped() const { return hash_ != nullptr; }

  void add(const Page& page) {
    if (hash_) {
      for (size_t c = 0; c < groupChannels_.size(); ++c) keys_[c] = &page.block(groupChannels_[c]);
      hash_->addRows(keys_, groupIds_);
      if (hash_->groupCount() != groups_) {
        groups_ = hash_->groupCount();
        for (auto& aggregator : aggregators_) aggregator->resize(groups_);
      }
    } else {
      groupIds_.assign(page.positionCount(), 0);
    }
    for (auto& aggregator : aggregators_) {
      if (rawInput_) {
        aggregator->addInput(page, groupIds_);
      } else {
        aggregator->addIntermediate(page, groupIds_);
      }
    }
  }

  /// The groups' keys, then per aggregate its final value or its intermediate columns; nothing
  /// when there is no group. Empties the table.
  std::optional<Page> finish(bool finalOutput) {
    const size_t groups = groups_;
    std::vector<Block> blocks;
    if (hash_) blocks = hash_->takeGroupKeys();
    hash_.reset();
    for (auto& aggregator : aggregators_) {
      if (finalOutput) {
        blocks.push_back(aggregator->writeFinal());
      } else {
        aggregator->writeIntermediate(blocks);
      }
    }
    aggregators_.clear();
    groups_ = 0;
    if (groups == 0) return std::nullopt;
    return Page(std::move(blocks), groups);
  }

 private:
  std::vector<int> groupChannels_;
  bool rawInput_;
  std::unique_ptr<GroupByHash> hash_;
  std::vector<std::unique_ptr<Aggregator>> aggregators_;
  size_t groups_ = 0;
  std::vector<const Block*> keys_;
  std::vector<uint32_t> groupIds_;
};

/// The rows of `page` as groups of their own, in the intermediate layout: its key blocks as they
/// are (moved out of `page`) and per aggregate the intermediate state of each row alone. What an
/// INITIAL that does not reduce returns: no hash of a key, no key copied; the merge above groups
/// the rows as it groups any intermediate rows.
Page rowsAsGroups(Page& page, const std::vector<int>& groupChannels,
                  const std::vector<AggregateSpec>& aggregates, std::vector<uint32_t>& rowIds) {
  const size_t rows = page.positionCount();
  if (rowIds.size() < rows) {
    const size_t from = rowIds.size();
    rowIds.resize(rows);
    for (size_t r = from; r < rows; ++r) rowIds[r] = static_cast<uint32_t>(r);
  }
  const std::span<const uint32_t> ids(rowIds.data(), rows);
  std::vector<Block> states;
  for (const AggregateSpec& spec : aggregates) {
    std::unique_ptr<Aggregator> aggregator = makeAggregator(spec);
    aggregator->resize(rows);
    aggregator->addInput(page, ids);
    aggregator->writeIntermediate(states);
  }
  std::vector<Block> blocks;
  blocks.reserve(groupChannels.size() + states.size());
  // A column that is a key twice is moved once, then copied from where it went (no reallocation:
  // the capacity is reserved).
  std::vector<int> placedAt(page.blockCount(), -1);
  for (int channel : groupChannels) {
    if (placedAt[channel] >= 0) {
      blocks.push_back(blocks[placedAt[channel]]);
      continue;
    }
    placedAt[channel] = static_cast<int>(blocks.size());
    blocks.push_back(std::move(page.block(channel)));
  }
  for (Block& state : states) blocks.push_back(std::move(state));
  return Page(std::move(blocks), rows);
}

/// A merge split over tables by a hash of the keys, each table merged on a thread of its own;
/// pages are routed on the caller's thread, through a short queue per table.
class PartitionedMerge {
 public:
  PartitionedMerge(size_t partitions, const std::vector<DataType>& keyTypes,
                   const std::vector<int>& groupChannels,
                   const std::vector<AggregateSpec>& aggregates)
      : groupChannels_(groupChannels), keys_(groupChannels.size()) {
    for (size_t p = 0; p < partitions; ++p) {
      partitions_.push_back(std::make_unique<Partition>(keyTypes, groupChannels, aggregates));
    }
    try {
      for (auto& partition : partitions_)
        partition->thread = std::thread([p = partition.get()] { p->run(); });
    } catch (...) {  // a thread the system would not start: join those that did
      stop();
      throw;
    }
  }
  ~PartitionedMerge() { stop(); }
  PartitionedMerge(const PartitionedMerge&) = delete;
  PartitionedMerge& operator=(const PartitionedMerge&) = delete;

  /// Hands each row of `page` to its key's table. The routing thread only hashes; each table's
  /// thread copies its rows out of the page (Page::take), so that the copies run in parallel.
  void add(Page page) {
    const auto shared = std::make_shared<const Page>(std::move(page));
    for (size_t c = 0; c < groupChannels_.size(); ++c) keys_[c] = &shared->block(groupChannels_[c]);
    GroupByHash::hashRows(keys_, hashes_);
    const uint64_t count = partitions_.size();
    std::vector<std::vector<uint32_t>> rows(count);
    for (size_t r = 0; r < hashes_.size(); ++r) {
      rows[((hashes_[r] >> 32) * count) >> 32].push_back(static_cast<uint32_t>(r));
    }
    for (size_t p = 0; p < partitions_.size(); ++p) {
      if (!rows[p].empty()) partitions_[p]->push({shared, std::move(rows[p])});
    }
  }

  /// Waits for every table, then returns their groups (see GroupTable::finish), or rethrows the
  /// failure of the first table that failed. Each table writes its groups out on its own thread
  /// (ClickBench's Q40: 1.1M groups keyed by two URLs read back from the tables' arenas, 15 % of
  /// the query's time, on one thread before).
  std::vector<Page> finish(bool finalOutput) {
    for (auto& partition : partitions_) partition->close(finalOutput);
    stop();
    for (auto& partition : partitions_) {
      if (partition->failure) std::rethrow_exception(partition->failure);
    }
    std::vector<Page> pages;
    for (auto& partition : partitions_) {
      if (partition->output) pages.push_back(std::move(*partition->output));
    }
    return pages;
  }

 private:
  struct Partition {
    static constexpr size_t kMaxQueuedPages = 4;

    Partition(const std::vector<DataType>& keyTypes, const std::vector<int>& groupChannels,
              const std::vector<AggregateSpec>& aggregates)
        : table(keyTypes, groupChannels, aggregates, /*rawInput=*/false) {}

    /// Rows `rows` of `page` (all of them when there are as many as the page has).
    struct Rows {
      std::shared_ptr<const Page> page;
      std::vector<uint32_t> rows;
    };

    void push(Rows page) {
      std::unique_lock lock(mutex);
      notFull.wait(lock, [&] { return queue.size() < kMaxQueuedPages || failure; });
      if (failure) return;  // finish() rethrows it
      queue.push_back(std::move(page));
      notEmpty.notify_one();
    }
    /// No more pages; `finish`: the table then writes its groups out (`output`), in `finalOutput`
    /// form, before its thread ends (without it, as when a failure stops the merge, it does not).
    void close(std::optional<bool> finish = std::nullopt) {
      std::lock_guard lock(mutex);
      closed = true;
      if (finish) finalOutput = finish;
      notEmpty.notify_one();
    }
    void run() {
      while (true) {
        Rows page;
        std::optional<bool> finish;
        {
          std::unique_lock lock(mutex);
          notEmpty.wait(lock, [&] { return !queue.empty() || closed; });
          if (queue.empty()) {
            if (!finalOutput) return;
            finish = finalOutput;
          } else {
            page = std::move(queue.front());
            queue.pop_front();
            notFull.notify_one();
          }
        }
        try {
          if (finish) {
            output = table.finish(*finish);
            return;
          }
          if (page.rows.size() == page.page->positionCount()) {
            table.add(*page.page);
          } else {
            table.add(page.page->take(page.rows));
          }
        } catch (...) {
          std::lock_guard lock(mutex);
          failure = std::current_exception();
          queue.clear();
          notFull.notify_one();
          return;
        }
      }
    }

    GroupTable table;
    std::thread thread;
    std::mutex mutex;
    std::condition_variable notEmpty;
    std::condition_variable notFull;
    std::deque<Rows> queue;
    bool closed = false;
    std::optional<bool> finalOutput;  // set by close(): write the groups out, in which form
    std::optional<Page> output;       // the table's groups; read after the thread is joined
    std::exception_ptr failure;       // set under mutex; read after the thread is joined
  };

  void stop() {
    for (auto& partition : partitions_) partition->close();
    for (auto& partition : partitions_) {
      if (partition->thread.joinable()) partition->thread.join();
    }
  }

  std::vector<int> groupChannels_;
  std::vector<std::unique_ptr<Partition>> partitions_;
  std::vector<const Block*> keys_;
  std::vector<uint64_t> hashes_;
};

}  // namespace

AggregateExec::AggregateExec(OperatorPtr input, AggregatorMode mode, std::vector<int> groupChannels,
                             std::vector<AggregateSpec> aggregates, int threads)
    : input_(std::move(input)),
      mode_(mode),
      groupChannels_(std::move(groupChannels)),
      aggregates_(std::move(aggregates)),
      threads_(static_cast<size_t>(std::max(threads, 1))) {
  stats_.name = std::string("AggregateExec[") + aggregatorModeName(mode_) + "]";
  const Schema& in = input_->schema();
  const auto checkChannel = [&](int channel, const std::string& what) {
    if (channel < 0 || static_cast<size_t>(channel) >= in.size()) {
      throw InvalidArgument("AggregateExec: " + what + " reads channel " + std::to_string(channel) +
                            " of an input of " + std::to_string(in.size()) + " columns");
    }
  };
  for (int channel : groupChannels_) {
    checkChannel(channel, "a group column");
    schema_.push_back(in[channel]);
    keyTypes_.push_back(in[channel].type);
  }
  const bool rawInput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kInitial;
  const bool finalOutput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kFinal;
  for (const AggregateSpec& spec : aggregates_) {
    const std::string what = std::string(aggregateName(spec.function)) + " (" + spec.name + ")";
    if (rawInput) {
      if (spec.function != AggregateFunction::kCountStar) checkChannel(spec.inputChannel, what);
      if (spec.function == AggregateFunction::kWeightedAvg) checkChannel(spec.weightChannel, what);
    } else {
      checkChannel(spec.inputChannel, what);
      checkChannel(spec.inputChannel + 1, what);
    }
    if (finalOutput) {
      schema_.push_back({spec.name, aggregateResultType(spec.function, spec.inputType)});
    } else {
      for (Field& field : intermediateFields(spec)) schema_.push_back(std::move(field));
    }
  }
  // Builds the aggregators once, so that an unknown aggregate fails here rather than on a thread.
  for (const AggregateSpec& spec : aggregates_) (void)makeAggregator(spec);
}

bool AggregateExec::inputIsIntermediateLayout() const {
  const Schema& in = input_->schema();
  size_t channel = 0;
  for (int group : groupChannels_) {
    if (group != static_cast<int>(channel++)) return false;
  }
  for (const AggregateSpec& spec : aggregates_) {
    if (spec.inputChannel != static_cast<int>(channel)) return false;
    const std::vector<Field> fields = intermediateFields(spec);
    for (size_t k = 0; k < fields.size(); ++k) {
      if (channel + k >= in.size() || !(in[channel + k].type == fields[k].type)) return false;
    }
    channel += fields.size();
  }
  return channel == in.size();
}

void AggregateExec::consumeInput() {
  const bool rawInput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kInitial;
  const bool finalOutput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kFinal;
  const bool mayPartition =
      threads_ > 1 && !rawInput && !groupChannels_.empty() && inputIsIntermediateLayout();
  GroupTable table(keyTypes_, groupChannels_, aggregates_, rawInput);
  const bool mayPassThrough = mode_ == AggregatorMode::kInitial && table.grouped();
  std::unique_ptr<PartitionedMerge> partitions;
  // The pass-through window: the rows read and the groups made when it began. The first
  // kPassThroughAfterRows rows warm the table up (the first rows of any key make groups); each
  // later window of as many rows decides by the groups it made.
  size_t rows = 0;
  std::optional<std::pair<size_t, size_t>> window;
  while (std::optional<Page> page = input_->next()) {
    if (partitions) {
      partitions->add(std::move(*page));
      continue;
    }
    table.add(*page);
    rows += page->positionCount();
    if (mayPassThrough && rows >= kPassThroughAfterRows) {
      const size_t groups = table.groupCount();
      if (!window) {
        window.emplace(rows, groups);
      } else if (rows - window->first >= kPassThroughAfterRows) {
        if ((groups - window->second) * 2 > rows - window->first) {
          pageAtATime_ = true;
          break;
        }
        window.emplace(rows, groups);
      }
    }
    if (mayPartition && table.groupCount() > partitionAfterGroups_) {
      partitions =
          std::make_unique<PartitionedMerge>(threads_, keyTypes_, groupChannels_, aggregates_);
      if (std::optional<Page> merged = table.finish(/*finalOutput=*/false))
        partitions->add(std::move(*merged));
    }
  }
  if (partitions) {
    for (Page& page : partitions->finish(finalOutput)) output_.push_back(std::move(page));
  } else if (std::optional<Page> page = table.finish(finalOutput)) {
    output_.push_back(std::move(*page));
  }
}

std::optional<Page> AggregateExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (!consumed_) {
    consumed_ = true;
    consumeInput();
  }
  while (!output_.empty() && outputOffset_ >= output_.front().positionCount()) {
    output_.pop_front();
    outputOffset_ = 0;
  }
  while (output_.empty() && pageAtATime_) {
    std::optional<Page> input = input_->next();
    if (!input) {
      pageAtATime_ = false;
      break;
    }
    if (input->positionCount() > 0)
      output_.push_back(rowsAsGroups(*input, groupChannels_, aggregates_, rowIds_));
  }
  if (output_.empty()) return std::nullopt;
  Page page;
  Page& front = output_.front();
  if (outputOffset_ == 0 && front.positionCount() <= kOutputPageRows) {
    page = std::move(front);
    output_.pop_front();
  } else {
    const size_t length = std::min(kOutputPageRows, front.positionCount() - outputOffset_);
    page = front.slice(outputOffset_, length);
    outputOffset_ += length;
  }
  ++stats_.pagesOut;
  stats_.rowsOut += page.positionCount();
  return page;
}

void AggregateExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
