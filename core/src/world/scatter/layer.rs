//! [`ScatterLayer`]: what a layer places and where, and [`scatter_chunk`]: its instances in
//! one finished chunk.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::points::{Candidate, PoissonDisk};
use crate::engine::ChunkPos;
use crate::noise::{Noise, NoiseDef};
use crate::util::math::floor_i64;
use crate::util::random::mix_stafford13;
use crate::world::biome::BiomeId;
use crate::world::block::BlockId;
use crate::world::chunk::FullChunk;
use crate::world::dims::{Dims, CHUNK_SIDE};
use crate::world::heightmap::Heightmap;
use crate::world::palette::Palette;

/// Smallest Poisson radius, in blocks.
pub const MIN_SCATTER_RADIUS: f64 = 0.5;
/// Largest Poisson radius, in blocks (a point's rivals then span at most a few chunks).
pub const MAX_SCATTER_RADIUS: f64 = 64.0;
/// Most kinds in one layer.
pub const MAX_SCATTER_KINDS: usize = 256;

/// One kind of instance of a layer (a model), chosen with probability `weight / Σ weights`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScatterKind {
    /// The kind's name (`oak`, `boulder`); `[a-z0-9_]+`.
    pub name: String,
    /// Relative weight, at least 1.
    pub weight: u32,
}

/// A scatter layer: Poisson-disk points thinned by density and kept where the rules allow.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterLayer {
    /// The layer's name (`trees`, `rocks`); `[a-z0-9_]+`. Also its salt: layers with other
    /// names have independent point sets.
    pub name: String,
    /// Minimum distance between two instances of the layer, in blocks,
    /// [`MIN_SCATTER_RADIUS`]`..=`[`MAX_SCATTER_RADIUS`].
    pub radius: f64,
    /// Fraction of the Poisson points kept, `0..=1` (1: the maximal set).
    pub density: f64,
    /// A noise that varies the density over the world: a point is kept with probability
    /// `density × (n + 1) / 2` for the noise's value `n` at its position (its `seed` is a salt
    /// XORed with the world seed, as for every noise of a definition). `None`: uniform.
    pub density_noise: Option<NoiseDef>,
    /// Biomes the layer grows in (empty: all).
    pub biomes: Vec<BiomeId>,
    /// Blocks an instance may stand on (its column's ground block; empty: what the caller's
    /// ground test accepts).
    pub on: Vec<BlockId>,
    /// Lowest and highest surface y an instance may stand at (inclusive).
    pub height: (i32, i32),
    /// Steepest ground, as the largest height difference in blocks to a neighbouring column.
    pub max_slope: u32,
    /// The kinds, at least one, at most [`MAX_SCATTER_KINDS`].
    pub kinds: Vec<ScatterKind>,
    /// Smallest and largest scale, `0 < min ≤ max`.
    pub scale: (f32, f32),
    /// Tilt instances to the ground's normal instead of standing them upright.
    pub align_to_normal: bool,
}

/// Why a layer was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScatterError {
    /// A name that is empty or not `[a-z0-9_]`.
    Name,
    /// The radius is not a finite number in range.
    Radius,
    /// The density is not in `0..=1`.
    Density,
    /// No kind, too many, or one with weight 0 or a bad name.
    Kinds,
    /// The scale range is not `0 < min ≤ max`, finite.
    Scale,
    /// The height range is empty.
    Height,
}

impl fmt::Display for ScatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScatterError::Name => "names must be [a-z0-9_]+",
            ScatterError::Radius => "radius must be a number in 0.5..=64 blocks",
            ScatterError::Density => "density must be in 0..=1",
            ScatterError::Kinds => "kinds: 1..=256 of them, each with a weight of at least 1",
            ScatterError::Scale => "scale must be [min, max] with 0 < min <= max",
            ScatterError::Height => "height must be [low, high] with low <= high",
        })
    }
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl ScatterLayer {
    /// A layer of one kind named like the layer, everywhere, radius `radius`, density 1,
    /// upright at scale 1.
    pub fn new(name: &str, radius: f64) -> ScatterLayer {
        ScatterLayer {
            name: String::from(name),
            radius,
            density: 1.0,
            density_noise: None,
            biomes: Vec::new(),
            on: Vec::new(),
            height: (i32::MIN, i32::MAX),
            max_slope: u32::MAX,
            kinds: alloc::vec![ScatterKind {
                name: String::from(name),
                weight: 1,
            }],
            scale: (1.0, 1.0),
            align_to_normal: false,
        }
    }

    /// The first problem with the layer, if any.
    pub fn check(&self) -> Result<(), ScatterError> {
        if !valid_name(&self.name) {
            return Err(ScatterError::Name);
        }
        if !(MIN_SCATTER_RADIUS..=MAX_SCATTER_RADIUS).contains(&self.radius) {
            return Err(ScatterError::Radius);
        }
        if !(0.0..=1.0).contains(&self.density) {
            return Err(ScatterError::Density);
        }
        let kinds_ok = (1..=MAX_SCATTER_KINDS).contains(&self.kinds.len())
            && self
                .kinds
                .iter()
                .all(|k| k.weight >= 1 && valid_name(&k.name));
        if !kinds_ok {
            return Err(ScatterError::Kinds);
        }
        let (lo, hi) = self.scale;
        if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && lo <= hi) {
            return Err(ScatterError::Scale);
        }
        if self.height.0 > self.height.1 {
            return Err(ScatterError::Height);
        }
        Ok(())
    }

    /// The layer's salt: a hash of its name, so renaming a layer moves its points and
    /// reordering layers does not.
    pub fn salt(&self) -> i64 {
        let mut h = 0xCBF2_9CE4_8422_2325u64;
        for b in self.name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
        mix_stafford13(h) as i64
    }
}

