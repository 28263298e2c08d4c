#include <set>

#include "quarry/engine/optimizer/local_optimizer.h"

namespace quarry::engine {

namespace {

void columnsOf(const BoundExpr& expr, std::set<int>& out) {
  if (expr.kind == BoundExpr::Kind::kColumn) out.insert(expr.column);
  for (const BoundExprPtr& child : expr.children) columnsOf(*child, out);
}

BoundExprPtr remap(const BoundExprPtr& expr, const std::vector<int>& mapping) {
  auto copy = std::make_shared<BoundExpr>(*expr);
  if (copy->kind == BoundExpr::Kind::kColumn) copy->column = mapping.at(copy->column);
  for (BoundExprPtr& child : copy->children) child = remap(child, mapping);
  return copy;
}

/// Prunes `node`'s outputs to the `required` ones (and what it needs itself);
/// returns for each old output channel its new channel, or -1.
std::vector<int> prune(PlanNode& node, std::vector<bool> required, bool& changed) {
  const size_t width = node.schema.size();
  std::vector<int> identity(width);
  for (size_t i = 0; i < width; ++i) identity[i] = static_cast<int>(i);
  auto childRequired = [&](const std::vector<bool>& outputs) {
    std::vector<bool> in(node.input()->schema.size(), false);
    for (size_t i = 0; i < outputs.size() && i < in.size(); ++i) in[i] = outputs[i];
    return in;
  };
  switch (node.kind) {
    case PlanKind::kExternalSource: {
      std::vector<int> kept;
      for (size_t i = 0; i < width; ++i) {
        if (required[i]) kept.push_back(static_cast<int>(i));
      }
      if (kept.empty() && width > 0) {
        // Rows must still be counted: keep the narrowest column (a list is the widest).
        auto cost = [&](size_t i) {
          return node.schema[i].type.isList() ? 2 : node.schema[i].type.isBytes() ? 1 : 0;
        };
        size_t best = 0;
        for (size_t i = 0; i < width; ++i) {
          if (cost(i) < cost(best)) best = i;
        }
        kept.push_back(static_cast<int>(best));
      }
      if (kept.size() == width) return identity;
      changed = true;
      std::vector<int> mapping(width, -1);
      Schema schema;
      std::vector<std::string> columns;
      for (size_t k = 0; k < kept.size(); ++k) {
        mapping[kept[k]] = static_cast<int>(k);
        schema.push_back(node.schema[kept[k]]);
        columns.push_back(node.request.columns[kept[k]]);
      }
      node.schema = schema;
      node.request.columns = columns;
      node.request.outputSchema = schema;
      return mapping;
    }
    case PlanKind::kLocalSource:
    case PlanKind::kLateMaterialize:  // fetches its columns itself (made after this rule)
      return identity;
    case PlanKind::kFilter: {
      std::vector<bool> in = childRequired(required);
      std::set<int> used;
      columnsOf(*node.predicate, used);
      for (int c : used) in[c] = true;
      std::vector<int> mapping = prune(*node.input(), in, changed);
      node.predicate = remap(node.predicate, mapping);
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kLimit:
    case PlanKind::kSample:
    case PlanKind::kExchange: {
      std::vector<int> mapping = prune(*node.input(), required, changed);
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kExtract: {
      // The extracted columns stay (one match gives them all); the input's go as above.
      const size_t inputWidth = node.input()->schema.size();
      std::vector<bool> in = childRequired(required);
      in[node.channels[0]] = true;
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      node.channels[0] = childMapping[node.channels[0]];
      node.schema = node.input()->schema;
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < inputWidth; ++i) mapping[i] = childMapping[i];
      for (size_t j = inputWidth; j < width; ++j) {
        mapping[j] = static_cast<int>(node.schema.size());
        node.schema.push_back(node.extractor->fields()[j - inputWidth]);
      }
      return mapping;
    }
    case PlanKind::kLookupJoin: {
      // The keys stay (they decide the rows); the file's columns go when unused above.
      const size_t inputWidth = node.input()->schema.size();
      std::vector<bool> in = childRequired(required);
      for (int channel : node.channels) in[channel] = true;
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      for (int& channel : node.channels) channel = childMapping[channel];
      node.schema = node.input()->schema;
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < inputWidth; ++i) mapping[i] = childMapping[i];
      std::vector<int> kept;
      for (size_t j = inputWidth; j < width; ++j) {
        if (!required[j]) {
          changed = true;
          continue;
        }
        mapping[j] = static_cast<int>(node.schema.size());
        node.schema.push_back(node.lookup->schema[node.lookupColumns[j - inputWidth]]);
        kept.push_back(node.lookupColumns[j - inputWidth]);
      }
      node.lookupColumns = kept;
      return mapping;
    }
    case PlanKind::kMvExpand: {
      // The expansion decides the row count: its column stays even when unused above.
      std::vector<bool> in = required;
      in[node.channels[0]] = true;
      std::vector<int> mapping = prune(*node.input(), in, changed);
      node.channels[0] = mapping[node.channels[0]];
      node.schema = node.input()->schema;
      node.schema[node.channels[0]].type = node.schema[node.channels[0]].type.elementType();
      return mapping;
    }
    case PlanKind::kTopN: {
      std::vector<bool> in = required;
      for (const SortSpec& key : node.sortKeys) in[key.channel] = true;
      std::vector<int> mapping = prune(*node.input(), in, changed);
      for (SortSpec& key : node.sortKeys) key.channel = mapping[key.channel];
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kEval: {
      const size_t inputWidth = node.input()->schema.size();
      std::vector<bool> in = childRequired(required);
      for (size_t j = 0; j < node.evals.size(); ++j) {
        if (!required[inputWidth + j]) continue;
        std::set<int> used;
        columnsOf(*node.evals[j].second, used);
        for (int c : used) in[c] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < inputWidth; ++i) mapping[i] = childMapping[i];
      std::vector<std::pair<std::string, BoundExprPtr>> evals;
      Schema schema = node.input()->schema;
      for (size_t j = 0; j < node.evals.size(); ++j) {
        if (!required[inputWidth + j]) {
          changed = true;
          continue;
        }
        mapping[inputWidth + j] = static_cast<int>(schema.size());
        evals.emplace_back(node.evals[j].first, remap(node.evals[j].second, childMapping));
        schema.push_back(node.schema[inputWidth + j]);
      }
      node.evals = std::move(evals);
      node.schema = std::move(schema);
      return mapping;
    }
    case PlanKind::kProject: {
      std::vector<bool> in(node.input()->schema.size(), false);
      for (size_t i = 0; i < width; ++i) {
        if (required[i]) in[node.channels[i]] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      std::vector<int> mapping(width, -1);
      std::vector<int> channels;
      Schema schema;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) {
          changed = true;
          continue;
        }
        mapping[i] = static_cast<int>(channels.size());
        channels.push_back(childMapping[node.channels[i]]);
        schema.push_back(node.schema[i]);
      }
      node.channels = std::move(channels);
      node.schema = std::move(schema);
      return mapping;
    }
    case PlanKind::kAggregate: {
      std::vector<bool> in(node.input()->schema.size(), false);
      for (int c : node.groupChannels) in[c] = true;
      const bool intermediateInput =
          node.mode == AggregatorMode::kIntermediate || node.mode == AggregatorMode::kFinal;
      for (const AggregateSpec& spec : node.aggregates) {
        if (spec.inputChannel < 0) continue;
        const size_t columns = intermediateInput ? intermediateFields(spec).size() : 1;
        for (size_t k = 0; k < columns; ++k) in[spec.inputChannel + k] = true;
        if (!intermediateInput && spec.weightChannel >= 0) in[spec.weightChannel] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      for (int& c : node.groupChannels) c = childMapping[c];
      for (AggregateSpec& spec : node.aggregates) {
        if (spec.inputChannel >= 0) spec.inputChannel = childMapping[spec.inputChannel];
        if (!intermediateInput && spec.weightChannel >= 0)
          spec.weightChannel = childMapping[spec.weightChannel];
      }
      return identity;
    }
  }
  return identity;
}

}  // namespace

std::vector<int> pruneOutputs(PlanNode& node, const std::vector<bool>& required) {
  bool changed = false;
  return prune(node, required, changed);
}

bool pruneColumns(PlanNode& root) {
  bool changed = false;
  prune(root, std::vector<bool>(root.schema.size(), true), changed);
  return changed;
}

}  // namespace quarry::engine
