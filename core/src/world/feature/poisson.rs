//! Seamless Poisson-disk point sets: a pure function of position, the same whichever chunk
//! asks.

use alloc::vec::Vec;

use crate::util::math::{ceil_i32, floor_i64};
use crate::util::random::mix_stafford13;

/// The Poisson-disk vegetation points with minimum distance `radius` (blocks) inside the
/// block box `[x0, x1) × [z0, z1)`, for the layer `salt`.
///
/// Candidates: one per cell of side `radius / √2` (a pure hash of the cell), at a hashed
/// position inside the cell, with a hashed priority. A candidate is kept when no other
/// candidate within `radius` has a higher priority. Two kept points are therefore never
/// closer than `radius` (the nearer one would have lost to the other), and whether a point is
/// kept depends only on candidates within `radius` of it: the set is the same whichever chunk
/// asks, with no neighbour output read.
pub fn poisson_points(
    seed: i64,
    salt: i64,
    radius: f64,
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
) -> Vec<(i32, i32)> {
    let cell = radius / core::f64::consts::SQRT_2;
    let reach = ceil_i32(radius / cell) + 1;
    let cand = |cx: i64, cz: i64| -> (f64, f64, u64) {
        let h = mix_stafford13(
            (seed ^ salt.wrapping_mul(0x9E37_79B9)) as u64
                ^ (cx as u64).wrapping_mul(0x9E37_79B1_85EB_CA87)
                ^ (cz as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
        );
        let fx = ((h >> 40) & 0xFF_FFFF) as f64 / 16_777_216.0;
        let fz = ((h >> 16) & 0xFF_FFFF) as f64 / 16_777_216.0;
        (
            (cx as f64 + fx) * cell,
            (cz as f64 + fz) * cell,
            mix_stafford13(h),
        )
    };
    let c0x = floor_i64(f64::from(x0) / cell);
    let c1x = floor_i64(f64::from(x1) / cell);
    let c0z = floor_i64(f64::from(z0) / cell);
    let c1z = floor_i64(f64::from(z1) / cell);
    let mut out = Vec::new();
    for cz in c0z..=c1z {
        for cx in c0x..=c1x {
            let (px, pz, pr) = cand(cx, cz);
            let (bx, bz) = (floor_i64(px) as i32, floor_i64(pz) as i32);
            if bx < x0 || bx >= x1 || bz < z0 || bz >= z1 {
                continue;
            }
            let mut kept = true;
            'n: for nz in cz - i64::from(reach)..=cz + i64::from(reach) {
                for nx in cx - i64::from(reach)..=cx + i64::from(reach) {
                    if (nx, nz) == (cx, cz) {
                        continue;
                    }
                    let (qx, qz, qr) = cand(nx, nz);
                    let d2 = (qx - px) * (qx - px) + (qz - pz) * (qz - pz);
                    if d2 < radius * radius && (qr, nx, nz) > (pr, cx, cz) {
                        kept = false;
                        break 'n;
                    }
                }
            }
            if kept {
                out.push((bx, bz));
            }
        }
    }
    out
}
