#pragma once

#include <string>

#include "quarry/cluster/cluster.pb.h"
#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/expr/warnings.h"
#include "quarry/engine/parse/query_parameters.h"

/// Conversions between the engine's values and cluster.proto's messages. What
/// comes off the wire is checked before use: a page whose columns do not match
/// the expected schema, a size that disagrees with position_count, offsets out
/// of order or past the data, an unknown type kind: CorruptFile naming what.
namespace quarry::cluster {

void toProto(const engine::DataType& type, proto::DataType* out);
engine::DataType fromProto(const proto::DataType& type);

void toProto(const engine::Schema& schema, google::protobuf::RepeatedPtrField<proto::Field>* out);
engine::Schema fromProto(const google::protobuf::RepeatedPtrField<proto::Field>& fields);

void toProto(const engine::QueryParameters& parameters,
             google::protobuf::RepeatedPtrField<proto::Parameter>* out);
/// A parameter without a value is CorruptFile.
engine::QueryParameters fromProto(
    const google::protobuf::RepeatedPtrField<proto::Parameter>& parameters);

void toProto(const engine::Page& page, proto::Page* out);
/// `schema` is what the receiver expects (the exchange's input schema).
engine::Page fromProto(const proto::Page& page, const engine::Schema& schema);

void toProto(const engine::Warnings& warnings,
             google::protobuf::RepeatedPtrField<proto::Warning>* out);
/// Counts and messages beyond Warnings::kMaxRecorded are cut to it.
engine::Warnings fromProto(const google::protobuf::RepeatedPtrField<proto::Warning>& warnings);

}  // namespace quarry::cluster
