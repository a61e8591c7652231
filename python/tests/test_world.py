"""Worlds and chunks: array layouts checked against the chunk's own reads, the same chunks
for every thread count and request shape, and refusals."""

import numpy as np
import pytest

import stratagen


@pytest.fixture(scope="module")
def world():
    return stratagen.World(seed=3)


@pytest.fixture(scope="module")
def region(world):
    return world.region(-1, -1, 1, 0, threads=2)


def test_region_is_row_major(region):
    assert [(c.x, c.z) for c in region] == [(x, z) for z in (-1, 0) for x in (-1, 0, 1)]


def test_blocks_are_a_read_only_y_z_x_view(world, region):
    c = region[0]
    b = c.blocks
    assert b.shape == (world.height, 16, 16)
    assert b.dtype == np.uint16
    assert b.flags["C_CONTIGUOUS"]
    assert not b.flags["WRITEABLE"]
    with pytest.raises(ValueError):
        b[0, 0, 0] = 1
    with pytest.raises(ValueError):
        b.setflags(write=True)
    for x, y, z in [(0, world.min_y, 0), (15, 0, 7), (3, 62, 15), (9, world.min_y + world.height - 1, 2)]:
        assert b[y - world.min_y, z, x] == c.block(x, y, z)


def test_world_surface_is_above_the_top_non_air_block(world, region):
    c = region[1]
    b = c.blocks
    h = c.heightmap("world_surface")
    assert h.shape == (16, 16) and h.dtype == np.int32
    air = world.block_id("air")
    for z in range(16):
        for x in range(16):
            filled = np.nonzero(b[:, z, x] != air)[0]
            want = world.min_y if len(filled) == 0 else world.min_y + int(filled[-1]) + 1
            assert h[z, x] == want


def test_light_and_biomes(world, region):
    c = region[2]
    sky, block = c.sky_light, c.block_light
    assert sky.shape == block.shape == (world.height, 16, 16)
    assert sky.dtype == np.uint8 and sky.max() <= 15 and block.max() <= 15
    # Open sky above the highest block.
    assert sky[-1].min() == 15
    biomes = c.biomes
    assert biomes.shape == (4, 4) and biomes.dtype == np.uint8
    assert int(biomes.max()) < len(world.biomes)


def test_the_same_chunks_for_every_thread_count_and_shape(world, region):
    want = [c.digest for c in region]
    for threads in (0, 1, 3):
        assert [c.digest for c in world.region(-1, -1, 1, 0, threads=threads)] == want
    assert world.chunk(1, 0).digest == want[-1]
    assert stratagen.World(seed=4).chunk(1, 0).digest != want[-1]


def test_palette(world):
    blocks = world.blocks
    assert blocks[0]["name"] == "air"
    stone = world.block_id("stone")
    assert blocks[stone]["name"] == "stone" and blocks[stone]["solid"]
    assert world.block_id("no_such_block") is None
    assert {b["name"] for b in world.biomes} >= {"plains", "ocean", "desert"}


def test_mesh_arrays(world):
    m = world.mesh(0, 0, greedy=True)
    for surface in (m.opaque, m.cutout, m.translucent):
        n = surface["positions"].shape[0]
        assert surface["positions"].shape == (n, 3)
        assert surface["normals"].shape == (n, 3)
        assert surface["uvs"].shape == (n, 2)
        assert surface["colours"].shape == (n, 4)
        assert surface["indices"].shape == (6 * n // 4,)
        assert surface["blocks"].shape == (n // 4,)
        if n:
            assert int(surface["indices"].max()) < n
            assert np.allclose(np.linalg.norm(surface["normals"], axis=1), 1.0, atol=1e-6)
    assert m.quads == sum(len(s["blocks"]) for s in (m.opaque, m.cutout, m.translucent))


def test_presets_and_settings():
    w = stratagen.World(seed=1, world="archipelago", min_y=0, height=256, sea_level=80)
    assert (w.min_y, w.height, w.sea_level, w.name) == (0, 256, 80, "archipelago")
    assert w.chunk(0, 0).blocks.shape == (256, 16, 16)


def test_refusals(world):
    with pytest.raises(stratagen.ArgumentError):
        world.chunk(1 << 21, 0)
    with pytest.raises(stratagen.ArgumentError):
        world.region(0, 0, -1, 0)
    with pytest.raises(stratagen.ArgumentError):
        world.region(0, 0, 200, 200)
    with pytest.raises(stratagen.ArgumentError):
        world.region(0, 0, 0, 0, threads=100_000)
    with pytest.raises(stratagen.ArgumentError):
        world.chunk(0, 0).block(16, 0, 0)
    with pytest.raises(stratagen.ArgumentError):
        world.chunk(0, 0).heightmap("tallest")
    with pytest.raises(stratagen.WorldError):
        stratagen.World(min_y=-63)
    with pytest.raises(stratagen.WorldError):
        stratagen.World(sea_level=1000)
    with pytest.raises(stratagen.DefinitionError):
        stratagen.World(world="no-such-preset")
    with pytest.raises(TypeError):
        stratagen.World(seed="zero")
