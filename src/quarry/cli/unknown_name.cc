#include "quarry/cli/unknown_name.h"

#include <CLI/CLI.hpp>

#include <filesystem>

#include "quarry/common/name_hint.h"
#include "quarry/io/glob.h"
#include "quarry/io/storage.h"

namespace quarry::cli {

namespace {

std::string inQuotes(std::string_view word) {
  return "'" + std::string(word) + "'";
}

std::string withHint(std::string message, std::string_view word,
                     const std::vector<std::string>& names) {
  const std::string best = closestName(word, names);
  if (!best.empty()) message += "; did you mean " + inQuotes(best) + "?";
  return message;
}

/// The spellings of the options `command` and its parents take: "--columns", "-h", ...
std::vector<std::string> optionNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* option : app->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
      for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    }
  }
  return names;
}

std::vector<std::string> subcommandNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

bool isOptionLike(std::string_view word) {
  return word.size() > 1 && word.front() == '-';
}

/// The message for the first unknown word `command` (or a parsed subcommand of it) left.
std::string unknownIn(const CLI::App& command) {
  const bool wantsSubcommand =
      command.get_require_subcommand_min() > 0 && command.get_subcommands().empty();
  for (const std::string& word : command.remaining()) {
    if (isOptionLike(word)) {
      const std::string name = word.substr(0, word.find('='));
      return withHint("unknown option " + inQuotes(name), name, optionNames(command));
    }
    if (wantsSubcommand) {
      return withHint("unknown command " + inQuotes(word), word, subcommandNames(command));
    }
  }
  for (const CLI::App* sub : command.get_subcommands()) {
    std::string message = unknownIn(*sub);
    if (!message.empty()) return message;
  }
  return {};
}

}  // namespace

std::string unknownNameMessage(const CLI::App& app) {
  return unknownIn(app);
}

std::string unknownViewMessage(std::string_view word, const std::vector<std::string>& views) {
  // A path ("./rowgroup", "rowgroup.parquet"), a URI or a pattern is never a view.
  if (word.find_first_of("/.") != std::string_view::npos || io::isRemoteUri(word) ||
      io::hasGlob(word))
    return {};
  const std::string best = closestName(word, views);
  if (best.empty()) return {};
  std::error_code error;
  if (std::filesystem::symlink_status(std::filesystem::path(word), error).type() !=
      std::filesystem::file_type::not_found) {
    return {};  // a file of that name (or one that cannot be looked at): it is opened as one
  }
  return "unknown view " + inQuotes(word) + "; did you mean " + inQuotes(best) + "?";
}

}  // namespace quarry::cli
