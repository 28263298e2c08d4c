#!/usr/bin/env bash
# Writes the fuzz seed corpus to OUT_DIR, one folder per target (OUT_DIR/NAME for
# build/fuzz/NAME), each with inputs of the kind that target reads:
#   footer_fuzzer          the last 64 KiB of every Parquet file in the test data
#                          (the footer, its length and the magic, and the pages
#                          before it), of data/sample's files and of tests/hostile's
#   orc_tail_fuzzer        every ORC file of the test data up to 256 KiB whole, and
#                          the last 64 KiB of the larger ones
#   variant_fuzzer         every Variant example of parquet-testing/variant (one byte
#                          giving the metadata's length, the metadata, then the value)
#   query_parser_fuzzer    the queries of README.md and docs/*.md, the differential
#                          test's generated queries and TPC-H pair
#                          (tools/fuzz-queries.mjs), and the few written below
#   metadata_cache_fuzzer  the cache payload written below
#   cluster_page_fuzzer, file_split_fuzzer, encodings_fuzzer, orc_encodings_fuzzer,
#   decompress_fuzzer, wkb_text_fuzzer
#                          what FUZZ_SEEDS (build/fuzz/fuzz_seeds, from
#                          fuzz/fuzz_seeds.cc) writes with quarry's serializers, the
#                          tests' reference encoders, the compression libraries and
#                          a WKB writer
# and the small seeds kept in fuzz/seeds/NAME/, when there are any.
# Built at run time from $QUARRY_TESTDATA (default <repo>/../shared/testdata); test
# data is never committed.
#
# A missing source (the test data, python3, node, FUZZ_SEEDS) fails the script, so
# that no run fuzzes on a corpus that silently lost a part; QUARRY_ALLOW_SKIPS=1
# turns that into a warning and writes what it can.
#
#   tools/fuzz-corpus.sh OUT_DIR FUZZ_SEEDS
set -euo pipefail

usage="usage: tools/fuzz-corpus.sh OUT_DIR FUZZ_SEEDS"
out="${1:?$usage}"
fuzz_seeds="${2:?$usage}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
testdata="${QUARRY_TESTDATA:-$repo/../shared/testdata}"
kTailBytes=65536
kWholeOrcBytes=262144

missing=0
source_missing() {
  if [[ "${QUARRY_ALLOW_SKIPS:-}" == "1" ]]; then
    echo "fuzz-corpus: WARNING: $1; its seeds are left out (QUARRY_ALLOW_SKIPS=1)" >&2
  else
    echo "fuzz-corpus: $1 (QUARRY_ALLOW_SKIPS=1 fuzzes without its seeds)" >&2
    missing=1
  fi
}

rm -rf "$out"
mkdir -p "$out"/{footer_fuzzer,orc_tail_fuzzer,variant_fuzzer,query_parser_fuzzer,metadata_cache_fuzzer}

# One flat name per file: its path below the test data with '/' as '__'.
flat() {
  local rel="${1#"$testdata"/}"
  printf '%s' "${rel//\//__}"
}

