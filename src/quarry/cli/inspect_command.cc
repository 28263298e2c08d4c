#include "quarry/cli/inspect_command.h"

#include <CLI/CLI.hpp>

#include "quarry/cli/column_chunk_view.h"
#include "quarry/cli/file_arguments.h"
#include "quarry/cli/file_summary_view.h"
#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/page_view.h"
#include "quarry/cli/row_group_view.h"
#include "quarry/cli/unknown_name.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

constexpr const char* kFileHelp =
    "Parquet or ORC files: local paths or URIs; local and s3:// globs (*, ?, [...], **) expand "
    "to their matches, sorted";
constexpr const char* kJsonHelp = "Print one JSON document instead of text";

void addView(CLI::App& inspect, InspectOptions& options, const char* name, const char* description,
             InspectView view) {
  CLI::App* command = inspect.add_subcommand(name, description);
  command->add_flag("--json", options.json, kJsonHelp);
  command->add_option("FILE", options.files, kFileHelp)->required();
  command->callback([&options, view] { options.view = view; });
}

}  // namespace

CLI::App& addInspectCommand(CLI::App& app, InspectOptions& options) {
  CLI::App* inspect = app.add_subcommand(
      "inspect", "Show a Parquet file's metadata: schema, row groups, column chunks, pages");
  inspect->add_flag("--json", options.json, kJsonHelp);
  inspect->add_option("FILE", options.files, kFileHelp);
  inspect->require_subcommand(0, 1);
  addView(*inspect, options, "rowgroups", "Show each row group's rows, sizes and sort order",
          InspectView::kRowGroups);
  addView(*inspect, options, "columns",
          "Show each column chunk's codec, encodings, sizes, offsets and statistics",
          InspectView::kColumns);
  addView(*inspect, options, "pages",
          "Show each column chunk's pages and page index (bounds, null and NaN counts)",
          InspectView::kPages);
  inspect->callback([inspect, &options] {
    if (!inspect->get_subcommands().empty()) return;
    if (options.files.empty()) throw CLI::RequiredError("FILE");
    // `inspect rowgroup f` meant the view, not a file named rowgroup.
    const std::string unknown =
        unknownViewMessage(options.files.front(), {"rowgroups", "columns", "pages"});
    if (!unknown.empty()) throw CLI::ValidationError(unknown);
  });
  return *inspect;
}

namespace {

void appendInspectView(const InspectOptions& options, const InspectedFile& file, std::string& out) {
  if (options.json) {
    JsonWriter json(out);
    switch (options.view) {
      case InspectView::kFile:
        writeFileSummaryJson(file, json);
        break;
      case InspectView::kRowGroups:
        writeRowGroupsJson(file, json);
        break;
      case InspectView::kColumns:
        writeColumnChunksJson(file, json);
        break;
      case InspectView::kPages:
        writePagesJson(file, json);
        break;
    }
    return;
  }
  switch (options.view) {
    case InspectView::kFile:
      appendFileSummaryText(file, out);
      break;
    case InspectView::kRowGroups:
      appendRowGroupsText(file, out);
      break;
    case InspectView::kColumns:
      appendColumnChunksText(file, out);
      break;
    case InspectView::kPages:
      appendPagesText(file, out);
      break;
  }
}

void inspectOne(const InspectOptions& options, std::string& out) {
  // One open per object: the format is told from the object the reader then uses.
  auto object = io::openObject(options.file);
  if (isOrcObject(*object)) {
    runOrcInspect(options, std::move(object), out);
    return;
  }
  const InspectedFile file = InspectedFile::open(std::move(object));
  appendInspectView(options, file, out);
  file.object().checkUnchanged();  // what the views read came from the file as opened
}

}  // namespace

void runInspect(const InspectOptions& options, std::string& out, std::string& current) {
  current = options.files.size() == 1 ? options.files.front() : std::string();
  const std::vector<std::string> files = expandFileArguments(options.files);
  if (files.size() == 1) {
    InspectOptions one = options;
    current = one.file = files.front();
    inspectOne(one, out);
    return;
  }
  if (options.json) out += "[\n";
  for (size_t i = 0; i < files.size(); ++i) {
    InspectOptions one = options;
    current = one.file = files[i];
    std::string section;
    if (!options.json) section = (i > 0 ? "\n== " : "== ") + redactUri(files[i]) + " ==\n";
    inspectOne(one, section);
    if (options.json && i > 0) out += ",\n";
    out += section;
  }
  if (options.json) out += "]\n";
}

}  // namespace quarry::cli
