"""Pregeneration into a store and reading it back: resumable, the same chunks as
generating, and refusals of stores that are not this world's."""

import pytest

import stratagen


def test_pregen_then_read_back(tmp_path):
    path = tmp_path / "world.sqlite"
    seen = []
    report = stratagen.pregen(
        str(path), -1, 0, 1, 1, seed=9, threads=2, progress=lambda done, total: seen.append((done, total))
    )
    assert report["generated"] == 6 and report["skipped"] == 0
    assert seen[-1] == (6, 6)
    store = stratagen.Store(str(path))
    assert len(store) == 6
    assert store.positions() == sorted((x, z) for x in (-1, 0, 1) for z in (0, 1))
    assert store.identity["seed"] == 9
    world = stratagen.World(seed=9)
    generated = {(c.x, c.z): c.digest for c in world.region(-1, 0, 1, 1)}
    for x, z in store.positions():
        assert store.chunk(x, z).digest == generated[(x, z)]
    assert [c.digest for c in store.region(-1, 0, 1, 1)] == [generated[(x, z)] for z in (0, 1) for x in (-1, 0, 1)]
    assert store.chunk(5, 5) is None
    again = stratagen.pregen(str(path), -1, 0, 1, 1, seed=9)
    assert again["generated"] == 0 and again["skipped"] == 6


def test_refused_stores(tmp_path):
    path = tmp_path / "world.sqlite"
    stratagen.pregen(str(path), 0, 0, 0, 0, seed=1, world="caverns", threads=1)
    with pytest.raises(stratagen.ForeignWorldError) as e:
        stratagen.Store(str(path))
    assert e.value.field == "definition" and "another world" in str(e.value)
    assert len(stratagen.Store(str(path), world="caverns")) == 1
    with pytest.raises(stratagen.StoreError):
        stratagen.pregen(str(path), 0, 0, 0, 0, seed=2, world="caverns")
    with pytest.raises(stratagen.StoreError):
        stratagen.Store(str(tmp_path / "missing.sqlite"))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(stratagen.StoreError):
        stratagen.Store(str(junk))


def test_a_failing_progress_callback_is_raised(tmp_path):
    def stop(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        stratagen.pregen(str(tmp_path / "w.sqlite"), 0, 0, 1, 0, progress=stop)
