#include "quarry/cli/query_command.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "quarry/cli/arrow_output.h"
#include "quarry/cli/block_text.h"
#include "quarry/cli/csv_text.h"
#include "quarry/cli/json_row_shape.h"
#include "quarry/cli/memory_limit_option.h"
#include "quarry/cli/output_stream.h"
#include "quarry/cli/parameter_arguments.h"
#include "quarry/cli/progress_bar.h"
#include "quarry/cli/table_writer.h"
#include "quarry/common/error.h"
#include "quarry/common/json_text.h"
#include "quarry/common/process_memory.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/engine/parse/query_diagnostic.h"
#include "quarry/engine/query_engine.h"
#include "quarry/engine/source/metadata_cache.h"

namespace quarry::cli {

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr size_t kFlushBytes = 1 << 20;

void addCommonOptions(CLI::App& command, QueryOptions& options) {
  command.add_option("query", options.query, "The query, e.g. 'FROM \"data/*.parquet\" | STATS COUNT(*)'")
      ->required();
  command.add_option("--threads", options.threads, "Driver threads (default 2; also asked of each data node)")
      ->check(CLI::Range(1, 256));
  command.add_flag(
      "--no-metadata-cache", options.noMetadataCache,
      "Read every footer and list every directory, neither recalling nor keeping them in the "
      "metadata cache ($QUARRY_CACHE_DIR, else ~/.cache/quarry; QUARRY_CACHE_DIR=off disables it)");
  command.add_option("--listing-ttl", options.listingTtlSeconds,
                   "Reuse a cached S3 listing younger than SECONDS instead of listing again (default 0: "
                   "every query lists, which is how new, replaced and deleted objects are seen)")
      ->check(CLI::Range(int64_t{0}, int64_t{31'536'000}));
  command
      .add_option("--lookup-max-rows", options.lookupMaxRows,
                  "The most rows a LOOKUP JOIN's file may hold, read whole into memory (default " +
                      std::to_string(engine::kDefaultLookupMaxRows) + ")")
      ->check(CLI::Range(uint64_t{1}, uint64_t{4'000'000'000}));
  addMemoryLimitOption(command);
  command
      .add_option(
          "--param", options.params,
          "A value for the query's ?name (name=value) or, without a name, for its next ? / ?1, "
          "?2 ...: null, true, false, a number, else a string (\"42\" quoted is a string); "
          "repeatable")
      ->allow_extra_args(false);
  ClusterOptions& cluster = options.cluster;
  command.add_option("--nodes", cluster.nodes,
                     "Run the query's scans on these data nodes (host:port,host:port; see `quarry serve`)");
  command.add_option("--token-file", cluster.tokenFile, "The file holding the data nodes' shared token");
  command.add_option("--cluster", cluster.clusterFile,
                     "A cluster file: lines `node HOST:PORT`, `token-file PATH`, `tls-ca PATH`, `timeout-ms N`");
  command.add_option("--tls-ca", cluster.tlsCa, "Connect to the data nodes over TLS, trusting this CA (PEM)");
  command.add_option("--timeout-ms", cluster.timeoutMs, "The query's deadline on the data nodes (default 600000)")
      ->check(CLI::Range(int64_t{1}, int64_t{86'400'000}));
}

/// Returns the rows `node` yields when the plan's statistics tell it without
/// running it: a scan without a filter whose splits all carry their row count,
/// under nodes that keep (or cap) the count. Otherwise nothing.
std::optional<uint64_t> rowCountFromStatistics(const engine::PlanNode& node) {
  using engine::PlanKind;
  switch (node.kind) {
    case PlanKind::kExternalSource: {
      if (node.request.filter) return std::nullopt;
      uint64_t rows = 0;
      for (const engine::SplitTask& task : node.splits) {
        const engine::FileSplit& split = task.split;
        if (!split.rows.empty()) {
          for (const auto& span : split.rows) rows += static_cast<uint64_t>(span.end - span.first);
        } else if (split.statistics != nullptr && split.statistics->rowCount >= 0) {
          rows += static_cast<uint64_t>(split.statistics->rowCount);
        } else {
          return std::nullopt;
        }
      }
      if (node.request.limit) rows = std::min<uint64_t>(rows, static_cast<uint64_t>(*node.request.limit));
      return rows;
    }
    case PlanKind::kEval:
    case PlanKind::kProject:
    case PlanKind::kExchange:
      return rowCountFromStatistics(*node.input());
    case PlanKind::kLimit:
    case PlanKind::kTopN: {
      auto rows = rowCountFromStatistics(*node.input());
      if (rows && node.limit) rows = std::min<uint64_t>(*rows, static_cast<uint64_t>(*node.limit));
      return rows;
    }
    default:
      return std::nullopt;
  }
}

/// Writes result pages in one format as they come (the table too:
/// table_writer.h).
class ResultWriter {
 public:
  ResultWriter(const QueryOptions& options, const engine::PreparedQuery& prepared)
      : format_(options.format), schema_(prepared.plan->schema) {
    bigNumbers_ = options.jsonBigNumbersAsStrings ? BigNumbers::kStrings : BigNumbers::kNumbers;
    if (format_ == QueryFormat::kCsv) {
      for (size_t i = 0; i < schema_.size(); ++i) {
        if (i > 0) pending_ += ',';
        appendCsvField(schema_[i].name, pending_);
      }
      pending_ += '\n';
    }
    if (format_ == QueryFormat::kJson) pending_ += '[';
    if (format_ == QueryFormat::kJson || format_ == QueryFormat::kNdjson) {
      std::vector<std::string> names;
      for (const engine::Field& field : schema_) names.push_back(field.name);
      const engine::Schema& source = prepared.source.schema;
      jsonShape_ = std::make_unique<JsonRowShape>(
          names, [&](const std::string& name) { return engine::fieldIndex(source, name) >= 0; });
    }
    if (format_ == QueryFormat::kTable) {
      std::vector<TableWriter::Column> columns;
      for (const engine::Field& field : schema_) columns.push_back({field.name, field.type.isNumeric()});
      TableWriter::Limits limits;
      if (options.maxRows >= 0) limits.maxRows = static_cast<uint64_t>(options.maxRows);
      limits.width = outputWidth(stdout);
      table_ = std::make_unique<TableWriter>(std::move(columns), limits,
                                             [this](std::string_view text) { write(text); });
      total_ = rowCountFromStatistics(*prepared.plan);
    }
    if (format_ == QueryFormat::kArrow)
      arrow_ =
          std::make_unique<ArrowOutput>(schema_, [this](std::string_view bytes) { write(bytes); });
  }

  /// Writes `page`; returns false when the output wants no more pages (a full
  /// table that has seen a row beyond those it shows).
  bool add(const engine::Page& page) {
    if (format_ == QueryFormat::kTable) return addToTable(page);
    if (format_ == QueryFormat::kArrow) {
      arrow_->add(page);
      return true;
    }
    for (size_t row = 0; row < page.positionCount(); ++row) {
      switch (format_) {
        case QueryFormat::kTable:
        case QueryFormat::kArrow:
          break;
        case QueryFormat::kCsv:
          for (size_t c = 0; c < page.blockCount(); ++c) {
            if (c > 0) pending_ += ',';
            if (page.block(c).isNull(row)) continue;
            std::string text;
            appendBlockText(page.block(c), row, text);
            appendCsvField(text, pending_);
          }
          pending_ += '\n';
          break;
        case QueryFormat::kJson:
        case QueryFormat::kNdjson:
          if (format_ == QueryFormat::kJson) pending_ += rows_ == 0 ? "\n" : ",\n";
          jsonShape_->appendRow(
              [&](size_t c, std::string& out) { appendBlockJson(page.block(c), row, out, bigNumbers_); },
              pending_);
          if (format_ == QueryFormat::kNdjson) pending_ += '\n';
          break;
      }
      ++rows_;
    }
    if (format_ != QueryFormat::kJson && pending_.size() >= kFlushBytes) flush();
    return true;
  }

  void finish() {
    if (format_ == QueryFormat::kTable) {
      std::optional<uint64_t> total = more_ ? total_ : std::optional<uint64_t>(table_->rowsShown());
      table_->finish(total, more_);
      return;
    }
    if (format_ == QueryFormat::kArrow) {
      arrow_->finish();
      return;
    }
    if (format_ == QueryFormat::kJson) pending_ += rows_ == 0 ? "]\n" : "\n]\n";
    flush();
  }

  /// Runs `hook` once, before the first bytes reach stdout (nullptr: none).
  void beforeOutput(std::function<void()> hook) { beforeOutput_ = std::move(hook); }

 private:
  bool addToTable(const engine::Page& page) {
    for (size_t row = 0; row < page.positionCount(); ++row) {
      if (!table_->wantsRows()) {
        more_ = true;
        break;
      }
      std::vector<std::string> cells;
      for (size_t c = 0; c < page.blockCount(); ++c) {
        std::string text;
        appendBlockText(page.block(c), row, text);
        cells.push_back(std::move(text));
      }
      table_->addRow(std::move(cells));
    }
    table_->endBatch();
    return !more_;
  }

  void write(std::string_view text) {
    if (beforeOutput_) std::exchange(beforeOutput_, nullptr)();
    writeOutput(stdout, text);
  }

  void flush() {
    write(pending_);
    pending_.clear();
  }

  QueryFormat format_;
  engine::Schema schema_;
  BigNumbers bigNumbers_ = BigNumbers::kNumbers;
  std::string pending_;
  std::unique_ptr<TableWriter> table_;
  std::unique_ptr<JsonRowShape> jsonShape_;
  std::unique_ptr<ArrowOutput> arrow_;
  std::function<void()> beforeOutput_;
  std::optional<uint64_t> total_;  // the table's rows, when the statistics tell
  bool more_ = false;              // a row beyond the table's was seen
  uint64_t rows_ = 0;
};

uint64_t splitCount(const engine::PlanNode& node) {
  uint64_t n = node.kind == engine::PlanKind::kExternalSource ? node.splits.size() : 0;
  for (const engine::PlanNodePtr& child : node.children) n += splitCount(*child);
  return n;
}

/// Runs `body`, turning failures into the exit status and one message on stderr.
template <typename F>
int guarded(const QueryOptions& options, F&& body) {
  try {
    return body();
  } catch (const QueryError& e) {
    std::cerr << "quarry: " << engine::renderQueryError(e, options.query) << std::endl;
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "quarry: out of memory" << std::endl;
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "quarry: " << redactUris(e.what()) << std::endl;
    return kExitFailure;
  }
}

/// Writes the query's warnings on stderr, each as an error is written
/// ("quarry: warning: ..." with the query line and a caret).
void writeWarnings(const engine::PreparedQuery& prepared, const QueryOptions& options) {
  for (const engine::QueryWarning& warning : prepared.warnings) {
    std::cerr << "quarry: " << engine::renderQueryWarning(warning, options.query) << std::flush;
  }
}

/// Writes the rows the query's expressions failed on, after the result (stdout
/// holds the result alone), one line each in ES|QL's words: "quarry: warning: Line
/// 1:27: evaluation of [to_integer(s)] failed, treating result as null. ...".
void writeEvaluationWarnings(const engine::Warnings& warnings) {
  for (const std::string& line : warnings.lines()) {
    std::cerr << "quarry: warning: " << redactUris(line) << "\n";
  }
  std::cerr << std::flush;
}

engine::QueryOptions engineOptionsOf(const QueryOptions& options) {
  engine::QueryOptions engineOptions;
  engineOptions.threads = options.threads;
  engineOptions.parameters = parameterArguments(options.params);
  if (!options.noMetadataCache)
    engineOptions.metadataCacheDirectory = engine::defaultMetadataCacheDirectory();
  engineOptions.remoteListingTtlNs = options.listingTtlSeconds * 1'000'000'000;
  engineOptions.lookupMaxRows = options.lookupMaxRows;
  return engineOptions;
}

}  // namespace

CLI::App& addQueryCommand(CLI::App& app, QueryOptions& options) {
  CLI::App* command = app.add_subcommand("query", "Run a query over Parquet and ORC files");
  addCommonOptions(*command, options);
  command
      ->add_option_function<std::string>(
          "--format",
          [&options](const std::string& name) {
            static const std::map<std::string, QueryFormat> kFormats{
                {"table", QueryFormat::kTable},
                {"csv", QueryFormat::kCsv},
                {"json", QueryFormat::kJson},
                {"ndjson", QueryFormat::kNdjson},
                {"arrow", QueryFormat::kArrow}};
            options.format = kFormats.at(CLI::detail::to_lower(name));
          },
          "table (default), csv, json (one array), ndjson (one object per line) or arrow (an Arrow "
          "IPC stream; not to a terminal)")
      ->check(CLI::IsMember({"table", "csv", "json", "ndjson", "arrow"}, CLI::ignore_case));
  command
      ->add_option("--max-rows", options.maxRows,
                   "Table format: show at most N rows (default 40; 0: all); csv and json are never capped")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  command->add_flag("--json-big-numbers-as-strings", options.jsonBigNumbersAsStrings,
                    "JSON: write integers beyond 2^53 and decimals of over 15 digits as strings "
                    "(for parsers that read numbers as doubles)");
  command->add_flag("--profile", options.profile,
                    "After the result, write what the query read and did as one JSON object on stderr");
  command->add_option("--profile-out", options.profileOut, "Write the --profile JSON to this file instead");
  return *command;
}

CLI::App& addExplainCommand(CLI::App& app, QueryOptions& options) {
  CLI::App* command =
      app.add_subcommand("explain", "Print a query's physical plan before and after the local optimizer");
  addCommonOptions(*command, options);
  return *command;
}

int runQuery(const QueryOptions& options, ExchangePlacement* placement) {
  if (options.format == QueryFormat::kArrow && refuseBinaryToTerminal(stdout, "--format arrow"))
    return kExitUsage;
  return guarded(options, [&] {
    engine::QueryOptions engineOptions = engineOptionsOf(options);
    // Only a placement (a coordinator's) looks at the plan before the optimizer.
    engineOptions.keepUnoptimizedPlan = placement != nullptr;
    // A coordinator's scans run on the data nodes: no second phase reading their files here.
    engineOptions.lateMaterialization = placement == nullptr;
    engine::PreparedQuery prepared = engine::prepareQuery(options.query, engineOptions);
    writeWarnings(prepared, options);
    ResultWriter writer(options, prepared);
    engine::QueryProfile profile;
    {
      const uint64_t splits = splitCount(*prepared.plan);
      const engine::ScanMetrics& metrics = *prepared.metrics;
      // Drawn until the first row reaches the terminal, when the rows go there too
      // (a table's first lines, a CSV's first rows): never redrawn among them.
      ProgressBar progress(splits > 0 && ProgressBar::wanted(false), "splits", [&metrics, splits] {
        return ProgressBar::Sample{metrics.splits, splits, metrics.bytesRead};
      });
      if (isatty(STDOUT_FILENO) != 0) writer.beforeOutput([&progress] { progress.stop(); });
      const engine::ExchangeBuilder* builder = placement != nullptr ? placement->place(prepared) : nullptr;
      profile = engine::executeQueryWhile(
          prepared, [&](const engine::Page& page) { return writer.add(page); }, builder);
      writer.beforeOutput(nullptr);  // the bar ends with this scope
    }
    writer.finish();
    writeEvaluationWarnings(profile.warnings);
    if (options.profile || !options.profileOut.empty()) {
      std::string json = redactUris(engine::profileJson(profile));
      if (placement != nullptr)
        json.insert(json.size() - 1, placement->profileFields());  // before the closing '}'
      json += "\n";
      if (options.profileOut.empty()) {
        std::cerr << json << std::flush;
      } else {
        std::ofstream out(options.profileOut, std::ios::binary);
        out << json;
        if (!out) throw IoError("cannot write the profile to " + options.profileOut);
      }
    }
    // The query is the command's last act: its footers, splits and plan are left to
    // the process's exit rather than freed one by one.
    keepUntilExit(std::move(prepared));
    return 0;
  });
}

int runExplain(const QueryOptions& options, ExchangePlacement* placement) {
  return guarded(options, [&] {
    engine::QueryOptions engineOptions = engineOptionsOf(options);
    engineOptions.lateMaterialization = placement == nullptr;
    engine::PreparedQuery prepared = engine::prepareQuery(options.query, engineOptions);
    writeWarnings(prepared, options);
    std::string text = redactUris(engine::explainQuery(prepared));
    if (placement != nullptr) text += "\n== placement\n" + placement->explainLine(prepared) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  });
}

}  // namespace quarry::cli
