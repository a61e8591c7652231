//! Column shape: the target surface height and vertical noise scale of a column from its
//! climate (splines of continentalness, erosion and peaks-and-valleys; rivers where valleys
//! cut inland), as the definition's terrain describes them.

use crate::util::math::{clamp, lerp};
use crate::world::biome;
use crate::world::definition::TerrainDef;

/// Target surface height and vertical noise scale (blocks) of a column from its climate.
pub fn column_shape(t: &TerrainDef, c: &biome::Climate, sea: f64) -> (f64, f64) {
    let cont = c.continentalness;
    let base = t.height.at_offset(cont, sea);
    let inland = t.inland.at(cont);
    let e = c.erosion;
    let mountain = t.mountains.at(e);
    let pv = c.peaks_valleys();
    let mut h = base + mountain * inland * (pv + 1.0) * 0.5;
    // Rivers: valley floors (pv near −1) inland, where erosion allows, cut to below sea level.
    let r = &t.river;
    let valley = clamp((r.valley - pv) / r.valley_width, 0.0, 1.0);
    let river = valley * r.coast.at(cont) * r.erosion.at(e);
    h = lerp(river, h, sea - r.depth);
    let jag = lerp(inland, t.coast_jag, t.jag.at(e));
    (h, jag)
}
