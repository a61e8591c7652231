"""Type stubs of the compiled module `stratagen._stratagen` (re-exported by `stratagen`)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Literal, Optional, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

class Error(Exception): ...
class ArgumentError(Error): ...
class RangeError(ArgumentError, OverflowError):
    """An integer argument outside the range its parameter takes."""
class DefinitionError(Error): ...
class WorldError(Error): ...
class NoiseError(Error): ...
class GenerationError(Error): ...
class StoreError(Error): ...

class ConflictError(StoreError):
    x: int
    z: int
    edits: bool

class ForeignWorldError(StoreError):
    field: str
    stored: str
    wanted: str

DEFAULT_TILE: int
DEFAULT_MIN_Y: int
DEFAULT_HEIGHT: int
DEFAULT_SEA_LEVEL: int

DType = Union[str, type, np.dtype]

class Noise:
    def __init__(
        self,
        *,
        type: str = "perlin",
        fractal: str = "fbm",
        octaves: int = 4,
        frequency: float = 0.01,
        lacunarity: float = 2.0,
        gain: float = 0.5,
        seed: int = 0,
        offset: Tuple[float, float, float] = (0.0, 0.0, 0.0),
        warp_amplitude: float = 0.0,
        warp_frequency: float = 0.01,
        cellular_distance: str = "euclidean",
        cellular_return: str = "f1",
        cellular_jitter: float = 0.65,
        precision: str = "f64",
    ) -> None: ...
    def fill_2d(
        self,
        width: int,
        height: int,
        *,
        x0: float = 0.0,
        y0: float = 0.0,
        dx: float = 1.0,
        dy: float = 1.0,
        dtype: Optional[DType] = None,
    ) -> npt.NDArray[np.floating[Any]]: ...
    def fill_3d(
        self,
        width: int,
        height: int,
        depth: int,
        *,
        x0: float = 0.0,
        y0: float = 0.0,
        z0: float = 0.0,
        dx: float = 1.0,
        dy: float = 1.0,
        dz: float = 1.0,
        dtype: Optional[DType] = None,
    ) -> npt.NDArray[np.floating[Any]]: ...
    def heightmap(self, cx: int, cz: int, res: int = 16) -> npt.NDArray[np.float32]: ...
    def sample_2d(self, x: float, y: float) -> float: ...
    def sample_3d(self, x: float, y: float, z: float) -> float: ...
    def shader(
        self, language: Literal["wgsl", "glsl", "godot"] = "wgsl", dims: int = 2
    ) -> str: ...

class BlockEntity(TypedDict):
    x: int
    y: int
    z: int
    block: int
    block_name: Optional[str]
    data: int

class Spawn(TypedDict):
    creature: int
    x: int
    y: int
    z: int
    group: int

class Chunk:
    @property
    def x(self) -> int: ...
    @property
    def z(self) -> int: ...
    @property
    def min_y(self) -> int: ...
    @property
    def blocks(self) -> npt.NDArray[np.uint16]: ...
    def block(self, x: int, y: int, z: int) -> int: ...
    @property
    def biomes(self) -> npt.NDArray[np.uint8]: ...
    def heightmap(self, kind: str = "world_surface") -> npt.NDArray[np.int32]: ...
    @property
    def sky_light(self) -> npt.NDArray[np.uint8]: ...
    @property
    def block_light(self) -> npt.NDArray[np.uint8]: ...
    @property
    def block_entities(self) -> List[BlockEntity]: ...
    @property
    def spawns(self) -> List[Spawn]: ...
    @property
    def digest(self) -> int: ...

class Mesh:
    @property
    def opaque(self) -> Dict[str, npt.NDArray[Any]]: ...
    @property
    def cutout(self) -> Dict[str, npt.NDArray[Any]]: ...
    @property
    def translucent(self) -> Dict[str, npt.NDArray[Any]]: ...
    @property
    def digest(self) -> int: ...
    @property
    def quads(self) -> int: ...

class World:
    def __init__(
        self,
        seed: int = 0,
        world: str = "default",
        *,
        min_y: Optional[int] = None,
        height: Optional[int] = None,
        sea_level: Optional[int] = None,
    ) -> None: ...
    @property
    def seed(self) -> int: ...
    @property
    def min_y(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def sea_level(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def definition_digest(self) -> int: ...
    def chunk(self, cx: int, cz: int, *, threads: int = 1) -> Chunk: ...
    def region(
        self, x0: int, z0: int, x1: int, z1: int, *, threads: Optional[int] = None
    ) -> List[Chunk]: ...
    def mesh(
        self, cx: int, cz: int, *, greedy: bool = False, threads: Optional[int] = None
    ) -> Mesh: ...
    @property
    def blocks(self) -> List[Dict[str, Any]]: ...
    @property
    def biomes(self) -> List[Dict[str, Any]]: ...
    def block_id(self, name: str) -> Optional[int]: ...
    def set_block(self, x: int, y: int, z: int, block: Union[int, str]) -> None: ...
    def block(self, x: int, y: int, z: int) -> int: ...
    def changed_chunks(self) -> List[Tuple[int, int]]: ...
    @property
    def scatter_layers(self) -> List[Dict[str, Any]]: ...
    def scatter(
        self,
        x0: int,
        z0: int,
        x1: int,
        z1: int,
        *,
        layer: Optional[str] = None,
        threads: Optional[int] = None,
    ) -> "np.ndarray": ...
    def save_edits(self, cx: int, cz: int) -> bytes: ...
    def load_edits(self, record: bytes) -> Tuple[int, int]: ...

class Problem(TypedDict):
    path: str
    line: Optional[int]
    column: Optional[int]
    message: str

def check(text_or_path: str) -> List[Problem]: ...
def presets() -> List[str]: ...
def print_preset(name: str, *, json: bool = False) -> str: ...
def definition_digest(text_or_path: str) -> int: ...

class Store:
    def __init__(self, path: Union[str, "PathLike[str]"], world: str = "default") -> None: ...
    @property
    def identity(self) -> Dict[str, int]: ...
    def positions(self) -> List[Tuple[int, int]]: ...
    def chunk(self, cx: int, cz: int) -> Optional[Chunk]: ...
    def region(self, x0: int, z0: int, x1: int, z1: int) -> List[Chunk]: ...
    def __len__(self) -> int: ...

def pregen(
    path: Union[str, "PathLike[str]"],
    x0: int,
    z0: int,
    x1: int,
    z1: int,
    *,
    seed: int = 0,
    world: str = "default",
    min_y: Optional[int] = None,
    height: Optional[int] = None,
    sea_level: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    shard: Optional[Tuple[int, int]] = None,
    tile: int = ...,
) -> Dict[str, float]: ...
def merge(
    out: Union[str, "PathLike[str]"], inputs: List[Union[str, "PathLike[str]"]]
) -> List[Dict[str, int]]: ...
def tiles(x0: int, z0: int, x1: int, z1: int, *, tile: int = ...) -> List[Tuple[int, int, int, int]]: ...
def xxh64(data: bytes) -> int: ...
def keep_freed_memory() -> None: ...
