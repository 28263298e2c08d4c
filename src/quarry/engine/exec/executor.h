#pragma once

#include <functional>

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/plan/plan_node.h"

/// Turns a physical plan into operators. An ExchangeExec runs its input once
/// per split of the ExternalSourceExec below it (one pipeline per split, each
/// built on the driver thread that runs it); a fragment over a LocalSourceExec
/// is one pipeline.
namespace quarry::engine {

/// Builds the operator of an ExchangeExec node some other way: the coordinator
/// of a cluster sends the exchange's input to data nodes (cluster/) instead of
/// running it on driver threads here.
using ExchangeBuilder = std::function<OperatorPtr(const PlanNode& exchange)>;

/// `onlySplit`, when given, replaces the splits of the ExternalSourceExec below.
/// `exchangeBuilder`, when given, builds every ExchangeExec node.
OperatorPtr buildOperators(const PlanNode& node, const SplitTask* onlySplit = nullptr,
                           const ExchangeBuilder* exchangeBuilder = nullptr);

}  // namespace quarry::engine
