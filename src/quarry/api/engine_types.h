#pragma once

#include "quarry/data_type.h"
#include "quarry/engine/data/data_type.h"

/// The public types of include/quarry/data_type.h from the engine's, which they
/// mirror value for value (engine_types.cc checks that the enumerators agree).
namespace quarry::api {

DataType publicType(const engine::DataType& type);
engine::DataType engineType(const DataType& type);
Schema publicSchema(const engine::Schema& schema);

}  // namespace quarry::api