/// One instance: where it stands, how it is turned and scaled, and which model it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    /// The kind's index in its layer's `kinds`.
    pub kind: u16,
    /// Position relative to the chunk's origin block corner, in blocks: x and z in `0..16`,
    /// y the top of the ground block it stands on (world y).
    pub position: [f32; 3],
    /// Rotation about the up axis (or the ground normal), radians in `[0, 2π)`.
    pub yaw: f32,
    /// Uniform scale.
    pub scale: f32,
    /// The up direction: `[0, 1, 0]`, or the ground's normal when the layer aligns to it.
    pub up: [f32; 3],
}

impl Instance {
    /// The instance's rotation as a unit quaternion `[x, y, z, w]`: the yaw about +y, then
    /// the shortest rotation from +y onto `up` (identity for upright instances).
    pub fn rotation(&self) -> [f32; 4] {
        let half = self.yaw * 0.5;
        let yaw = [0.0, libm::sinf(half), 0.0, libm::cosf(half)];
        // From +y to `up`: axis (up.z, 0, −up.x), in half-angle form (w = 1 + cos).
        let [ux, uy, uz] = self.up;
        let t = [uz, 0.0, -ux, 1.0 + uy];
        let tl = libm::sqrtf(t[0] * t[0] + t[2] * t[2] + t[3] * t[3]);
        let tilt = [t[0] / tl, 0.0, t[2] / tl, t[3] / tl];
        let (a, b) = (tilt, yaw);
        let q = [
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
        ];
        let len = libm::sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
    }
}

