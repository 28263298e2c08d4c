#pragma once

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/plan/plan_node.h"

/// Turns a physical plan into operators. An ExchangeExec runs its input once
/// per split of the ExternalSourceExec below it (one pipeline per split, each
/// built on the driver thread that runs it); a fragment over a LocalSourceExec
/// is one pipeline.
namespace quarry::engine {

/// `onlySplit`, when given, replaces the splits of the ExternalSourceExec below.
OperatorPtr buildOperators(const PlanNode& node, const SplitTask* onlySplit = nullptr);

}  // namespace quarry::engine
