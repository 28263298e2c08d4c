#pragma once

#include <memory>
#include <string>

#include "quarry/cli/inspect_command.h"

namespace quarry::io {
class StorageObject;
}  // namespace quarry::io

namespace quarry::orc {
class OrcFileReader;
struct OrcColumnStatistics;
}  // namespace quarry::orc

/// `quarry inspect` for ORC files: the PostScript, footer and statistics as
/// text or JSON. Views: file (default), rowgroups (the stripes) and columns
/// (per-column file statistics); pages does not apply to ORC.
namespace quarry::cli {

/// Returns whether the object at `uri` starts with ORC's magic "ORC" (false when
/// it cannot be read: the caller's Parquet path then reports the error).
bool isOrcFile(const std::string& uri);

/// Returns whether the opened `object` is an ORC file, as isOrcFile does. Reads
/// its last 4 bytes (which opening a remote object fetched already) and, when
/// they are not Parquet's PAR1, its first 3; false when it cannot be read.
bool isOrcObject(io::StorageObject& object);

/// Returns a statistics' lower / upper bound as text ("" when it has none); a
/// string bound that was cut is marked ">= " / "<= ".
std::string orcMinText(const orc::OrcColumnStatistics& statistics);
std::string orcMaxText(const orc::OrcColumnStatistics& statistics);

/// Appends the file view (format, writer, compression, rows, stripes, columns).
void appendOrcFileText(const orc::OrcFileReader& reader, std::string& out);
/// Appends one line per stripe (offset, rows, index / data / footer lengths)
/// after a header line.
void appendOrcStripesText(const orc::OrcFileReader& reader, std::string& out);

/// Inspects an ORC file; throws as runInspect does.
void runOrcInspect(const InspectOptions& options, std::unique_ptr<io::StorageObject> object,
                   std::string& out);

}  // namespace quarry::cli
