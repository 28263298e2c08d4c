#pragma once

#include "quarry/engine/plan/plan_node.h"

namespace quarry::engine {

/// Applies `f` to `node` and then to every node below it, depth first; returns
/// whether any call returned true (a rule changed the plan).
template <typename F>
bool forEachNode(PlanNode& node, F&& f) {
  bool changed = f(node);
  for (PlanNodePtr& child : node.children) changed |= forEachNode(*child, f);
  return changed;
}

}  // namespace quarry::engine
