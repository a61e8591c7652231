//! [`Definition::from_bytes`]: the canonical encoding ([`Definition::to_bytes`]) read back,
//! every length and enum checked, then [`Definition::check`]. Hosts without a text parser (the
//! cross-architecture parity harness) take definitions this way.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::noise::{CellularDistance, CellularReturn, FractalType, NoiseDef, NoiseType, Precision};
use crate::util::bytes::{Cursor, LeReader};
use crate::world::block::{BlockProps, Shape, Surface};
use crate::world::definition::canonical::{ENCODING, PRECISION_SHIFT, SCATTER_TAG};
use crate::world::definition::*;
use crate::world::palette::Palette;
use crate::world::scatter::{ScatterKind, ScatterLayer};
use crate::world::structure::StructureKind;

/// Why [`Definition::from_bytes`] refused its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes end early, have bytes left over, or hold a value no encoder writes (the
    /// offset where reading stopped and what was expected).
    Malformed(usize, &'static str),
    /// An encoding version this library does not read.
    Version(u32),
    /// The decoded definition fails [`Definition::check`] (the first problem).
    Invalid(DefinitionError),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Malformed(at, what) => write!(f, "byte {}: {}", at, what),
            DecodeError::Version(v) => write!(f, "definition encoding version {}", v),
            DecodeError::Invalid(e) => write!(f, "{}", e),
        }
    }
}

/// Longest list the decoder accepts (a forged length cannot ask for more memory).
const MAX_LIST: u64 = 1 << 20;

struct Reader<'a> {
    bytes: Cursor<'a>,
}

type R<T> = Result<T, DecodeError>;

impl<'a> LeReader<'a> for Reader<'a> {
    type Error = DecodeError;
    fn take(&mut self, n: usize) -> R<&'a [u8]> {
        let at = self.bytes.position();
        self.bytes
            .take(n)
            .ok_or(DecodeError::Malformed(at, "ends early"))
    }
}

