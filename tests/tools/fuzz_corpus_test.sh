#!/usr/bin/env bash
# tools/fuzz-corpus.sh and tools/run-fuzzers.sh against stub generators and stub
# fuzz targets (issue 31: "a seed corpus per target"; "a missing seed source in CI
# must fail, not fall back silently"):
#   - without the test data or the seed generator the corpus script fails, naming
#     what is missing; QUARRY_ALLOW_SKIPS=1 turns that into a warning;
#   - with them it writes one folder per target, each with inputs of its kind
#     (Parquet tails, whole ORC files, Variant examples, the documented queries,
#     the generator's folders);
#   - run-fuzzers hands each target its own seed folder, replays the target's
#     kept regression inputs first, and fails for a target that has no seeds.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
testdata="${QUARRY_TESTDATA:-$root/../shared/testdata}"
if [[ ! -d "$testdata/parquet-testing" || ! -d "$testdata/orc" ]]; then
  echo "*** SKIPPED: no test data at $testdata (set QUARRY_TESTDATA) ***" >&2
  exit 77
fi
for tool in python3 node; do
  command -v "$tool" > /dev/null || { echo "*** SKIPPED: $tool not found ***" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
unset QUARRY_ALLOW_SKIPS CI FUZZ_SEED

# A stub of build/fuzz/fuzz_seeds: one seed for one generated target.
cat > "$tmp/fuzz_seeds" << 'EOF'
#!/usr/bin/env bash
mkdir -p "$1/cluster_page_fuzzer" && printf 'page' > "$1/cluster_page_fuzzer/stub"
EOF
chmod +x "$tmp/fuzz_seeds"

# Missing sources fail, each named.
QUARRY_TESTDATA="$tmp/none" bash "$root/tools/fuzz-corpus.sh" "$tmp/c1" "$tmp/no-generator" > "$tmp/out" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "no test data and no generator: exit $rc, expected 1"
for what in "no Parquet test data at $tmp/none/parquet-testing" "no ORC test data at $tmp/none/orc" \
            "no seed generator at $tmp/no-generator"; do
  grep -qF "$what" "$tmp/out" || fail "missing source not named ('$what'): $(cat "$tmp/out")"
done
QUARRY_ALLOW_SKIPS=1 QUARRY_TESTDATA="$tmp/none" \
  bash "$root/tools/fuzz-corpus.sh" "$tmp/c2" "$tmp/no-generator" > "$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] || fail "QUARRY_ALLOW_SKIPS=1: exit $rc, expected 0: $(cat "$tmp/out")"
grep -qF "WARNING: no ORC test data" "$tmp/out" || fail "QUARRY_ALLOW_SKIPS=1 does not warn: $(cat "$tmp/out")"

# With every source: one folder per target, each of its kind.
bash "$root/tools/fuzz-corpus.sh" "$tmp/c" "$tmp/fuzz_seeds" > "$tmp/out" 2>&1 ||
  fail "the corpus script fails with every source present: $(cat "$tmp/out")"
for target in footer_fuzzer orc_tail_fuzzer variant_fuzzer query_parser_fuzzer metadata_cache_fuzzer \
              cluster_page_fuzzer; do
  [[ -n "$(ls -A "$tmp/c/$target" 2> /dev/null)" ]] || fail "no seeds for $target"
done
[[ "$(tail -c 4 "$tmp/c/footer_fuzzer/parquet-testing__data__alltypes_plain.parquet" 2> /dev/null)" == PAR1 ]] ||
  fail "footer_fuzzer's seeds are not Parquet tails"
[[ "$(head -c 3 "$tmp/c/orc_tail_fuzzer/orc__examples__TestOrcFile.test1.orc" 2> /dev/null)" == ORC ]] ||
  fail "orc_tail_fuzzer's seeds are not whole ORC files"
ls "$tmp/c/footer_fuzzer" | grep -q '\.orc$' && fail "footer_fuzzer was given ORC files"
grep -rqF 'FROM "data/sample/trips.parquet" | WHERE trip_distance > 2.0' "$tmp/c/query_parser_fuzzer" ||
  fail "README's query is not among query_parser_fuzzer's seeds"
grep -rqlF 'l_returnflag' "$tmp/c/query_parser_fuzzer" || fail "the differential corpus' TPC-H query is missing"

# run-fuzzers: stub targets that record how they were called.
build="$tmp/build"
mkdir -p "$build"
cp "$tmp/fuzz_seeds" "$build/fuzz_seeds"
for name in cluster_page_fuzzer variant_fuzzer; do
  cat > "$build/$name" << EOF
#!/usr/bin/env bash
echo "\$*" >> "$tmp/calls.$name"
EOF
  chmod +x "$build/$name"
done
bash "$root/tools/run-fuzzers.sh" "$build" 10 > "$tmp/out" 2>&1 || fail "run-fuzzers fails: $(cat "$tmp/out")"
grep -qF "$build/fuzz-seeds/cluster_page_fuzzer" "$tmp/calls.cluster_page_fuzzer" 2> /dev/null ||
  fail "cluster_page_fuzzer is not given its seed folder: $(cat "$tmp/calls.cluster_page_fuzzer" "$tmp/out")"
grep -qF "$build/fuzz-seeds/variant_fuzzer" "$tmp/calls.cluster_page_fuzzer" &&
  fail "cluster_page_fuzzer is given another target's seeds"
if [[ -d "$root/fuzz/regressions/variant_fuzzer" ]]; then
  head -n 1 "$tmp/calls.variant_fuzzer" | grep -qF "$root/fuzz/regressions/variant_fuzzer/" ||
    fail "variant_fuzzer's regression inputs are not replayed first: $(cat "$tmp/calls.variant_fuzzer")"
fi
cp "$build/variant_fuzzer" "$build/unseeded_fuzzer"
bash "$root/tools/run-fuzzers.sh" "$build" 10 > "$tmp/out" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a target without seeds: exit $rc, expected 1"
grep -qF "no seeds for unseeded_fuzzer" "$tmp/out" || fail "the unseeded target is not named: $(cat "$tmp/out")"

if ((failures > 0)); then
  echo "fuzz_corpus_test: $failures failure(s)" >&2
  exit 1
fi
echo "fuzz_corpus_test: passed"
