"""No reference leaks over 1,000 queries (issue 30): the Python objects alive, a
bound parameter's reference count, the memory Python allocates (tracemalloc)
and the process's resident memory (quarry's own allocations: results, batches,
exported arrays, streams) stay flat while 1,000 queries run through every path:
fetchall, to_pandas, a capsule consumed and one dropped, a failing query."""

import gc
import sys
import tracemalloc

from test_arrow_stream import consume


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_no_leaks_over_1000_queries(quarry, sample):
    vendor = "".join(["V", "T", "S"])  # a string of its own, whose references are counted

    def run(i):
        step = i % 5
        if step == 0:
            quarry.query(f'FROM "{sample}" | WHERE vendor == ?v | LIMIT 5', v=vendor).fetchall()
        elif step == 1:
            quarry.query(f'FROM "{sample}" | WHERE vendor == ?v | KEEP vendor, fare_amount | LIMIT 50',
                         v=vendor).to_pandas()
        elif step == 2:
            consume(quarry.query("ROW x = ?x, s = ?s", x=i, s=vendor).__arrow_c_stream__())
        elif step == 3:
            quarry.query(f'FROM "{sample}" | LIMIT 10').__arrow_c_stream__()  # dropped unread
        else:
            try:
                quarry.query("ROW x = ?missing")
            except quarry.Error:
                pass

    for i in range(100):  # warm caches and pools first
        run(i)
    gc.collect()
    objects = len(gc.get_objects())
    references = sys.getrefcount(vendor)
    resident = resident_bytes()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(1000):
        run(i)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert sys.getrefcount(vendor) == references
    assert len(gc.get_objects()) - objects < 50, f"{len(gc.get_objects()) - objects} more objects"
    assert grown < 64 * 1024, f"Python allocations grew by {grown} bytes"
    assert resident_bytes() - resident < 16 * 1024 * 1024, \
        f"resident memory grew by {(resident_bytes() - resident) / 1e6:.1f} MB"