impl<'a> Reader<'a> {
    fn bad<T>(&self, what: &'static str) -> R<T> {
        Err(DecodeError::Malformed(self.bytes.position(), what))
    }
    fn bool(&mut self) -> R<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => self.bad("a flag is 0 or 1"),
        }
    }
    fn len(&mut self) -> R<usize> {
        let n = self.u64()?;
        if n > MAX_LIST {
            return self.bad("a list longer than any definition's");
        }
        Ok(n as usize)
    }
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let n = self.len()?;
        let mut v = Vec::with_capacity(n.min(4096));
        for _ in 0..n {
            v.push(item(self)?);
        }
        Ok(v)
    }
    fn str(&mut self) -> R<String> {
        let n = self.len()?;
        let bytes = self.take(n)?;
        match core::str::from_utf8(bytes) {
            Ok(s) => Ok(String::from(s)),
            Err(_) => self.bad("a name is not UTF-8"),
        }
    }
    fn ids(&mut self) -> R<Vec<u16>> {
        self.list(|r| r.u16())
    }
    fn bytes(&mut self) -> R<Vec<u8>> {
        let n = self.len()?;
        Ok(self.take(n)?.to_vec())
    }
    fn scatter_layer(&mut self) -> R<ScatterLayer> {
        let name = self.str()?;
        let radius = self.f64()?;
        let density = self.f64()?;
        let biomes = self.bytes()?;
        let on = self.ids()?;
        let height = (self.i32()?, self.i32()?);
        let max_slope = self.u32()?;
        let kinds = self.list(|r| {
            Ok(ScatterKind {
                name: r.str()?,
                weight: r.u32()?,
            })
        })?;
        let scale = (f32::from_bits(self.u32()?), f32::from_bits(self.u32()?));
        let align_to_normal = self.bool()?;
        let density_noise = match self.u8()? {
            0 => None,
            1 => Some(self.noise()?),
            _ => return self.bad("an option tag is 0 or 1"),
        };
        Ok(ScatterLayer {
            name,
            radius,
            density,
            density_noise,
            biomes,
            on,
            height,
            max_slope,
            kinds,
            scale,
            align_to_normal,
        })
    }
    fn opt_u16(&mut self) -> R<Option<u16>> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(self.u16()?)),
            _ => self.bad("an option tag is 0 or 1"),
        }
    }
    fn pick<E: Copy>(&mut self, v: u32, all: &[E], what: &'static str) -> R<E> {
        match all.get(v as usize) {
            Some(e) => Ok(*e),
            None => self.bad(what),
        }
    }
    fn noise(&mut self) -> R<NoiseDef> {
        let seed = self.i64()?;
        let t = self.u32()?;
        let precision = self.pick(
            t >> PRECISION_SHIFT,
            &[Precision::F64, Precision::F32],
            "an unknown noise precision",
        )?;
        let noise_type = self.pick(
            t & ((1 << PRECISION_SHIFT) - 1),
            &[
                NoiseType::Value,
                NoiseType::Perlin,
                NoiseType::Simplex,
                NoiseType::Cellular,
            ],
            "an unknown noise type",
        )?;
        let f = self.u32()?;
        let fractal = self.pick(
            f,
            &[
                FractalType::None,
                FractalType::Fbm,
                FractalType::Ridged,
                FractalType::Billow,
            ],
            "an unknown fractal",
        )?;
        let octaves = self.u32()?;
        let (frequency, lacunarity, gain) = (self.f64()?, self.f64()?, self.f64()?);
        let offset = [self.f64()?, self.f64()?, self.f64()?];
        let d = self.u32()?;
        let cellular_distance = self.pick(
            d,
            &[CellularDistance::Euclidean, CellularDistance::Manhattan],
            "an unknown cellular distance",
        )?;
        let c = self.u32()?;
        let cellular_return = self.pick(
            c,
            &[
                CellularReturn::F1,
                CellularReturn::F2,
                CellularReturn::F2MinusF1,
                CellularReturn::CellValue,
            ],
            "an unknown cellular return",
        )?;
        Ok(NoiseDef {
            seed,
            noise_type,
            fractal,
            octaves,
            frequency,
            lacunarity,
            gain,
            offset,
            cellular_distance,
            cellular_return,
            cellular_jitter: self.f64()?,
            warp_amplitude: self.f64()?,
            warp_frequency: self.f64()?,
            precision,
        })
    }
    fn block(&mut self) -> R<(String, BlockProps)> {
        let name = self.str()?;
        let (solid, liquid, replaceable, leaves, tinted) = (
            self.bool()?,
            self.bool()?,
            self.bool()?,
            self.bool()?,
            self.bool()?,
        );
        let (emission, opacity) = (self.u8()?, self.u8()?);
        let s = self.u8()?;
        let shape = self.pick(
            u32::from(s),
            &[
                Shape::None,
                Shape::Cube,
                Shape::Cross,
                Shape::Fluid,
                Shape::Layer,
            ],
            "an unknown block shape",
        )?;
        let s = self.u8()?;
        let surface = self.pick(
            u32::from(s),
            &[Surface::Opaque, Surface::Cutout, Surface::Translucent],
            "an unknown surface",
        )?;
        let colour = self.array()?;
        Ok((
            name,
            BlockProps {
                solid,
                liquid,
                emission,
                opacity,
                replaceable,
                leaves,
                shape,
                surface,
                colour,
                tinted,
            },
        ))
    }
    fn spline(&mut self) -> R<Spline> {
        Ok(Spline {
            knots: self.list(|r| Ok((r.f64()?, r.f64()?)))?,
        })
    }
    fn ramp(&mut self) -> R<Ramp> {
        Ok(Ramp {
            from: self.f64()?,
            width: self.f64()?,
        })
    }
    fn rules(&mut self) -> R<Vec<SurfaceRule>> {
        self.list(|r| {
            let underwater = match r.u8()? {
                0 => None,
                1 => Some(false),
                2 => Some(true),
                _ => return r.bad("an underwater tag is 0, 1 or 2"),
            };
            let some = r.bool()?;
            let slope = r.f64()?;
            let min_slope = if some { Some(slope) } else { None };
            let some = r.bool()?;
            let v = r.i32()?;
            let above_sea = if some { Some(v) } else { None };
            let some = r.bool()?;
            let v = r.i32()?;
            let below_sea = if some { Some(v) } else { None };
            let jitter = match r.u8()? {
                0 => None,
                j => Some(j - 1),
            };
            Ok(SurfaceRule {
                underwater,
                min_slope,
                above_sea,
                below_sea,
                jitter,
                top: r.u16()?,
                under: r.u16()?,
                depth: r.i32()?,
            })
        })
    }
    fn interval(&mut self) -> R<Interval> {
        Ok((self.f64()?, self.f64()?))
    }
}

