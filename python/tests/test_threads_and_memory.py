"""The GIL is released while generating, and chunks do not leak."""

import sys
import threading
import time

import pytest

import stratagen


def test_two_python_threads_generate_at_once():
    world = stratagen.World(seed=5)
    barrier = threading.Barrier(2)
    spans = {}

    def run(name, x0):
        barrier.wait()
        t0 = time.perf_counter()
        world.region(x0, 0, x0 + 3, 3, threads=1)
        spans[name] = (t0, time.perf_counter())

    threads = [threading.Thread(target=run, args=(n, x)) for n, x in (("a", 0), ("b", 100))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = spans["a"], spans["b"]
    # Held inside, the GIL would run the calls one after the other: each would start only
    # after the other finished.
    assert a0 < b1 and b0 < a1


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_a_thousand_chunks_leave_memory_flat():
    world = stratagen.World(seed=6)
    samples = []
    for i in range(10):
        chunks = world.region(10 * i, 0, 10 * i + 9, 9, threads=2)
        blocks = [c.blocks for c in chunks]
        assert len(blocks) == 100
        del chunks, blocks
        samples.append(rss_bytes())
    # 100 chunks hold about 20 MiB; a leak of every chunk would grow by 160 MiB after the
    # warm-up rounds.
    growth = samples[-1] - samples[1]
    assert growth < 48 * 1024 * 1024, [s // (1 << 20) for s in samples]
