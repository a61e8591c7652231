//! The C enums other than `sg_result`, each declared once and converted from its `uint32_t`
//! wire value by `TryFrom<u32>`, and into the core's types by an exhaustive match.

use stratagen_core::engine::{ChunkStatus, Priority, Retention};
use stratagen_core::noise::{
    CellularDistance, CellularReturn, FractalType, NoiseType, Precision, ShaderLanguage,
};
use stratagen_core::world::Heightmap;

use crate::result::{c_enum_from_u32, sg_result};

/// Chunk statuses, in ladder order.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_status {
    /// Nothing generated.
    Empty = 0,
    /// Structure starts.
    StructureStarts = 1,
    /// Structure references.
    StructureReferences = 2,
    /// Biomes.
    Biomes = 3,
    /// Terrain.
    Terrain = 4,
    /// Features.
    Features = 5,
    /// Light initialised (blocks merged).
    InitializeLight = 6,
    /// Light.
    Light = 7,
    /// Spawn requests.
    Spawn = 8,
    /// Finished.
    Full = 9,
}

/// Request priorities.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_priority {
    /// Needed now.
    Immediate = 0,
    /// Needed soon.
    Soon = 1,
    /// Pre-generation.
    Idle = 2,
}

/// Which outputs a world's resident chunks keep.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_retention {
    /// Every status's output while the chunk is resident (the default): any resident chunk
    /// can be saved with `sg_world_save_chunk`.
    AllStatuses = 0,
    /// A full chunk keeps only its finished output once its neighbours no longer read the
    /// rest (about a third less memory per chunk); such a chunk cannot be saved as a record.
    FullChunks = 1,
}

/// Heightmap kinds.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_heightmap {
    /// y + 1 of the top non-air block.
    WorldSurface = 0,
    /// y + 1 of the top solid block.
    OceanFloor = 1,
    /// y + 1 of the top solid or fluid block.
    MotionBlocking = 2,
    /// y + 1 of the top solid (not leaves) or fluid block.
    MotionBlockingNoLeaves = 3,
}

/// Light kinds.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_light {
    /// Sky light.
    Sky = 0,
    /// Block light.
    Block = 1,
}

/// Base noise types (see `sg_noise_def`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_noise_type {
    /// Value noise.
    Value = 0,
    /// Perlin noise.
    Perlin = 1,
    /// Simplex noise.
    Simplex = 2,
    /// Cellular noise.
    Cellular = 3,
}

/// Fractal types.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_fractal {
    /// One octave.
    None = 0,
    /// fBm.
    Fbm = 1,
    /// Ridged.
    Ridged = 2,
    /// Billow.
    Billow = 3,
}

/// Noise precisions: the values of `sg_noise_def.precision`. Each is its own noise (different
/// values, the same character and ranges); both give the same bits on every platform.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_precision {
    /// Double precision throughout (the default).
    F64 = 0,
    /// Single precision after each axis is split into a whole cell and a fraction (far
    /// coordinates keep their precision): twice the samples per vector instruction.
    F32 = 1,
}

/// Shader languages: the values of `sg_noise_shader`'s `language`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_shader_language {
    /// WGSL (WebGPU).
    Wgsl = 0,
    /// GLSL ES 3.0 (WebGL2); declare `precision highp float; precision highp int;` first.
    Glsl = 1,
    /// Godot 4's shading language.
    Godot = 2,
}

/// Cellular distance functions: the values of `sg_noise_def.cellular_distance`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_cellular_distance {
    /// Straight-line distance to the feature point.
    Euclidean = 0,
    /// Sum of the axis distances.
    Manhattan = 1,
}

/// What cellular noise returns: the values of `sg_noise_def.cellular_return`. Every value is
/// mapped into about `[-1, 1]`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_cellular_return {
    /// Distance to the nearest feature point.
    F1 = 0,
    /// Distance to the second nearest.
    F2 = 1,
    /// The second distance minus the first (cell borders).
    F2MinusF1 = 2,
    /// A random value per cell (flat cells).
    CellValue = 3,
}

