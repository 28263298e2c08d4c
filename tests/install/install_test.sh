#!/usr/bin/env bash
# The installed package as a program sees it (docs/LIBRARY.md): `cmake --install`
# into a temporary prefix, then the examples built three ways against that prefix
# alone (find_package with the shared library, with the static one, and
# `pkg-config --cflags --libs quarry`), run over data/sample/trips.parquet, their
# output compared with the expected files beside this script and the query's rows
# with `quarry query --format csv`'s.
#
# usage: install_test.sh SOURCE_DIR BUILD_DIR QUARRY_BINARY CXX_COMPILER
set -euo pipefail
src=$1 build=$2 quarry=$3 cxx=$4
sample=$src/data/sample/trips.parquet
expected=$src/tests/install
[[ -f $sample ]] || { echo "install_test: $sample is missing" >&2; exit 1; }

prefix=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
for file in include/quarry/quarry.h include/quarry/parquet.h lib/libquarry.a lib/libquarry.so \
            lib/cmake/quarry/quarryConfig.cmake lib/cmake/quarry/quarryConfigVersion.cmake lib/pkgconfig/quarry.pc; do
  [[ -e $prefix/$file ]] || { echo "install_test: the install has no $file" >&2; exit 1; }
done

fail() { echo "install_test: $*" >&2; exit 1; }

# check NAME DIR: runs DIR's two programs and compares their output.
check() {
  local name=$1 dir=$2
  "$dir/read_rows" "$sample" > "$work/$name.read_rows.txt" || fail "$name: read_rows failed"
  diff -u "$expected/read_rows.expected" "$work/$name.read_rows.txt" || fail "$name: read_rows printed otherwise"
  "$dir/stream_query" "$sample" 10 > "$work/$name.stream_query.txt" || fail "$name: stream_query failed"
  sed "s/, quarry .*$/, quarry VERSION/" "$work/$name.stream_query.txt" > "$work/$name.stream_query.cmp"
  diff -u "$expected/stream_query.expected" "$work/$name.stream_query.cmp" ||
    fail "$name: stream_query printed otherwise"
  echo "ok: $name"
}

cmake_build() {
  local name=$1; shift
  cmake -S "$src/examples" -B "$work/$name" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release "$@" > "$work/$name.configure.log" ||
    { cat "$work/$name.configure.log" >&2; fail "$name: configuring the examples failed"; }
  cmake --build "$work/$name" > "$work/$name.build.log" ||
    { cat "$work/$name.build.log" >&2; fail "$name: building the examples failed"; }
}

# find_package(quarry), quarry::quarry: the shared library, found in the prefix.
cmake_build cmake-shared
ldd "$work/cmake-shared/stream_query" | grep -q "libquarry.so.* => $prefix/lib/" ||
  fail "cmake-shared: stream_query does not load libquarry.so from the prefix: $(ldd "$work/cmake-shared/stream_query")"
check cmake-shared "$work/cmake-shared"

# quarry_USE_STATIC_LIBS: libquarry.a, its dependencies found by quarryConfig.cmake.
cmake_build cmake-static -Dquarry_USE_STATIC_LIBS=ON
! ldd "$work/cmake-static/stream_query" | grep -q libquarry || fail "cmake-static: stream_query loads libquarry.so"
check cmake-static "$work/cmake-static"

# pkg-config alone.
mkdir -p "$work/pkg-config"
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs quarry) || fail "pkg-config does not know quarry"
for program in read_rows stream_query; do
  # shellcheck disable=SC2086 # the flags are words
  "$cxx" -std=c++20 -O1 "$src/examples/$program.cc" -o "$work/pkg-config/$program" $flags ||
    fail "pkg-config: building $program failed (flags: $flags)"
done
LD_LIBRARY_PATH=$prefix/lib check pkg-config "$work/pkg-config"

# The query's rows are the CLI's: quarry query --format csv of the same query.
"$quarry" query --format csv "FROM \"$sample\" | WHERE trip_distance > 10.0 | STATS trips = COUNT(*), \
fares = SUM(fare_amount), last = MAX(pickup_at) BY vendor | SORT vendor" | tail -n +2 > "$work/cli.csv"
sed '1d;$d' "$work/cmake-shared.stream_query.txt" | diff -u "$work/cli.csv" - ||
  fail "stream_query's rows differ from quarry query's"
"$quarry" query --format csv "FROM \"$sample\" | WHERE trip_distance > 20.0 | KEEP trip_id, vendor, fare_amount \
| LIMIT 5" | tail -n +2 > "$work/cli-rows.csv"
sed '1d' "$work/cmake-shared.read_rows.txt" | diff -u "$work/cli-rows.csv" - || fail "read_rows's rows differ from quarry query's"
echo "ok: the examples' rows are quarry query's"
