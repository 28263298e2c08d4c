// libFuzzer target for the query parser: the input is query text. Every input
// must end in a syntax tree or a QueryError, never a crash, a hang or another
// exception; a tree must print to text that parses back to an equal tree.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_diagnostic.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/parse/query_printer.h"

namespace {

template <typename Parse, typename Print>
void parsedOrRefused(std::string_view text, Parse&& parse, Print&& print) {
  try {
    const auto tree = parse(text);
    if (!(parse(print(tree)) == tree)) std::abort();  // the printer and parser disagree
  } catch (const quarry::QueryError& error) {
    quarry::engine::renderQueryError(error, text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quarry::engine;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  parsedOrRefused(
      text, [](std::string_view t) { return parseQuery(t); },
      [](const Query& q) { return printQuery(q); });
  parsedOrRefused(
      text, [](std::string_view t) { return parseExpression(t); },
      [](const Expr& e) { return printExpr(e); });
  return 0;
}
