#include "quarry/formats/parquet/row_group_pruning.h"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <vector>

#include "quarry/formats/parquet/bloom_filter.h"
#include "quarry/formats/parquet/dictionary_pruning.h"

namespace quarry::parquet {
namespace {

using Nodes = std::unordered_set<const BoundNode*>;

/// A leaf eq / in that membership metadata of its chunk may decide.
struct Candidate {
  const BoundNode* node = nullptr;
  const ColumnMetaData* meta = nullptr;
  /// The PLAIN literals to look up in the chunk's Bloom filter (none: not used).
  std::optional<std::vector<std::string>> bloomValues;
  bool dictionary = false;
};

const ColumnMetaData* chunkOf(const RowGroup& group, const SchemaNode& leaf) {
  const auto index = static_cast<size_t>(leaf.leafIndex);
  if (leaf.leafIndex < 0 || index >= group.columns.size()) return nullptr;
  const ColumnChunk& chunk = group.columns[index];
  if (!chunk.meta_data || chunk.file_path || chunk.meta_data->type != *leaf.physicalType) return nullptr;
  return &*chunk.meta_data;
}

void collect(const BoundNode& node, const RowGroup& group, std::vector<Candidate>& out) {
  for (const auto& child : node.children) collect(child, group, out);
  if (node.kind != BoundNode::Kind::kCompare || node.node == nullptr || !node.node->isLeaf()) return;
  const ColumnMetaData* meta = chunkOf(group, *node.node);
  if (meta == nullptr) return;
  Candidate c;
  c.node = &node;
  c.meta = meta;
  if (meta->bloom_filter_offset) c.bloomValues = bloomProbeValues(node);
  c.dictionary = dictionaryProbeApplies(node) && fullyDictionaryEncoded(*meta);
  if (c.bloomValues || c.dictionary) out.push_back(std::move(c));
}

class Pruner {
 public:
  Pruner(const BoundPredicate& predicate, const FileMetaData& metadata, io::StorageObject& file,
         int rowGroup, bool verifyChecksums)
      : predicate_(predicate),
        metadata_(metadata),
        file_(file),
        rowGroup_(rowGroup),
        verifyChecksums_(verifyChecksums) {}

  PruningDecision decide(const Nodes& excluded) const {
    return decideRowGroup(predicate_, metadata_, static_cast<size_t>(rowGroup_),
                          [&](const BoundNode& node) { return excluded.count(&node) > 0; });
  }

  /// Whether a Bloom filter proves none of `values` is in the chunk.
  /// Reads only the filter's header and the blocks the literals fall in.
  bool bloomExcludes(const Candidate& c) {
    std::vector<uint64_t> hashes;
    for (const std::string& v : *c.bloomValues) hashes.push_back(bloomHash(v));
    const auto present = bloomFilterMayContain(file_, rowGroup_, *c.meta, *c.node->node, hashes);
    return present.has_value() && !*present;
  }

  bool dictionaryExcludes(const Candidate& c) {
    const SchemaNode& leaf = *c.node->node;
    auto it = dictionaries_.find(leaf.leafIndex);
    if (it == dictionaries_.end()) {
      it = dictionaries_
               .emplace(leaf.leafIndex,
                        readChunkDictionary(file_, rowGroup_, *c.meta, leaf, verifyChecksums_))
               .first;
    }
    return it->second && parquet::dictionaryExcludes(*c.node, *it->second);
  }