/// A hash of a point's cell and a purpose, as a fraction in `[0, 1)` with 53 bits.
fn unit(priority: u64, purpose: u64) -> f64 {
    let h = mix_stafford13(priority ^ purpose.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (h >> 11) as f64 / 9_007_199_254_740_992.0
}

/// What each per-instance draw is for (distinct hashes of one point).
const DRAW_DENSITY: u64 = 1;
const DRAW_KIND: u64 = 2;
const DRAW_YAW: u64 = 3;
const DRAW_SCALE: u64 = 4;

/// The layer's density noise, built for the world of `seed` (`None`: uniform density; a
/// noise the definition checks cannot fail to build, one that does counts as uniform).
fn density_field(seed: i64, layer: &ScatterLayer) -> Option<Noise> {
    let def = layer.density_noise?;
    NoiseDef {
        seed: def.seed ^ seed,
        ..def
    }
    .build()
    .ok()
}

/// Whether point `p` survives the layer's thinning: its own fair draw against the density,
/// scaled by the density noise at its position.
fn kept(layer: &ScatterLayer, field: Option<&Noise>, p: &Candidate) -> bool {
    let local = match field {
        Some(n) => {
            let v = n.sample_2d(p.x, p.z);
            let share = (v + 1.0) * 0.5;
            share.clamp(0.0, 1.0)
        }
        None => 1.0,
    };
    unit(p.priority, DRAW_DENSITY) < layer.density * local
}

/// The index of the kind `u` (in `[0, 1)`) falls on, by weight.
fn pick_kind(kinds: &[ScatterKind], u: f64) -> u16 {
    let total: u64 = kinds.iter().map(|k| u64::from(k.weight)).sum();
    let target = (u * total as f64) as u64;
    let mut acc = 0u64;
    for (i, k) in kinds.iter().enumerate() {
        acc += u64::from(k.weight);
        if target < acc {
            return i as u16;
        }
    }
    kinds.len().saturating_sub(1) as u16
}

/// Whether `block` of a world's `palette` carries an instance of a layer that names no `on`
/// blocks: a solid block. The ground rule every host gives [`scatter_chunk`] for a world.
pub fn is_ground(palette: &Palette, block: BlockId) -> bool {
    palette.get(block).map_or(false, |p| p.solid)
}

/// The instances of `layer` in the finished chunk `full` of a world of `seed` and `dims`:
/// its Poisson points whose column lies in the chunk, kept by density and by the rules read
/// from the chunk (biome of the point's 4 × 4 cell, ground block, ground height, slope to the
/// neighbouring columns inside the chunk). The ground of a column is its top block that
/// blocks motion, leaves aside ([`Heightmap::MotionBlockingNoLeaves`]): plants and snow
/// layers on it do not hold an instance up, and water is ground a layer may refuse. `is_ground(b)` says whether block `b` can carry an
/// instance when the layer names no `on` blocks (a world's solid blocks). In cell order.
pub fn scatter_chunk(
    seed: i64,
    dims: &Dims,
    layer: &ScatterLayer,
    full: &FullChunk,
    is_ground: impl Fn(BlockId) -> bool,
) -> Vec<Instance> {
    // A point keeps only on a biome the layer names: in a chunk that has none of them (open
    // sea, desert for grass) no point can, and the Poisson points need not be drawn at all.
    if !layer.biomes.is_empty() && !full.biomes.iter().any(|b| layer.biomes.contains(b)) {
        return Vec::new();
    }
    let side = CHUNK_SIDE as i32;
    let pos: ChunkPos = full.pos;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let disk = PoissonDisk::new(seed, layer.salt(), layer.radius);
    let field = density_field(seed, layer);
    let surface = &full.heightmaps()[Heightmap::MotionBlockingNoLeaves];
    let blocks = full.blocks();
    let height_at = |lx: i32, lz: i32| surface[(lz * side + lx) as usize];
    let mut out = Vec::new();
    for p in disk.points_in(bx, bz, bx + side, bz + side) {
        if !kept(layer, field.as_ref(), &p) {
            continue;
        }
        let (lx, lz) = (
            (floor_i64(p.x) - i64::from(bx)) as i32,
            (floor_i64(p.z) - i64::from(bz)) as i32,
        );
        let biome = full.biomes[((lz / 4) * 4 + lx / 4) as usize];
        if !layer.biomes.is_empty() && !layer.biomes.contains(&biome) {
            continue;
        }
        let top = height_at(lx, lz);
        if top <= dims.min_y || top < layer.height.0 || top > layer.height.1 {
            continue;
        }
        let ground = blocks
            .get(dims.index(lx as usize, top - 1, lz as usize))
            .unwrap_or(0);
        let allowed = if layer.on.is_empty() {
            is_ground(ground)
        } else {
            layer.on.contains(&ground)
        };
        if !allowed {
            continue;
        }
        // Height differences to the four neighbouring columns inside the chunk.
        let mut slope = 0u32;
        let mut gx = 0i32;
        let mut gz = 0i32;
        for (dx, dz) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (nx, nz) = (lx + dx, lz + dz);
            if (0..side).contains(&nx) && (0..side).contains(&nz) {
                let d = height_at(nx, nz) - top;
                slope = slope.max(d.unsigned_abs());
                gx += d * dx;
                gz += d * dz;
            }
        }
        if slope > layer.max_slope {
            continue;
        }
        // The mean difference to the neighbours on each side, along x and z.
        let up = ground_up(layer, (gx as f32) * 0.5, (gz as f32) * 0.5);
        out.push(instance(
            layer,
            &p,
            [
                (p.x - f64::from(bx)) as f32,
                top as f32,
                (p.z - f64::from(bz)) as f32,
            ],
            up,
        ));
    }
    out
}

/// The up direction of an instance on ground rising `sx` blocks per block along x and `sz`
/// along z: the ground's normal `(−sx, 1, −sz)` normalised when the layer aligns to it,
/// else straight up.
fn ground_up(layer: &ScatterLayer, sx: f32, sz: f32) -> [f32; 3] {
    if !layer.align_to_normal {
        return [0.0, 1.0, 0.0];
    }
    let (nx, nz) = (-sx, -sz);
    let len = libm::sqrtf(nx * nx + 1.0 + nz * nz);
    [nx / len, 1.0 / len, nz / len]
}

