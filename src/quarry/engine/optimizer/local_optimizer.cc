#include "quarry/engine/optimizer/local_optimizer.h"

// Each rule lives in the file named after it (prune_columns.cc,
// push_filters_to_source.cc, push_limit_to_external_source.cc,
// push_aggregates_to_external_source.cc, late_materialize.cc), the expression to FilterPredicate
// translation in filter_translation.cc; this file holds their order.
namespace quarry::engine {

std::vector<RuleOutcome> optimize(PlanNode& root, const OptimizerOptions& options) {
  std::vector<RuleOutcome> outcomes;
  outcomes.push_back({"PruneColumns", pruneColumns(root), ""});
  outcomes.push_back({"PushFiltersToSource", pushFiltersToSource(root), ""});
  outcomes.push_back({"PushLimitToExternalSource", pushLimitToExternalSource(root), ""});
  std::string why;
  const bool pushed = pushAggregatesToExternalSource(root, &why);
  outcomes.push_back({"PushAggregatesToExternalSource", pushed, pushed ? "" : why});
  if (options.lateMaterialization) {
    why.clear();
    const bool late = lateMaterialize(root, &why);
    outcomes.push_back({"LateMaterialize", late, late ? "" : why});
  }
  return outcomes;
}

}  // namespace quarry::engine
