"""A biome map of 16 × 16 chunks around the origin, written as biome_map.ppm: one pixel per
4 × 4 column cell, in each biome's map colour."""

import numpy as np

import stratagen

world = stratagen.World(seed=42)
colours = np.array([b["colour"] for b in world.biomes], dtype=np.uint8)
chunks = world.region(-8, -8, 7, 7, threads=2)  # row-major: z, then x
cells = np.stack([c.biomes for c in chunks]).reshape(16, 16, 4, 4)  # [cz, cx, z, x]
image = colours[cells.transpose(0, 2, 1, 3).reshape(64, 64)]  # [z, x, rgb]
with open("biome_map.ppm", "wb") as f:
    f.write(b"P6 64 64 255\n" + image.tobytes())
print("wrote biome_map.ppm:", ", ".join(sorted({world.biomes[i]["name"] for i in np.unique(cells)})))
