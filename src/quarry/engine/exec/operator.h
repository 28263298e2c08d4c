#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/data/local_supplier.h"
#include "quarry/engine/expr/warnings.h"

/// Operators execute a physical plan node on pages. Execution is pull-based: the
/// consumer calls next() until it returns nothing. An operator owns its input
/// operators; each chain runs on one thread (a driver), and chains meet at an
/// exchange (exchange.h), which is where parallelism lives.
namespace quarry::engine {

/// What one operator did, counted where the work happens (for --profile).
struct OperatorStats {
  std::string name;
  uint64_t pagesOut = 0;
  uint64_t rowsOut = 0;
  /// Time spent in next(), this operator's own work and its inputs' together.
  int64_t nanos = 0;
  /// The rows its expressions failed on (null, with a warning as in ES|QL);
  /// the operators that evaluate expressions count them here, without a lock.
  Warnings warnings{};
};

/// Returns the warnings of every operator in `stats` merged (the query's).
inline Warnings mergedWarnings(const std::vector<OperatorStats>& stats) {
  Warnings out;
  for (const OperatorStats& s : stats) out.merge(s.warnings);
  return out;
}

class Operator {
 public:
  virtual ~Operator() = default;
  /// The columns of every page next() returns, in order.
  virtual const Schema& schema() const = 0;
  /// Returns the next page (never one of zero positions), or nothing at the end.
  virtual std::optional<Page> next() = 0;
  /// Appends this operator's stats, then its inputs', depth first.
  virtual void collectStats(std::vector<OperatorStats>& out) const = 0;
};

using OperatorPtr = std::unique_ptr<Operator>;

}  // namespace quarry::engine
