#pragma once

#include <string>
#include <string_view>

/// The one line the CLI prints on stderr when a command fails.
namespace quarry::cli {

/// Returns "quarry: <file>: <message>" as a single line (line breaks in the
/// message become spaces). When the message already names the file, at its
/// start as the lower layers' messages do or as a word of its own ("no column
/// 'x' in FILE"), the name is not repeated.
std::string errorLine(std::string_view file, std::string_view message);

}  // namespace quarry::cli