impl Definition {
    /// Read a definition written by [`Definition::to_bytes`]; refused unless every byte is
    /// read and the result passes [`Definition::check`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Definition, DecodeError> {
        let mut r = Reader {
            bytes: Cursor::new(bytes),
        };
        let name = r.str()?;
        let version = r.u32()?;
        if version != ENCODING {
            return Err(DecodeError::Version(version));
        }
        let blocks = r.list(|r| r.block())?;
        let blocks = match Palette::new(blocks) {
            Ok(p) => p,
            Err(_) => return r.bad("the block list is refused by Palette::new"),
        };
        let biomes = r.list(|r| {
            Ok(BiomeDef {
                name: r.str()?,
                colour: r.array()?,
                surface: r.rules()?,
                snow: r.opt_u16()?,
                ice: r.opt_u16()?,
                spawn_ground: r.u16()?,
                spawns: r.list(|r| {
                    Ok(SpawnEntry {
                        creature: r.u16()?,
                        weight: r.i32()?,
                    })
                })?,
            })
        })?;
        let noises = [r.noise()?, r.noise()?, r.noise()?, r.noise()?, r.noise()?];
        let climate = ClimateDef {
            noises,
            stretch: r.f64()?,
            boxes: r.list(|r| {
                Ok(ClimateBox {
                    biome: r.u8()?,
                    t: r.interval()?,
                    h: r.interval()?,
                    c: r.interval()?,
                    e: r.interval()?,
                    pv: r.interval()?,
                })
            })?,
        };
        let terrain = terrain(&mut r)?;
        let features = r.list(feature)?;
        let trees = r.list(|r| {
            let name = r.str()?;
            let s = r.u8()?;
            let shape = r.pick(u32::from(s), &TreeShape::ALL, "an unknown tree shape")?;
            Ok(TreeDef {
                name,
                shape,
                log: r.u16()?,
                leaves: r.u16()?,
                base_height: r.i32()?,
                random_height: r.i32()?,
            })
        })?;
        let structures = r.list(|r| {
            let k = r.u8()?;
            let kind = r.pick(
                u32::from(k),
                &[StructureKind::Dungeon, StructureKind::Watchtower],
                "an unknown structure kind",
            )?;
            Ok(StructureDef {
                kind,
                spacing: r.i32()?,
                separation: r.i32()?,
                salt: r.i32()?,
                biomes: r.bytes()?,
            })
        })?;
        let structure_blocks = StructureBlocks {
            wall: r.u16()?,
            mossy_wall: r.u16()?,
            planks: r.u16()?,
            bricks: r.u16()?,
            torch: r.u16()?,
            path: r.u16()?,
            chest: r.u16()?,
            spawner: r.u16()?,
            path_ground: r.ids()?,
        };
        let creatures = r.list(|r| r.str())?;
        let scatter = if r.bytes.at_end() {
            Vec::new()
        } else {
            if r.u32()? != SCATTER_TAG {
                return r.bad("bytes left over");
            }
            r.list(|r| r.scatter_layer())?
        };
        if !r.bytes.at_end() {
            return r.bad("bytes left over");
        }
        let d = Definition {
            name,
            blocks,
            biomes,
            climate,
            terrain,
            features,
            trees,
            structures,
            structure_blocks,
            creatures,
            scatter,
        };
        match d.check().into_iter().next() {
            Some(e) => Err(DecodeError::Invalid(e)),
            None => Ok(d),
        }
    }
}

