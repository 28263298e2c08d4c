#!/usr/bin/env bash
# Installs the Debian 12 packages quarry needs to build, test, fuzz and benchmark,
# and only those that are missing. `make demo` and `make test` call it first; it
# is idempotent and returns at once (one dpkg-query) when everything is present.
#
# As root it installs what is missing with apt-get (running `apt-get update` only
# then). As another user it prints the exact command to run and exits 1.
set -euo pipefail

# Debian package -> why quarry needs it.
packages=(
  build-essential     # GCC 12, make: the release build
  clang-14            # the sanitizer and fuzzer build
  libclang-rt-14-dev  # ASan/UBSan/libFuzzer runtimes for clang-14
  cmake
  ninja-build
  pkg-config
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  libzstd-dev
  libsnappy-dev
  liblz4-dev
  libbrotli-dev
  zlib1g-dev
  libdeflate-dev      # the pages' CRC-32 (formats/codec/page_crc.cc)
  libxxhash-dev
  liblzo2-dev         # ORC's LZO chunks (formats/codec/lzo_decompression.cc)
  libre2-dev          # RLIKE's regular expressions (engine/expr/regex_matcher.cc)
  libcli11-dev
  libncurses-dev      # quarry-dive, the terminal UI of `quarry dive` (ncursesw)
  tmux                # the `quarry dive` acceptance tests drive it in a tmux pane
  libprotobuf-dev     # ORC metadata (formats/orc/orc_proto.proto)
  protobuf-compiler   # protoc generates the ORC message classes at build time
  libgrpc++-dev       # the coordinator / data-node services (cluster/cluster.proto)
  protobuf-compiler-grpc  # grpc_cpp_plugin generates their stubs
  libcurl4-openssl-dev  # curl/curl.h; libcurl itself is loaded on the first remote URI
  tzdata              # ORC timestamps are written in the writer's time zone
  nginx-light         # the HTTP range server the remote-storage tests start
  ca-certificates     # npm's TLS to the registry
  ccache              # keeps compiled objects across builds and clones (Makefile)
  python3-dev         # Python.h: the Python module (python/, cmake/python.cmake)
  pybind11-dev        # the module's C++ bindings (pybind11 2.10, headers and CMake config)
  python3-pytest      # the module's tests (tests/python/, ctest python_module)
  python3-numpy       # Result.to_pandas's arrays over quarry's buffers
  python3-pandas      # Result.to_pandas
)

missing=()
# One dpkg-query for all packages; a package dpkg has never heard of prints nothing.
declare -A installed=()
while read -r name status; do
  [[ "$status" == "install ok installed" ]] && installed["${name%%:*}"]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null || true)
for p in "${packages[@]}"; do
  [[ -n "${installed[$p]:-}" ]] || missing+=("$p")
done

# Node.js and npm run the DuckDB oracle. Either may come from Debian or from another
# Node.js distribution (whose nodejs package bundles npm), so look for the commands.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# python3 runs the hostile-file and README tests, the fuzz corpus's hostile seeds,
# and tests/support/process_server.py (the node tests' process launcher); any
# python3 3.9 or later will do, Debian's or another.
command -v python3 >/dev/null 2>&1 || missing+=(python3)

if ((${#missing[@]} == 0)); then
  exit 0
fi

install_cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [[ "$(id -u)" != 0 ]]; then
  echo "install-deps: missing Debian packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  $install_cmd" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: no apt-get; install these Debian 12 packages (or equivalents): ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
