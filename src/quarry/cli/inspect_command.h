#pragma once

#include <string>

namespace CLI {
class App;
}

/// `quarry inspect [rowgroups|columns|pages] [--json] FILE`: what a Parquet
/// file's footer, page headers and page index say, as text for people or as
/// one JSON document for scripts.
namespace quarry::cli {

enum class InspectView { kFile, kRowGroups, kColumns, kPages };

struct InspectOptions {
  InspectView view = InspectView::kFile;
  bool json = false;
  std::string file;
};

/// Adds the `inspect` subcommand and its views to `app`; parsing fills
/// `options`, which must outlive the parse.
CLI::App& addInspectCommand(CLI::App& app, InspectOptions& options);

/// Inspects `options.file`, appending the output (text or JSON) to `out`
/// rather than streaming it, so that the caller decides what a failure
/// part-way leaves on stdout: the text rendered so far helps find a defect,
/// half a JSON document only breaks a script. Throws the lower layers' errors
/// (IoError, CorruptFile, Unsupported).
void runInspect(const InspectOptions& options, std::string& out);

}  // namespace quarry::cli
