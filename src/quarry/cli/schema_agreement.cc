#include "quarry/cli/schema_agreement.h"

#include <algorithm>

#include "quarry/cli/orc_inspect.h"
#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

std::string schemaSignature(const parquet::FileSchema& schema) {
  std::string out;
  for (size_t i = 0; i < schema.leafCount(); ++i) {
    const parquet::SchemaNode& leaf = schema.leaf(i);
    const parquet::LogicalType& logical = leaf.logicalType;
    for (const int64_t part :
         {static_cast<int64_t>(leaf.repetition),
          static_cast<int64_t>(leaf.physicalType ? static_cast<int>(*leaf.physicalType) : -1),
          int64_t{leaf.typeLength}, static_cast<int64_t>(logical.kind), int64_t{logical.scale},
          int64_t{logical.precision}, int64_t{logical.isAdjustedToUTC},
          static_cast<int64_t>(logical.unit), int64_t{logical.bitWidth}, int64_t{logical.isSigned},
          int64_t{leaf.maxDefinitionLevel}, int64_t{leaf.maxRepetitionLevel}}) {
      out += std::to_string(part);
      out += ',';
    }
    out += leaf.path;
    out += '\n';
  }
  return out;
}

std::string schemaClash(const std::string& firstFile, const std::string& detail) {
  return (detail.empty() ? "the schema" : "the schema " + detail) + " differs from that of " +
         firstFile + "; files printed together must have one schema";
}

AgreedFiles requireOneSchema(const std::vector<std::string>& files, std::string& current) {
  AgreedFiles agreed;
  std::string first;
  std::string firstSignature;
  for (const std::string& file : files) {
    current = file;
    // One open per object: the format is told from the object the reader then uses.
    auto object = io::openObject(file);
    const bool orc = isOrcObject(*object);
    std::string signature;
    std::string detail;
    if (orc) {
      const orc::OrcFileReader reader(std::move(object));
      signature = detail = reader.schema().root().toTypeString();
      agreed.rows += reader.rowCount();
    } else {
      const auto reader = parquet::ParquetFileReader::open(std::move(object));
      signature = schemaSignature(reader->schema());
      agreed.rows += static_cast<uint64_t>(std::max<int64_t>(0, reader->metadata().num_rows));
    }
    if (first.empty()) {
      first = file;
      agreed.orc = orc;
      firstSignature = signature;
    } else if (orc != agreed.orc) {
      throw InvalidArgument(std::string(orc ? "an ORC" : "a Parquet") + " file, but " + first +
                            " is " + (agreed.orc ? "ORC" : "Parquet") +
                            "; files printed together must have one schema");
    } else if (signature != firstSignature) {
      throw InvalidArgument(schemaClash(first, detail));
    }
  }
  return agreed;
}

}  // namespace quarry::cli
