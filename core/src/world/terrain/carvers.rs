//! Worm carvers: tunnels started by chunks up to [`WORM_RANGE`] away, each a seeded random
//! walk of at most [`WORM_STEPS`] steps, carving with the cave fluid rules. Every chunk replays
//! the same walks, so tunnels cross borders whole.

use crate::engine::ChunkPos;
use crate::util::digest::Digest;
use crate::util::math::{clamp, floor_i64, sin, sin_cos};
use crate::util::random::{large_feature_seed, JavaRandom};
use crate::world::block::{self, BlockId};
use crate::world::definition::{CarverDef, TerrainDef};
use crate::world::dims::Dims;
use crate::world::palette::Palette;
use crate::world::terrain::cave_fill;

/// How far (in chunks) tunnel starts are simulated. A walk of [`WORM_STEPS`] unit steps with a
/// radius of at most 6 + 3 reaches under 80 blocks, so it never touches a chunk 6 away.
pub(crate) const WORM_RANGE: i32 = 5;
/// Steps of one tunnel's walk.
pub(crate) const WORM_STEPS: i32 = 70;

/// One tunnel's random walk.
struct Worm {
    x: f64,
    y: f64,
    z: f64,
    yaw: f64,
    pitch: f64,
    width: f64,
    dyaw: f64,
    dpitch: f64,
}

impl Worm {
    /// A tunnel started in chunk `(cx, cz)` (draws from `r` in a fixed order).
    fn start(r: &mut JavaRandom, def: &CarverDef, dims: &Dims, cx: i32, cz: i32) -> Worm {
        let x = f64::from(cx.wrapping_mul(16) + r.next_int_bounded(16));
        let z = f64::from(cz.wrapping_mul(16) + r.next_int_bounded(16));
        let span = (dims.height as i32 - 20).clamp(1, def.start_span);
        let y = f64::from(dims.min_y + def.start_min + r.next_int_bounded(span));
        let yaw = r.next_float_f64() * core::f64::consts::TAU;
        let pitch = (r.next_float_f64() - 0.5) * 0.5;
        let width = r.next_float_f64() * 2.0 + 1.0;
        Worm {
            x,
            y,
            z,
            yaw,
            pitch,
            width,
            dyaw: 0.0,
            dpitch: 0.0,
        }
    }

    /// Advance one step; returns the radius of the sphere carved there. `swell` is
    /// [`swell`]`(step)`.
    fn step(&mut self, r: &mut JavaRandom, min_radius: f64, swell: f64) -> f64 {
        let rad = min_radius + swell * self.width;
        let (sp, cp) = sin_cos(self.pitch);
        let (sy, cy) = sin_cos(self.yaw);
        self.x += cy * cp;
        self.y += sp;
        self.z += sy * cp;
        self.pitch *= 0.7;
        self.pitch += self.dpitch * 0.1;
        self.yaw += self.dyaw * 0.1;
        self.dpitch *= 0.9;
        self.dyaw *= 0.75;
        self.dpitch += (r.next_float_f64() - r.next_float_f64()) * r.next_float_f64() * 2.0;
        self.dyaw += (r.next_float_f64() - r.next_float_f64()) * r.next_float_f64() * 4.0;
        rad
    }
}

/// How a tunnel swells along its walk: `sin(step · π / WORM_STEPS)`, 0 at the ends and 1 in
/// the middle, times its width.
fn swell(step: i32) -> f64 {
    sin(f64::from(step) * core::f64::consts::PI / f64::from(WORM_STEPS))
}

/// What carving writes into: the chunk's blocks and the per-column facts of the cave fluid
/// rules.
struct CarveTarget<'a> {
    def: &'a TerrainDef,
    palette: &'a Palette,
    dims: &'a Dims,
    /// Block x, z of the chunk's corner.
    bx: f64,
    bz: f64,
    blocks: &'a mut [BlockId],
    floor: &'a [i32; 256],
    aquifer: &'a [i32; 256],
}

