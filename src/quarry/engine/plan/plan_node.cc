#include "quarry/engine/plan/plan_node.h"

#include <charconv>
#include <cstdio>
#include <set>

#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

PlanNodePtr PlanNode::clone() const {
  auto copy = std::make_shared<PlanNode>(*this);
  for (PlanNodePtr& child : copy->children) child = child->clone();
  return copy;
}

namespace {

std::string commaList(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ", ";
    out += parts[i];
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) { return "[" + commaList(parts) + "]"; }

std::string channelName(const PlanNode& node, int channel) {
  const Schema& input = node.input()->schema;
  if (channel >= 0 && static_cast<size_t>(channel) < input.size()) return input[channel].name;
  return "#" + std::to_string(channel);
}

std::string details(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kExternalSource: {
      std::set<std::string> files;
      for (const SplitTask& task : node.splits) files.insert(task.split.uri);
      std::string out = "files=" + std::to_string(files.size()) +
                        ", splits=" + std::to_string(node.splits.size()) +
                        ", columns=" + joined(node.request.columns);
      if (!node.request.partitionColumns.empty()) out += ", partitions=" + joined(node.request.partitionColumns);
      if (node.filesPrunedByPartition > 0) {
        out += ", " + std::to_string(node.filesPrunedByPartition) + " files pruned by partition";
      }
      if (!node.listedPrefixes.empty()) out += ", listed=" + joined(node.listedPrefixes);
      if (node.request.filter) out += ", filter=" + node.request.filter->toString();
      if (node.request.limit) out += ", limit=" + std::to_string(*node.request.limit);
      return out;
    }
    case PlanKind::kLocalSource:
      return node.description;
    case PlanKind::kFilter:
      return node.predicate->toString();
    case PlanKind::kEval: {
      std::vector<std::string> parts;
      for (const auto& [name, expr] : node.evals) parts.push_back(name + " = " + expr->toString());
      return commaList(parts);
    }
    case PlanKind::kProject: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < node.channels.size(); ++i) {
        std::string from = channelName(node, node.channels[i]);
        parts.push_back(from == node.schema[i].name ? from : from + " AS " + node.schema[i].name);
      }
      return commaList(parts);
    }
    case PlanKind::kAggregate: {
      std::vector<std::string> aggs;
      for (const AggregateSpec& spec : node.aggregates) {
        std::string arg = spec.function == AggregateFunction::kCountStar ? "*"
                          : spec.inputChannel >= 0                      ? channelName(node, spec.inputChannel)
                                                                        : "?";
        const bool raw =
            node.mode == AggregatorMode::kSingle || node.mode == AggregatorMode::kInitial;
        if (raw && spec.weightChannel >= 0) arg += ", " + channelName(node, spec.weightChannel);
        // The constant arguments, as written (the FINAL computes with them too).
        if (spec.function == AggregateFunction::kPercentile) {
          char percent[32];
          std::snprintf(percent, sizeof percent, "%.15g", spec.quantile * 100);
          arg += std::string(", ") + percent;
        } else if (spec.function == AggregateFunction::kTop) {
          arg += ", " + std::to_string(spec.limit) + (spec.descending ? ", \"desc\"" : ", \"asc\"");
        }
        aggs.push_back(spec.name + " = " + aggregateName(spec.function) + "(" + arg + ")");
      }
      std::string out = joined(aggs);
      if (!node.groupChannels.empty()) {
        std::vector<std::string> groups;
        for (int channel : node.groupChannels) groups.push_back(channelName(node, channel));
        out += " BY " + joined(groups);
      }
      return out;
    }
    case PlanKind::kTopN: {
      std::vector<std::string> keys;
      for (const SortSpec& key : node.sortKeys) {
        keys.push_back(channelName(node, key.channel) + (key.ascending ? " ASC" : " DESC") +
                       (key.nullsFirst ? " NULLS FIRST" : " NULLS LAST"));
      }
      std::string out = joined(keys);
      if (node.limit) out += ", limit=" + std::to_string(*node.limit);
      return out;
    }
    case PlanKind::kLimit:
      return std::to_string(node.limit.value_or(0));
    case PlanKind::kExchange:
      return "threads=" + std::to_string(node.threads);
    case PlanKind::kLateMaterialize: {
      std::vector<std::string> fetched(node.request.columns.begin(),
                                       node.request.columns.end() - (node.request.columns.empty() ? 0 : 1));
      std::vector<std::string> by;
      for (int channel : node.channels) by.push_back(channelName(node, channel));
      return "rows<=" + std::to_string(node.limit.value_or(0)) + ", by=" + joined(by) +
             ", fetch=" + joined(fetched);
    }
    case PlanKind::kMvExpand:
      return channelName(node, node.channels.at(0));
    case PlanKind::kSample: {
      char probability[32];
      const auto end =
          std::to_chars(probability, probability + sizeof(probability), node.sampleProbability).ptr;
      return std::string(probability, end) + ", seed=" + std::to_string(node.sampleSeed);
    }
    case PlanKind::kLookupJoin: {
      std::vector<std::string> keys;
      for (int channel : node.channels) keys.push_back(channelName(node, channel));
      std::vector<std::string> added;
      for (int column : node.lookupColumns) added.push_back(node.lookup->schema[column].name);
      return quoteString(node.lookup->uri) + " ON " + joined(keys) +
             ", rows=" + std::to_string(node.lookup->rows) + ", add=" + joined(added);
    }
    case PlanKind::kExtract: {
      std::vector<std::string> names;
      for (const Field& field : node.extractor->fields()) names.push_back(field.name);
      const std::string describe = node.extractor->describe();
      const size_t space = describe.find(' ');  // after the command's name
      return channelName(node, node.channels.at(0)) + " " + describe.substr(space + 1) + " -> " +
             joined(names);
    }
  }
  return "";
}