if [[ -d "$testdata/parquet-testing" ]]; then
  while IFS= read -r -d '' file; do
    tail -c "$kTailBytes" "$file" > "$out/footer_fuzzer/$(flat "$file")"
  done < <(find "$testdata/parquet-testing" -type f \( -name '*.parquet' -o -name '*.parquet.encrypted' \) -print0)
  for metadata in "$testdata"/parquet-testing/variant/*.metadata; do
    value="${metadata%.metadata}.value"
    [[ -f "$value" ]] || continue
    length=$(stat -c %s "$metadata")
    ((length < 256)) || continue
    { printf "\\$(printf '%03o' "$length")"; cat "$metadata" "$value"; } \
      > "$out/variant_fuzzer/$(basename "${metadata%.metadata}")"
  done
else
  source_missing "no Parquet test data at $testdata/parquet-testing (set QUARRY_TESTDATA)"
fi
if [[ -d "$testdata/orc" ]]; then
  while IFS= read -r -d '' file; do
    if (($(stat -c %s "$file") <= kWholeOrcBytes)); then
      cp "$file" "$out/orc_tail_fuzzer/$(flat "$file")"
    else
      tail -c "$kTailBytes" "$file" > "$out/orc_tail_fuzzer/tail__$(flat "$file")"
    fi
  done < <(find "$testdata/orc" -type f -name '*.orc' -print0)
else
  source_missing "no ORC test data at $testdata/orc (set QUARRY_TESTDATA)"
fi
for file in "$repo"/data/sample/*.parquet; do
  [[ -f "$file" ]] || continue
  tail -c "$kTailBytes" "$file" > "$out/footer_fuzzer/sample__$(basename "$file")"
done
# The hostile files tests/hostile writes (counts of 2^31 declared in a few hundred
# bytes), as the Parquet seeds above: their last 64 KiB.
if command -v python3 > /dev/null; then
  hostile="$(mktemp -d)"
  python3 "$repo/tests/hostile/hostile_files.py" --write-only "$hostile"
  for file in "$hostile"/*.parquet; do
    tail -c "$kTailBytes" "$file" > "$out/footer_fuzzer/hostile__$(basename "$file")"
  done
  rm -rf "$hostile"
else
  source_missing "no python3 for tests/hostile/hostile_files.py"
fi

if command -v node > /dev/null; then
  node "$repo/tools/fuzz-queries.mjs" "$out/query_parser_fuzzer"
else
  source_missing "no node for tools/fuzz-queries.mjs (the documented and generated queries)"
fi
n=0
while IFS= read -r query; do
  printf '%s' "$query" > "$out/query_parser_fuzzer/written_$n"
  n=$((n + 1))
done <<'QUERIES'
FROM "data/*.parquet" WITH {"format": "parquet", "schema_resolution": "union_by_name"} | LIMIT 10
FROM "t" | WHERE x > 5 AND NOT y IS NULL OR z NOT IN (1, 2.5, -3e2) AND s LIKE 'a\\*'
FROM "t" | EVAL r = round(x, 2), c = CASE WHEN a THEN `w n` ELSE case(b, 1, 2) END
FROM "t" | STATS n = COUNT(*), AVG(x) BY k, d = date_trunc("month", DATE '1995-06-17')
FROM "t" | SORT n DESC NULLS LAST, k /* c */ | KEEP a.b, _file.size | DROP q // x
FROM "t" | RENAME a AS b | WHERE t < TIMESTAMP '1995-06-17 10:00:00.5' | LIMIT 18446744073709551616
QUERIES

# A metadata cache's payload (metadata_cache_fuzzer puts a valid header before it),
# integers little-endian: the key, one listing (one directory and its stamp, one
# match, no listing time), one file (its stamp, version, format and metadata: one int64 column with
# statistics, one split sharing them).
le64() {
  local v=$1 i
  for i in 0 1 2 3 4 5 6 7; do printf "\\x$(printf %02x $(((v >> (8 * i)) & 255)))"; done
}
str() { le64 "${#1}"; printf '%s' "$1"; }
stamp() { le64 2049; le64 "$1"; le64 "$2"; le64 1700000000000000000; le64 1700000000000000000; le64 "$3"; }
metadata="$(mktemp)"
{
  le64 1; str k; printf '\x03'; le64 0; le64 0; printf '\x01\x01\x00'
  le64 0
  printf '\x01'; le64 3; le64 1; str k; printf '\x07'; le64 0; printf '\x01'; le64 -5; printf '\x01'; le64 9
  le64 300
  le64 1; printf '\x01'
  split="$(mktemp)"
  { printf '\x04'; str "/d/p=1/x.parquet"; le64 4; le64 250; str parquet; le64 1; le64 300
    printf '\x01'; str "mtime:1700000000000000000"; printf '\x00'; le64 0; } > "$split"
  le64 "$(stat -c %s "$split")"; cat "$split"
  rm -f "$split"
} > "$metadata"
{
  str "4:/tmp7:parquet14:/d/*/*.parquet"
  le64 1; str "/d/*/*.parquet"; le64 1; str "/d/p=1/"; stamp 12 4096 16877; le64 1; str "/d/p=1/x.parquet"; le64 0
  le64 1; str "/d/p=1/x.parquet"; stamp 13 300 33188; str ""; str parquet
  le64 "$(stat -c %s "$metadata")"; cat "$metadata"
} > "$out/metadata_cache_fuzzer/one_file"
rm -f "$metadata"

if [[ -x "$fuzz_seeds" ]]; then
  "$fuzz_seeds" "$out" > /dev/null
else
  source_missing "no seed generator at $fuzz_seeds (ninja -C build/fuzz fuzzers builds it)"
fi
for dir in "$repo"/fuzz/seeds/*/; do
  [[ -d "$dir" ]] || continue
  mkdir -p "$out/$(basename "$dir")"
  cp "$dir"* "$out/$(basename "$dir")/"
done

((missing == 0)) || exit 1
summary=()
for dir in "$out"/*/; do
  summary+=("$(basename "$dir") $(find "$dir" -type f | wc -l)")
done
echo "fuzz-corpus: seeds per target in $out: ${summary[*]}"
