#pragma once

#include <string>
#include <string_view>

/// The shared secret between a coordinator and its data nodes.
namespace quarry::cluster {

/// The metadata key every call carries the token in, as "Bearer <token>".
inline constexpr const char* kAuthorizationKey = "authorization";

/// Reads the token file: its content less trailing whitespace. Throws
/// InvalidArgument naming the file (never its content) when it cannot be read
/// or is empty.
std::string readTokenFile(const std::string& path);

/// Compares in time independent of where the two differ.
bool tokensEqual(std::string_view a, std::string_view b);

}  // namespace quarry::cluster
