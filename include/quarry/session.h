#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "quarry/batch.h"
#include "quarry/data_type.h"
#include "quarry/error.h"

/// Running queries from a program: a Session holds the options every query
/// shares, prepare() parses, resolves and plans a query (with values for its
/// `?name` placeholders), and a Result streams the rows in batches as the
/// engine produces them:
///
///   quarry::Session session;  // SessionOptions: threads, metadata cache
///   quarry::Result result = session.execute(
///       R"(FROM "trips.parquet" | WHERE fare_amount > ?min | STATS n = COUNT(*) BY vendor)",
///       {{"min", 10.0}});
///   while (std::optional<quarry::Batch> batch = result.next())
///     for (size_t row = 0; row < batch->rowCount(); ++row) use(batch->text(0, row));
///
/// Failures are exceptions of quarry/error.h: QueryError for a query that does not
/// parse or plan (queryErrorText shows it with a caret), IoError, CorruptFile,
/// Unsupported for the files, Cancelled once a result is cancelled.
namespace quarry {

struct SessionOptions {
  /// Threads running a query's scans and reading its files' footers.
  int threads = 2;
  /// Where footers and listings of local files are kept across queries and
  /// processes; empty: no metadata cache. defaultMetadataCacheDirectory() is the
  /// CLI's.
  std::string metadataCacheDirectory;
  /// The most rows a LOOKUP JOIN's file may hold: it is read whole into memory
  /// (the CLI's --lookup-max-rows; at least 1).
  static constexpr uint64_t kDefaultLookupMaxRows = 1'000'000;
  uint64_t lookupMaxRows = kDefaultLookupMaxRows;
};

/// Returns the metadata cache directory the CLI uses: $QUARRY_CACHE_DIR, else
/// $XDG_CACHE_HOME/quarry or ~/.cache/quarry; empty when QUARRY_CACHE_DIR=off.
std::string defaultMetadataCacheDirectory();

/// A value for a `?name` placeholder: NULL, a boolean, an integer, a double or a
/// string, bound as the literal of its type (never read as query text).
class ParameterValue {
 public:
  using Value = std::variant<std::monostate, bool, int64_t, double, std::string>;
  ParameterValue(std::nullptr_t) {}
  ParameterValue(bool value) : value_(value) {}
  ParameterValue(int value) : value_(int64_t{value}) {}
  ParameterValue(long value) : value_(int64_t{value}) {}
  ParameterValue(long long value) : value_(int64_t{value}) {}
  ParameterValue(double value) : value_(value) {}
  ParameterValue(const char* value) : value_(std::string(value)) {}
  ParameterValue(std::string_view value) : value_(std::string(value)) {}
  ParameterValue(std::string value) : value_(std::move(value)) {}
  const Value& value() const { return value_; }

 private:
  Value value_;
};

/// Placeholder names (without '?') and their values: {{"vendor", "VTS"}, {"min", 10}}.
using Parameters = std::vector<std::pair<std::string, ParameterValue>>;

class Result;

/// A query parsed, resolved (its files listed, their footers read) and planned.
/// It may be executed more than once.
class PreparedQuery {
 public:
  struct Impl;
  explicit PreparedQuery(std::shared_ptr<const Impl> impl);

  /// Returns the result's columns (an empty result has them too).
  const Schema& schema() const;
  /// Returns what the query likely does not mean, each shown as the CLI shows it.
  std::vector<std::string> warnings() const;
  /// Returns the optimized physical plan as `quarry explain` prints it.
  std::string explain() const;
  /// Starts running the query: the first batch is computed by Result::next().
  /// The first execution runs the plan prepare() made; each later one prepares
  /// the query again (its files listed and footers read anew).
  Result execute() const;

 private:
  std::shared_ptr<const Impl> impl_;
};

/// The rows of one execution, batch by batch, computed as next() asks for them
/// (a program that stops asking stops the query's reads).
class Result {
 public:
  struct Impl;
  explicit Result(std::unique_ptr<Impl> impl);
  Result(Result&&) noexcept;
  Result& operator=(Result&&) noexcept;
  ~Result();

  const Schema& schema() const;
  /// Returns the next batch, or nothing after the last one. Throws Cancelled once
  /// cancel() was called, and the engine's errors as the files are read.
  std::optional<Batch> next();
  /// Cancels the query; safe from any thread while next() runs in another. The
  /// running next() stops at its next batch (an aggregation computing its first
  /// one runs to its end) and throws Cancelled, as every later call does.
  void cancel();
  bool cancelled() const;
  /// Rows returned by next() so far.
  uint64_t rowsReturned() const;
  /// Returns, once next() has returned nothing, the rows the query's expressions
  /// failed on (null in the result), in ES|QL's words: per expression "Line 1:27:
  /// evaluation of [to_integer(s)] failed, treating result as null. Only first 20
  /// failures recorded.", then "Line 1:27: " and each recorded failure's message.
  /// Empty before the end and when nothing failed.
  const std::vector<std::string>& warnings() const;

 private:
  std::unique_ptr<Impl> impl_;
};

class Session {
 public:
  explicit Session(SessionOptions options = {});

  const SessionOptions& options() const { return options_; }
  /// Parses, resolves and plans `text`; throws QueryError for a query that does
  /// not parse or plan (at the placeholder for a name `parameters` lacks).
  PreparedQuery prepare(std::string_view text, const Parameters& parameters = {}) const;
  /// prepare(text, parameters).execute().
  Result execute(std::string_view text, const Parameters& parameters = {}) const;

 private:
  SessionOptions options_;
};

/// Returns a QueryError as the CLI shows it: the message, the query line and a
/// caret under the place, and the hint.
std::string queryErrorText(const QueryError& error, std::string_view query);

}  // namespace quarry
