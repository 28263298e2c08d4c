#!/usr/bin/env bash
# Runs every libFuzzer target (*_fuzzer) in BUILD_DIR for SECONDS in total, split
# evenly between them, each seeded by tools/fuzz-corpus.sh. The corpus each target
# grows is kept in BUILD_DIR/fuzz-corpus/NAME for the next run; crashes land in
# BUILD_DIR/fuzz-artifacts/ and fail the run.
#
# Every input that once crashed a target is kept in fuzz/regressions/NAME/ and
# replayed first. Under CI (CI=true) the mutation seed is fixed (FUZZ_SEED,
# default 1), so a run over the same code explores the same inputs and a
# failure reproduces; locally each run explores afresh unless FUZZ_SEED is set.
#
#   tools/run-fuzzers.sh BUILD_DIR SECONDS
set -euo pipefail

build="${1:?usage: tools/run-fuzzers.sh BUILD_DIR SECONDS}"
seconds="${2:?usage: tools/run-fuzzers.sh BUILD_DIR SECONDS}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kMinSecondsPerTarget=10

mapfile -t fuzzers < <(find "$build" -maxdepth 1 -type f -executable -name '*_fuzzer' | sort)
if ((${#fuzzers[@]} == 0)); then
  echo "run-fuzzers: no fuzz targets in $build (fuzz/*_fuzzer.cc); skipping"
  exit 0
fi

per_target=$((seconds / ${#fuzzers[@]}))
((per_target >= kMinSecondsPerTarget)) || per_target=$kMinSecondsPerTarget

bash "$repo/tools/fuzz-corpus.sh" "$build/fuzz-seeds"
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"

seed_args=()
if [[ -n "${FUZZ_SEED:-}" ]]; then
  seed_args=(-seed="$FUZZ_SEED")
elif [[ "${CI:-}" == "true" ]]; then
  seed_args=(-seed=1)
fi

failed=()
for fuzzer in "${fuzzers[@]}"; do
  name="$(basename "$fuzzer")"
  corpus="$build/fuzz-corpus/$name"
  log="$build/fuzz-logs/$name.log"
  regressions="$repo/fuzz/regressions/$name"
  mkdir -p "$corpus"
  corpora=("$corpus" "$build/fuzz-seeds")
  [[ -d "$regressions" ]] && corpora+=("$regressions")
  echo "run-fuzzers: $name for ${per_target}s (log: $log)"
  # -timeout: an input taking 10 s is a hang; rss_limit_mb: a corrupt length must
  # not turn into a huge allocation.
  if "$fuzzer" "${corpora[@]}" "${seed_args[@]}" \
      -max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 \
      > "$log" 2>&1; then
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed "s/^/  $name: /" || true
  else
    echo "run-fuzzers: $name FAILED; last lines of $log:"
    tail -n 60 "$log"
    failed+=("$name")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "run-fuzzers: failed: ${failed[*]} (reproduce: BUILD_DIR/NAME BUILD_DIR/fuzz-artifacts/FILE;"
  echo "  once fixed, keep the input in fuzz/regressions/NAME/ so every later run replays it)"
  exit 1
fi
echo "run-fuzzers: ${#fuzzers[@]} target(s) ran clean"
