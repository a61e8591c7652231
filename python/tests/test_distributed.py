"""Pregeneration on a Dask LocalCluster of worker processes, one of them killed mid-run: the
merged store equals the region generated on one machine."""

import os
import signal
import sqlite3
import threading
import time

import pytest

import stratagen

distributed = pytest.importorskip("distributed")
import stratagen.distributed  # noqa: E402

REGION = (-16, -16, 15, 15)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def store_digests(path):
    store = stratagen.Store(str(path))
    return {(c.x, c.z): c.digest for c in store.region(*REGION)}


def test_a_killed_worker_changes_nothing(client, tmp_path):
    out = tmp_path / "world.sqlite"
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = threading.Event()

    def kill_soon():
        # Once the first shards are merged, kill a worker process mid-run.
        while not out.exists():
            time.sleep(0.05)
        time.sleep(0.3)
        os.kill(victim, signal.SIGKILL)
        killed.set()

    killer = threading.Thread(target=kill_soon, daemon=True)
    killer.start()
    result = stratagen.distributed.pregenerate(client, str(out), REGION, seed=7, tile=8)
    killer.join(timeout=60)
    assert killed.is_set()
    assert result["shards"] == 16
    assert result["copied"] == 32 * 32

    with sqlite3.connect(out) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*), COUNT(DISTINCT x || ',' || z) FROM chunks").fetchone() == (1024, 1024)
    world = stratagen.World(seed=7)
    want = {(c.x, c.z): c.digest for c in world.region(*REGION, threads=2)}
    assert store_digests(out) == want

    # Again into the same store: every row is there already, byte for byte.
    again = stratagen.distributed.pregenerate(client, str(out), REGION, seed=7, tile=8)
    assert again["copied"] == 0 and again["identical"] == 1024


def test_shared_directory_mode(client, tmp_path):
    out = tmp_path / "world.sqlite"
    shared = tmp_path / "shards"
    shared.mkdir()
    region = (0, 0, 11, 7)
    result = stratagen.distributed.pregenerate(
        client, str(out), region, seed=3, world="archipelago", tile=4, shared_dir=str(shared)
    )
    assert result["shards"] == 6 and result["copied"] == 96
    assert len(list(shared.glob("*.sqlite"))) == 6
    store = stratagen.Store(str(out), world="archipelago")
    world = stratagen.World(seed=3, world="archipelago")
    assert [c.digest for c in store.region(*region)] == [c.digest for c in world.region(*region)]


def test_refusals(client, tmp_path):
    with pytest.raises(stratagen.DefinitionError):
        stratagen.distributed.pregenerate(client, str(tmp_path / "a.sqlite"), (0, 0, 1, 1), world="nope")
    with pytest.raises(stratagen.ArgumentError):
        stratagen.distributed.pregenerate(client, str(tmp_path / "b.sqlite"), (0, 0, 1, 1), tile=0)
    other = tmp_path / "other.sqlite"
    stratagen.pregen(str(other), 0, 0, 0, 0, seed=99, threads=1)
    with pytest.raises(stratagen.StoreError):
        stratagen.distributed.pregenerate(client, str(other), (0, 0, 1, 0), seed=1, tile=1)
    assert len(stratagen.Store(str(other))) == 1