impl CarveTarget<'_> {
    /// Carve the ellipsoid of horizontal radius `rad` at `(x, y, z)` where it meets this chunk.
    fn sphere(&mut self, x: f64, y: f64, z: f64, rad: f64) {
        let (bx, bz, dims) = (self.bx, self.bz, self.dims);
        // Skip spheres that miss this chunk (cheap box test).
        if x + rad < bx || x - rad > bx + 16.0 || z + rad < bz || z - rad > bz + 16.0 {
            return;
        }
        let w = &self.def.carvers;
        let ylo = f64::from(dims.min_y + w.floor_margin);
        let yhi = f64::from(dims.max_y() - w.top_margin);
        let vr = rad * w.vertical_scale;
        let x0 = core::cmp::max(0, floor_i64(x - rad - bx) as i32);
        let x1 = core::cmp::min(15, floor_i64(x + rad - bx) as i32);
        let z0 = core::cmp::max(0, floor_i64(z - rad - bz) as i32);
        let z1 = core::cmp::min(15, floor_i64(z + rad - bz) as i32);
        let y0 = floor_i64(clamp(y - vr, ylo, yhi)) as i32;
        let y1 = floor_i64(clamp(y + vr, ylo, yhi)) as i32;
        for lz in z0..=z1 {
            for lx in x0..=x1 {
                let ddx = (bx + f64::from(lx) + 0.5 - x) / rad;
                let ddz = (bz + f64::from(lz) + 0.5 - z) / rad;
                for ly in y0..=y1 {
                    let ddy = (f64::from(ly) + 0.5 - y) / vr;
                    if ddx * ddx + ddy * ddy + ddz * ddz < 1.0 {
                        self.carve(lx as usize, ly, lz as usize);
                    }
                }
            }
        }
    }

    /// Replace one block by the cave fill, unless it is bedrock, a liquid or air.
    #[inline]
    fn carve(&mut self, x: usize, y: i32, z: usize) {
        let dims = self.dims;
        let i = dims.index(x, y, z);
        let b = self.blocks[i];
        if b == self.def.bedrock || self.palette.props(b).liquid || b == block::AIR {
            return;
        }
        let col = z * 16 + x;
        let submerged = self.floor[col] < dims.sea_level;
        self.blocks[i] = cave_fill(self.def, y, dims, submerged, self.aquifer[col]);
    }
}

/// Replay every tunnel started within [`WORM_RANGE`] chunks of `pos` and carve what meets
/// this chunk; every step's position and radius go into the witness.
#[allow(clippy::too_many_arguments)]
pub(super) fn carve_worms(
    seed: i64,
    def: &TerrainDef,
    palette: &Palette,
    dims: &Dims,
    pos: ChunkPos,
    blocks: &mut [BlockId],
    floor: &[i32; 256],
    aquifer: &[i32; 256],
    witness: &mut Digest,
) {
    let w = &def.carvers;
    if w.chance == 0 {
        return;
    }
    // The same for every tunnel: worked out once a chunk instead of once a step.
    let swells: [f64; WORM_STEPS as usize] = core::array::from_fn(|step| swell(step as i32));
    let mut target = CarveTarget {
        def,
        palette,
        dims,
        bx: f64::from(pos.block_x()),
        bz: f64::from(pos.block_z()),
        blocks,
        floor,
        aquifer,
    };
    for sz in -WORM_RANGE..=WORM_RANGE {
        for sx in -WORM_RANGE..=WORM_RANGE {
            let (cx, cz) = (pos.x.wrapping_add(sx), pos.z.wrapping_add(sz));
            let mut r = JavaRandom::new(large_feature_seed(seed.wrapping_add(1), cx, cz));
            if r.next_int_bounded(w.chance) != 0 {
                continue;
            }
            let tunnels = 1 + r.next_int_bounded(w.max_tunnels);
            for _ in 0..tunnels {
                let mut worm = Worm::start(&mut r, w, dims, cx, cz);
                for &swell in &swells {
                    let rad = worm.step(&mut r, w.min_radius, swell);
                    witness.write_f64(worm.x);
                    witness.write_f64(worm.y);
                    witness.write_f64(worm.z);
                    witness.write_f64(rad);
                    target.sphere(worm.x, worm.y, worm.z, rad);
                }
            }
        }
    }
}
