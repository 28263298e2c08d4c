#pragma once

/// `quarry query|explain --nodes host:port,... --token-file F 'QUERY'` (or
/// --cluster FILE): the CLI as the coordinator. Every other option of `quarry
/// query` works as without --nodes. argv[0] is "query" or "explain".
namespace quarry::cluster {

int runClusterQueryCommand(int argc, char** argv);

}  // namespace quarry::cluster
