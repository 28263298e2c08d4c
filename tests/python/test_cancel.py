"""Ctrl-C cancels a running query (issue 30: "the GIL released while quarry works;
Ctrl-C cancels"; "a long query is cancelled by KeyboardInterrupt"). The batches
are computed with the GIL released while the calling thread checks for signals
every 20 ms; on Ctrl-C it cancels the Result, which stops at its next batch, and
raises KeyboardInterrupt."""

import _thread
import threading
import time

import pytest

kRepeats = 400  # the lineitem files (30,000 rows in all) read this many times: 6 million rows


def long_query(lineitem, repeats):
    """A query whose batches stream (no aggregation holds them back) and cost
    string work per row."""
    files = ", ".join(f'"{f}"' for f in lineitem * (repeats // len(lineitem)))
    return (f"FROM {files} | EVAL h = reverse(to_upper(concat(l_comment, l_shipmode, l_comment, "
            "l_shipinstruct, l_comment))) | WHERE length(h) > 3 | KEEP l_orderkey")


def test_keyboard_interrupt_cancels_a_long_query(quarry, lineitem):
    # A twentieth of the query takes a measurable time: the whole would take seconds.
    start = time.monotonic()
    rows = quarry.query(long_query(lineitem, kRepeats // 20)).to_pandas()
    twentieth = time.monotonic() - start
    assert len(rows) == 30_000 * (kRepeats // 20 // len(lineitem))
    assert twentieth * 20 > 1.0, f"the long query would take {twentieth * 20:.2f} s only"

    timer = threading.Timer(0.2, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            quarry.query(long_query(lineitem, kRepeats)).to_pandas()
    finally:
        timer.cancel()
    elapsed = time.monotonic() - start
    assert elapsed < 0.2 + 1.0, f"KeyboardInterrupt after {elapsed:.2f} s"


def test_other_threads_run_while_quarry_works(quarry, lineitem):
    """The GIL is released: a Python thread counts while the query runs."""
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        quarry.query(long_query(lineitem, 40) + " | STATS n = COUNT(*), s = SUM(l_orderkey)").fetchall()
    finally:
        stop.set()
        thread.join()
    assert ticks > 10


def test_cancel_from_another_thread(quarry, lineitem):
    result = quarry.query(long_query(lineitem, kRepeats))
    timer = threading.Timer(0.2, result.cancel)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(quarry.Error, match="cancelled"):
            result.fetchall()
    finally:
        timer.cancel()
    assert time.monotonic() - start < 0.2 + 1.0
