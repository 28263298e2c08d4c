#include "quarry/engine/optimizer/filter_translation.h"
#include "quarry/engine/optimizer/for_each_node.h"
#include "quarry/engine/optimizer/local_optimizer.h"

namespace quarry::engine {

using parquet::FilterPredicate;

bool pushFiltersToSource(PlanNode& root) {
  return forEachNode(root, [](PlanNode& node) {
    if (node.kind != PlanKind::kFilter || node.input()->kind != PlanKind::kExternalSource) return false;
    PlanNode& source = *node.input();
    std::optional<FilterPredicate> pushed = toFilterPredicate(*node.predicate, source.schema, source.request.partitionColumns);
    if (!pushed) return false;
    source.request.filter = source.request.filter ? FilterPredicate::and_(*source.request.filter, *pushed)
                                                  : std::move(*pushed);
    return true;
  });
}

}  // namespace quarry::engine