/// The instance of point `p` at `position` standing on `up`: kind, yaw and scale drawn from
/// the point's own hashes.
fn instance(layer: &ScatterLayer, p: &Candidate, position: [f32; 3], up: [f32; 3]) -> Instance {
    let (lo, hi) = layer.scale;
    let s = unit(p.priority, DRAW_SCALE) as f32;
    // A fraction just below 1 may round to a full turn in f32: that is yaw 0.
    let yaw = (unit(p.priority, DRAW_YAW) * core::f64::consts::TAU) as f32;
    Instance {
        kind: pick_kind(&layer.kinds, unit(p.priority, DRAW_KIND)),
        position,
        yaw: if yaw >= core::f32::consts::TAU {
            0.0
        } else {
            yaw
        },
        scale: (lo + (hi - lo) * s).min(hi),
        up,
    }
}

/// The instances of `layer` in chunk `pos` of a heightmap terrain whose ground height at
/// block position `(x, z)` is `height(x, z)` (a pure function, such as a noise heightmap
/// scaled to blocks): the same Poisson points as on voxel terrain, kept by density, height
/// range and slope (the largest height difference to the points one block away along x and
/// z); a heightmap has no blocks and no biomes, so `on` and `biomes` do not apply. Each
/// instance stands at the height of its exact position, tilted (when the layer aligns) to
/// the normal of the central differences there. In cell order.
pub fn scatter_heightmap(
    seed: i64,
    layer: &ScatterLayer,
    pos: ChunkPos,
    height: impl Fn(f64, f64) -> f32,
) -> Vec<Instance> {
    let side = CHUNK_SIDE as i32;
    let (bx, bz) = (pos.block_x(), pos.block_z());
    let disk = PoissonDisk::new(seed, layer.salt(), layer.radius);
    let field = density_field(seed, layer);
    let mut out = Vec::new();
    for p in disk.points_in(bx, bz, bx + side, bz + side) {
        if !kept(layer, field.as_ref(), &p) {
            continue;
        }
        let h = height(p.x, p.z);
        let ground = floor_i64(f64::from(h));
        if ground < i64::from(layer.height.0) || ground > i64::from(layer.height.1) {
            continue;
        }
        let (hx0, hx1) = (height(p.x - 1.0, p.z), height(p.x + 1.0, p.z));
        let (hz0, hz1) = (height(p.x, p.z - 1.0), height(p.x, p.z + 1.0));
        let slope = [hx0, hx1, hz0, hz1]
            .iter()
            .map(|v| libm::fabsf(v - h))
            .fold(0.0f32, f32::max);
        if f64::from(slope) > f64::from(layer.max_slope) {
            continue;
        }
        let up = ground_up(layer, (hx1 - hx0) * 0.5, (hz1 - hz0) * 0.5);
        out.push(instance(
            layer,
            &p,
            [
                (p.x - f64::from(bx)) as f32,
                h,
                (p.z - f64::from(bz)) as f32,
            ],
            up,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotate `v` by the unit quaternion `q`.
    fn rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
        let [x, y, z, w] = q;
        let t = [
            2.0 * (y * v[2] - z * v[1]),
            2.0 * (z * v[0] - x * v[2]),
            2.0 * (x * v[1] - y * v[0]),
        ];
        [
            v[0] + w * t[0] + (y * t[2] - z * t[1]),
            v[1] + w * t[1] + (z * t[0] - x * t[2]),
            v[2] + w * t[2] + (x * t[1] - y * t[0]),
        ]
    }

    fn instance(yaw: f32, up: [f32; 3]) -> Instance {
        Instance {
            kind: 0,
            position: [0.0; 3],
            yaw,
            scale: 1.0,
            up,
        }
    }

    /// Upright: a turn about +y by the yaw (+x goes to (cos, 0, −sin)). Tilted: +y goes to
    /// `up`, and the yaw still turns about it.
    #[test]
    fn rotation_turns_by_the_yaw_and_stands_on_up() {
        for yaw in [0.0f32, 0.5, 1.5, 3.0, 6.0] {
            let q = instance(yaw, [0.0, 1.0, 0.0]).rotation();
            let x = rotate(q, [1.0, 0.0, 0.0]);
            assert!(
                libm::fabsf(x[0] - libm::cosf(yaw)) < 1e-6
                    && libm::fabsf(x[2] + libm::sinf(yaw)) < 1e-6
            );
            let l = libm::sqrtf(0.25 + 1.0 + 0.09);
            let up = [0.5 / l, 1.0 / l, -0.3 / l];
            let q = instance(yaw, up).rotation();
            let y = rotate(q, [0.0, 1.0, 0.0]);
            for k in 0..3 {
                assert!(libm::fabsf(y[k] - up[k]) < 1e-6, "{y:?} {up:?}");
            }
            let len = q.iter().map(|c| c * c).sum::<f32>();
            assert!(libm::fabsf(len - 1.0) < 1e-6);
        }
    }
}
