#pragma once

#include <string>

#include "quarry/cli/inspect_command.h"

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
void runOrcInspect(const InspectOptions& options, std::string& out);

}  // namespace quarry::cli
