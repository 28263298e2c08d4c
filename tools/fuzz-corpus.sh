#!/usr/bin/env bash
# Writes a libFuzzer seed corpus to OUT_DIR: the last 64 KiB of every Parquet file in
# the test data (the footer, its length and the magic, plus the pages before it),
# and every Variant example of parquet-testing/variant as variant_fuzzer reads it
# (one byte giving the metadata's length, the metadata, then the value), and one
# query per line of the list below for query_parser_fuzzer, two serialized
# FileSplits for file_split_fuzzer, and a metadata cache payload for
# metadata_cache_fuzzer.
# Built at run time from $QUARRY_TESTDATA (default <repo>/../shared/testdata); the
# seeds are never committed.
#
#   tools/fuzz-corpus.sh OUT_DIR
set -euo pipefail

out="${1:?usage: tools/fuzz-corpus.sh OUT_DIR}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
testdata="${QUARRY_TESTDATA:-$repo/../shared/testdata}"
kTailBytes=65536

rm -rf "$out"
mkdir -p "$out"
n=0
if [[ -d "$testdata/parquet-testing" ]]; then
  while IFS= read -r -d '' file; do
    # One flat name per file: the path below parquet-testing with '/' as '__'.
    rel="${file#"$testdata"/parquet-testing/}"
    tail -c "$kTailBytes" "$file" > "$out/${rel//\//__}"
    n=$((n + 1))
  done < <(find "$testdata/parquet-testing" -type f \( -name '*.parquet' -o -name '*.parquet.encrypted' \) -print0)
else
  echo "fuzz-corpus: no test data at $testdata/parquet-testing (set QUARRY_TESTDATA); seeding from data/sample only" >&2
fi
if [[ -d "$testdata/parquet-testing/variant" ]]; then
  for metadata in "$testdata"/parquet-testing/variant/*.metadata; do
    value="${metadata%.metadata}.value"
    [[ -f "$value" ]] || continue
    length=$(stat -c %s "$metadata")
    ((length < 256)) || continue
    name="variant__$(basename "${metadata%.metadata}")"
    { printf "\\$(printf '%03o' "$length")"; cat "$metadata" "$value"; } > "$out/$name"
    n=$((n + 1))
  done
fi
for file in "$repo"/data/sample/*.parquet; do
  [[ -f "$file" ]] || continue
  tail -c "$kTailBytes" "$file" > "$out/sample__$(basename "$file")"
  n=$((n + 1))
done
# The hostile files tests/hostile writes (counts of 2^31 declared in a few hundred
# bytes), as the Parquet seeds above: their last 64 KiB.
if command -v python3 > /dev/null; then
  hostile="$(mktemp -d)"
  python3 "$repo/tests/hostile/hostile_files.py" --write-only "$hostile"
  for file in "$hostile"/*.parquet; do
    tail -c "$kTailBytes" "$file" > "$out/hostile__$(basename "$file")"
    n=$((n + 1))
  done
  rm -rf "$hostile"
fi
while IFS= read -r query; do
  printf '%s' "$query" > "$out/query__$n"
  n=$((n + 1))
done <<'QUERIES'
FROM "data/*.parquet" WITH {"format": "parquet", "schema_resolution": "union_by_name"} | LIMIT 10
FROM "t" | WHERE x > 5 AND NOT y IS NULL OR z NOT IN (1, 2.5, -3e2) AND s LIKE 'a\\%'
FROM "t" | EVAL r = round(x, 2), c = CASE WHEN a THEN `w n` ELSE case(b, 1, 2) END
FROM "t" | STATS n = COUNT(*), AVG(x) BY k, d = date_trunc("month", DATE '1995-06-17')
FROM "t" | SORT n DESC NULLS LAST, k /* c */ | KEEP a.b, _file.size | DROP q // x
FROM "t" | RENAME a AS b | WHERE t < TIMESTAMP '1995-06-17 10:00:00.5' | LIMIT 18446744073709551616
QUERIES
# FileSplits as a coordinator serializes them for file_split_fuzzer (version 4,
# little-endian): one with statistics of every value kind and two row spans,
# one without statistics but with a file version.
le64() {
  local v=$1 i
  for i in 0 1 2 3 4 5 6 7; do printf "\\x$(printf %02x $(((v >> (8 * i)) & 255)))"; done
}
str() { le64 "${#1}"; printf '%s' "$1"; }
{
  printf '\x04'; str "s3://b/k.parquet"; le64 4; le64 1000; str parquet; le64 1; le64 2000
  printf '\x00\x01'; le64 300; le64 3
  str k; printf '\x07'; le64 0; printf '\x01'; le64 1; printf '\x01'; le64 300
  str s; printf '\x06\x03'; str abc; printf '\x03'; str xyz
  str d; printf '\x07'; le64 2; printf '\x04'; le64 18000; printf '\x04'; le64 19000
  le64 2; le64 0; le64 50; le64 100; le64 150
} > "$out/file_split__statistics_and_rows"
{
  printf '\x04'; str "/data/x.parquet"; le64 0; le64 77; str parquet; le64 3; le64 123456
  printf '\x01'; str '"etag-1"'; printf '\x00'; le64 0
} > "$out/file_split__identity"
n=$((n + 2))
# A metadata cache's payload (metadata_cache_fuzzer puts a valid header before it):
# the key, one listing (one directory and its stamp, one match), one file (its
# stamp, format and metadata: one int64 column with statistics, one split sharing
# them).
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
  le64 1; str "/d/*/*.parquet"; le64 1; str "/d/p=1/"; stamp 12 4096 16877; le64 1; str "/d/p=1/x.parquet"
  le64 1; str "/d/p=1/x.parquet"; stamp 13 300 33188; str parquet
  le64 "$(stat -c %s "$metadata")"; cat "$metadata"
} > "$out/metadata_cache__one_file"
rm -f "$metadata"
n=$((n + 1))
echo "fuzz-corpus: $n seeds in $out"
