#!/usr/bin/env bash
# tools/check-layers.py against trees with planted includes: an include against
# the layer order of docs/ARCHITECTURE.md ("a file may include headers of its own
# folder and of the folders on lower lines, never of a folder on a higher line or
# on its own line") fails the check, named by file, line and include; the same
# tree without it passes.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
check="$root/tools/check-layers.py"
python=$(command -v python3) || { echo "*** SKIPPED: python3 not found ***" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

plant() {  # plant FILE INCLUDE...: writes a header with these includes
  local file="$tmp/tree/src/quarry/$1"; shift
  mkdir -p "$(dirname "$file")"
  { echo "#pragma once"; echo; for inc in "$@"; do echo "#include \"$inc\""; done; } > "$file"
}

rm -rf "$tmp/tree"; mkdir -p "$tmp/tree/docs"
cp "$root/docs/ARCHITECTURE.md" "$tmp/tree/docs/"
# Allowed: a folder's own headers, lower layers, a sub-folder of one's own layer.
plant formats/orc/orc_reader.h quarry/formats/orc/encoding/varint.h quarry/formats/codec/compression.h \
  quarry/formats/predicate/filter_predicate.h quarry/io/storage.h quarry/common/error.h
plant engine/exec/filter_exec.h quarry/engine/data/block.h quarry/engine/expr/bound_expr.h
plant cli/cluster/serve_command.h quarry/cli/query_command.h quarry/cluster/wire.h
"$python" "$check" "$tmp/tree" > "$tmp/out" 2>&1 || fail "a tree of allowed includes fails: $(cat "$tmp/out")"

# Sibling formats, and the data floor reaching up into the operators.
plant formats/orc/orc_predicate.h quarry/common/error.h quarry/formats/parquet/filter_predicate.h
plant engine/data/block.h quarry/engine/data/data_type.h quarry/engine/exec/operator.h
# cluster/ may not include cli/ (quarry-cluster's commands are cli/cluster/'s).
plant cluster/remote_exchange.h quarry/cli/query_command.h
"$python" "$check" "$tmp/tree" > "$tmp/out" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "planted includes: exit $rc, expected 1"
grep -qF 'src/quarry/formats/orc/orc_predicate.h:4: #include "quarry/formats/parquet/filter_predicate.h" (formats/orc/ and formats/parquet/ are siblings)' "$tmp/out" ||
  fail "the ORC -> Parquet include is not named: $(cat "$tmp/out")"
grep -qF 'src/quarry/engine/data/block.h:4: #include "quarry/engine/exec/operator.h" (engine/exec/ is above engine/data/)' "$tmp/out" ||
  fail "the data -> exec include is not named: $(cat "$tmp/out")"
grep -qF 'src/quarry/cluster/remote_exchange.h:3: #include "quarry/cli/query_command.h" (cli/ is above cluster/)' "$tmp/out" ||
  fail "the cluster -> cli include is not named: $(cat "$tmp/out")"
n=$(grep -c '#include' "$tmp/out")
[[ $n == 3 ]] || fail "expected exactly the 3 planted includes named, got $n: $(cat "$tmp/out")"

# A doc without the diagram cannot be checked against: exit 2, not a pass.
sed -i '/<!-- layers: begin -->/d' "$tmp/tree/docs/ARCHITECTURE.md"
"$python" "$check" "$tmp/tree" > "$tmp/out" 2>&1
rc=$?
[[ $rc == 2 ]] || fail "a doc without the layer diagram: exit $rc, expected 2"

# The real tree passes.
"$python" "$check" "$root" > "$tmp/out" 2>&1 || fail "the source tree breaks the layer order: $(cat "$tmp/out")"

((failures == 0)) && echo "check_layers_test: ok"
exit $((failures > 0))
