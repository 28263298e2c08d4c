#!/usr/bin/env bash
# cmake/register_test_suites.cmake against a stub test binary that lists three
# suites (issue 25: "tests registered per suite (or sharded) instead of one process
# launch per test"):
#   - a suite not in SHARDED_SUITES is one ctest test running the suite's filter;
#   - a suite named "Suite=N" is N ctest tests, "Suite/1ofN" to "Suite/NofN", each
#     with the suite's filter and GTEST_TOTAL_SHARDS=N, GTEST_SHARD_INDEX=0..N-1
#     beside the common environment, never more shards than the suite has tests,
#     and a COST so that ctest starts them first when it has no cost data yet;
#   - a name in SHARDED_SUITES that is no suite fails the registration, naming it.
#
#   tests/tools/register_test_suites_test.sh ROOT [CMAKE]
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cmake=${2:-cmake}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# What `quarry_tests --gtest_list_tests` prints, parameterized suites included.
cat > "$tmp/tests" << 'EOF'
#!/usr/bin/env bash
cat << 'LIST'
Plain.
  One
  Two
Slice/Heavy.
  Cut/0  # GetParam() = 0
  Cut/1  # GetParam() = 1
  Flip/0  # GetParam() = 0
  Flip/1  # GetParam() = 1
Small.
  Only
LIST
EOF
chmod +x "$tmp/tests"

register() {
  "$cmake" -D TEST_BINARY="$tmp/tests" -D OUTPUT="$tmp/$1.cmake" -D "TEST_ENVIRONMENT=A=1|B=2" \
    -D TEST_TIMEOUT=900 -D "SHARDED_SUITES=$2" -P "$root/cmake/register_test_suites.cmake" \
    > "$tmp/$1.out" 2>&1
}

if ! register sharded "Slice/Heavy=3|Small=1"; then
  fail "registration with shards failed: $(cat "$tmp/sharded.out")"
else
  file="$tmp/sharded.cmake"
  [[ $(grep -c "^add_test(" "$file") == 5 ]] ||
    fail "expected 5 tests (Plain, Slice/Heavy in 3 shards, Small: =1 is no sharding): $(grep '^add_test' "$file")"
  grep -qF 'add_test([=[Plain]=] [=['"$tmp"'/tests]=] [=[--gtest_filter=Plain.*]=]' "$file" ||
    fail "Plain is not one test running its suite: $(cat "$file")"
  grep -qF 'add_test([=[Small]=]' "$file" || fail "Small=1 is not registered as one test"
  for shard in 1 2 3; do
    index=$((shard - 1))
    grep -qF "add_test([=[Slice/Heavy/${shard}of3]=] [=[$tmp/tests]=] [=[--gtest_filter=Slice/Heavy.*]=]" "$file" ||
      fail "no test Slice/Heavy/${shard}of3 running the suite's filter: $(cat "$file")"
    grep -qF "set_tests_properties([=[Slice/Heavy/${shard}of3]=]" "$file" ||
      fail "Slice/Heavy/${shard}of3 has no properties"
    grep -F "set_tests_properties([=[Slice/Heavy/${shard}of3]=]" "$file" |
      grep -qF "ENVIRONMENT [=[A=1;B=2;GTEST_TOTAL_SHARDS=3;GTEST_SHARD_INDEX=${index}]=]" ||
      fail "Slice/Heavy/${shard}of3 lacks the common environment or shard ${index} of 3: $(cat "$file")"
  done
  grep -F "set_tests_properties([=[Plain]=]" "$file" | grep -q GTEST_ &&
    fail "an unsharded suite is given sharding variables"
  # Without cost data ctest starts tests in registration order: the shards first.
  [[ $(grep -c '^set_tests_properties(\[=\[Slice/Heavy/[123]of3\]=\] .* COST 1000 ' "$file") == 3 ]] ||
    fail "the shards have no COST to start first: $(grep '^set_tests_properties' "$file")"
  grep -F "set_tests_properties([=[Plain]=]" "$file" | grep -q COST &&
    fail "an unsharded suite is given a COST"
  grep -qF '# 3 suites, 7 tests' "$file" || fail "the counts line is wrong: $(tail -n 1 "$file")"
fi

# More shards than tests: one shard per test, none left empty.
if ! register capped "Slice/Heavy=9"; then
  fail "registration with more shards than tests failed: $(cat "$tmp/capped.out")"
else
  [[ $(grep -c '^add_test(\[=\[Slice/Heavy/' "$tmp/capped.cmake") == 4 ]] ||
    fail "Slice/Heavy=9 over 4 tests is not 4 shards: $(grep '^add_test' "$tmp/capped.cmake")"
  grep -qF 'Slice/Heavy/4of4' "$tmp/capped.cmake" || fail "no shard 4of4 in $(cat "$tmp/capped.cmake")"
fi

# A suite that does not exist (renamed, removed): the registration fails, naming it.
if register unknown "Renamed=2"; then
  fail "SHARDED_SUITES naming no suite was accepted"
else
  grep -q 'Renamed' "$tmp/unknown.out" || fail "the failure does not name the suite: $(cat "$tmp/unknown.out")"
fi

if ((failures > 0)); then
  echo "register_test_suites_test: $failures failure(s)" >&2
  exit 1
fi
echo "register_test_suites_test: ok"
