#pragma once

#include <string>
#include <string_view>

namespace quarry {

/// Decodes %XX escapes (either case of hex digit); a malformed or cut escape is
/// kept as it is, and '+' stays '+' (a path's rule, not a form's). S3 request
/// signing (io/sigv4) and hive partition values (engine/source/hive_partitioning)
/// both decode with it.
std::string percentDecode(std::string_view text);

}  // namespace quarry
