#!/usr/bin/env bash
# Runs ctest in BUILD_DIR (further arguments go to ctest) and fails on skips.
#
# A test skips when something it needs is missing: the shared test data, the DuckDB
# oracle or chDB (tools/oracle), node, python3, nginx, tmux. A skip passes nothing,
# so it fails the run, naming what each skipped test was missing, unless
# QUARRY_ALLOW_SKIPS=1 (an escape hatch for a local checkout without the test data;
# CI never sets it). Either way BUILD_DIR/skipped-tests.txt holds the count that
# `make test` prints in its summary.
set -uo pipefail

dir=${1:?usage: tools/run-ctest.sh BUILD_DIR [ctest arguments]}
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT

ctest --test-dir "$dir" --output-on-failure "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# ctest lists tests that exited 77 as "  12 - name (Skipped)"; a GoogleTest suite
# exits 77 when one of its tests skipped (tests/support/test_main.cc) and names each
# skipped test on stderr, which ctest keeps in LastTest.log.
mapfile -t entries < <(sed -nE 's/^[[:space:]]*[0-9]+ - (.*) \(Skipped\)$/\1/p' "$log")
details="$dir/Testing/Temporary/LastTest.log"
gtest_skips=0
[[ -f "$details" ]] && gtest_skips=$(grep -c '^quarry-tests: SKIPPED ' "$details")
echo "${#entries[@]} entries (${gtest_skips} GoogleTest tests within them)" > "$dir/skipped-tests.txt"

if ((${#entries[@]} > 0)); then
  echo
  echo "== ${#entries[@]} ctest entries skipped (${gtest_skips} GoogleTest tests within them):"
  printf '   %s\n' "${entries[@]}"
  if [[ -f "$details" ]]; then
    echo "== what they were missing:"
    grep -hE 'SKIPPED|MISSING|not found|not installed' "$details" | sort -u | head -40 | sed 's/^/   /'
  fi
  if [[ "${QUARRY_ALLOW_SKIPS:-}" == 1 ]]; then
    echo "== skips allowed (QUARRY_ALLOW_SKIPS=1)"
  else
    echo "== a skipped test checks nothing: install what is missing (tools/install-deps.sh," \
         "make oracle, the test data under ../shared/testdata or \$QUARRY_TESTDATA)," \
         "or set QUARRY_ALLOW_SKIPS=1 to allow skips in a local run (CI never does)" >&2
    ((rc == 0)) && rc=1
  fi
fi
exit "$rc"
