"""Pregeneration past one process, in one run on one machine: Dask with 2 worker processes
against 1 on the same region, and the shard overhead (tasks run by all shards of a plan over
the tasks of one unsharded run) for several tile sizes and for a tile in the middle of others. Needs `pip install distributed`.

Usage: python python/bench_distributed.py [--region SIDE] [--overhead-side SIDE] [--interior-tile T]
"""

import argparse
import os
import tempfile
import time

import stratagen
import stratagen.distributed
from bench import ROOT, cpu_model

# The status ladder's ten statuses: an unsharded run, away from its edges, runs one task of
# each per chunk.
STATUSES = 10


def dask_chunks_per_s(workers, side, tile, seed):
    """Chunks/s of a `LocalCluster` of `workers` processes, and from Dask's task stream the
    mean seconds a shard computed and the share of the run's worker time spent computing."""
    from distributed import Client, LocalCluster, get_task_stream

    region = (0, 0, side - 1, side - 1)
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        client.run(stratagen.keep_freed_memory)
        with tempfile.TemporaryDirectory() as tmp, get_task_stream(client) as stream:
            t0 = time.perf_counter()
            r = stratagen.distributed.pregenerate(
                client, os.path.join(tmp, "w.sqlite"), region, seed=seed, tile=tile
            )
            seconds = time.perf_counter() - t0
    assert r["copied"] == side * side
    computing = [
        s["stop"] - s["start"]
        for task in stream.data
        for s in task["startstops"]
        if s["action"] == "compute"
    ]
    return side * side / seconds, sum(computing) / len(computing), sum(computing) / (workers * seconds)


def processes_speedup(side, tile, seed):
    """Two `stratagen pregen --shard I/2` processes at once, against one after the other:
    what the machine gives two processes with no Dask in between."""
    import subprocess

    exe = str(ROOT / "target" / "release" / "stratagen")
    region = f"0,0,{side - 1},{side - 1}"
    with tempfile.TemporaryDirectory() as tmp:
        def start(i, name):
            return subprocess.Popen(
                [exe, "pregen", "--seed", str(seed), "--region", region, "--threads", "1",
                 "--shard", f"{i}/2", "--tile", str(tile), "--out", os.path.join(tmp, name)],
                stdout=subprocess.DEVNULL,
            )

        t0 = time.perf_counter()
        for i in range(2):
            assert start(i, f"seq{i}.sqlite").wait() == 0
        sequential = time.perf_counter() - t0
        t0 = time.perf_counter()
        procs = [start(i, f"par{i}.sqlite") for i in range(2)]
        assert all(p.wait() == 0 for p in procs)
        together = time.perf_counter() - t0
    return sequential / together


def work_of(region, seed, tile):
    """(tasks, seconds) to pregenerate `region` as independent shards of `tile`, each alone."""
    n = len(stratagen.tiles(*region, tile=tile))
    tasks, seconds = 0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            r = stratagen.pregen(
                os.path.join(tmp, f"s{i}.sqlite"), *region, seed=seed, threads=2, shard=(i, n), tile=tile
            )
            tasks += r["tasks"]
            seconds += r["seconds"]
    return tasks, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--region", type=int, default=64, help="side of the Dask region, chunks")
    ap.add_argument("--tile", type=int, default=16, help="tile side for the Dask runs")
    ap.add_argument("--overhead-side", type=int, default=128, help="side of the overhead region")
    ap.add_argument("--interior-tile", type=int, default=64, help="tile of the interior-tile line")
    a = ap.parse_args()
    stratagen.keep_freed_memory()
    print(f"cpu {cpu_model()}")
    one, one_shard, one_busy = dask_chunks_per_s(1, a.region, a.tile, seed=5)
    two, two_shard, two_busy = dask_chunks_per_s(2, a.region, a.tile, seed=5)
    print(f"Dask LocalCluster, {a.region}×{a.region} chunks in tiles of {a.tile}: "
          f"1 worker process {one:.1f} chunks/s, 2 worker processes {two:.1f} chunks/s; ratio {two / one:.2f}")
    print(f"  a shard computes {one_shard:.3f} s alone, {two_shard:.3f} s beside another "
          f"({two_shard / one_shard:.2f}x); workers compute {one_busy:.0%} / {two_busy:.0%} of the run")
    bare = processes_speedup(a.region, a.tile, seed=5)
    print(f"two stratagen pregen --shard processes at once against one after the other: {bare:.2f}x")
    side = a.overhead_side
    region = (0, 0, side - 1, side - 1)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "src.sqlite"), os.path.join(tmp, "dst.sqlite")
        unsharded = stratagen.pregen(src, *region, seed=5, threads=2)
        whole, whole_s = unsharded["tasks"], unsharded["seconds"]
        size = os.path.getsize(src)
        t0 = time.perf_counter()
        stratagen.merge(dst, [src])
        seconds = time.perf_counter() - t0
    print(f"merge of {side * side} chunks ({size / 2**20:.1f} MiB, {size / side / side / 1024:.2f} KiB a chunk): "
          f"{seconds:.2f} s, {size / 2**20 / seconds:.1f} MiB/s, {side * side / seconds:.0f} chunks/s")
    print(f"shard overhead on {side}×{side} chunks (unsharded: {whole} tasks, {whole_s:.2f} s on 2 threads):")
    for tile in (16, 32, 64, 128):
        t, secs = work_of(region, seed=5, tile=tile)
        n = len(stratagen.tiles(*region, tile=tile))
        print(f"  tile {tile:3}: {n:3} shards, {t} tasks, overhead {t / whole:.3f} in tasks, "
              f"{secs / whole_s:.3f} in time")
    interior_tile(a.interior_tile, seed=5)


def interior_tile(tile, seed):
    """A tile with shards on every side, as most tiles of a large region are: the middle
    shard of a 3 × 3 plan, against its chunks' share of an unsharded run far from the run's
    edges (ten statuses, one task each)."""
    region = (0, 0, 3 * tile - 1, 3 * tile - 1)
    with tempfile.TemporaryDirectory() as tmp:
        r = stratagen.pregen(os.path.join(tmp, "mid.sqlite"), *region, seed=seed, threads=2,
                             shard=(4, 9), tile=tile)
    own = tile * tile * STATUSES
    print(f"interior tile {tile} (the middle of 3 × 3): {r['tasks']} tasks, {r['tasks'] / own:.3f}× "
          f"its chunks' {own}")


if __name__ == "__main__":
    main()
