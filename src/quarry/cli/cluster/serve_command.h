#pragma once

/// `quarry serve --listen HOST:PORT --token-file F --allow-root DIR_OR_URI_PREFIX ...`:
/// runs a data node until SIGINT/SIGTERM. argv[0] is "serve".
namespace quarry::cluster {

int runServeCommand(int argc, char** argv);

}  // namespace quarry::cluster
