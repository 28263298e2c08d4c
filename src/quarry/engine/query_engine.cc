#include "quarry/engine/query_engine.h"

#include <cstdio>

#include "quarry/common/json_text.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/expr/temporal_functions.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/plan/planner.h"
#include "quarry/engine/plan/query_warnings.h"
#include "quarry/engine/source/partition_pruning.h"

namespace quarry::engine {

namespace {

void setMetrics(PlanNode& node, ScanMetrics* metrics) {
  if (node.kind == PlanKind::kExternalSource) node.request.metrics = metrics;
  for (PlanNodePtr& child : node.children) setMetrics(*child, metrics);
}

}  // namespace

PreparedQuery prepareQuery(std::string_view text, const QueryOptions& options) {
  PreparedQuery prepared;
  prepared.started = std::chrono::steady_clock::now();
  prepared.nowMillis = options.nowMillis.value_or(QueryClock::wallClockMillis());
  const QueryClock clock(prepared.nowMillis);  // every NOW() of the query, partition pruning's too
  prepared.ast = parseQuery(text, options.parameters);
  const FromClause& from = prepared.ast.from;
  ResolveOptions resolve;
  if (from.format) resolve.format = *from.format == SourceFormat::kOrc ? "orc" : "parquet";
  if (from.schemaResolution) resolve.schemaResolution = *from.schemaResolution;
  resolve.threads = options.threads;
  resolve.metadataCacheDirectory = options.metadataCacheDirectory;
  resolve.remoteListingTtlNs = options.remoteListingTtlNs;
  resolve.hivePartitioning = from.hivePartitioning;
  resolve.hiveTypes = from.hiveTypes;
  // The WHEREs that come first filter the source's rows themselves: their
  // conjuncts on paths prune files before any is opened.
  for (const Command& command : prepared.ast.commands) {
    if (!command.is<WhereCommand>()) break;
    collectConjuncts(command.as<WhereCommand>().condition, resolve.pathConjuncts);
  }
  std::vector<std::string> patterns;
  for (const SourceUri& source : from.sources) patterns.push_back(source.uri);
  // ROW reads no file: its source resolves to nothing.
  if (!prepared.ast.row) prepared.source = ExternalSourceResolver::resolve(patterns, resolve);
  prepared.metrics = std::make_shared<ScanMetrics>();
  prepared.metrics->files = prepared.source.schemaOnly ? 0 : prepared.source.files.size();
  prepared.metrics->filesPrunedByPartition = prepared.source.filesPrunedByPartition;
  // The footers were read to resolve the schema: what the query read includes them.
  for (const ResolvedFile& file : prepared.source.files) {
    prepared.metrics->footerBytesRead += file.metadata.bytesRead;
    prepared.metrics->footerRequests += file.metadata.requests;
    if (file.metadata.fromMetadataCache) ++prepared.metrics->footersFromCache;
  }
  prepared.metrics->bytesRead += prepared.metrics->footerBytesRead;
  prepared.metrics->requests += prepared.metrics->footerRequests;
  // Each LOOKUP JOIN's file is read whole, once, before planning (its schema types the plan).
  for (const Command& command : prepared.ast.commands) {
    if (!command.is<LookupJoinCommand>()) continue;
    const LookupJoinCommand& join = command.as<LookupJoinCommand>();
    if (prepared.lookups.count(join.uri)) continue;
    LookupReadOptions lookup;
    lookup.maxRows = options.lookupMaxRows;
    lookup.threads = options.threads;
    lookup.metadataCacheDirectory = options.metadataCacheDirectory;
    lookup.metrics = prepared.metrics.get();
    lookup.position = join.uriPosition;
    prepared.lookups[join.uri] = readLookupFile(join.uri, lookup);
  }
  PlannerOptions planner;
  planner.threads = options.threads;
  planner.text = text;
  planner.lookups = prepared.lookups;
  prepared.unoptimized = planQuery(prepared.ast, prepared.source, planner);
  prepared.warnings = queryWarnings(prepared.ast);
  setMetrics(*prepared.unoptimized, prepared.metrics.get());
  if (options.keepUnoptimizedPlan) {
    prepared.plan = prepared.unoptimized->clone();
  } else {
    prepared.plan = std::move(prepared.unoptimized);
  }
  prepared.rules =
      optimize(*prepared.plan, OptimizerOptions{.lateMaterialization = options.lateMaterialization});
  return prepared;
}

QueryProfile executeQuery(const PreparedQuery& query, const std::function<void(const Page&)>& sink,
                          const ExchangeBuilder* exchangeBuilder) {
  return executeQueryWhile(
      query,
      [&](const Page& page) {
        sink(page);
        return true;
      },
      exchangeBuilder);
}

QueryProfile executeQueryWhile(const PreparedQuery& query,
                               const std::function<bool(const Page&)>& sink,
                               const ExchangeBuilder* exchangeBuilder) {
  OperatorPtr root = buildOperators(*query.plan, nullptr, exchangeBuilder);
  QueryProfile profile;
  while (std::optional<Page> page = root->next()) {
    profile.rowsReturned += page->positionCount();
    if (!sink(*page)) break;
  }
  root->collectStats(profile.operators);
  profile.warnings = mergedWarnings(profile.operators);
  const ScanMetrics& m = *query.metrics;
  profile.files = m.files;
  profile.filesPrunedByPartition = m.filesPrunedByPartition;
  profile.splits = m.splits;
  profile.rowGroupsTotal = m.rowGroupsTotal;
  profile.rowGroupsPrunedByStatistics = m.rowGroupsPrunedByStatistics;
  profile.rowGroupsPrunedByBloom = m.rowGroupsPrunedByBloom;
  profile.rowGroupsPrunedByDictionary = m.rowGroupsPrunedByDictionary;
  profile.rowGroupsAnsweredFromStatistics = m.rowGroupsAnsweredFromStatistics;
  profile.pagesTotal = m.pagesTotal;
  profile.pagesSkipped = m.pagesSkipped;
  profile.pagesAnsweredFromStatistics = m.pagesAnsweredFromStatistics;
  profile.bytesRead = m.bytesRead;
  profile.requests = m.requests;
  profile.rowsDecoded = m.rowsDecoded;
  profile.footerBytesRead = m.footerBytesRead;
  profile.footerRequests = m.footerRequests;
  profile.footersFromCache = m.footersFromCache;
  profile.columns = query.plan->schema;
  profile.elapsedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - query.started).count();
  return profile;
}

