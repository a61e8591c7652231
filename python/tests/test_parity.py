"""The Python binding gives the Rust parity corpus's digests: the same noise fills, full
chunks and meshes, bit for bit (tests/snapshots/parity__parity_corpus.snap)."""

import re

import pytest

import stratagen

NOISE = re.compile(r"^noise (\w+)-(\w+)-warp([0-9.]+) 2d ([0-9a-f]{16}) 3d ([0-9a-f]{16})$")
CHUNK = re.compile(r"^chunk \S+ seed (-?\d+) \((-?\d+), (-?\d+)\) full ([0-9a-f]{16})$")
MESH = re.compile(r"^mesh origin seed 0 \(0, 0\) (culled|greedy) quads (\d+) ([0-9a-f]{16})$")


def matching(lines, pattern):
    found = [pattern.match(line) for line in lines]
    return [m.groups() for m in found if m]


def test_noise_fills_match_the_corpus(corpus_lines):
    cases = matching(corpus_lines, NOISE)
    assert len(cases) == 24
    for noise_type, fractal, warp, want2, want3 in cases:
        n = stratagen.Noise(
            type=noise_type.lower(),
            fractal=fractal.lower(),
            octaves=4,
            frequency=0.043,
            seed=99,
            warp_amplitude=float(warp),
        )
        a2 = n.fill_2d(24, 16, x0=-33.5, y0=16_777_000.25, dx=0.75, dy=1.25)
        a3 = n.fill_3d(8, 12, 8, x0=5.0, y0=-64.0, z0=-9.0, dx=1.0, dy=2.0, dz=1.0)
        label = f"{noise_type}-{fractal}-warp{warp}"
        assert f"{stratagen.xxh64(a2.tobytes()):016x}" == want2, label
        assert f"{stratagen.xxh64(a3.tobytes()):016x}" == want3, label


@pytest.mark.parametrize("index", range(9))
def test_full_chunks_match_the_corpus(corpus_lines, index):
    cases = matching(corpus_lines, CHUNK)
    assert len(cases) == 9
    seed, x, z, want = cases[index]
    chunk = stratagen.World(seed=int(seed)).chunk(int(x), int(z), threads=2)
    assert f"{chunk.digest:016x}" == want


def test_meshes_match_the_corpus(corpus_lines):
    cases = matching(corpus_lines, MESH)
    assert len(cases) == 2
    world = stratagen.World(seed=0)
    for mode, quads, want in cases:
        m = world.mesh(0, 0, greedy=(mode == "greedy"))
        assert m.quads == int(quads), mode
        assert f"{m.digest:016x}" == want, mode
