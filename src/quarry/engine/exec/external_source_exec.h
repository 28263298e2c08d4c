#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/source/format_reader.h"

/// The scan node of a plan: reads files' splits through their FormatReaders.
namespace quarry::engine {

// Reads its splits in order through reader->read(split, request); counts metrics->splits.
// The request's filter is best effort: the reader returns exactly the matching rows when it can
// bind the filter to the file, and every row when it cannot (a column the file lacks, a literal
// the file's column type does not take); the planner always keeps a FilterExec recheck above.
// The request's limit holds over all the splits together. Its pages have `schema`'s columns,
// which are the request's columns with the request's output types.
class ExternalSourceExec final : public Operator {
 public:
  ExternalSourceExec(Schema schema, std::vector<SplitTask> splits, ReadRequest request);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  Schema schema_;
  std::vector<SplitTask> splits_;
  ReadRequest request_;
  size_t nextSplit_ = 0;
  std::optional<LocalSupplier> current_;
  int64_t returned_ = 0;
  OperatorStats stats_;
};

}  // namespace quarry::engine
