#pragma once

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "quarry/cli/block_text.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/query_engine.h"
#include "tests/support/build_paths.h"

/// Helpers of the fragment and data node tests: copies of a fixture as several
/// files (one split each), the coordinator's splits, and rows as text.
namespace quarry::engine::testing {

/// A fresh directory under the temporary directory, removed with the object.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// tests/fixtures/engine_source/multi_row_groups.parquet (id, v, s; 10,000 rows)
/// copied `count` times into `dir` as part0.parquet, part1.parquet, ...
inline void copyFixture(const std::filesystem::path& dir, int count) {
  const std::filesystem::path source = std::filesystem::path(QUARRY_SOURCE_DIR) /
                                       "tests/fixtures/engine_source/multi_row_groups.parquet";
  for (int i = 0; i < count; ++i) {
    std::filesystem::copy_file(source, dir / ("part" + std::to_string(i) + ".parquet"),
                               std::filesystem::copy_options::overwrite_existing);
  }
}

/// The ExternalSourceExec at the bottom of `node`'s chain, or nullptr.
inline const PlanNode* bottomSource(const PlanNode& node) {
  const PlanNode* current = &node;
  while (!current->children.empty()) current = current->children[0].get();
  return current->kind == PlanKind::kExternalSource ? current : nullptr;
}

/// The ExchangeExec of a plan, or nullptr.
inline const PlanNode* exchangeOf(const PlanNode& root) {
  for (const PlanNode* n = &root; n != nullptr;
       n = n->children.empty() ? nullptr : n->children[0].get()) {
    if (n->kind == PlanKind::kExchange) return n;
  }
  return nullptr;
}

/// The splits the coordinator would send: the unoptimized plan's source's.
inline std::vector<FileSplit> coordinatorSplits(const PreparedQuery& prepared) {
  std::vector<FileSplit> splits;
  for (const SplitTask& task : bottomSource(*prepared.unoptimized)->splits)
    splits.push_back(task.split);
  return splits;
}

inline void appendRows(const Page& page, std::vector<std::string>& rows) {
  for (size_t r = 0; r < page.positionCount(); ++r) {
    std::string row;
    for (size_t c = 0; c < page.blockCount(); ++c) {
      if (c > 0) row += '|';
      cli::appendBlockText(page.block(c), r, row);
    }
    rows.push_back(row);
  }
}

/// The rows of the query run in process, sorted.
inline std::vector<std::string> inProcessRows(const PreparedQuery& prepared) {
  std::vector<std::string> rows;
  executeQuery(prepared, [&](const Page& page) { appendRows(page, rows); });
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The rows of the query with its exchange replaced by `pages` (what data
/// nodes returned), sorted: the coordinator's side (FINAL and above) runs here.
inline std::vector<std::string> rowsOverExchangePages(const PreparedQuery& prepared,
                                                      std::vector<Page> pages) {
  auto shared = std::make_shared<std::vector<Page>>(std::move(pages));
  auto next = std::make_shared<size_t>(0);
  ExchangeBuilder builder = [shared, next](const PlanNode& exchange) -> OperatorPtr {
    LocalSupplier supplier = [shared, next]() -> std::optional<Page> {
      if (*next >= shared->size()) return std::nullopt;
      return (*shared)[(*next)++];
    };
    return std::make_unique<LocalSourceExec>(exchange.schema, supplier, "exchange pages");
  };
  std::vector<std::string> rows;
  executeQuery(
      prepared, [&](const Page& page) { appendRows(page, rows); }, &builder);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace quarry::engine::testing