fn terrain(r: &mut Reader<'_>) -> R<TerrainDef> {
    let (stone, deep_stone, bedrock, sea_fluid, deep_fluid) =
        (r.u16()?, r.u16()?, r.u16()?, r.u16()?, r.u16()?);
    let deep_stone_below = r.i32()?;
    let deep_stone_dither_bits = r.u32()?;
    let bedrock_layers = r.i32()?;
    let deep_fluid_layers = r.i32()?;
    let density = r.noise()?;
    let height = r.spline()?;
    let mountains = r.spline()?;
    let inland = r.ramp()?;
    let river = RiverDef {
        valley: r.f64()?,
        valley_width: r.f64()?,
        coast: r.ramp()?,
        erosion: r.ramp()?,
        depth: r.f64()?,
    };
    let coast_jag = r.f64()?;
    let jag = r.spline()?;
    let surface = r.rules()?;
    let caves = CaveDef {
        cheese: r.noise()?,
        spaghetti_a: r.noise()?,
        spaghetti_b: r.noise()?,
        cheese_y_stretch: r.f64()?,
        spaghetti_y_stretch: r.f64()?,
        cheese_threshold: r.f64()?,
        cheese_sharpness: r.f64()?,
        spaghetti_radius: r.f64()?,
        spaghetti_sharpness: r.f64()?,
        surface_margin: r.f64()?,
        surface_fade: r.f64()?,
        floor_margin: r.f64()?,
        floor_fade: r.f64()?,
        fade_close: r.f64()?,
    };
    let aquifer = AquiferDef {
        noise: r.noise()?,
        below_sea: r.i32()?,
        spread: r.f64()?,
    };
    let carvers = CarverDef {
        chance: r.i32()?,
        max_tunnels: r.i32()?,
        start_min: r.i32()?,
        start_span: r.i32()?,
        min_radius: r.f64()?,
        vertical_scale: r.f64()?,
        floor_margin: r.i32()?,
        top_margin: r.i32()?,
    };
    Ok(TerrainDef {
        stone,
        deep_stone,
        deep_stone_below,
        deep_stone_dither_bits,
        bedrock,
        bedrock_layers,
        sea_fluid,
        deep_fluid,
        deep_fluid_layers,
        density,
        height,
        mountains,
        inland,
        river,
        coast_jag,
        jag,
        surface,
        caves,
        aquifer,
        carvers,
    })
}

fn feature(r: &mut Reader<'_>) -> R<FeatureDef> {
    let name = r.str()?;
    let step = r.i32()?;
    let kind = match r.u8()? {
        0 => FeatureKind::StructurePieces,
        1 => FeatureKind::Boulder(BoulderDef {
            block: r.u16()?,
            chance: r.i32()?,
            radius: r.f64()?,
            radius_spread: r.f64()?,
            biomes: r.bytes()?,
            replaces: r.ids()?,
        }),
        2 => FeatureKind::Ore(OreDef {
            block: r.u16()?,
            attempts: r.i32()?,
            min_y: r.i32()?,
            max_y: r.i32()?,
            min_radius: r.f64()?,
            max_radius: r.f64()?,
            replaces: r.ids()?,
            biomes: r.bytes()?,
        }),
        3 => FeatureKind::Trees(TreesDef {
            biomes: r.list(|r| {
                Ok(TreeSpawn {
                    biome: r.u8()?,
                    tree: r.u16()?,
                    per_chunk_quarters: r.i32()?,
                })
            })?,
            soil: r.ids()?,
            ground: r.u16()?,
        }),
        4 => FeatureKind::Column(ColumnDef {
            block: r.u16()?,
            attempts: r.i32()?,
            max_height: r.i32()?,
            biomes: r.bytes()?,
            ground: r.u16()?,
        }),
        5 => FeatureKind::Vegetation(VegetationDef {
            radius: r.f64()?,
            salt: r.i64()?,
            rules: r.list(|r| {
                Ok(PlantRule {
                    biomes: r.bytes()?,
                    plants: r.ids()?,
                    ground: r.u16()?,
                })
            })?,
        }),
        _ => return r.bad("an unknown feature kind"),
    };
    Ok(FeatureDef { name, step, kind })
}
