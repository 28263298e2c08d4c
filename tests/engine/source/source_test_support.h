#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/engine/source/format_reader.h"
#include "tests/support/build_paths.h"

/// Helpers of the engine source tests: reading a split into one page.
namespace quarry::engine::testing {

inline std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

/// Every page `supplier` returns, concatenated; `pageSizes` receives each page's size.
inline Page drain(const LocalSupplier& supplier, std::vector<size_t>* pageSizes = nullptr) {
  std::vector<Block> blocks;
  size_t rows = 0;
  bool first = true;
  while (auto page = supplier()) {
    if (pageSizes) pageSizes->push_back(page->positionCount());
    if (first) {
      for (const Block& b : page->blocks()) blocks.emplace_back(b.type());
      first = false;
    }
    for (size_t i = 0; i < blocks.size(); ++i) blocks[i].appendAll(page->block(i));
    rows += page->positionCount();
  }
  return Page(std::move(blocks), rows);
}

/// The one split of `uri` holding the whole file.
inline FileSplit wholeFile(const std::string& uri, const std::string& format) {
  FileSplit split;
  split.uri = uri;
  split.format = format;
  split.start = 0;
  split.length = UINT64_MAX / 2;
  return split;
}

inline ReadRequest columns(std::vector<std::string> names) {
  ReadRequest request;
  request.columns = std::move(names);
  return request;
}

}  // namespace quarry::engine::testing
