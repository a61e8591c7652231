"""Pregenerating a world across a Dask cluster.

A chunk is a pure function of (definition, seed, position), so a region is a bag of shards
that any worker on any machine generates on its own: `pregenerate` submits one Dask task per
tile of the region (pure, retryable, keyed by the shard's identity), each running the Rust
shard pregeneration with the GIL released into a store of its own, and merges the shard
stores into one on the client as they arrive. The merged store holds exactly the chunks one
machine would have made: `stratagen digest --from` proves it.

    >>> from dask.distributed import Client
    >>> import stratagen.distributed
    >>> client = Client("tcp://scheduler:8786")
    >>> stratagen.distributed.pregenerate(client, "world.sqlite", (-128, -128, 127, 127), seed=5)

Shard stores travel back to the client as bytes (about 7 KiB a chunk), or stay on a
filesystem every worker and the client share (`shared_dir`), where a shard a dead worker
left half done resumes instead of starting over.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from typing import Any, Dict, Optional, Tuple

import stratagen

__all__ = ["pregenerate", "shard_key"]

Region = Tuple[int, int, int, int]


def _spec(world: str) -> str:
    """What a worker needs to rebuild the definition: a preset's name, else the text."""
    if world in stratagen.presets():
        return world
    if "\n" not in world and os.path.isfile(world):
        with open(world, encoding="utf-8") as f:
            return f.read()
    return world


def shard_key(world: str, seed: int, settings: Tuple[int, int, int], region: Region, tile: int) -> str:
    """The key prefix of a plan's shards: the same world, settings, region and tile give the
    same keys, so Dask treats a rerun as the same (pure) tasks."""
    identity = "|".join(
        str(v)
        for v in (stratagen.definition_digest(world), seed, *settings, *region, tile)
    )
    return "stratagen-shard-" + hashlib.sha256(identity.encode()).hexdigest()[:16]


def _run_shard(
    spec: str,
    seed: int,
    settings: Tuple[int, int, int],
    region: Region,
    tile: int,
    index: int,
    count: int,
    key: str,
    shared_dir: Optional[str],
    threads: int,
) -> Dict[str, Any]:
    """One shard, on a worker: pregenerate its tiles into a store of its own and hand the
    store back (its path on the shared filesystem, or its bytes)."""
    stratagen.keep_freed_memory()
    min_y, height, sea_level = settings
    kwargs = dict(
        seed=seed,
        world=spec,
        min_y=min_y,
        height=height,
        sea_level=sea_level,
        threads=threads,
        shard=(index, count),
        tile=tile,
    )
    if shared_dir is not None:
        path = os.path.join(shared_dir, f"{key}-{index}-of-{count}.sqlite")
        report = stratagen.pregen(path, *region, **kwargs)
        return {"index": index, "path": path, "report": report}
    with tempfile.TemporaryDirectory(prefix="stratagen-shard-") as tmp:
        path = os.path.join(tmp, "shard.sqlite")
        report = stratagen.pregen(path, *region, **kwargs)
        # The store's connection is closed: the file holds every committed row.
        with open(path, "rb") as f:
            data = f.read()
    return {"index": index, "bytes": data, "report": report}


def pregenerate(
    client: Any,
    out: str,
    region: Region,
    *,
    world: str = "default",
    seed: int = 0,
    min_y: Optional[int] = None,
    height: Optional[int] = None,
    sea_level: Optional[int] = None,
    tile: int = stratagen.DEFAULT_TILE,
    shared_dir: Optional[str] = None,
    threads: int = 1,
    retries: int = 3,
    progress: bool = False,
) -> Dict[str, int]:
    """Pregenerate the full chunks of the inclusive `region` (x0, z0, x1, z1) on the Dask
    cluster of `client` into the SQLite store `out` (created if missing; chunks it holds
    already must be identical).

    `min_y`, `height` and `sea_level` default to the library's (as `stratagen.World`).
    The region is cut into tiles of `tile` chunks a side; each tile is one task, run on
    `threads` threads of its worker (1 suits a worker with one Dask thread per core). Tasks
    are pure and retried up to `retries` times: a worker that dies has its shards run again
    elsewhere. With `shared_dir`, shard stores are written there (a directory every worker
    and the client see) and a rerun resumes them; otherwise they come back as bytes.
    `progress` shows Dask's progress bar. Returns the shard count and the rows the merge
    `copied` and found `identical` already.
    """
    x0, z0, x1, z1 = region
    plan = stratagen.tiles(x0, z0, x1, z1, tile=tile)
    count = len(plan)
    # Refuse a bad definition or settings here, before any task is sent; the world's
    # settings, defaults filled in, are what the shards run with and are keyed by.
    w = stratagen.World(seed=seed, world=world, min_y=min_y, height=height, sea_level=sea_level)
    settings = (w.min_y, w.height, w.sea_level)
    key = shard_key(world, seed, settings, region, tile)
    spec = _spec(world)
    futures = [
        client.submit(
            _run_shard,
            spec,
            seed,
            settings,
            region,
            tile,
            i,
            count,
            key,
            shared_dir,
            threads,
            key=f"{key}-{i}-of-{count}",
            pure=True,
            retries=retries,
        )
        for i in range(count)
    ]
    from distributed import as_completed
    from distributed import progress as show_progress

    if progress:
        show_progress(futures)
    totals = {"shards": count, "copied": 0, "identical": 0}
    out_dir = os.path.dirname(os.path.abspath(out))
    for future in as_completed(futures):
        result = future.result()
        if "path" in result:
            reports = stratagen.merge(out, [result["path"]])
        else:
            fd, tmp = tempfile.mkstemp(prefix=".shard-", suffix=".sqlite", dir=out_dir)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(result["bytes"])
                reports = stratagen.merge(out, [tmp])
            finally:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(tmp + suffix):
                        os.remove(tmp + suffix)
        totals["copied"] += reports[0]["copied"]
        totals["identical"] += reports[0]["identical"]
        future.release()
    return totals
