#pragma once

#include <functional>
#include <optional>
#include <string>

#include "quarry/engine/exec/operator.h"

/// The LocalSourceExec plan node: pages from a LocalSupplier, a function that
/// returns the next page or nothing at the end (a format reader's pages, pages
/// built from statistics, a test's rows). Empty pages are skipped.
namespace quarry::engine {

class LocalSourceExec final : public Operator {
 public:
  /// `description` says what the supplier reads, for --profile and EXPLAIN.
  LocalSourceExec(Schema schema, LocalSupplier supplier, std::string description);
  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;
  const std::string& description() const { return description_; }

 private:
  Schema schema_;
  LocalSupplier supplier_;
  std::string description_;
  bool done_ = false;
  OperatorStats stats_{"LocalSourceExec"};
};

}  // namespace quarry::engine
