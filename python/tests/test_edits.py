"""Edits: a world is its seed plus the player's changes. Edited blocks show in every chunk
the world returns, light follows them (known values around a glowstone in open air), the
edit records reload into a fresh world with the same digests, and refusals change nothing."""

import pytest

import stratagen


def pit_and_lamp(w):
    for y in range(50, 81):
        for z in range(-2, 3):
            for x in range(-2, 3):
                w.set_block(x, y, z, "air")
    w.set_block(0, 300, 0, "glowstone")
    w.set_block(17, 70, -3, w.block_id("torch"))


def test_edits_show_and_light_follows():
    w = stratagen.World(seed=5)
    before = w.chunk(0, 0)
    pit_and_lamp(w)
    c = w.chunk(0, 0)
    assert c.block(1, 60, 1) == w.block_id("air")
    assert c.block(0, 300, 0) == w.block_id("glowstone")
    assert c.digest != before.digest
    # Glowstone (emission 15) in open air: 15 - d at d blocks along x + y + z.
    light = c.block_light
    for d in range(1, 6):
        assert light[300 - w.min_y + d, 0, 0] == 15 - d
        assert light[300 - w.min_y, 0, d] == 15 - d
    assert w.block(0, 300, 0) == w.block_id("glowstone")
    assert w.block(0, 301, 0) == w.block_id("air")
    assert (0, 0) in w.changed_chunks()
    assert w.changed_chunks() == []


def test_saved_edits_reload_into_a_fresh_world():
    w = stratagen.World(seed=5)
    pit_and_lamp(w)
    records = [w.save_edits(x, z) for z in (-1, 0, 1) for x in (-1, 0, 1)]
    fresh = stratagen.World(seed=5)
    for r in records:
        fresh.load_edits(r)
    want = [c.digest for c in w.region(-1, -1, 1, 1, threads=2)]
    assert [c.digest for c in fresh.region(-1, -1, 1, 1, threads=1)] == want
    plain = stratagen.World(seed=5)
    assert [c.digest for c in plain.region(-1, -1, 1, 1)] != want


def test_refusals_change_nothing():
    w = stratagen.World(seed=5)
    with pytest.raises(stratagen.ArgumentError, match="outside the world"):
        w.set_block(0, 400, 0, "stone")
    with pytest.raises(stratagen.ArgumentError, match="no block is named"):
        w.set_block(0, 70, 0, "granite")
    with pytest.raises(stratagen.ArgumentError, match="not in the world's palette"):
        w.set_block(0, 70, 0, 9999)
    assert w.changed_chunks() == []
    w.set_block(3, 70, 3, "stone")
    record = bytearray(w.save_edits(0, 0))
    record[len(record) // 2] ^= 0x08
    other = stratagen.World(seed=5)
    with pytest.raises(stratagen.StoreError, match="checksum"):
        other.load_edits(bytes(record))
    with pytest.raises(stratagen.StoreError, match="another world"):
        stratagen.World(seed=6).load_edits(w.save_edits(0, 0))
    assert other.changed_chunks() == []
