"""Fixtures of the Python module's tests (ctest python_module, cmake/python.cmake).

The module is imported from $PYTHONPATH (build/release/python); a missing module,
pandas, node or DuckDB oracle fails the tests: nothing here skips.
"""

import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("QUARRY_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SAMPLE = SOURCE_DIR / "data" / "sample" / "trips.parquet"


@pytest.fixture(scope="session")
def quarry():
    import quarry as module

    return module


@pytest.fixture(scope="session")
def sample():
    assert SAMPLE.is_file(), f"{SAMPLE} is missing"
    return str(SAMPLE)


@pytest.fixture(scope="session")
def work_dir():
    configured = os.environ.get("QUARRY_PYTHON_TEST_DIR")
    if configured:
        os.makedirs(configured, exist_ok=True)
        return pathlib.Path(configured)
    return pathlib.Path(tempfile.mkdtemp(prefix="quarry-python-tests-"))


@pytest.fixture(scope="session")
def answers(work_dir):
    """DuckDB's answers to the corpus (tests/python/duckdb_answers.mjs), and the
    data they are about, written under work_dir by node."""
    import json

    script = SOURCE_DIR / "tests" / "python" / "duckdb_answers.mjs"
    node = os.environ.get("QUARRY_NODE", "node")
    run = subprocess.run([node, str(script), str(work_dir)], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"{script} failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    with open(work_dir / "answers.json", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def lineitem(answers, work_dir):
    """The lineitem files of the corpus (30,000 rows, dataset.mjs)."""
    files = sorted(str(p) for p in (work_dir / "data").glob("lineitem-*.parquet"))
    assert files, f"no lineitem files under {work_dir / 'data'}"
    return files
