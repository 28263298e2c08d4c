#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "quarry/engine/data/block.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/exec/operator.h"

/// Builds blocks, pages and sources for operator tests, and reads results back as rows.
namespace quarry::engine::testing {

using Row = std::vector<Scalar>;

/// Scalars of a storage type, for rows written inline.
inline Scalar i64(int64_t v) {
  return v;
}
inline Scalar str(std::string v) {
  return v;
}
inline const Scalar kNull{};

inline Block blockOf(DataType type, const std::vector<Scalar>& values) {
  Block block(type);
  for (const Scalar& v : values) block.appendScalar(v);
  return block;
}

/// A page whose column c holds columns[c] (all of one length).
inline Page pageOf(const Schema& schema, const std::vector<std::vector<Scalar>>& columns) {
  std::vector<Block> blocks;
  for (size_t c = 0; c < schema.size(); ++c) blocks.push_back(blockOf(schema[c].type, columns[c]));
  return Page(std::move(blocks), columns.empty() ? 0 : columns[0].size());
}

/// A page of `rows`, each a value per schema column.
inline Page pageOfRows(const Schema& schema, const std::vector<Row>& rows) {
  std::vector<Block> blocks;
  for (const Field& f : schema) blocks.emplace_back(f.type);
  for (const Row& row : rows) {
    for (size_t c = 0; c < schema.size(); ++c) blocks[c].appendScalar(row[c]);
  }
  return Page(std::move(blocks), rows.size());
}

/// A LocalSourceExec returning `pages` in order (moved out: drain it once).
inline OperatorPtr sourceOf(Schema schema, std::vector<Page> pages) {
  auto shared = std::make_shared<std::vector<Page>>(std::move(pages));
  auto index = std::make_shared<size_t>(0);
  return std::make_unique<LocalSourceExec>(
      std::move(schema),
      [shared, index]() -> std::optional<Page> {
        if (*index >= shared->size()) return std::nullopt;
        return std::move((*shared)[(*index)++]);  // each page is read once
      },
      "test pages");
}

inline std::vector<Row> rowsOf(const Page& page) {
  std::vector<Row> rows(page.positionCount());
  for (size_t r = 0; r < page.positionCount(); ++r) {
    for (const Block& block : page.blocks()) rows[r].push_back(block.scalarAt(r));
  }
  return rows;
}

/// Pulls every page of `op` and returns its rows in order.
inline std::vector<Row> drain(Operator& op) {
  std::vector<Row> rows;
  while (std::optional<Page> page = op.next()) {
    EXPECT_GT(page->positionCount(), 0u) << "an operator returned an empty page";
    EXPECT_EQ(page->blockCount(), op.schema().size());
    for (Row& row : rowsOf(*page)) rows.push_back(std::move(row));
  }
  return rows;
}

inline std::vector<Row> sorted(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace quarry::engine::testing