void explainInto(const PlanNode& node, int depth, std::string& out) {
  out.append(static_cast<size_t>(depth) * 2, ' ');
  out += nodeName(node);
  out += "[" + details(node) + "]\n";
  for (const PlanNodePtr& child : node.children) explainInto(*child, depth + 1, out);
}

}  // namespace

std::string nodeName(const PlanNode& node) {
  switch (node.kind) {
    case PlanKind::kExternalSource:
      return "ExternalSourceExec";
    case PlanKind::kLocalSource:
      return "LocalSourceExec";
    case PlanKind::kFilter:
      return "FilterExec";
    case PlanKind::kEval:
      return "EvalExec";
    case PlanKind::kProject:
      return "ProjectExec";
    case PlanKind::kAggregate:
      return std::string("AggregateExec[") + aggregatorModeName(node.mode) + "]";
    case PlanKind::kTopN:
      return "TopNExec";
    case PlanKind::kLimit:
      return "LimitExec";
    case PlanKind::kExchange:
      return "ExchangeExec";
    case PlanKind::kLateMaterialize:
      return "LateMaterializeExec";
    case PlanKind::kMvExpand:
      return "MvExpandExec";
    case PlanKind::kExtract:
      return node.extractor->operatorName();
    case PlanKind::kSample:
      return "SampleExec";
    case PlanKind::kLookupJoin:
      return "LookupJoinExec";
  }
  return "?";
}

std::string explain(const PlanNode& root) {
  std::string out;
  explainInto(root, 0, out);
  return out;
}

const PlanNode& chainBottom(const PlanNode& node) {
  const PlanNode* current = &node;
  while (!current->children.empty()) current = current->children[0].get();
  return *current;
}

PlanNode& chainBottom(PlanNode& node) {
  return const_cast<PlanNode&>(chainBottom(static_cast<const PlanNode&>(node)));
}

const PlanNode* findExchange(const PlanNode& root) {
  if (root.kind == PlanKind::kExchange) return &root;
  for (const PlanNodePtr& child : root.children) {
    if (const PlanNode* found = findExchange(*child)) return found;
  }
  return nullptr;
}

}  // namespace quarry::engine
