#include "quarry/cli/inspect_command.h"

#include <CLI/CLI.hpp>

#include "quarry/cli/column_chunk_view.h"
#include "quarry/cli/file_summary_view.h"
#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/page_view.h"
#include "quarry/cli/row_group_view.h"

namespace quarry::cli {

namespace {

constexpr const char* kFileHelp = "Parquet file: a local path or a file:// URI";
constexpr const char* kJsonHelp = "Print one JSON document instead of text";

void addView(CLI::App& inspect, InspectOptions& options, const char* name, const char* description,
             InspectView view) {
  CLI::App* command = inspect.add_subcommand(name, description);
  command->add_flag("--json", options.json, kJsonHelp);
  command->add_option("FILE", options.file, kFileHelp)->required();
  command->callback([&options, view] { options.view = view; });
}

}  // namespace

CLI::App& addInspectCommand(CLI::App& app, InspectOptions& options) {
  CLI::App* inspect = app.add_subcommand(
      "inspect", "Show a Parquet file's metadata: schema, row groups, column chunks, pages");
  inspect->add_flag("--json", options.json, kJsonHelp);
  inspect->add_option("FILE", options.file, kFileHelp);
  inspect->require_subcommand(0, 1);
  addView(*inspect, options, "rowgroups", "Show each row group's rows, sizes and sort order",
          InspectView::kRowGroups);
  addView(*inspect, options, "columns",
          "Show each column chunk's codec, encodings, sizes, offsets and statistics",
          InspectView::kColumns);
  addView(*inspect, options, "pages",
          "Show each column chunk's pages and page index (bounds, null and NaN counts)",
          InspectView::kPages);
  inspect->callback([inspect] {
    if (inspect->get_subcommands().empty() && inspect->count("FILE") == 0) {
      throw CLI::RequiredError("FILE");
    }
  });
  return *inspect;
}

void runInspect(const InspectOptions& options, std::string& out) {
  if (isOrcFile(options.file)) {
    runOrcInspect(options, out);
    return;
  }
  const InspectedFile file = InspectedFile::open(options.file);
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

}  // namespace quarry::cli
