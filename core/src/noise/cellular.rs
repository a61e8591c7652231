//! Cellular (Worley) noise in 2D and 3D: F1, F2, F2−F1 and cell value.

use crate::noise::lattice::{hash, hx, hy, hz, value_of, HM};
use crate::util::math::{abs, floor_i64, sqrt};

/// Distance function of cellular noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum CellularDistance {
    /// Straight-line distance.
    Euclidean = 0,
    /// Sum of absolute coordinate differences.
    Manhattan = 1,
}

/// What cellular noise returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum CellularReturn {
    /// Distance to the nearest feature point, minus 1.
    F1 = 0,
    /// Distance to the second nearest feature point, minus 1.
    F2 = 1,
    /// `F2 − F1` distance, minus 1.
    F2MinusF1 = 2,
    /// A random value in `[-1, 1)` per cell: the value of the nearest point's cell.
    CellValue = 3,
}

/// Cellular settings already validated (jitter in `[0, 1]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellularParams {
    /// Distance function.
    pub distance: CellularDistance,
    /// Returned quantity.
    pub ret: CellularReturn,
    /// Feature point jitter in `[0, 1]`: 0 puts every point at its cell centre.
    pub jitter: f64,
}

#[inline(always)]
fn unit24(h: u64, shift: u32) -> f64 {
    ((h >> shift) & 0xFF_FFFF) as f64 * (1.0 / 16_777_216.0)
}

#[inline(always)]
fn cellular_finish(p: &CellularParams, f1: f64, f2: f64, best: u64) -> f64 {
    let (d1, d2) = match p.distance {
        CellularDistance::Euclidean => (sqrt(f1), sqrt(f2)),
        CellularDistance::Manhattan => (f1, f2),
    };
    match p.ret {
        CellularReturn::F1 => d1 - 1.0,
        CellularReturn::F2 => d2 - 1.0,
        CellularReturn::F2MinusF1 => d2 - d1 - 1.0,
        CellularReturn::CellValue => value_of(best.wrapping_mul(HM)),
    }
}

#[inline(always)]
fn dist(p: &CellularParams, a: f64, b: f64, c: f64) -> f64 {
    match p.distance {
        CellularDistance::Euclidean => a * a + b * b + c * c,
        CellularDistance::Manhattan => abs(a) + abs(b) + abs(c),
    }
}

/// 2D cellular (Worley) noise over the 3 × 3 neighbourhood of the sample's cell.
pub fn cellular2(seed: u64, p: &CellularParams, x: f64, y: f64) -> f64 {
    let ix = floor_i64(x);
    let iy = floor_i64(y);
    let fx = x - ix as f64;
    let fy = y - iy as f64;
    let half = 0.5 - 0.5 * p.jitter;
    let (mut f1, mut f2, mut best) = (f64::INFINITY, f64::INFINITY, 0u64);
    for dy in -1i64..=1 {
        let ry = hy(iy.wrapping_add(dy));
        for dx in -1i64..=1 {
            let h = hash(seed, hx(ix.wrapping_add(dx)) ^ ry);
            let px = dx as f64 + half + unit24(h, 40) * p.jitter - fx;
            let py = dy as f64 + half + unit24(h, 16) * p.jitter - fy;
            let d = dist(p, px, py, 0.0);
            f2 = if d < f2 { d } else { f2 };
            if d < f1 {
                f2 = f1;
                f1 = d;
                best = h;
            }
        }
    }
    cellular_finish(p, f1, f2, best)
}

/// 3D cellular (Worley) noise over the 3 × 3 × 3 neighbourhood of the sample's cell.
pub fn cellular3(seed: u64, p: &CellularParams, x: f64, y: f64, z: f64) -> f64 {
    let ix = floor_i64(x);
    let iy = floor_i64(y);
    let iz = floor_i64(z);
    let fx = x - ix as f64;
    let fy = y - iy as f64;
    let fz = z - iz as f64;
    let half = 0.5 - 0.5 * p.jitter;
    let (mut f1, mut f2, mut best) = (f64::INFINITY, f64::INFINITY, 0u64);
    for dz in -1i64..=1 {
        let rz = hz(iz.wrapping_add(dz));
        for dy in -1i64..=1 {
            let ry = hy(iy.wrapping_add(dy)) ^ rz;
            for dx in -1i64..=1 {
                let h = hash(seed, hx(ix.wrapping_add(dx)) ^ ry);
                let px = dx as f64 + half + unit24(h, 40) * p.jitter - fx;
                let py = dy as f64 + half + unit24(h, 16) * p.jitter - fy;
                let pz = dz as f64 + half + unit24(h, 0) * p.jitter - fz;
                let d = dist(p, px, py, pz);
                f2 = if d < f2 { d } else { f2 };
                if d < f1 {
                    f2 = f1;
                    f1 = d;
                    best = h;
                }
            }
        }
    }
    cellular_finish(p, f1, f2, best)
}
