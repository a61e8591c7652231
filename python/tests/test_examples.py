"""The examples run and write what they say."""

import pathlib
import runpy

import numpy as np

import stratagen

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_biome_map(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / "biome_map.py"), run_name="__main__")
    data = (tmp_path / "biome_map.ppm").read_bytes()
    header = b"P6 64 64 255\n"
    assert data.startswith(header)
    pixels = np.frombuffer(data[len(header):], dtype=np.uint8).reshape(64, 64, 3)
    # Pixel (z, x) of the map is the biome of its cell: check one against the chunk itself.
    world = stratagen.World(seed=42)
    chunk = world.chunk(-8 + 5, -8 + 2)  # the chunk holding cells x 20..24, z 8..12
    biome = int(chunk.biomes[1, 3])  # its cell (z 1, x 3): map pixel (8 + 1, 20 + 3)
    assert tuple(pixels[9, 23]) == tuple(world.biomes[biome]["colour"])
