#include "quarry/session.h"

#include <atomic>

#include "quarry/api/batch_impl.h"
#include "quarry/api/engine_types.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/parse/query_diagnostic.h"
#include "quarry/engine/query_engine.h"
#include "quarry/engine/source/metadata_cache.h"
#include "quarry/version.h"

namespace quarry {

const char* versionString() {
  return QUARRY_VERSION_STRING;
}

std::string defaultMetadataCacheDirectory() {
  return engine::defaultMetadataCacheDirectory();
}

std::string queryErrorText(const QueryError& error, std::string_view query) {
  return engine::renderQueryError(error, query);
}

struct PreparedQuery::Impl {
  std::string text;
  engine::QueryOptions options;
  /// What the first execution runs. Running a plan uses it up (its splits and
  /// statistics answers are handed out once), so every later execution
  /// prepares the query again.
  std::shared_ptr<engine::PreparedQuery> prepared;
  std::shared_ptr<const Schema> schema;
  mutable std::atomic<bool> executed{false};
};

struct Result::Impl {
  /// The prepared query, whose text the engine's structures may point into.
  std::shared_ptr<const PreparedQuery::Impl> query;
  std::shared_ptr<engine::PreparedQuery> prepared;
  std::shared_ptr<const Schema> schema;
  /// The plan's operators; null once the last page was returned or the result cancelled.
  engine::OperatorPtr root;
  std::atomic<bool> cancelled{false};
  uint64_t rows = 0;
  /// The rows the query's expressions failed on, as lines; set at the end.
  std::vector<std::string> warnings;
};

namespace {

engine::QueryParameters engineParameters(const Parameters& parameters) {
  engine::QueryParameters out;
  out.reserve(parameters.size());
  for (const auto& [name, value] : parameters) {
    engine::QueryParameter parameter{name, engine::NullParameter{}};
    std::visit(
        [&](const auto& v) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, std::monostate>)
            parameter.value = v;
        },
        value.value());
    out.push_back(std::move(parameter));
  }
  return out;
}

[[noreturn]] void throwCancelled() {
  throw Cancelled("the query was cancelled");
}

}  // namespace

PreparedQuery::PreparedQuery(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const Schema& PreparedQuery::schema() const {
  return *impl_->schema;
}

std::vector<std::string> PreparedQuery::warnings() const {
  std::vector<std::string> out;
  for (const engine::QueryWarning& warning : impl_->prepared->warnings)
    out.push_back(engine::renderQueryWarning(warning, impl_->text));
  return out;
}

std::string PreparedQuery::explain() const {
  return engine::explain(*impl_->prepared->plan);
}

Result PreparedQuery::execute() const {
  auto result = std::make_unique<Result::Impl>();
  result->query = impl_;
  if (!impl_->executed.exchange(true)) {
    result->prepared = impl_->prepared;
    result->schema = impl_->schema;
  } else {
    result->prepared =
        std::make_shared<engine::PreparedQuery>(engine::prepareQuery(impl_->text, impl_->options));
    result->schema =
        std::make_shared<const Schema>(api::publicSchema(result->prepared->plan->schema));
  }
  result->root = engine::buildOperators(*result->prepared->plan);
  return Result(std::move(result));
}

Result::Result(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Result::Result(Result&&) noexcept = default;
Result& Result::operator=(Result&&) noexcept = default;
Result::~Result() = default;

const Schema& Result::schema() const {
  return *impl_->schema;
}

std::optional<Batch> Result::next() {
  Impl& impl = *impl_;
  if (impl.cancelled.load()) {
    impl.root.reset();  // stops the scans still running
    throwCancelled();
  }
  if (impl.root == nullptr) return std::nullopt;
  std::optional<engine::Page> page = impl.root->next();
  if (impl.cancelled.load()) {
    impl.root.reset();
    throwCancelled();
  }
  if (!page) {
    std::vector<engine::OperatorStats> stats;
    impl.root->collectStats(stats);
    impl.warnings = engine::mergedWarnings(stats).lines();
    impl.root.reset();
    return std::nullopt;
  }
  impl.rows += page->positionCount();
  auto batch = std::make_shared<Batch::Impl>();
  batch->page = std::move(*page);
  batch->schema = impl.schema;
  return Batch(std::move(batch));
}

void Result::cancel() {
  impl_->cancelled.store(true);
}

bool Result::cancelled() const {
  return impl_->cancelled.load();
}

uint64_t Result::rowsReturned() const {
  return impl_->rows;
}

const std::vector<std::string>& Result::warnings() const {
  return impl_->warnings;
}

static_assert(SessionOptions::kDefaultLookupMaxRows == engine::kDefaultLookupMaxRows,
              "the library's default is the CLI's");

Session::Session(SessionOptions options) : options_(std::move(options)) {
  if (options_.threads < 1) {
    throw InvalidArgument("SessionOptions::threads must be at least 1, not " +
                          std::to_string(options_.threads));
  }
  if (options_.lookupMaxRows < 1) {
    throw InvalidArgument("SessionOptions::lookupMaxRows must be at least 1");
  }
}

PreparedQuery Session::prepare(std::string_view text, const Parameters& parameters) const {
  engine::QueryOptions engineOptions;
  engineOptions.threads = options_.threads;
  engineOptions.metadataCacheDirectory = options_.metadataCacheDirectory;
  engineOptions.lookupMaxRows = options_.lookupMaxRows;
  // EXPLAIN here shows the optimized plan alone: no copy of every split.
  engineOptions.keepUnoptimizedPlan = false;
  engineOptions.parameters = engineParameters(parameters);
  auto impl = std::make_shared<PreparedQuery::Impl>();
  impl->text = std::string(text);
  impl->options = std::move(engineOptions);
  impl->prepared =
      std::make_shared<engine::PreparedQuery>(engine::prepareQuery(impl->text, impl->options));
  impl->schema = std::make_shared<const Schema>(api::publicSchema(impl->prepared->plan->schema));
  return PreparedQuery(std::move(impl));
}

Result Session::execute(std::string_view text, const Parameters& parameters) const {
  return prepare(text, parameters).execute();
}

}  // namespace quarry
