#include "quarry/cli/schema_command.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "quarry/cli/file_summary_view.h"
#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/cli/text_table.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

void appendOrcType(const orc::OrcType& type, size_t depth, std::string& out) {
  std::string line(2 * depth, ' ');
  line += type.path.empty() ? std::string("(root)") : printableText(type.name);
  // A compound type's children follow on their own lines: its kind is enough here.
  line +=
      ": " + (type.isCompound() ? orc::toString(type.kind) : printableText(type.toTypeString()));
  line += "  -- column " + std::to_string(type.columnId);
  out += line + "\n";
  for (const orc::OrcType* child : type.children) appendOrcType(*child, depth + 1, out);
}

void writeOrcTypeJson(const orc::OrcType& type, JsonWriter& json) {
  json.beginObject();
  json.field("name", type.name);
  json.field("path", type.path);
  json.field("kind", orc::toString(type.kind));
  json.field("type", type.toTypeString());
  json.field("column_id", type.columnId);
  if (type.kind == orc::TypeKind::kDecimal) {
    json.field("precision", type.precision);
    json.field("scale", type.scale);
  }
  if (type.maximumLength != 0) json.field("maximum_length", type.maximumLength);
  if (type.isCompound()) {
    json.key("children");
    json.beginArray();
    for (const orc::OrcType* child : type.children) writeOrcTypeJson(*child, json);
    json.endArray();
  }
  json.endObject();
}

}  // namespace

void appendOrcSchemaText(const orc::OrcType& root, std::string& out) {
  appendOrcType(root, 0, out);
}

CLI::App& addSchemaCommand(CLI::App& app, SchemaOptions& options) {
  CLI::App* schema = app.add_subcommand(
      "schema", "Show a file's schema tree: types, repetition and levels (Parquet), types (ORC)");
  schema->add_option("FILE", options.file, "Parquet or ORC file: a local path or a URI")
      ->required();
  schema
      ->add_option_function<std::string>(
          "--format",
          [&options](const std::string& name) {
            options.json = CLI::detail::to_lower(name) == "json";
          },
          "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}, CLI::ignore_case));
  return *schema;
}

void runSchema(const SchemaOptions& options, std::string& out) {
  auto object = io::openObject(options.file);
  if (isOrcObject(*object)) {
    const auto reader = std::make_unique<orc::OrcFileReader>(std::move(object));
    const orc::OrcType& root = reader->schema().root();
    if (options.json) {
      JsonWriter json(out);
      json.beginObject();
      json.field("file", reader->file().uri());
      json.field("format", "orc");
      json.key("schema");
      writeOrcTypeJson(root, json);
      json.endObject();
      return;
    }
    out += "file: " + printableText(reader->file().uri()) + " (ORC)\n";
    appendOrcType(root, 0, out);
    return;
  }
  const InspectedFile file = InspectedFile::open(std::move(object));
  if (options.json) {
    JsonWriter json(out);
    json.beginObject();
    json.field("file", file.uri());
    json.field("format", "parquet");
    json.key("schema");
    writeSchemaJson(file, json);
    json.endObject();
    return;
  }
  out += "file: " + printableText(file.uri()) + " (Parquet, " +
         std::to_string(file.schema().leafCount()) + " columns)\n";
  appendSchemaText(file, /*withLevels=*/true, out);
}

}  // namespace quarry::cli