c_enum_from_u32!(
    sg_status,
    sg_result::BadEnum,
    [
        Empty,
        StructureStarts,
        StructureReferences,
        Biomes,
        Terrain,
        Features,
        InitializeLight,
        Light,
        Spawn,
        Full,
    ]
);
c_enum_from_u32!(sg_priority, sg_result::BadEnum, [Immediate, Soon, Idle]);
c_enum_from_u32!(sg_retention, sg_result::BadEnum, [AllStatuses, FullChunks]);
c_enum_from_u32!(
    sg_heightmap,
    sg_result::BadEnum,
    [
        WorldSurface,
        OceanFloor,
        MotionBlocking,
        MotionBlockingNoLeaves
    ]
);
c_enum_from_u32!(sg_light, sg_result::BadEnum, [Sky, Block]);
c_enum_from_u32!(
    sg_noise_type,
    sg_result::BadEnum,
    [Value, Perlin, Simplex, Cellular]
);
c_enum_from_u32!(sg_fractal, sg_result::BadEnum, [None, Fbm, Ridged, Billow]);
c_enum_from_u32!(sg_precision, sg_result::BadEnum, [F64, F32]);
c_enum_from_u32!(sg_shader_language, sg_result::BadEnum, [Wgsl, Glsl, Godot]);
c_enum_from_u32!(
    sg_cellular_distance,
    sg_result::BadEnum,
    [Euclidean, Manhattan]
);
c_enum_from_u32!(
    sg_cellular_return,
    sg_result::BadEnum,
    [F1, F2, F2MinusF1, CellValue]
);

/// Convert a wire value to a C enum and on to the core type.
pub(crate) fn from_wire<C, T>(v: u32) -> Result<T, sg_result>
where
    C: TryFrom<u32, Error = sg_result>,
    T: From<C>,
{
    C::try_from(v).map(T::from)
}

impl From<sg_status> for ChunkStatus {
    fn from(s: sg_status) -> ChunkStatus {
        match s {
            sg_status::Empty => ChunkStatus::Empty,
            sg_status::StructureStarts => ChunkStatus::StructureStarts,
            sg_status::StructureReferences => ChunkStatus::StructureReferences,
            sg_status::Biomes => ChunkStatus::Biomes,
            sg_status::Terrain => ChunkStatus::Terrain,
            sg_status::Features => ChunkStatus::Features,
            sg_status::InitializeLight => ChunkStatus::InitializeLight,
            sg_status::Light => ChunkStatus::Light,
            sg_status::Spawn => ChunkStatus::Spawn,
            sg_status::Full => ChunkStatus::Full,
        }
    }
}

impl From<sg_priority> for Priority {
    fn from(p: sg_priority) -> Priority {
        match p {
            sg_priority::Immediate => Priority::Immediate,
            sg_priority::Soon => Priority::Soon,
            sg_priority::Idle => Priority::Idle,
        }
    }
}

impl From<sg_retention> for Retention {
    fn from(r: sg_retention) -> Retention {
        match r {
            sg_retention::AllStatuses => Retention::AllStatuses,
            sg_retention::FullChunks => Retention::FullChunks,
        }
    }
}

impl From<sg_heightmap> for Heightmap {
    fn from(h: sg_heightmap) -> Heightmap {
        match h {
            sg_heightmap::WorldSurface => Heightmap::WorldSurface,
            sg_heightmap::OceanFloor => Heightmap::OceanFloor,
            sg_heightmap::MotionBlocking => Heightmap::MotionBlocking,
            sg_heightmap::MotionBlockingNoLeaves => Heightmap::MotionBlockingNoLeaves,
        }
    }
}

impl From<sg_noise_type> for NoiseType {
    fn from(t: sg_noise_type) -> NoiseType {
        match t {
            sg_noise_type::Value => NoiseType::Value,
            sg_noise_type::Perlin => NoiseType::Perlin,
            sg_noise_type::Simplex => NoiseType::Simplex,
            sg_noise_type::Cellular => NoiseType::Cellular,
        }
    }
}

impl From<sg_precision> for Precision {
    fn from(p: sg_precision) -> Precision {
        match p {
            sg_precision::F64 => Precision::F64,
            sg_precision::F32 => Precision::F32,
        }
    }
}

impl From<sg_shader_language> for ShaderLanguage {
    fn from(l: sg_shader_language) -> ShaderLanguage {
        match l {
            sg_shader_language::Wgsl => ShaderLanguage::Wgsl,
            sg_shader_language::Glsl => ShaderLanguage::Glsl,
            sg_shader_language::Godot => ShaderLanguage::Godot,
        }
    }
}

