# quarry's entry points. Two commands set everything up on a fresh Debian 12:
#   make demo   installs what is missing, builds build/release/quarry, inspects a sample
#   make test   the whole suite: GCC release build + tests, Clang ASan/UBSan build +
#               tests, and a bounded libFuzzer run
# Variables: FUZZ_SECONDS (total fuzzing time), JOBS (build parallelism),
# WERROR=OFF (keep building through warnings while editing), QUARRY_ALLOW_SKIPS=1
# (let tests skip when test data or an oracle is missing; by default a skip fails).

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
.DEFAULT_GOAL := build

RELEASE_DIR := build/release
ASAN_DIR := build/asan
FUZZ_DIR := build/fuzz
# `make test`'s fuzz stage, seed corpus included, shared between the targets
# (tools/run-fuzzers.sh): CI's fuzz stage stays within 3 minutes.
FUZZ_SECONDS ?= 140
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WERROR ?= ON
# Debug information: line tables only (-g1) by default, which keeps stack traces and
# sanitizer reports symbolized at a fraction of full DWARF's compile and link time;
# `make build DEBUG_INFO=-g` gives full debug information for a debugger.
DEBUG_INFO ?= -g1
# ccache, when installed (tools/install-deps.sh installs it), keeps compiled objects
# in its own directory outside the tree (~/.cache/ccache); paths are hashed relative
# to the checkout so that another clone of the tree reuses them.
CCACHE := $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
LAUNCHER := $(if $(CCACHE),-DCMAKE_C_COMPILER_LAUNCHER=$(CCACHE) -DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
SAMPLE := data/sample/trips.parquet
DEMO_QUERY := FROM "$(SAMPLE)" | WHERE trip_distance > 2.0 AND payment_type == "card" | STATS trips = COUNT(*), avg_tip = AVG(tip_amount), fares = SUM(fare_amount) BY vendor | SORT trips DESC
ORACLE_STAMP := tools/oracle/node_modules/.package-lock.json

# UBSan: stack traces; ASan: also catch use-after-return and init-order bugs.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

RELEASE_CMAKE := cmake -S . -B $(RELEASE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 $(DEBUG_INFO) -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $(DEBUG_INFO) -DNDEBUG" $(LAUNCHER) \
  -DQUARRY_WERROR=$(WERROR) -DQUARRY_BENCH=ON
# Assertions stay on in the sanitizer build (no NDEBUG).
ASAN_CMAKE := cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS_DEBUG="-O1 $(DEBUG_INFO)" -DCMAKE_CXX_FLAGS_DEBUG="-O1 $(DEBUG_INFO)" $(LAUNCHER) \
  -DQUARRY_WERROR=$(WERROR) -DQUARRY_SANITIZE=ON -DQUARRY_FUZZ=OFF -DQUARRY_BENCH=OFF
# The fuzz targets build apart, so that the sanitizer tests run without libFuzzer's
# coverage instrumentation: `ninja fuzzers` compiles the targets and the libraries
# they link, nothing else.
FUZZ_CMAKE := cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS_DEBUG="-O1 $(DEBUG_INFO)" -DCMAKE_CXX_FLAGS_DEBUG="-O1 $(DEBUG_INFO)" $(LAUNCHER) \
  -DQUARRY_WERROR=$(WERROR) -DQUARRY_SANITIZE=ON -DQUARRY_FUZZ=ON -DQUARRY_BENCH=OFF

.PHONY: deps build build-all python demo test test-release test-asan test-fuzz asan fuzz-build fuzz bench \
        oracle format clean

deps:
	@bash tools/install-deps.sh

# Configuring every time is cheap (about a second) and keeps the cache in step with
# the flags above; ninja then rebuilds only what changed.
# What the demo and a local user run: quarry and quarry-dive. The gRPC binary
# (quarry-cluster, for `serve` and `query --nodes`), the tests and the benchmarks
# come with build-all.
build: deps
	@$(RELEASE_CMAKE) > /dev/null
	ninja -C $(RELEASE_DIR) -j$(JOBS) quarry quarry-dive

build-all: deps
	@$(RELEASE_CMAKE) > /dev/null
	ninja -C $(RELEASE_DIR) -j$(JOBS)

# The Python module (docs/LIBRARY.md, "Python"): build/release/python/quarry.
python: deps
	@$(RELEASE_CMAKE) > /dev/null
	ninja -C $(RELEASE_DIR) -j$(JOBS) quarry_python
	@echo "make python: the package is $(RELEASE_DIR)/python/quarry; use it with"
	@echo "  PYTHONPATH=$(CURDIR)/$(RELEASE_DIR)/python /usr/bin/python3 -c 'import quarry; print(quarry.query(\"ROW x = 1\").fetchall())'"

demo: build
	build/release/quarry inspect $(SAMPLE)
	@echo
	build/release/quarry inspect rowgroups $(SAMPLE)
	@echo
	build/release/quarry print $(SAMPLE) --head 10
	@echo
	build/release/quarry query '$(DEMO_QUERY)'
	@echo
	build/release/quarry query --profile '$(DEMO_QUERY)'

# Every stage runs that can (the sanitizer stages even when release tests failed);
# the summary lists each stage's time and outcome, and any failure fails the target.
test: deps oracle
	@summary=(); failed=0; begin=$$SECONDS; \
	stage() { \
	  local title="$$1" target="$$2" start=$$SECONDS rc=0; \
	  echo "== $$title"; \
	  $(MAKE) --no-print-directory "$$target" || rc=$$?; \
	  local outcome=ok; ((rc == 0)) || { outcome="FAILED (exit $$rc)"; failed=1; }; \
	  summary+=("$$(printf '%-44s %5ss  %s' "$$title" $$((SECONDS - start)) "$$outcome")"); \
	  return $$rc; \
	}; \
	skipped() { summary+=("$$(printf '%-44s %6s  %s' "$$1" - "skipped: $$2")"); }; \
	skips() { [[ -f "$$1/skipped-tests.txt" ]] && summary+=("$$(printf '  %-42s %6s  %s' "tests skipped" - "$$(< "$$1/skipped-tests.txt")")"); true; }; \
	rm -f $(RELEASE_DIR)/skipped-tests.txt $(ASAN_DIR)/skipped-tests.txt; \
	if stage "release build (GCC 12, -O2 $(DEBUG_INFO))" build-all; then \
	  stage "release tests" test-release || true; skips $(RELEASE_DIR); \
	else skipped "release tests" "build failed"; fi; \
	if stage "sanitizer build (Clang 14, ASan+UBSan, -O1)" asan; then \
	  stage "sanitizer tests" test-asan || true; skips $(ASAN_DIR); \
	else skipped "sanitizer tests" "build failed"; fi; \
	if stage "fuzz build (Clang 14, libFuzzer+ASan+UBSan)" fuzz-build; then \
	  stage "fuzzing ($(FUZZ_SECONDS)s in total)" test-fuzz || true; \
	else skipped "fuzzing" "build failed"; fi; \
	summary+=("$$(printf '%-44s %5ss  %s' "total" $$((SECONDS - begin)) "$$(command -v ccache >/dev/null && echo 'with ccache' || echo 'without ccache')")"); \
	echo; echo "== make test summary"; printf '%s\n' "$${summary[@]}"; \
	exit $$failed

# tools/run-ctest.sh fails the run when a test skipped for want of test data or an
# oracle, unless QUARRY_ALLOW_SKIPS=1 (local escape hatch; CI never sets it).
test-release:
	bash tools/run-ctest.sh $(RELEASE_DIR) -j2

asan: deps
	@$(ASAN_CMAKE) > /dev/null
	ninja -C $(ASAN_DIR) -j$(JOBS)

test-asan:
	$(ASAN_ENV) bash tools/run-ctest.sh $(ASAN_DIR) -j2

fuzz-build: deps
	@$(FUZZ_CMAKE) > /dev/null
	ninja -C $(FUZZ_DIR) -j$(JOBS) fuzzers

test-fuzz:
	$(ASAN_ENV) bash tools/run-fuzzers.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# A long run for finding bugs: `make fuzz` (an hour in total), or FUZZ_SECONDS=N
# (docs/FUZZING.md).
fuzz: FUZZ_SECONDS := 3600
fuzz: fuzz-build
	$(ASAN_ENV) bash tools/run-fuzzers.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# bench/run.sh drives the whole-query and footer benchmarks against DuckDB; without
# it, the Google Benchmark executables run on their own.
bench: build-all oracle
	@if [[ -f bench/run.sh ]]; then \
	  bash bench/run.sh; \
	else \
	  for b in $(RELEASE_DIR)/*_benchmark; do [[ -x "$$b" ]] && "$$b"; done; true; \
	fi

# npm ci only when node_modules is missing or older than the lockfile.
oracle: $(ORACLE_STAMP)
$(ORACLE_STAMP): tools/oracle/package-lock.json tools/oracle/package.json | deps
	npm ci --prefix tools/oracle --no-audit --no-fund
	@touch $@

format:
	@fmt=$$(command -v clang-format-14 || command -v clang-format) || \
	  { echo "format: clang-format not found; apt-get install clang-format" >&2; exit 1; }; \
	find src tests bench fuzz python -type f \( -name '*.h' -o -name '*.cc' \) -print0 | xargs -0 -r $$fmt -i

clean:
	rm -rf build
