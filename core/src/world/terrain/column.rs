//! Column shape: the target surface height and vertical noise scale of a column from its
//! climate (splines of continentalness, erosion and peaks-and-valleys; rivers where valleys
//! cut inland).

use crate::util::math::{clamp, lerp};
use crate::world::biome::{self, COAST_MAX, DEEP_OCEAN_MAX, OCEAN_MAX};

/// Piecewise-linear spline through `(x, y)` knots sorted by x; clamped at the ends.
fn spline(x: f64, knots: &[(f64, f64)]) -> f64 {
    let mut prev = knots[0];
    if x <= prev.0 {
        return prev.1;
    }
    for &k in &knots[1..] {
        if x <= k.0 {
            return lerp((x - prev.0) / (k.0 - prev.0), prev.1, k.1);
        }
        prev = k;
    }
    prev.1
}

/// Target surface height and vertical noise scale (blocks) of a column from its climate.
pub fn column_shape(c: &biome::Climate, sea: f64) -> (f64, f64) {
    let cont = c.continentalness;
    let base = spline(
        cont,
        &[
            (-1.0, sea - 43.0),
            (DEEP_OCEAN_MAX, sea - 27.0),
            (-0.19, sea - 9.0),
            (OCEAN_MAX, sea - 2.0),
            (COAST_MAX, sea + 1.5),
            (-0.05, sea + 3.0),
            (0.2, sea + 9.0),
            (0.5, sea + 17.0),
            (1.0, sea + 27.0),
        ],
    );
    let inland = clamp((cont + 0.1) / 0.4, 0.0, 1.0);
    let e = c.erosion;
    let mountain = spline(
        e,
        &[
            (-1.0, 150.0),
            (-0.45, 75.0),
            (0.0, 22.0),
            (0.5, 8.0),
            (1.0, 3.0),
        ],
    );
    let pv = c.peaks_valleys();
    let mut h = base + mountain * inland * (pv + 1.0) * 0.5;
    // Rivers: valley floors (pv near −1) inland, where erosion allows, cut to below sea level.
    let valley = clamp((-0.72 - pv) / 0.2, 0.0, 1.0);
    let river =
        valley * clamp((cont - COAST_MAX) / 0.06, 0.0, 1.0) * clamp((e + 0.3) / 0.2, 0.0, 1.0);
    h = lerp(river, h, sea - 4.0);
    let jag = lerp(
        inland,
        6.0,
        spline(e, &[(-1.0, 26.0), (0.0, 10.0), (1.0, 4.0)]),
    );
    (h, jag)
}
