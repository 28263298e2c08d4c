#include "quarry/engine/optimizer/for_each_node.h"
#include "quarry/engine/optimizer/local_optimizer.h"

namespace quarry::engine {

bool pushLimitToExternalSource(PlanNode& root) {
  return forEachNode(root, [](PlanNode& node) {
    if (node.kind != PlanKind::kLimit || !node.limit) return false;
    PlanNode* below = node.input().get();
    while (below->kind == PlanKind::kProject) below = below->input().get();
    if (below->kind != PlanKind::kExternalSource || below->request.filter) return false;
    if (below->request.limit && *below->request.limit <= *node.limit) return false;
    below->request.limit = *node.limit;
    return true;
  });
}

}  // namespace quarry::engine
