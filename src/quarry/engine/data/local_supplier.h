#pragma once

#include <functional>
#include <optional>

#include "quarry/engine/data/block.h"

namespace quarry::engine {

/// A source of pages: returns the next page, or nothing at the end (a format
/// reader's pages, pages built from statistics, a test's rows).
using LocalSupplier = std::function<std::optional<Page>()>;

}  // namespace quarry::engine
