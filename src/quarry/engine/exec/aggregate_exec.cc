#include "quarry/engine/exec/aggregate_exec.h"

#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

AggregateExec::AggregateExec(OperatorPtr input, AggregatorMode mode, std::vector<int> groupChannels,
                             std::vector<AggregateSpec> aggregates)
    : input_(std::move(input)),
      mode_(mode),
      groupChannels_(std::move(groupChannels)),
      aggregates_(std::move(aggregates)) {
  stats_.name = std::string("AggregateExec[") + aggregatorModeName(mode_) + "]";
  const Schema& in = input_->schema();
  const auto checkChannel = [&](int channel, const std::string& what) {
    if (channel < 0 || static_cast<size_t>(channel) >= in.size()) {
      throw InvalidArgument("AggregateExec: " + what + " reads channel " + std::to_string(channel) +
                            " of an input of " + std::to_string(in.size()) + " columns");
    }
  };
  std::vector<DataType> keyTypes;
  for (int channel : groupChannels_) {
    checkChannel(channel, "a group column");
    schema_.push_back(in[channel]);
    keyTypes.push_back(in[channel].type);
  }
  const bool rawInput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kInitial;
  const bool finalOutput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kFinal;
  for (const AggregateSpec& spec : aggregates_) {
    const std::string what = std::string(aggregateName(spec.function)) + " (" + spec.name + ")";
    if (rawInput) {
      if (spec.function != AggregateFunction::kCountStar) checkChannel(spec.inputChannel, what);
    } else {
      checkChannel(spec.inputChannel, what);
      checkChannel(spec.inputChannel + 1, what);
    }
    if (finalOutput) {
      schema_.push_back({spec.name, aggregateResultType(spec.function, spec.inputType)});
    } else {
      for (Field& field : intermediateFields(spec)) schema_.push_back(std::move(field));
    }
    aggregators_.push_back(makeAggregator(spec));
  }
  if (!groupChannels_.empty()) hash_ = std::make_unique<GroupByHash>(std::move(keyTypes));
}

void AggregateExec::consumeInput() {
  const bool rawInput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kInitial;
  std::vector<uint32_t> groupIds;
  std::vector<const Block*> keys(groupChannels_.size());
  size_t groups = hash_ ? 0 : 1;
  for (auto& aggregator : aggregators_) aggregator->resize(groups);
  while (std::optional<Page> page = input_->next()) {
    const size_t rows = page->positionCount();
    if (hash_) {
      for (size_t c = 0; c < groupChannels_.size(); ++c) keys[c] = &page->block(groupChannels_[c]);
      hash_->addRows(keys, groupIds);
      if (hash_->groupCount() != groups) {
        groups = hash_->groupCount();
        for (auto& aggregator : aggregators_) aggregator->resize(groups);
      }
    } else {
      groupIds.assign(rows, 0);
    }
    for (auto& aggregator : aggregators_) {
      if (rawInput) {
        aggregator->addInput(*page, groupIds);
      } else {
        aggregator->addIntermediate(*page, groupIds);
      }
    }
  }
  if (groups == 0) return;
  std::vector<Block> blocks;
  if (hash_) blocks = hash_->takeGroupKeys();
  hash_.reset();
  const bool finalOutput = mode_ == AggregatorMode::kSingle || mode_ == AggregatorMode::kFinal;
  for (auto& aggregator : aggregators_) {
    if (finalOutput) {
      blocks.push_back(aggregator->writeFinal());
    } else {
      aggregator->writeIntermediate(blocks);
    }
  }
  aggregators_.clear();
  output_.emplace(std::move(blocks), groups);
}

std::optional<Page> AggregateExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (!consumed_) {
    consumed_ = true;
    consumeInput();
  }
  if (!output_ || outputOffset_ >= output_->positionCount()) {
    output_.reset();
    return std::nullopt;
  }
  Page page;
  if (outputOffset_ == 0 && output_->positionCount() <= kOutputPageRows) {
    page = std::move(*output_);
    output_.reset();
  } else {
    const size_t length = std::min(kOutputPageRows, output_->positionCount() - outputOffset_);
    page = output_->slice(outputOffset_, length);
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
