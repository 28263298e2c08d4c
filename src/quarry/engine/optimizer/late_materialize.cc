#include <algorithm>
#include <string>

#include "quarry/engine/optimizer/local_optimizer.h"

namespace quarry::engine {

namespace {

/// Whether `uri` names a local file (no scheme, or file://): a remote file's
/// second read would cost a request per row group for a few rows.
bool isLocal(const std::string& uri) {
  return uri.find("://") == std::string::npos || uri.starts_with("file://");
}

/// Sets each node's schema above the source to its input's (the chain's nodes
/// pass their input's columns through).
void passThroughSchemas(PlanNode& node) {
  if (node.kind == PlanKind::kExternalSource) return;
  passThroughSchemas(*node.input());
  node.schema = node.input()->schema;
}

}  // namespace

bool lateMaterialize(PlanNode& root, std::string* why) {
  auto refuse = [why](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return false;
  };
  // The query's end: SORT + LIMIT under projections only (KEEP, DROP, RENAME).
  PlanNode* top = &root;
  while (top->kind == PlanKind::kProject) top = top->input().get();
  if (top->kind != PlanKind::kTopN || !top->limit) return false;
  // TopNExec [ExchangeExec TopNExec] [FilterExec] ExternalSourceExec.
  PlanNode* below = top->input().get();
  int threads = 1;
  if (below->kind == PlanKind::kExchange) {
    threads = below->threads;
    below = below->input().get();
    if (below->kind != PlanKind::kTopN || below->limit != top->limit) return false;
    below = below->input().get();
  }
  if (below->kind == PlanKind::kFilter) below = below->input().get();
  if (below->kind != PlanKind::kExternalSource) return false;
  const PlanNode& source = *below;
  if (*top->limit > kMaxLateMaterializedRows) {
    return refuse("the limit " + std::to_string(*top->limit) + " is over " +
                  std::to_string(kMaxLateMaterializedRows) + " rows");
  }
  if (*top->limit == 0 || source.splits.empty() || source.request.limit) return false;
  for (const SplitTask& task : source.splits) {
    if (task.split.format != "parquet") return refuse("a split is not Parquet: " + task.split.uri);
    if (!isLocal(task.split.uri)) return refuse("a file is not local: " + task.split.uri);
  }
  const auto& columns = source.request.columns;
  if (std::find(columns.begin(), columns.end(), kRowPositionColumn) != columns.end()) return false;

  // Phase 1: the same chain reading only the filter and key columns, and each row's identity.
  PlanNodePtr phase1 = top->clone();
  PlanNode& narrow = chainBottom(*phase1);
  const size_t width = narrow.schema.size();
  if (narrow.request.outputSchema.size() != narrow.request.columns.size())
    narrow.request.outputSchema = narrow.schema;
  for (const Field& field :
       {Field{kFilePathColumn, DataType::string()}, Field{kRowPositionColumn, DataType::int64()}}) {
    narrow.schema.push_back(field);
    narrow.request.columns.push_back(field.name);
    narrow.request.outputSchema.push_back(field);
  }
  passThroughSchemas(*phase1);
  std::vector<bool> required(width + 2, false);
  required[width] = required[width + 1] = true;
  const std::vector<int> mapping = pruneOutputs(*phase1, required);
  const size_t read = narrow.request.columns.size() - 2;  // the filter and key columns
  if (columns.size() < 2 * read || columns.size() < read + 2) {
    return refuse("the output's " + std::to_string(columns.size()) +
                  " columns are not many more than the " + std::to_string(read) +
                  " the filter and sort keys read");
  }

  // Phase 2: every column the output needs, for the winners only.
  PlanNode late;
  late.kind = PlanKind::kLateMaterialize;
  late.schema = top->schema;
  late.splits = source.splits;
  late.request.columns = columns;
  late.request.columns.push_back(kRowPositionColumn);
  late.request.outputSchema = source.schema;
  late.request.outputSchema.push_back(Field{kRowPositionColumn, DataType::int64()});
  late.request.partitionColumns = source.request.partitionColumns;
  late.request.metrics = source.request.metrics;
  late.channels = {mapping[width], mapping[width + 1]};
  late.limit = top->limit;
  late.threads = threads;
  late.children = {std::move(phase1)};
  *top = std::move(late);
  return true;
}

}  // namespace quarry::engine
