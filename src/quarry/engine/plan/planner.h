#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/plan/plan_node.h"
#include "quarry/engine/source/external_source_resolver.h"

/// Turns a parsed query over a resolved source into a physical plan, before the
/// local optimizer runs (optimizer/local_optimizer.h).
///
/// The commands become a chain of nodes over one ExternalSourceExec that reads
/// every column of the source. The first pipeline breaker (STATS, SORT, LIMIT)
/// splits the chain: what lies below it runs once per split under an
/// ExchangeExec (the "data node" fragment), with STATS as AggregateExec[INITIAL]
/// below the exchange and AggregateExec[FINAL] above it, SORT + LIMIT as a TopN
/// on both sides, LIMIT as a limit on both sides; the rest of the pipeline runs
/// above the exchange, on the coordinator. Without a breaker the exchange is the
/// root. LOOKUP JOIN also splits it, below the join: the join and what follows
/// run above the exchange (on the coordinator, which read the lookup file).
///
/// STATS outputs its aggregates first, then its groups (ES|QL's order); a name
/// not given with `name =` is the item's text as written (`COUNT(*)`,
/// `max(x)`), or the printed expression when the text is not at hand.
/// `_file.path` and `_file.size` exist when the query names them.
namespace quarry::engine {

struct PlannerOptions {
  /// Driver threads of each exchange.
  int threads = 2;
  /// Whether to split the chain around an ExchangeExec; without one the plan
  /// runs as one pipeline and STATS is an AggregateExec[SINGLE].
  bool exchange = true;
  /// The query text the AST was parsed from: unnamed STATS columns are named by
  /// their text as written (ES|QL). Without it they are the printed expression.
  std::string_view text;
  /// The files of the query's LOOKUP JOINs, by the name the query gives them
  /// (readLookupFile's; a data node's hold only the schema, as it runs no join).
  std::map<std::string, std::shared_ptr<const LookupFile>> lookups;
};

/// Throws QueryError (line, column, hint) for names, types and commands the
/// source cannot take. Moves each file's splits into the plan's source node
/// (a thousand files' splits are not copied): `source` keeps its schema and its
/// files, without their splits.
PlanNodePtr planQuery(const Query& query, ResolvedSource& source, const PlannerOptions& options);

}  // namespace quarry::engine
