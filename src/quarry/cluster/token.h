#pragma once

#include <string>
#include <string_view>

/// The shared secret between a coordinator and its data nodes.
///
/// A token is printable ASCII without space (0x21-0x7E), what an HTTP/2 header
/// value carries as "Bearer <token>" without escaping. A space is refused too:
/// in a token file it is almost always a copy-paste slip (a trailing comment, a
/// second word), and a token with one would only fail later as "wrong token".
namespace quarry::cluster {

/// The metadata key every call carries the token in, as "Bearer <token>".
inline constexpr const char* kAuthorizationKey = "authorization";

/// Reads the token file: its content less one trailing line break ("\n" or
/// "\r\n"). Throws InvalidArgument naming the file (never its content) when it
/// cannot be read, is empty, or holds any other byte outside 0x21-0x7E (see
/// tokenProblem).
std::string readTokenFile(const std::string& path);

/// Returns why `token` cannot be a token, naming the first bad byte's position
/// (1-based) and kind but neither the token nor its length ("has a line break
/// (0x0A) at byte 7; ..."), or an empty string when it can.
std::string tokenProblem(std::string_view token);

/// Compares in time independent of where the two differ.
bool tokensEqual(std::string_view a, std::string_view b);

}  // namespace quarry::cluster
