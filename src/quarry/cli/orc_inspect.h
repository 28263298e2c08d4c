#pragma once

#include <string>

#include "quarry/cli/inspect_command.h"

/// `quarry inspect` for ORC files: the PostScript, footer and statistics as
/// text or JSON. Views: file (default), rowgroups (the stripes) and columns
/// (per-column file statistics); pages does not apply to ORC.
namespace quarry::cli {

/// Returns whether the object at `uri` starts with ORC's magic "ORC" (false when
/// it cannot be read: the caller's Parquet path then reports the error).
bool isOrcFile(const std::string& uri);

/// Inspects an ORC file; throws as runInspect does.
void runOrcInspect(const InspectOptions& options, std::string& out);

}  // namespace quarry::cli
