# Script-based tests (node), included by the top-level CMakeLists.txt. Each one
# exits 77 when something it needs is missing (test data, the DuckDB oracle), and
# ctest reports that as skipped. Without node the tests are still registered, as
# skipped, so that a missing node shows in the summary instead of passing silently.

# The differential tests compare whole files' values with DuckDB and take minutes
# in the release build; the sanitizer build runs the unit and corpus tests only.
if(QUARRY_SANITIZE)
  return()
endif()

find_program(QUARRY_NODE NAMES node nodejs)

# Hostile Parquet files written byte by byte (RLE runs of 2^31 - 1 nulls or
# dictionary indices, a list of 2^30 elements, page and dictionary sizes far past
# the bytes present): every one answered or refused with a clear error within
# 1 s and 200 MB, quarry running under a 2 GB address-space limit. Release build
# only: under ASan the shadow memory needs more address space than that.
find_program(QUARRY_PYTHON3 NAMES python3)
if(QUARRY_PYTHON3)
  add_test(NAME hostile_parquet_files
           COMMAND bash -c "ulimit -v 2097152 && exec \"$0\" \"$@\""
                   ${QUARRY_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/hostile/hostile_files.py
                   $<TARGET_FILE:quarry> ${CMAKE_BINARY_DIR}/hostile-files)
else()
  add_test(NAME hostile_parquet_files
           COMMAND sh -c "echo '*** SKIPPED hostile_parquet_files: python3 not found ***' >&2; exit 77")
endif()
set_tests_properties(hostile_parquet_files PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS script
                     ENVIRONMENT "QUARRY_CACHE_DIR=off")

# quarry_add_node_test(NAME SCRIPT [ARGS...]): runs `node SCRIPT ARGS...`.
function(quarry_add_node_test name script)
  if(QUARRY_NODE)
    add_test(NAME ${name} COMMAND ${QUARRY_NODE} ${CMAKE_SOURCE_DIR}/${script} ${ARGN})
  else()
    add_test(NAME ${name}
             COMMAND sh -c "echo '*** SKIPPED ${name}: node not found; run tools/install-deps.sh ***' >&2; exit 77")
  endif()
  set_tests_properties(${name} PROPERTIES
    SKIP_RETURN_CODE 77
    TIMEOUT 900
    LABELS script
    ENVIRONMENT "QUARRY_SOURCE_DIR=${CMAKE_SOURCE_DIR};QUARRY_CACHE_DIR=off")
endfunction()

quarry_add_node_test(differential_inspect_row_counts
  tests/differential/inspect_row_counts.mjs $<TARGET_FILE:quarry>)

quarry_add_node_test(differential_read_values
  tests/differential/read_values.mjs $<TARGET_FILE:quarry>)

# `quarry print --format csv` and `quarry convert --to csv -o OUT` over every
# parquet-testing file, each against one DuckDB COPY TO CSV of the file.
quarry_add_node_test(differential_print_csv
  tests/differential/print_csv.mjs $<TARGET_FILE:quarry>)

# runProcess (tests/support/processes.mjs), which the engine tests start quarry
# through: status, streams, signals, timeouts, missing commands, many at once.
quarry_add_node_test(support_processes tests/support/processes_test.mjs)
set_tests_properties(support_processes PROPERTIES TIMEOUT 60)

# Every example of docs/LANGUAGE.md (a ```esql query, then the ```text quarry
# prints for it) run and compared exactly; every function and aggregate quarry
# knows must have a section there.
quarry_add_node_test(docs_language_examples
  tests/docs/language_examples.mjs $<TARGET_FILE:quarry>)
set_tests_properties(docs_language_examples PROPERTIES TIMEOUT 120)

# `quarry convert --filter EXPR` against COPY (SELECT ... WHERE EXPR) TO CSV.
quarry_add_node_test(differential_convert_filter
  tests/differential/convert_filter.mjs $<TARGET_FILE:quarry>)

# Files the tests generate with DuckDB (every type, null fraction, codec, V1/V2
# encodings, nested values) and with chDB (page indexes, many pages per chunk,
# CRCs, Bloom filters), read whole by quarry and DuckDB; written under the build
# directory.
quarry_add_node_test(differential_generated_duckdb
  tests/differential/generated_files.mjs $<TARGET_FILE:quarry>
  ${CMAKE_BINARY_DIR}/differential-generated duckdb)

quarry_add_node_test(differential_generated_chdb
  tests/differential/generated_files.mjs $<TARGET_FILE:quarry>
  ${CMAKE_BINARY_DIR}/differential-generated chdb)

# ORC files chDB writes (every ClickHouse type ORC takes, 0/50/100 % nulls, every
# codec, dictionary and direct strings, binary strings, writer time zones, several
# stripes), printed by quarry and read back by chDB, compared value by value.
quarry_add_node_test(differential_orc_chdb
  tests/differential/orc_files.mjs $<TARGET_FILE:quarry> ${CMAKE_BINARY_DIR}/differential-orc)
# About 30 s on a loaded 2-core machine; the bound keeps it from growing unnoticed.
set_tests_properties(differential_orc_chdb PROPERTIES TIMEOUT 120)

# The query engine against DuckDB: 2,000 generated queries and TPC-H Q1/Q6 over
# Parquet files written under the build directory (tests/differential/engine/).
# The self-check runs the DuckDB side only (every SQL statement of the corpus
# must run, and DuckDB's answer printed as quarry prints it must be accepted);
# it needs no engine. It writes the datasets and DuckDB's answers once per run
# into QUARRY_ENGINE_ANSWERS (--save-corpus, only when it passes): the fixture
# engine_corpus_answers, which the runs comparing quarry with DuckDB below read
# (--corpus-from) instead of writing and answering the same corpus each.
set(QUARRY_ENGINE_ANSWERS ${CMAKE_BINARY_DIR}/differential-engine-answers)
quarry_add_node_test(differential_engine_self_check
  tests/differential/engine/engine_queries.mjs - ${QUARRY_ENGINE_ANSWERS} --self-check --save-corpus)
set_tests_properties(differential_engine_self_check PROPERTIES TIMEOUT 450
                     FIXTURES_SETUP engine_corpus_answers)
# Every comparator (compare_values.mjs's values and CSV text with their verdicts,
# the engine runner through stub_quarry.mjs) fed its good input, which passes, and
# planted bad ones (type changed, column renamed, missing field, -0.0 where it
# matters, a quarry error), each of which must fail; about a minute.
quarry_add_node_test(differential_comparator_self_test
  tests/differential/comparator_self_test.mjs ${CMAKE_BINARY_DIR}/differential-comparator-self-test)
set_tests_properties(differential_comparator_self_test PROPERTIES TIMEOUT 300)
# The corpus's statistics against their floors (issue 31: "The corpus statistics
# (how many queries per feature, NULL rate, LIMIT 0 share, refusals) are printed
# by the generator and checked against floors in its own test"): the datasets
# written, the first draws of the default corpus generated, its overflow queries
# answered by DuckDB; no quarry needed, a few seconds.
quarry_add_node_test(differential_engine_corpus
  tests/differential/engine/corpus_statistics.mjs ${CMAKE_BINARY_DIR}/differential-engine-corpus)
set_tests_properties(differential_engine_corpus PROPERTIES TIMEOUT 120)
# Every engine type through `quarry query --format arrow` and `convert --to arrow`,
# read back by apache-arrow from npm and compared with DuckDB, one query per type
# so that a failure names it (issue 30); a few seconds.
quarry_add_node_test(arrow_ipc_reader
  tests/api/arrow_ipc_reader_test.mjs $<TARGET_FILE:quarry> ${CMAKE_BINARY_DIR}/arrow-ipc-reader)
set_tests_properties(arrow_ipc_reader PROPERTIES TIMEOUT 120)
# The runner's comparison rules (tolerances, multisets, value forms) on hand-made rows.
quarry_add_node_test(differential_engine_compare_rules
  tests/differential/engine/result_compare_test.mjs)
set_tests_properties(differential_engine_compare_rules PROPERTIES TIMEOUT 60)
# The comparison with `quarry query` is registered once the engine answers
# queries: create tests/differential/engine/ENABLED and re-run cmake.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/differential/engine/ENABLED)
  # The local corpus reads quarry's answers as Arrow IPC streams (`--format
  # arrow`) through apache-arrow from npm (issue 30: "the apache-arrow package
  # from npm reads the Arrow IPC stream of every result set of the differential
  # corpus, and its values and types equal DuckDB's answer"); the cached and
  # cluster variants below read the JSON.
  quarry_add_node_test(differential_engine_queries
    tests/differential/engine/engine_queries.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-engine --format arrow --corpus-from ${QUARRY_ENGINE_ANSWERS})
  set_tests_properties(differential_engine_queries PROPERTIES TIMEOUT 600
                       FIXTURES_REQUIRED engine_corpus_answers)
  # The same corpus with quarry's metadata cache on (a fresh cache directory under
  # the build directory, overriding QUARRY_CACHE_DIR=off): run twice, the first
  # pass filling the cache, the second answered from it (every footer from the
  # cache, no footer read), both compared with DuckDB. A fixed subset (the first
  # LIMIT generated queries and TPC-H) keeps the two passes within the test stage.
  # The files read whole by `quarry print` are differential_engine_queries's: print
  # reads them the same way with or without the cache (and the cluster).
  quarry_add_node_test(differential_engine_queries_cached
    tests/differential/engine/engine_queries.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-engine-cached --metadata-cache --limit 300
    --corpus-from ${QUARRY_ENGINE_ANSWERS})
  set_tests_properties(differential_engine_queries_cached PROPERTIES TIMEOUT 600
                       FIXTURES_REQUIRED engine_corpus_answers)
  # LIST columns: KEEP, WHERE, IS NULL, TopN and EVAL over a DuckDB-written file of
  # list<int|bigint|double|varchar> (null lists, empty lists, null elements, several
  # row groups), as JSON and as DuckDB's CSV text of the same SELECT; a few seconds.
  quarry_add_node_test(differential_engine_lists
    tests/differential/engine/list_columns.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-engine-lists)
  set_tests_properties(differential_engine_lists PROPERTIES TIMEOUT 120)
  # Aggregate pushdown (issue 9): COUNT(*)/COUNT/MIN/MAX answered from statistics
  # equal the same aggregates forced to scan and DuckDB's, per column of the
  # generated files, 3-file globs (union_by_name too) and parquet-testing; about 5 s.
  quarry_add_node_test(differential_pushdown_equivalence
    tests/differential/engine/pushdown_equivalence.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-pushdown)
  set_tests_properties(differential_pushdown_equivalence PROPERTIES TIMEOUT 300)
  # Hive partitions (issue 29): 520 generated queries over 1- to 3-level key=value
  # layouts (integer, date, timestamp and URL-encoded string keys, the default
  # partition, union_by_name) against read_parquet(..., hive_partitioning = true),
  # exact, each with the files its path conjuncts prune checked; about 30 s.
  quarry_add_node_test(differential_hive_partitions
    tests/differential/engine/hive_partitions.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-hive-partitions)
  set_tests_properties(differential_hive_partitions PROPERTIES TIMEOUT 180)
  # 1,200 partitions (year=2000..2099/month=1..12), one file each: WHERE year == 2024
  # AND month == 6 and a _file.path filter open only the matching files (the
  # profile's files and footer requests counted exactly); a few seconds.
  quarry_add_node_test(differential_hive_partition_io
    tests/differential/engine/hive_partition_io.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-hive-partition-io)
  set_tests_properties(differential_hive_partition_io PROPERTIES TIMEOUT 180)
  # 1,000 small files: STATS COUNT(*), MIN(k), MAX(k) reads one range per file
  # (the footer's tail read) and decodes no row; about 5 s.
  quarry_add_node_test(differential_pushdown_io
    tests/differential/engine/pushdown_io.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-pushdown-io)
  set_tests_properties(differential_pushdown_io PROPERTIES TIMEOUT 120)
  # The same corpus (all 2,000 queries and TPC-H) through a coordinator and
  # three data nodes that the runner starts on 127.0.0.1 and stops: the issue's
  # "results identical to in-process", checked against DuckDB's answers.
  quarry_add_node_test(differential_engine_queries_cluster
    tests/differential/engine/engine_queries.mjs $<TARGET_FILE:quarry>
    ${CMAKE_BINARY_DIR}/differential-engine-cluster --data-nodes 3 --corpus-from ${QUARRY_ENGINE_ANSWERS})
  set_tests_properties(differential_engine_queries_cluster PROPERTIES TIMEOUT 900
                       FIXTURES_REQUIRED engine_corpus_answers)
endif()

# README.md's "30 seconds with quarry" (issue 26): every example names files the
# repository holds (or `make demo` generates), exits 0 and returns rows.
if(QUARRY_PYTHON3)
  add_test(NAME readme_examples
           COMMAND ${QUARRY_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/tools/readme_examples.py
                   ${CMAKE_SOURCE_DIR} $<TARGET_FILE:quarry>)
else()
  add_test(NAME readme_examples
           COMMAND sh -c "echo '*** SKIPPED readme_examples: python3 not found ***' >&2; exit 77")
endif()
set_tests_properties(readme_examples PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS script)

# The include graph follows the layer order drawn in docs/ARCHITECTURE.md
# ("Layers"): tools/check-layers.py reads the diagram there and names every
# include against it; the second test plants bad includes in a copied tree.
find_program(QUARRY_PYTHON3 NAMES python3)
if(QUARRY_PYTHON3)
  add_test(NAME check_layers COMMAND ${QUARRY_PYTHON3} ${CMAKE_SOURCE_DIR}/tools/check-layers.py ${CMAKE_SOURCE_DIR})
  add_test(NAME check_layers_self_test COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/check_layers_test.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(check_layers check_layers_self_test PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS script)
  # The fuzz seed corpus per target, and a missing seed source failing the run.
  add_test(NAME fuzz_corpus_scripts COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/fuzz_corpus_test.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(fuzz_corpus_scripts PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS script)
endif()

# cmake/register_test_suites.cmake: one ctest test per GoogleTest suite, the suites
# of QUARRY_SHARDED_SUITES in shards, and a sharded name that is no suite refused.
add_test(NAME register_test_suites_self_test
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/register_test_suites_test.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_COMMAND})
set_tests_properties(register_test_suites_self_test PROPERTIES TIMEOUT 60 LABELS script)

# The installed package (docs/LIBRARY.md): `cmake --install` into a temporary
# prefix, the examples built against it with find_package (shared and static) and
# with pkg-config, run, and their output checked (tests/install/install_test.sh).
if(TARGET quarry_shared)
  add_test(NAME install_package
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/install/install_test.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}
                   $<TARGET_FILE:quarry> ${CMAKE_CXX_COMPILER})
  # Alone: it installs the build tree and compiles three programs against it; beside the
  # differential suites it failed once in a full `ctest -j2` without a reproducible cause.
  set_tests_properties(install_package PROPERTIES TIMEOUT 600 LABELS script RUN_SERIAL TRUE
                       ENVIRONMENT "QUARRY_CACHE_DIR=off")
endif()

# ctest -j starts tests in descending COST. On a fresh clone there are no timings
# of an earlier run (Testing/Temporary/CTestCostData.txt), so the longest tests
# (about the seconds each took on the 2-core CI machine) are named here: started
# first, they run beside the many short suites instead of alone at the end. The
# self-check comes first of all: the engine runs wait for the answers it saves.
foreach(entry IN ITEMS differential_engine_self_check=300
                       differential_read_values=100 differential_print_csv=140
                       differential_engine_queries=80
                       differential_engine_queries_cluster=80 differential_generated_chdb=40
                       differential_generated_duckdb=40 differential_orc_chdb=30
                       differential_pushdown_equivalence=60)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 name)
  list(GET pair 1 seconds)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${seconds})
  endif()
endforeach()

