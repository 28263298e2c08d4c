#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// What of a URI may be shown: every message, header and plan that names a URI
/// passes it through here, so that no command prints a credential a URL carries.
///
/// In a URI with an authority (`scheme://`), the user-info becomes `***`
/// (`https://***@host/x`: the password, and the user name, which may be a token);
/// outside file://, so does
/// the value of every query parameter (`?X-Amz-Credential=***&X-Amz-Signature=***`,
/// `?sv=***&sig=***`): presigned URLs carry their signature, credential and token
/// there under names that differ between clouds, so no name is trusted. Paths,
/// hosts, ports, parameter names and fragments stay; text without `://` is
/// unchanged, and redacting twice changes nothing more.
namespace quarry {

/// Returns `uri` with its credentials replaced by "***".
std::string redactUri(std::string_view uri);

/// Returns `text` with every URI in it redacted as redactUri does. A URI runs from
/// its scheme to the next space, quote or angle bracket (trailing punctuation such
/// as the ':' before a message is not part of it).
std::string redactUris(std::string_view text);

/// The byte ranges redactUris replaces in `text` with "***": ascending, disjoint,
/// none empty (for a caller that must map positions, as a caret under a query).
std::vector<std::pair<size_t, size_t>> uriSecrets(std::string_view text);

}  // namespace quarry
