# The Python module (python/, docs/LIBRARY.md "Python"), included by the top-level
# CMakeLists.txt after library.cmake: the package `quarry` under
# ${CMAKE_BINARY_DIR}/python (PYTHONPATH), its extension `quarry._quarry` built
# with pybind11 against Debian's python3 and linked from the position-independent
# objects libquarry.so is made of, with the same shared codec libraries. Built
# where libquarry.so is (not in sanitizer or fuzz builds) and pybind11 is found;
# `make python` builds it alone.
option(QUARRY_PYTHON "Build the Python module (needs pybind11 and python3-dev)" ON)
if(NOT QUARRY_PYTHON OR NOT TARGET quarry_shared)
  return()
endif()

# Debian's interpreter, whose pandas, numpy and pytest come from Debian packages
# (an interpreter first on PATH, such as pyenv's, lacks them).
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
if(Python_FOUND)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.10 CONFIG QUIET)
endif()
if((NOT Python_FOUND OR NOT pybind11_FOUND) AND DEFINED ENV{CI})
  # CI runs every test: a module that cannot be built fails the run, not skips it.
  message(FATAL_ERROR "quarry: the Python module cannot be built (python3-dev and pybind11-dev are "
                      "needed: tools/install-deps.sh)")
endif()
if(NOT Python_FOUND OR NOT pybind11_FOUND)
  message(STATUS "quarry: the Python module is not built (python3-dev and pybind11-dev are needed: "
                 "tools/install-deps.sh)")
  return()
endif()

set(QUARRY_PYTHON_DIR ${CMAKE_BINARY_DIR}/python)
pybind11_add_module(quarry_python MODULE ${CMAKE_SOURCE_DIR}/python/quarry_module.cc
                    ${CMAKE_SOURCE_DIR}/python/arrow_python.cc $<TARGET_OBJECTS:quarry_lib>
                    $<TARGET_OBJECTS:quarry_text> $<TARGET_OBJECTS:quarry_api>)
target_include_directories(quarry_python PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(quarry_python PRIVATE ${QUARRY_SHARED_DEPENDENCIES} Threads::Threads)
set_target_properties(quarry_python PROPERTIES OUTPUT_NAME _quarry LIBRARY_OUTPUT_DIRECTORY ${QUARRY_PYTHON_DIR}/quarry)
# The package's Python files beside the extension, copied when they change.
file(GLOB QUARRY_PYTHON_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/quarry/*.py)
foreach(file ${QUARRY_PYTHON_FILES})
  get_filename_component(name ${file} NAME)
  configure_file(${file} ${QUARRY_PYTHON_DIR}/quarry/${name} COPYONLY)
endforeach()

# pytest over the module (tests/python/): DuckDB's answers to a corpus written by
# node (tests/python/duckdb_answers.mjs), the Arrow stream read by a consumer in
# the test, Ctrl-C, references over 1,000 queries. Fails when pytest, pandas,
# node or the DuckDB oracle is missing.
find_program(QUARRY_NODE NAMES node nodejs)
add_test(NAME python_module
         COMMAND ${Python_EXECUTABLE} -m pytest ${CMAKE_SOURCE_DIR}/tests/python -q -p no:cacheprovider
         WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(python_module PROPERTIES TIMEOUT 300 LABELS script
  ENVIRONMENT "PYTHONPATH=${QUARRY_PYTHON_DIR};QUARRY_SOURCE_DIR=${CMAKE_SOURCE_DIR};QUARRY_PYTHON_TEST_DIR=${CMAKE_BINARY_DIR}/python-tests;QUARRY_CACHE_DIR=off;QUARRY_NODE=${QUARRY_NODE};PYTHONDONTWRITEBYTECODE=1")
