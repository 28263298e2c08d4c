#include "quarry/engine/exec/executor.h"

#include <algorithm>

#include "quarry/engine/exec/aggregate_exec.h"
#include "quarry/engine/exec/eval_exec.h"
#include "quarry/engine/exec/exchange_exec.h"
#include "quarry/engine/exec/external_source_exec.h"
#include "quarry/engine/exec/extract_exec.h"
#include "quarry/engine/exec/filter_exec.h"
#include "quarry/engine/exec/late_materialize_exec.h"
#include "quarry/engine/exec/limit_exec.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/exec/lookup_join_exec.h"
#include "quarry/engine/exec/mv_expand_exec.h"
#include "quarry/engine/exec/project_exec.h"
#include "quarry/engine/exec/sample_exec.h"
#include "quarry/engine/exec/top_n_exec.h"

namespace quarry::engine {

namespace {

constexpr size_t kMaxQueuedPages = 16;

/// The ExternalSourceExec at the bottom of `node`'s chain, or nullptr.
const PlanNode* sourceOf(const PlanNode& node) {
  const PlanNode& bottom = chainBottom(node);
  return bottom.kind == PlanKind::kExternalSource ? &bottom : nullptr;
}

OperatorPtr exchange(const PlanNode& node) {
  const PlanNodePtr& fragment = node.input();
  std::vector<PipelineFactory> pipelines;
  const PlanNode* source = sourceOf(*fragment);
  if (source == nullptr || source->splits.empty()) {
    pipelines.push_back([fragment] { return buildOperators(*fragment); });
    return std::make_unique<ExchangeExec>(node.schema, std::move(pipelines), node.threads);
  }
  // An INITIAL aggregation runs once per driver over all the splits the driver reads, not once
  // per split: a group that several splits hold is then made, and sent up, once per driver.
  // Not with COUNT_DISTINCT: a driver's sets then hold every value of its splits and reach the
  // merge only at the end (ClickBench's COUNT_DISTINCT(UserID) took 1.7x as long), where a
  // split's sets merge while the other splits are read.
  const auto countsDistinct = [&] {
    return std::any_of(fragment->aggregates.begin(), fragment->aggregates.end(),
                       [](const AggregateSpec& spec) {
                         return spec.function == AggregateFunction::kCountDistinct;
                       });
  };
  const bool perDriver = fragment->kind == PlanKind::kAggregate &&
                         fragment->mode == AggregatorMode::kInitial &&
                         source->splits.size() > 1 && !countsDistinct();
  const PlanNodePtr chain = perDriver ? fragment->input() : fragment;
  for (size_t i = 0; i < source->splits.size(); ++i) {
    pipelines.push_back([chain, source, i] { return buildOperators(*chain, &source->splits[i]); });
  }
  std::optional<DriverStage> stage;
  if (perDriver) {
    stage = DriverStage{chain->schema, [fragment](OperatorPtr chains) -> OperatorPtr {
                          return std::make_unique<AggregateExec>(
                              std::move(chains), fragment->mode, fragment->groupChannels,
                              fragment->aggregates, fragment->threads);
                        }};
  }
  return std::make_unique<ExchangeExec>(node.schema, std::move(pipelines), node.threads,
                                        kMaxQueuedPages, std::move(stage));
}

}  // namespace

OperatorPtr buildOperators(const PlanNode& node, const SplitTask* onlySplit,
                           const ExchangeBuilder* exchangeBuilder) {
  switch (node.kind) {
    case PlanKind::kExternalSource:
      if (onlySplit != nullptr) {
        return std::make_unique<ExternalSourceExec>(node.schema, std::vector<SplitTask>{*onlySplit},
                                                    node.request);
      }
      return std::make_unique<ExternalSourceExec>(node.schema, node.splits, node.request);
    case PlanKind::kLocalSource:
      return std::make_unique<LocalSourceExec>(node.schema, node.supplier, node.description);
    case PlanKind::kFilter:
      return std::make_unique<FilterExec>(buildOperators(*node.input(), onlySplit, exchangeBuilder),
                                          node.predicate);
    case PlanKind::kEval:
      return std::make_unique<EvalExec>(buildOperators(*node.input(), onlySplit, exchangeBuilder),
                                        node.evals);
    case PlanKind::kProject: {
      std::vector<std::string> names;
      for (const Field& field : node.schema) names.push_back(field.name);
      return std::make_unique<ProjectExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.channels,
          std::move(names));
    }
    case PlanKind::kAggregate:
      return std::make_unique<AggregateExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.mode, node.groupChannels,
          node.aggregates, node.threads);
    case PlanKind::kTopN:
      return std::make_unique<TopNExec>(buildOperators(*node.input(), onlySplit, exchangeBuilder),
                                        node.sortKeys, node.limit);
    case PlanKind::kLimit:
      return std::make_unique<LimitExec>(buildOperators(*node.input(), onlySplit, exchangeBuilder),
                                         node.limit.value_or(0));
    case PlanKind::kExchange:
      return exchangeBuilder != nullptr ? (*exchangeBuilder)(node) : exchange(node);
    case PlanKind::kLateMaterialize:
      return std::make_unique<LateMaterializeExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.schema, node.splits,
          node.request, node.channels.at(0), node.channels.at(1), node.threads);
    case PlanKind::kSample: {
      // Each split's rows are sampled alike wherever the split is read.
      const uint64_t seed = onlySplit == nullptr
                                ? node.sampleSeed
                                : SampleExec::splitSeed(node.sampleSeed, onlySplit->split.uri,
                                                        onlySplit->split.start);
      return std::make_unique<SampleExec>(buildOperators(*node.input(), onlySplit, exchangeBuilder),
                                          node.sampleProbability, seed);
    }
    case PlanKind::kExtract:
      return std::make_unique<ExtractExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.channels.at(0),
          node.extractor);
    case PlanKind::kMvExpand:
      return std::make_unique<MvExpandExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.channels.at(0));
    case PlanKind::kLookupJoin:
      return std::make_unique<LookupJoinExec>(
          buildOperators(*node.input(), onlySplit, exchangeBuilder), node.lookup, node.channels,
          node.lookupKeys, node.lookupColumns);
  }
  return nullptr;
}

}  // namespace quarry::engine
