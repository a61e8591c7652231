"""Stratagen: deterministic procedural worlds as numpy arrays.

Noise fills, chunks and meshes come out bit-for-bit the same on every machine, in every
order and with any number of threads: a chunk is a pure function of (world definition,
seed, position). Every call that generates, meshes or fills releases the GIL.

    >>> import stratagen
    >>> world = stratagen.World(seed=42)
    >>> chunks = world.region(-2, -2, 1, 1, threads=2)
    >>> chunks[0].blocks.shape
    (384, 16, 16)
"""

from ._stratagen import (
    DEFAULT_HEIGHT,
    DEFAULT_MIN_Y,
    DEFAULT_SEA_LEVEL,
    DEFAULT_TILE,
    ArgumentError,
    Chunk,
    ConflictError,
    DefinitionError,
    Error,
    ForeignWorldError,
    GenerationError,
    Mesh,
    Noise,
    NoiseError,
    RangeError,
    Store,
    StoreError,
    World,
    WorldError,
    __version__,
    check,
    definition_digest,
    keep_freed_memory,
    merge,
    presets,
    pregen,
    print_preset,
    tiles,
    xxh64,
)

__all__ = [
    "DEFAULT_HEIGHT",
    "DEFAULT_MIN_Y",
    "DEFAULT_SEA_LEVEL",
    "DEFAULT_TILE",
    "ArgumentError",
    "Chunk",
    "ConflictError",
    "DefinitionError",
    "Error",
    "ForeignWorldError",
    "GenerationError",
    "Mesh",
    "Noise",
    "NoiseError",
    "RangeError",
    "Store",
    "StoreError",
    "World",
    "WorldError",
    "__version__",
    "check",
    "definition_digest",
    "keep_freed_memory",
    "merge",
    "presets",
    "pregen",
    "print_preset",
    "tiles",
    "xxh64",
]
