#include "quarry/engine/parse/ast.h"

namespace quarry::engine {

std::string Identifier::dotted() const {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += parts[i];
  }
  return out;
}

}  // namespace quarry::engine
