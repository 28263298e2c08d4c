#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

/// `quarry inspect [rowgroups|columns|pages] [--json] FILE...`: what a Parquet
/// file's footer, page headers and page index say (an ORC file's tail), as text
/// for people or as one JSON document for scripts. Several files (FILE
/// arguments may be glob patterns, file_arguments.h) are inspected in turn: in
/// text each under a "== URI ==" line, in JSON as one array of the documents.
namespace quarry::cli {

enum class InspectView { kFile, kRowGroups, kColumns, kPages };

struct InspectOptions {
  InspectView view = InspectView::kFile;
  bool json = false;
  /// FILE arguments: paths, URIs and glob patterns (expandFileArguments).
  std::vector<std::string> files;
  /// The file being inspected (set by runInspect for each file in turn).
  std::string file;
};

/// Adds the `inspect` subcommand and its views to `app`; parsing fills
/// `options`, which must outlive the parse.
CLI::App& addInspectCommand(CLI::App& app, InspectOptions& options);

/// Inspects `options.files`, appending the output (text or JSON) to `out`
/// rather than streaming it, so that the caller decides what a failure
/// part-way leaves on stdout: the text rendered so far helps find a defect,
/// half a JSON document only breaks a script. Throws the lower layers' errors
/// (IoError, CorruptFile, Unsupported), InvalidArgument naming a pattern that
/// matches nothing; `current` is then the file (or pattern) that failed.
void runInspect(const InspectOptions& options, std::string& out, std::string& current);

}  // namespace quarry::cli
