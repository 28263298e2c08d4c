#pragma once

/// `quarry serve` and `quarry query|explain --nodes ...` (or --cluster FILE) run
/// in `quarry-cluster`, the executable beside `quarry` that links gRPC, so that
/// a local query loads neither gRPC nor OpenSSL.
namespace quarry::cli {

/// Whether this command line belongs to quarry-cluster.
bool wantsCluster(int argc, char** argv);

/// Replaces this process with quarry-cluster, given the same arguments. Returns
/// an exit code (1, after one line on stderr) only when it cannot.
int launchCluster(int argc, char** argv);

}  // namespace quarry::cli
