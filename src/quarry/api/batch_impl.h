#pragma once

#include <memory>

#include "quarry/batch.h"
#include "quarry/engine/data/block.h"

namespace quarry {

/// A Batch's values: the engine's page as the plan produced it, and the
/// result's schema (shared by every batch of the result).
struct Batch::Impl {
  engine::Page page;
  std::shared_ptr<const Schema> schema;
};

}  // namespace quarry