std::string profileJson(const QueryProfile& p) {
  auto number = [](uint64_t v) { return std::to_string(v); };
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.3f", p.elapsedMs);
  std::string out = "{\"elapsed_ms\":";
  out += elapsed;
  out += ",\"files\":{\"read\":" + number(p.files) +
         ",\"pruned_by_partition\":" + number(p.filesPrunedByPartition) + "}";
  out += ",\"splits\":" + number(p.splits);
  out += ",\"row_groups\":{\"total\":" + number(p.rowGroupsTotal) +
         ",\"pruned_by_statistics\":" + number(p.rowGroupsPrunedByStatistics) +
         ",\"pruned_by_bloom\":" + number(p.rowGroupsPrunedByBloom) +
         ",\"pruned_by_dictionary\":" + number(p.rowGroupsPrunedByDictionary) +
         ",\"answered_from_statistics\":" + number(p.rowGroupsAnsweredFromStatistics) + "}";
  out += ",\"pages\":{\"total\":" + number(p.pagesTotal) +
         ",\"skipped\":" + number(p.pagesSkipped) +
         ",\"answered_from_statistics\":" + number(p.pagesAnsweredFromStatistics) + "}";
  out += ",\"bytes_read\":" + number(p.bytesRead);
  out += ",\"requests\":" + number(p.requests);
  out += ",\"footers\":{\"bytes_read\":" + number(p.footerBytesRead) +
         ",\"requests\":" + number(p.footerRequests) +
         ",\"from_metadata_cache\":" + number(p.footersFromCache) + "}";
  out += ",\"rows_decoded\":" + number(p.rowsDecoded);
  out += ",\"rows_returned\":" + number(p.rowsReturned);
  out += ",\"columns\":[";
  for (size_t i = 0; i < p.columns.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendJsonString(out, p.columns[i].name);
    out += ",\"type\":";
    appendJsonString(out, p.columns[i].type.toString());
    out += '}';
  }
  out += ']';
  out += ",\"operators\":[";
  for (size_t i = 0; i < p.operators.size(); ++i) {
    const OperatorStats& op = p.operators[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    appendJsonString(out, op.name);
    char ms[32];
    std::snprintf(ms, sizeof(ms), "%.3f", static_cast<double>(op.nanos) / 1e6);
    out += ",\"rows\":" + number(op.rowsOut) + ",\"pages\":" + number(op.pagesOut) + ",\"time_ms\":" + ms + "}";
  }
  out += "]}";
  return out;
}

std::string explainQuery(const PreparedQuery& query) {
  std::string out =
      "== physical plan\n" + (query.unoptimized ? explain(*query.unoptimized) : "(not kept)\n");
  out += "\n== local optimizer\n";
  for (const RuleOutcome& rule : query.rules) {
    out += rule.rule + (rule.changed ? ": applied" : ": no change");
    if (!rule.detail.empty()) out += " (" + rule.detail + ")";
    out += '\n';
  }
  out += "\n== optimized physical plan\n" + explain(*query.plan);
  return out;
}

}  // namespace quarry::engine
