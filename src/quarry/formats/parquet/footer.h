#pragma once

#include <cstdint>

#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/io/storage.h"

/// Locating and decoding a Parquet file's footer with as few reads as possible.
namespace quarry::parquet {

struct ParquetFooter {
  FileMetaData metadata;
  uint64_t fileSize = 0;
  /// Length of the thrift-encoded FileMetaData (the value before the trailing magic).
  uint32_t metadataLength = 0;
};

/// How many bytes the first read takes from the end of a file; most footers fit,
/// so opening a file costs one request.
inline constexpr uint64_t kFooterTailReadSize = 64 * 1024;

/// Reads and decodes the footer of `file`: one range read of the file's tail, and
/// a second only when the metadata is larger than that read. Throws CorruptFile
/// (naming the file) for a missing magic, a length past the file, or undecodable
/// metadata, and Unsupported for encrypted files.
ParquetFooter readFooter(io::StorageObject& file, const FileMetaDataOptions& options = {});

}  // namespace quarry::parquet
