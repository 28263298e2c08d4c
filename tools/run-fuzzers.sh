#!/usr/bin/env bash
# Runs every libFuzzer target (*_fuzzer) in BUILD_DIR within SECONDS in total,
# building the seed corpus included: tools/fuzz-corpus.sh writes one seed folder
# per target (BUILD_DIR/fuzz-seeds/NAME), and the time left is shared evenly
# between the targets still to run, so that the whole stays within SECONDS (plus
# the last target's start-up; kMinSecondsPerTarget at the least each). The corpus
# each target grows is kept in BUILD_DIR/fuzz-corpus/NAME for the next run;
# crashes land in BUILD_DIR/fuzz-artifacts/ and fail the run.
#
# Every input that once crashed a target is kept in fuzz/regressions/NAME/ and
# replayed first, each once, before the target fuzzes. Under CI (CI=true) the
# mutation seed is fixed (FUZZ_SEED, default 1), so a run over the same code
# explores the same inputs and a failure reproduces; locally each run explores
# afresh unless FUZZ_SEED is set.
#
# A target without seeds, or no target at all, fails the run (QUARRY_ALLOW_SKIPS=1:
# a warning), as a missing seed source does in tools/fuzz-corpus.sh.
#
#   tools/run-fuzzers.sh BUILD_DIR SECONDS
set -euo pipefail

usage="usage: tools/run-fuzzers.sh BUILD_DIR SECONDS"
build="${1:?$usage}"
seconds="${2:?$usage}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kMinSecondsPerTarget=5
began=$SECONDS

skip_or_fail() {
  if [[ "${QUARRY_ALLOW_SKIPS:-}" == "1" ]]; then
    echo "run-fuzzers: WARNING: $1 (QUARRY_ALLOW_SKIPS=1)" >&2
  else
    echo "run-fuzzers: $1 (QUARRY_ALLOW_SKIPS=1 to go on)" >&2
    exit 1
  fi
}

mapfile -t fuzzers < <(find "$build" -maxdepth 1 -type f -executable -name '*_fuzzer' | sort)
if ((${#fuzzers[@]} == 0)); then
  skip_or_fail "no fuzz targets in $build (make fuzz-build builds fuzz/*_fuzzer.cc)"
  exit 0
fi

seeds="$build/fuzz-seeds"
bash "$repo/tools/fuzz-corpus.sh" "$seeds" "$build/fuzz_seeds"
echo "run-fuzzers: seed corpus built in $((SECONDS - began))s"
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"

seed_args=()
if [[ -n "${FUZZ_SEED:-}" ]]; then
  seed_args=(-seed="$FUZZ_SEED")
elif [[ "${CI:-}" == "true" ]]; then
  seed_args=(-seed=1)
fi

failed=()
left=${#fuzzers[@]}
for fuzzer in "${fuzzers[@]}"; do
  name="$(basename "$fuzzer")"
  corpus="$build/fuzz-corpus/$name"
  log="$build/fuzz-logs/$name.log"
  mkdir -p "$corpus"
  corpora=("$corpus")
  if [[ -n "$(find "$seeds/$name" -type f 2> /dev/null | head -n 1)" ]]; then
    corpora+=("$seeds/$name")
  else
    skip_or_fail "no seeds for $name in $seeds/$name (tools/fuzz-corpus.sh writes them)"
  fi
  regressions=()
  if [[ -d "$repo/fuzz/regressions/$name" ]]; then
    mapfile -t regressions < <(find "$repo/fuzz/regressions/$name" -type f | sort)
  fi
  if ((${#regressions[@]} > 0)); then
    if ! "$fuzzer" "${regressions[@]}" > "$log.regressions" 2>&1; then
      echo "run-fuzzers: $name FAILED on a kept regression input; last lines of $log.regressions:"
      tail -n 60 "$log.regressions"
      failed+=("$name")
      left=$((left - 1))
      continue
    fi
    echo "run-fuzzers: $name replayed ${#regressions[@]} regression input(s)"
  fi
  per_target=$(((seconds - (SECONDS - began)) / left))
  ((per_target >= kMinSecondsPerTarget)) || per_target=$kMinSecondsPerTarget
  left=$((left - 1))
  echo "run-fuzzers: $name for ${per_target}s on $(find "${corpora[@]}" -type f | wc -l) inputs (log: $log)"
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
  echo "  once fixed, keep the input in fuzz/regressions/NAME/ so that every later run replays it)"
  exit 1
fi
echo "run-fuzzers: ${#fuzzers[@]} target(s) ran clean in $((SECONDS - began))s"
