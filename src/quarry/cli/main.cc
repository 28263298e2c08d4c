// The `quarry` command line. Parsing is CLI11's; each subcommand lives in its
// own file and renders its output into a string, which is written here: all of
// it on success, the text part of it on a failure. Exit codes: 0 success, 1 a
// failure reading the input (one line on stderr), 2 a usage error.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "quarry/cli/cluster_launcher.h"
#include "quarry/cli/dive_launcher.h"
#include "quarry/cli/error_report.h"
#include "quarry/cli/inspect_command.h"
#include "quarry/cli/print_command.h"
#include "quarry/cli/query_command.h"
#include "quarry/cli/schema_command.h"
#include "quarry/cli/unknown_name.h"
#include "quarry/common/error.h"
#include "quarry/common/process_memory.h"

namespace {

constexpr const char* kVersion = "0.1.0";
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

bool writeStdout(const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() &&
         std::fflush(stdout) == 0;
}

/// Reports a failed command: the text rendered before the failure (never a
/// partial JSON document), then one line on stderr.
int fail(const std::string& file, bool json, const std::string& partial, const char* message) {
  if (!json) {
    writeStdout(partial);
  }
  std::cerr << quarry::cli::errorLine(file, message) << std::endl;
  return kExitFailure;
}

/// Whether to register subcommand `name`: only the one argv[1] names when it names
/// one (building CLI11's options for every subcommand is part of each query's
/// start-up), all of them otherwise (--help, --version, a mistyped name).
bool registers(int argc, char** argv, std::string_view name) {
  static constexpr std::string_view kSubcommands[] = {"inspect", "print", "convert", "schema",
                                                      "dive",    "query", "explain", "serve"};
  if (argc < 2) return true;
  const std::string_view first = argv[1];
  const bool named = std::find(std::begin(kSubcommands), std::end(kSubcommands), first) != std::end(kSubcommands);
  return !named || first == name;
}

}  // namespace

int main(int argc, char** argv) {
  quarry::keepFreedMemory();
  if (quarry::cli::wantsCluster(argc, argv)) {
    return quarry::cli::launchCluster(argc, argv);  // returns only on failure
  }
  CLI::App app("quarry reads Parquet files where they lie.", "quarry");
  app.set_version_flag("--version", std::string("quarry ") + kVersion);
  app.require_subcommand(1);
  auto wanted = [&](std::string_view name) { return registers(argc, argv, name); };
  quarry::cli::InspectOptions inspect;
  if (wanted("inspect")) quarry::cli::addInspectCommand(app, inspect);
  quarry::cli::PrintOptions print;
  const CLI::App* printCommand = wanted("print") ? &quarry::cli::addPrintCommand(app, print) : nullptr;
  quarry::cli::PrintOptions convert;
  const CLI::App* convertCommand = wanted("convert") ? &quarry::cli::addConvertCommand(app, convert) : nullptr;
  quarry::cli::SchemaOptions schema;
  const CLI::App* schemaCommand = wanted("schema") ? &quarry::cli::addSchemaCommand(app, schema) : nullptr;
  quarry::cli::DiveOptions dive;
  const CLI::App* diveCommand = wanted("dive") ? &quarry::cli::addDiveCommand(app, dive) : nullptr;
  quarry::cli::QueryOptions query;
  const CLI::App* queryCommand = wanted("query") ? &quarry::cli::addQueryCommand(app, query) : nullptr;
  quarry::cli::QueryOptions explain;
  const CLI::App* explainCommand = wanted("explain") ? &quarry::cli::addExplainCommand(app, explain) : nullptr;
  if (wanted("serve")) {
    // Listed for --help only: wantsCluster() hands `serve` to quarry-cluster above.
    app.add_subcommand("serve", "Run a data node that runs query fragments for a coordinator "
                                "(quarry serve --help)")
        ->allow_extras();
  }
  auto parsed = [](const CLI::App* command) { return command != nullptr && command->parsed(); };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(e);  // --help, --version: printed on stdout
    }
    // CLI11 names no near miss ("A subcommand is required" for `quarry qeury`).
    const std::string unknown = quarry::cli::unknownNameMessage(app);
    std::cerr << "quarry: " << (unknown.empty() ? std::string(e.what()) : unknown)
              << " (run 'quarry --help' for usage)" << std::endl;
    return kExitUsage;
  }

  if (parsed(printCommand)) {
    return quarry::cli::runPrint(print, stdout);  // streams its rows; reports its own failure
  }
  if (parsed(convertCommand)) {
    return quarry::cli::runConvert(convert);
  }
  if (parsed(queryCommand)) {
    return quarry::cli::runQuery(query);  // streams its result; reports its own failure
  }
  if (parsed(explainCommand)) {
    return quarry::cli::runExplain(explain);
  }
  if (parsed(diveCommand)) {
    return quarry::cli::launchDive(dive, argv[0]);  // returns only on failure
  }

  const bool isSchema = parsed(schemaCommand);
  std::string file = isSchema ? schema.file : std::string();
  const bool json = isSchema ? schema.json : inspect.json;
  std::string out;
  try {
    if (isSchema) {
      quarry::cli::runSchema(schema, out);
    } else {
      quarry::cli::runInspect(inspect, out, file);
    }
  } catch (const quarry::Error& e) {
    return fail(file, json, out, e.what());
  } catch (const quarry::InvalidArgument& e) {
    return fail(file, json, out, e.what());
  } catch (const std::bad_alloc&) {
    return fail(file, json, out, "out of memory");
  } catch (const std::exception& e) {
    // A failure no layer classified (e.g. std::out_of_range from a bad index):
    // still one line naming the file, never a crash.
    return fail(file, json, out, e.what());
  }
  if (!writeStdout(out)) {
    std::cerr << "quarry: cannot write the output" << std::endl;
    return kExitFailure;
  }
  return 0;
}