 private:
  const BoundPredicate& predicate_;
  const FileMetaData& metadata_;
  io::StorageObject& file_;
  int rowGroup_;
  bool verifyChecksums_;
  std::map<int, std::optional<Dictionary>> dictionaries_;
};

}  // namespace

RowGroupPruning pruneRowGroup(const BoundPredicate& predicate, const FileMetaData& metadata,
                              io::StorageObject& file, int rowGroup, bool verifyChecksums,
                              const std::function<uint64_t()>& bytesLeft) {
  using Source = RowGroupPruning::Source;
  Pruner pruner(predicate, metadata, file, rowGroup, verifyChecksums);
  RowGroupPruning out;
  out.decision = pruner.decide({});
  if (out.decision == PruningDecision::kNoRowMatches) return out;

  std::vector<Candidate> candidates;
  collect(predicate.root(), metadata.row_groups.at(static_cast<size_t>(rowGroup)), candidates);
  // A leaf proven absent only ever narrows what the predicate may be (and, or and
  // not are monotone in it), so if excluding every candidate leaf still leaves a
  // row that may match, no filter or dictionary is worth reading.
  Nodes all;
  for (const Candidate& c : candidates) all.insert(c.node);
  if (all.empty() || pruner.decide(all) != PruningDecision::kNoRowMatches) return out;

  // The page index first, where the reader has one: what it leaves to read is
  // all a filter could spare.
  std::optional<uint64_t> budget;
  if (bytesLeft) budget = bytesLeft();
  if (budget && *budget == 0) return out;

  Nodes excluded;
  bool readBloom = false;
  for (const Candidate& c : candidates) {
    if (!c.bloomValues) continue;
    if (budget && bloomProbeBytes(*c.meta, c.bloomValues->size()) >= *budget) continue;
    readBloom = true;
    if (pruner.bloomExcludes(c)) excluded.insert(c.node);
  }
  if (readBloom) {
    out.decision = pruner.decide(excluded);
    if (out.decision == PruningDecision::kNoRowMatches) {
      out.decidedBy = Source::kBloomFilter;
      return out;
    }
    if (!excluded.empty()) out.decidedBy = Source::kBloomFilter;
  }

  // Dictionaries, for the leaves the Bloom filters left, if they could still prune.
  Nodes hoped = excluded;
  for (const Candidate& c : candidates) {
    if (c.dictionary) hoped.insert(c.node);
  }
  if (hoped.size() == excluded.size() || pruner.decide(hoped) != PruningDecision::kNoRowMatches) {
    return out;
  }
  const size_t before = excluded.size();
  for (const Candidate& c : candidates) {
    if (c.dictionary && excluded.count(c.node) == 0 && pruner.dictionaryExcludes(c)) {
      excluded.insert(c.node);
    }
  }
  if (excluded.size() == before) return out;
  out.decision = pruner.decide(excluded);
  out.decidedBy = Source::kDictionary;
  return out;
}

PruningDecision decideAndCount(const BoundPredicate& predicate, const FileMetaData& metadata,
                               io::StorageObject& file, int rowGroup, const ReaderOptions& options,
                               ReaderMetrics& metrics, const std::function<uint64_t()>& bytesLeft) {
  if (!options.metadataPruning) return PruningDecision::kSomeMayMatch;
  const uint64_t bytes = file.bytesRead();
  const uint64_t requests = file.requestCount();
  // What bytesLeft reads (the page index) is counted by its caller.
  uint64_t callerBytes = 0;
  uint64_t callerRequests = 0;
  std::function<uint64_t()> measured;
  if (bytesLeft) {
    measured = [&] {
      const uint64_t b = file.bytesRead();
      const uint64_t r = file.requestCount();
      const uint64_t left = bytesLeft();
      callerBytes += file.bytesRead() - b;
      callerRequests += file.requestCount() - r;
      return left;
    };
  }
  const RowGroupPruning pruning =
      pruneRowGroup(predicate, metadata, file, rowGroup, options.verifyChecksums, measured);
  metrics.bytesFetched += file.bytesRead() - bytes - callerBytes;
  metrics.requestsFetched += file.requestCount() - requests - callerRequests;
  using Source = RowGroupPruning::Source;
  if (pruning.decision == PruningDecision::kNoRowMatches) {
    ++(pruning.decidedBy == Source::kBloomFilter  ? metrics.rowGroupsPrunedByBloomFilter
       : pruning.decidedBy == Source::kDictionary ? metrics.rowGroupsPrunedByDictionary
                                                  : metrics.rowGroupsPrunedByStatistics);
  } else if (pruning.decision == PruningDecision::kEveryRowMatches) {
    ++metrics.rowGroupsMatchedByStatistics;
  }
  return pruning.decision;
}

}  // namespace quarry::parquet
