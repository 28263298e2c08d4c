// quarry-cluster: `quarry serve` and `quarry query --nodes`. quarry execs it
// (cluster_launcher.h) so that only this executable links gRPC.
int main() { return 1; }