impl From<sg_fractal> for FractalType {
    fn from(f: sg_fractal) -> FractalType {
        match f {
            sg_fractal::None => FractalType::None,
            sg_fractal::Fbm => FractalType::Fbm,
            sg_fractal::Ridged => FractalType::Ridged,
            sg_fractal::Billow => FractalType::Billow,
        }
    }
}

impl From<sg_cellular_distance> for CellularDistance {
    fn from(d: sg_cellular_distance) -> CellularDistance {
        match d {
            sg_cellular_distance::Euclidean => CellularDistance::Euclidean,
            sg_cellular_distance::Manhattan => CellularDistance::Manhattan,
        }
    }
}

impl From<sg_cellular_return> for CellularReturn {
    fn from(r: sg_cellular_return) -> CellularReturn {
        match r {
            sg_cellular_return::F1 => CellularReturn::F1,
            sg_cellular_return::F2 => CellularReturn::F2,
            sg_cellular_return::F2MinusF1 => CellularReturn::F2MinusF1,
            sg_cellular_return::CellValue => CellularReturn::CellValue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C numbers equal the core's numbers for every variant, every variant converts
    /// from its number, and one past the last is `SG_RESULT_BAD_ENUM`.
    #[test]
    fn wire_values_match_the_core() {
        assert_eq!(sg_status::VARIANTS.len(), ChunkStatus::COUNT);
        for &s in sg_status::VARIANTS {
            assert_eq!(ChunkStatus::from(s).index() as u32, s as u32);
            assert_eq!(sg_status::try_from(s as u32), Ok(s));
        }
        assert_eq!(
            sg_status::try_from(ChunkStatus::COUNT as u32),
            Err(sg_result::BadEnum)
        );
        for &p in sg_priority::VARIANTS {
            assert_eq!(Priority::from(p) as u32, p as u32);
        }
        assert_eq!(sg_priority::try_from(3), Err(sg_result::BadEnum));
        for &r in sg_retention::VARIANTS {
            assert_eq!(Retention::from(r) as u32, r as u32);
        }
        assert_eq!(sg_retention::try_from(2), Err(sg_result::BadEnum));
        assert_eq!(sg_heightmap::VARIANTS.len(), Heightmap::ALL.len());
        for &h in sg_heightmap::VARIANTS {
            assert_eq!(Heightmap::from(h) as u32, h as u32);
        }
        assert_eq!(sg_heightmap::try_from(4), Err(sg_result::BadEnum));
        for (k, &l) in sg_light::VARIANTS.iter().enumerate() {
            assert_eq!(sg_light::try_from(k as u32), Ok(l));
        }
        assert_eq!(sg_light::try_from(2), Err(sg_result::BadEnum));
        for &t in sg_noise_type::VARIANTS {
            assert_eq!(NoiseType::from(t) as u32, t as u32);
        }
        for &f in sg_fractal::VARIANTS {
            assert_eq!(FractalType::from(f) as u32, f as u32);
        }
        for &d in sg_cellular_distance::VARIANTS {
            assert_eq!(CellularDistance::from(d) as u32, d as u32);
        }
        for &r in sg_cellular_return::VARIANTS {
            assert_eq!(CellularReturn::from(r) as u32, r as u32);
        }
        for &p in sg_precision::VARIANTS {
            assert_eq!(Precision::from(p) as u32, p as u32);
        }
        assert_eq!(sg_precision::try_from(2), Err(sg_result::BadEnum));
        let languages = [
            ShaderLanguage::Wgsl,
            ShaderLanguage::Glsl,
            ShaderLanguage::Godot,
        ];
        for (&l, want) in sg_shader_language::VARIANTS.iter().zip(languages) {
            assert_eq!(from_wire::<sg_shader_language, _>(l as u32), Ok(want));
        }
        assert_eq!(sg_shader_language::try_from(3), Err(sg_result::BadEnum));
        assert_eq!(sg_noise_type::try_from(4), Err(sg_result::BadEnum));
        assert_eq!(sg_fractal::try_from(4), Err(sg_result::BadEnum));
        assert_eq!(sg_cellular_return::try_from(4), Err(sg_result::BadEnum));
    }
}
