#pragma once

namespace quarry::engine {

/// Where a token or an AST node starts in the query text: 1-based line, and
/// 1-based column counted in code points (what an editor shows).
struct SourcePosition {
  int line = 1;
  int column = 1;
};

}  // namespace quarry::engine
