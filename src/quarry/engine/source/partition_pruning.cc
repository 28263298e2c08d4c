#include "quarry/engine/source/partition_pruning.h"

#include <exception>

#include "quarry/engine/expr/evaluator.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

void collectConjuncts(const Expr& condition, std::vector<Expr>& out) {
  if (condition.is<BinaryExpr>() && condition.as<BinaryExpr>().op == BinaryOp::kAnd) {
    const BinaryExpr& both = condition.as<BinaryExpr>();
    collectConjuncts(*both.left, out);
    collectConjuncts(*both.right, out);
    return;
  }
  out.push_back(condition);
}

std::vector<bool> keepByPath(std::span<const Expr> conjuncts, std::span<const std::string> uris,
                             const HivePartitions& partitions,
                             const std::function<std::optional<std::vector<uint64_t>>()>& sizes) {
  const size_t n = uris.size();
  std::vector<bool> keep(n, true);
  if (conjuncts.empty() || n == 0) return keep;
  // One row per file: its partition values, its path and, once asked for, its size.
  Schema schema = partitions.columns;
  std::vector<Block> blocks;
  for (size_t c = 0; c < partitions.columns.size(); ++c) {
    Block block(partitions.columns[c].type);
    block.reserve(n);
    for (size_t f = 0; f < n; ++f) block.appendScalar(partitions.values[f][c]);
    blocks.push_back(std::move(block));
  }
  schema.push_back(Field{kFilePathColumn, DataType::string()});
  Block paths(DataType::string());
  paths.reserve(n);
  for (const std::string& uri : uris) paths.appendBytes(uri);
  blocks.push_back(std::move(paths));
  bool sizesAsked = false;
  for (const Expr& conjunct : conjuncts) {
    BoundExprPtr bound;
    try {
      bound = bindExpression(conjunct, schema);
    } catch (const UnknownColumnError& e) {
      if (e.columnName() != kFileSizeColumn || sizesAsked) continue;
      sizesAsked = true;
      std::optional<std::vector<uint64_t>> known = sizes();
      if (!known || known->size() != n) continue;
      schema.push_back(Field{kFileSizeColumn, DataType::int64()});
      Block block(DataType::int64());
      block.reserve(n);
      for (uint64_t size : *known) block.append<int64_t>(static_cast<int64_t>(size));
      blocks.push_back(std::move(block));
      try {
        bound = bindExpression(conjunct, schema);
      } catch (const QueryError&) {
        continue;
      }
    } catch (const QueryError&) {
      continue;  // the planner reports it with the whole schema at hand
    }
    if (bound->type.kind != TypeKind::kBoolean) continue;
    Block result;
    try {
      result = evaluate(*bound, Page(blocks, n));
    } catch (const std::exception&) {
      continue;  // e.g. an overflow: left to the scan, which raises it where it applies
    }
    const std::span<const uint8_t> values = result.values<uint8_t>();
    for (size_t f = 0; f < n; ++f) {
      if (result.isNull(f) || values[f] == 0) keep[f] = false;
    }
  }
  return keep;
}

}  // namespace quarry::engine
