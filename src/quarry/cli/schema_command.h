#pragma once

#include <string>

namespace CLI {
class App;
}

/// `quarry schema FILE [--format text|json]`: a file's schema tree. Parquet:
/// each node in parquet-format's notation with its repetition, physical and
/// logical type and maximum definition / repetition levels. ORC: each type with
/// its column id and Hive type string.
namespace quarry::orc {
struct OrcType;
}

namespace quarry::cli {

struct SchemaOptions {
  std::string file;
  bool json = false;
};

/// Adds the `schema` subcommand to `app`; parsing fills `options`.
CLI::App& addSchemaCommand(CLI::App& app, SchemaOptions& options);

/// Appends an ORC type tree, one type a line with its column id.
void appendOrcSchemaText(const orc::OrcType& root, std::string& out);

/// Appends the schema of `options.file` to `out`; throws the lower layers'
/// errors (IoError, CorruptFile, Unsupported).
void runSchema(const SchemaOptions& options, std::string& out);

}  // namespace quarry::cli
