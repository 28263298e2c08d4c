#pragma once

#include <string>
#include <string_view>

/// The one line the CLI prints on stderr when a command fails.
namespace quarry::cli {

/// Returns "quarry: <file>: <message>" as a single line (line breaks in the
/// message become spaces). When the message already starts with the file's
/// name, as the lower layers' messages do, the name is not repeated.
std::string errorLine(std::string_view file, std::string_view message);

}  // namespace quarry::cli
