#include "quarry/engine/fragment.h"

#include <algorithm>
#include <map>

#include "quarry/common/error.h"
#include "quarry/engine/expr/temporal_functions.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/plan/planner.h"
#include "quarry/engine/source/format_reader_registry.h"

namespace quarry::engine {

namespace {

bool readsExternalSource(const PlanNode& node) {
  if (node.kind == PlanKind::kExternalSource) return true;
  for (const PlanNodePtr& child : node.children) {
    if (readsExternalSource(*child)) return true;
  }
  return false;
}

const FormatReader* readerFor(const FileSplit& split) {
  const FormatReader* reader = FormatReaderRegistry::instance().findByName(split.format);
  if (reader == nullptr) {
    throw InvalidArgument("split of " + split.uri + " has an unknown format '" + split.format +
                          "'");
  }
  return reader;
}

}  // namespace

Fragment planFragment(const FragmentSpec& spec) {
  const Query query = parseQuery(spec.queryText, spec.parameters);

  // The planner takes its splits from each file's metadata: one ResolvedFile per
  // distinct URI, its splits in the order the coordinator sent them. Only the
  // reader and the splits are read; the schema is the coordinator's.
  Fragment fragment;
  ResolvedSource source;
  source.schema = spec.schema;
  std::map<std::string, size_t> fileIndex;
  for (const FileSplit& split : spec.splits) {
    const FormatReader* reader = readerFor(split);
    fragment.splits.push_back({reader, split});
    auto [it, inserted] = fileIndex.try_emplace(split.uri, source.files.size());
    if (inserted) source.files.push_back(ResolvedFile{split.uri, reader, SourceMetadata{}});
    ResolvedFile& file = source.files[it->second];
    if (file.reader != reader) {
      throw InvalidArgument("splits of " + split.uri + " disagree on the format: '" +
                            file.reader->name() + "' and '" + split.format + "'");
    }
    file.metadata.splits.push_back(split);
    // The partition columns are the coordinator's schema's; the splits name them.
    for (const PartitionValue& value : split.partition) {
      const bool known = std::any_of(source.partitionColumns.begin(), source.partitionColumns.end(),
                                     [&](const Field& f) { return f.name == value.column; });
      const int at = fieldIndex(source.schema, value.column);
      if (!known && at >= 0) source.partitionColumns.push_back(source.schema[static_cast<size_t>(at)]);
    }
  }

  PlannerOptions options;
  options.threads = spec.threads;
  options.exchange = true;
  options.text = spec.queryText;
  for (const auto& [uri, schema] : spec.lookupSchemas) {
    auto lookup = std::make_shared<LookupFile>();
    lookup->uri = uri;
    lookup->schema = schema;
    options.lookups[uri] = std::move(lookup);
  }
  const QueryClock clock(spec.nowMillis);
  const PlanNodePtr plan = planQuery(query, source, options);
  // The whole plan is optimized, as the coordinator optimizes it, rather than
  // the fragment alone: PruneColumns then leaves the exchange's input exactly
  // the columns the coordinator's side above it expects.
  // The coordinator optimizes without LateMaterialize (its second phase reads
  // by position the files only this node reads): the fragment must match.
  fragment.rules = optimize(*plan, OptimizerOptions{.lateMaterialization = false});
  const PlanNode* exchange = findExchange(*plan);
  if (exchange == nullptr) {
    throw InvalidArgument(
        "the query plans without an exchange: it has no fragment to run on a data node");
  }
  fragment.plan = exchange->input();
  fragment.perSplit = readsExternalSource(*fragment.plan);
  return fragment;
}

}  // namespace quarry::engine
