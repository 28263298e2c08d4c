#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

/// What to say about a command line CLI11 refused because a word in it is no
/// subcommand or option: CLI11 says "A subcommand is required" for `quarry qeury`
/// and `quarry --versoin`, and "The following argument was not expected" for
/// `quarry print f --colums x`, neither naming what was meant.
namespace quarry::cli {

/// Returns "unknown command 'qeury'; did you mean 'query'?" or "unknown option
/// '--versoin'; did you mean '--version'?" (without the hint when nothing is
/// close) for the first word `app`'s failed parse left over, in the order the
/// command line gave them: a word where a subcommand was expected, or anything
/// starting with '-' that no option of its (sub)command or of a parent matched.
/// Returns "" when the parse left nothing of either kind over.
std::string unknownNameMessage(const CLI::App& app);

/// Returns "unknown view 'rowgroup'; did you mean 'rowgroups'?" when `word`, the
/// first FILE of `quarry inspect`, is close to one of `views` and is not a file
/// (nor a path with '/' or '.', a URI or a glob pattern), else "".
std::string unknownViewMessage(std::string_view word, const std::vector<std::string>& views);

}  // namespace quarry::cli
