//! [`Definition::check`]: every rule the status bodies rely on (ids in range, splines that
//! increase, positive widths, reaches that stay inside the neighbourhood), each problem
//! reported with its path in definition-document terms (`features[3].max_radius`), so the
//! document parser can point at the line.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::noise::NoiseDef;
use crate::world::block::BlockId;
use crate::world::definition::*;
use crate::world::palette::valid_name;
use crate::world::scatter::ScatterError;

/// Most problems one check reports.
pub const MAX_PROBLEMS: usize = 100;
/// Most biomes (ids are bytes; 255 is kept free).
pub const MAX_BIOMES: usize = 255;
/// Most surface rules in one list (every column tries them in turn).
pub const MAX_RULES: usize = 64;
/// Most spawn entries of a biome (their weights are summed in an `i32`).
pub const MAX_SPAWNS: usize = 256;
/// Most climate boxes (every 4 × 4 column cell measures its distance to each).
pub const MAX_BOXES: usize = 1024;

/// One problem of a definition: where (a document path) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    /// Path in the document (`terrain.caves.surface_fade`, `biomes[2].surface[0].top`).
    pub path: String,
    /// What is wrong, with the allowed range where there is one.
    pub problem: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.problem)
    }
}

/// Collects problems, up to [`MAX_PROBLEMS`].
struct Problems {
    list: Vec<DefinitionError>,
}

impl Problems {
    fn add(&mut self, path: impl Into<String>, problem: impl Into<String>) {
        if self.list.len() < MAX_PROBLEMS {
            self.list.push(DefinitionError {
                path: path.into(),
                problem: problem.into(),
            });
        }
    }

    fn int(&mut self, path: &str, v: i64, lo: i64, hi: i64) {
        if v < lo || v > hi {
            self.add(path, format!("{} is out of range {}..={}", v, lo, hi));
        }
    }

    fn float(&mut self, path: &str, v: f64, lo: f64, hi: f64) {
        if !(v >= lo && v <= hi) {
            self.add(path, format!("{} is out of range {}..={}", v, lo, hi));
        }
    }

    fn positive(&mut self, path: &str, v: f64, hi: f64) {
        if !(v > 0.0 && v <= hi) {
            self.add(path, format!("{} must be > 0 and <= {}", v, hi));
        }
    }

    fn block(&mut self, path: &str, id: BlockId, d: &Definition) {
        if d.blocks.get(id).is_none() {
            self.add(path, format!("block id {} is not in the palette", id));
        }
    }

    fn blocks(&mut self, path: &str, ids: &[BlockId], d: &Definition) {
        for (k, &id) in ids.iter().enumerate() {
            self.block(&format!("{}[{}]", path, k), id, d);
        }
    }

    fn biomes(&mut self, path: &str, ids: &[u8], d: &Definition) {
        for (k, &id) in ids.iter().enumerate() {
            if id as usize >= d.biomes.len() {
                self.add(
                    format!("{}[{}]", path, k),
                    format!("biome id {} does not exist", id),
                );
            }
        }
    }

    fn noise(&mut self, path: &str, n: &NoiseDef) {
        if let Err(e) = (NoiseDef { seed: 0, ..*n }).build() {
            self.add(path, format!("{}", e));
        }
    }

    fn spline(&mut self, path: &str, s: &Spline, lo: f64, hi: f64) {
        if s.knots.is_empty() || s.knots.len() > 64 {
            self.add(path, "a spline needs 1..=64 knots");
            return;
        }
        for (k, &(x, y)) in s.knots.iter().enumerate() {
            let p = format!("{}[{}]", path, k);
            self.float(&p, x, -4.0, 4.0);
            self.float(&p, y, lo, hi);
            // NaN was refused above; `<=` then means "not increasing".
            if k > 0 && x <= s.knots[k - 1].0 {
                self.add(p, "knot x values must increase strictly");
            }
        }
    }

    fn ramp(&mut self, path: &str, r: &Ramp) {
        self.float(&format!("{}.from", path), r.from, -4.0, 4.0);
        self.positive(&format!("{}.width", path), r.width, 8.0);
    }

    /// Names that are invalid or repeat an earlier one; `suffix` is the key of the name in
    /// each item (`.name`, or empty for a list of plain strings).
    fn unique_names<'a>(&mut self, path: &str, suffix: &str, names: impl Iterator<Item = &'a str>) {
        // A set, not a list: 65,535 creature names must not take quadratic time.
        let mut seen = BTreeSet::new();
        for (k, n) in names.enumerate() {
            if !valid_name(n) {
                self.add(
                    format!("{}[{}]{}", path, k, suffix),
                    format!("name {:?} must be [a-z0-9_]+", n),
                );
            } else if !seen.insert(n) {
                self.add(
                    format!("{}[{}]{}", path, k, suffix),
                    format!("duplicate name {:?}", n),
                );
            }
        }
    }

    fn surface(&mut self, path: &str, rules: &[SurfaceRule], d: &Definition) {
        if rules.len() > MAX_RULES {
            self.add(path, format!("at most {} surface rules", MAX_RULES));
        }
        for (k, r) in rules.iter().enumerate() {
            let p = format!("{}[{}]", path, k);
            self.block(&format!("{}.top", p), r.top, d);
            self.block(&format!("{}.under", p), r.under, d);
            self.int(&format!("{}.depth", p), i64::from(r.depth), 0, 32);
            if let Some(s) = r.min_slope {
                self.float(&format!("{}.min_slope", p), s, 0.0, 1000.0);
            }
            if let Some(a) = r.above_sea {
                self.int(&format!("{}.above_sea", p), i64::from(a), -4096, 4096);
            }
            if let Some(a) = r.below_sea {
                self.int(&format!("{}.below_sea", p), i64::from(a), -4096, 4096);
            }
            if let Some(j) = r.jitter {
                self.int(&format!("{}.jitter", p), i64::from(j), 0, 1);
            }
        }
    }
}

impl Definition {
    /// Every problem (up to `MAX_PROBLEMS`) that would make a body misbehave; empty when the
    /// definition can generate.
    pub fn check(&self) -> Vec<DefinitionError> {
        let mut p = Problems { list: Vec::new() };
        self.check_biomes(&mut p);
        self.check_terrain(&mut p);
        self.check_features(&mut p);
        self.check_structures(&mut p);
        self.check_scatter(&mut p);
        p.list
    }

    fn check_scatter(&self, p: &mut Problems) {
        let d = self;
        for (i, l) in d.scatter.iter().enumerate() {
            let at = format!("scatter[{}]", i);
            if let Err(e) = l.check() {
                let field = match e {
                    ScatterError::Name => "name",
                    ScatterError::Radius => "radius",
                    ScatterError::Density => "density",
                    ScatterError::Kinds => "kinds",
                    ScatterError::Scale => "scale",
                    ScatterError::Height => "height",
                };
                p.add(format!("{}.{}", at, field), format!("{}", e));
            }
            if d.scatter[..i].iter().any(|o| o.name == l.name) {
                p.add(
                    format!("{}.name", at),
                    "each scatter layer name at most once",
                );
            }
            for (k, kind) in l.kinds.iter().enumerate() {
                if l.kinds[..k].iter().any(|o| o.name == kind.name) {
                    p.add(
                        format!("{}.kinds[{}].name", at, k),
                        "each kind name at most once in a layer",
                    );
                }
            }
            p.biomes(&format!("{}.biomes", at), &l.biomes, d);
            p.blocks(&format!("{}.on", at), &l.on, d);
            if let Some(n) = &l.density_noise {
                p.noise(&format!("{}.density_noise", at), n);
            }
        }
    }

    fn check_biomes(&self, p: &mut Problems) {
        let d = self;
        if d.biomes.is_empty() || d.biomes.len() > MAX_BIOMES {
            p.add(
                "biomes",
                format!("{} biomes: need 1..={}", d.biomes.len(), MAX_BIOMES),
            );
        }
        p.unique_names("biomes", ".name", d.biomes.iter().map(|b| b.name.as_str()));
        p.unique_names("creatures", "", d.creatures.iter().map(|s| s.as_str()));
        for (i, b) in d.biomes.iter().enumerate() {
            let at = format!("biomes[{}]", i);
            p.surface(&format!("{}.surface", at), &b.surface, d);
            if let Some(s) = b.snow {
                p.block(&format!("{}.snow", at), s, d);
            }
            if let Some(s) = b.ice {
                p.block(&format!("{}.ice", at), s, d);
            }
            p.block(&format!("{}.spawn_ground", at), b.spawn_ground, d);
            if b.spawns.len() > MAX_SPAWNS {
                p.add(
                    format!("{}.spawns", at),
                    format!("at most {} spawn entries", MAX_SPAWNS),
                );
            }
            for (k, s) in b.spawns.iter().enumerate() {
                let sp = format!("{}.spawns[{}]", at, k);
                if s.creature as usize >= d.creatures.len() {
                    p.add(
                        format!("{}.creature", sp),
                        format!("creature id {} does not exist", s.creature),
                    );
                }
                p.int(&format!("{}.weight", sp), i64::from(s.weight), 1, 10_000);
            }
            if !d.climate.boxes.iter().any(|c| c.biome as usize == i) {
                p.add(
                    at,
                    "no climate box selects this biome, so it would never appear",
                );
            }
        }
        let names = [
            "temperature",
            "humidity",
            "continentalness",
            "erosion",
            "weirdness",
        ];
        for (n, name) in d.climate.noises.iter().zip(names) {
            p.noise(&format!("climate.{}", name), n);
        }
        p.positive("climate.stretch", d.climate.stretch, 100.0);
        if d.climate.boxes.is_empty() || d.climate.boxes.len() > MAX_BOXES {
            p.add(
                "climate.boxes",
                format!("at least one climate box is needed, at most {}", MAX_BOXES),
            );
        }
        let axes = [
            "temperature",
            "humidity",
            "continentalness",
            "erosion",
            "peaks_valleys",
        ];
        for (k, b) in d.climate.boxes.iter().enumerate() {
            let at = format!("climate.boxes[{}]", k);
            if b.biome as usize >= d.biomes.len() {
                p.add(
                    format!("{}.biome", at),
                    format!("biome id {} does not exist", b.biome),
                );
            }
            for (iv, axis) in [b.t, b.h, b.c, b.e, b.pv].iter().zip(axes) {
                if !(iv.0.is_finite() && iv.1.is_finite() && iv.0 <= iv.1) {
                    p.add(
                        format!("{}.{}", at, axis),
                        "an interval is [low, high] with low <= high",
                    );
                }
            }
        }
    }

    fn check_terrain(&self, p: &mut Problems) {
        let d = self;
        let t = &d.terrain;
        for (name, id) in [
            ("stone", t.stone),
            ("deep_stone", t.deep_stone),
            ("bedrock", t.bedrock),
            ("sea_fluid", t.sea_fluid),
            ("deep_fluid", t.deep_fluid),
        ] {
            p.block(&format!("terrain.{}", name), id, d);
        }
        for (name, id) in [("sea_fluid", t.sea_fluid), ("deep_fluid", t.deep_fluid)] {
            if d.blocks.get(id).map_or(false, |b| !b.liquid) {
                p.add(format!("terrain.{}", name), "must be a fluid block");
            }
        }
        for (name, id) in [
            ("stone", t.stone),
            ("deep_stone", t.deep_stone),
            ("bedrock", t.bedrock),
        ] {
            if d.blocks.get(id).map_or(false, |b| !b.solid) {
                p.add(format!("terrain.{}", name), "must be a solid block");
            }
        }
        p.int(
            "terrain.deep_stone_below",
            i64::from(t.deep_stone_below),
            -4096,
            4096,
        );
        p.int(
            "terrain.deep_stone_dither_bits",
            i64::from(t.deep_stone_dither_bits),
            0,
            4,
        );
        p.int("terrain.bedrock_layers", i64::from(t.bedrock_layers), 0, 8);
        p.int(
            "terrain.deep_fluid_layers",
            i64::from(t.deep_fluid_layers),
            0,
            4096,
        );
        p.noise("terrain.density", &t.density);
        p.spline("terrain.height", &t.height, -4096.0, 4096.0);
        p.spline("terrain.mountains", &t.mountains, -4096.0, 4096.0);
        // The jag divides the density: it must stay positive everywhere.
        p.spline("terrain.jag", &t.jag, f64::MIN_POSITIVE, 4096.0);
        p.positive("terrain.coast_jag", t.coast_jag, 4096.0);
        p.ramp("terrain.inland", &t.inland);
        p.float("terrain.river.valley", t.river.valley, -4.0, 4.0);
        p.positive("terrain.river.valley_width", t.river.valley_width, 8.0);
        p.ramp("terrain.river.coast", &t.river.coast);
        p.ramp("terrain.river.erosion", &t.river.erosion);
        p.float("terrain.river.depth", t.river.depth, -4096.0, 4096.0);
        p.surface("terrain.surface", &t.surface, d);
        let c = &t.caves;
        p.noise("terrain.caves.cheese", &c.cheese);
        p.noise("terrain.caves.spaghetti_a", &c.spaghetti_a);
        p.noise("terrain.caves.spaghetti_b", &c.spaghetti_b);
        p.positive("terrain.caves.cheese_y_stretch", c.cheese_y_stretch, 16.0);
        p.positive(
            "terrain.caves.spaghetti_y_stretch",
            c.spaghetti_y_stretch,
            16.0,
        );
        for (name, v) in [
            ("cheese_threshold", c.cheese_threshold),
            ("cheese_sharpness", c.cheese_sharpness),
            ("spaghetti_radius", c.spaghetti_radius),
            ("spaghetti_sharpness", c.spaghetti_sharpness),
            ("surface_margin", c.surface_margin),
            ("floor_margin", c.floor_margin),
            ("fade_close", c.fade_close),
        ] {
            p.float(&format!("terrain.caves.{}", name), v, -4096.0, 4096.0);
        }
        p.positive("terrain.caves.surface_fade", c.surface_fade, 4096.0);
        p.positive("terrain.caves.floor_fade", c.floor_fade, 4096.0);
        p.noise("terrain.aquifer.noise", &t.aquifer.noise);
        p.int(
            "terrain.aquifer.below_sea",
            i64::from(t.aquifer.below_sea),
            -4096,
            4096,
        );
        p.float("terrain.aquifer.spread", t.aquifer.spread, -4096.0, 4096.0);
        let w = &t.carvers;
        p.int("terrain.carvers.chance", i64::from(w.chance), 0, 10_000);
        p.int(
            "terrain.carvers.max_tunnels",
            i64::from(w.max_tunnels),
            1,
            8,
        );
        p.int("terrain.carvers.start_min", i64::from(w.start_min), 0, 4096);
        p.int(
            "terrain.carvers.start_span",
            i64::from(w.start_span),
            1,
            4096,
        );
        p.float("terrain.carvers.min_radius", w.min_radius, 0.5, 6.0);
        p.positive("terrain.carvers.vertical_scale", w.vertical_scale, 4.0);
        p.int(
            "terrain.carvers.floor_margin",
            i64::from(w.floor_margin),
            0,
            64,
        );
        p.int("terrain.carvers.top_margin", i64::from(w.top_margin), 0, 64);
    }

    fn check_features(&self, p: &mut Problems) {
        let d = self;
        p.unique_names(
            "features",
            ".name",
            d.features.iter().map(|f| f.name.as_str()),
        );
        p.unique_names("trees", ".name", d.trees.iter().map(|t| t.name.as_str()));
        if d.features.len() > 1000 {
            p.add("features", "at most 1000 features");
        }
        let mut pieces = 0;
        for (i, f) in d.features.iter().enumerate() {
            let at = format!("features[{}]", i);
            let is_pieces = matches!(f.kind, FeatureKind::StructurePieces);
            pieces += usize::from(is_pieces);
            if is_pieces && f.step != 0 {
                p.add(format!("{}.step", at), "structure pieces run in step 0");
            } else if !is_pieces && !(1..STEP_COUNT).contains(&f.step) {
                p.add(
                    format!("{}.step", at),
                    format!("{} is out of range 1..={}", f.step, STEP_COUNT - 1),
                );
            }
            let sub = |k: &str| format!("{}.{}", at, k);
            match &f.kind {
                FeatureKind::StructurePieces => {}
                FeatureKind::Boulder(b) => {
                    p.block(&sub("block"), b.block, d);
                    p.int(&sub("chance"), i64::from(b.chance), 1, 10_000);
                    p.positive(&sub("radius"), b.radius, MAX_FEATURE_RADIUS);
                    let spread = MAX_FEATURE_RADIUS - b.radius;
                    p.float(&sub("radius_spread"), b.radius_spread, 0.0, spread);
                    p.biomes(&sub("biomes"), &b.biomes, d);
                    p.blocks(&sub("replaces"), &b.replaces, d);
                }
                FeatureKind::Ore(o) => {
                    p.block(&sub("block"), o.block, d);
                    p.int(&sub("attempts"), i64::from(o.attempts), 0, 256);
                    p.int(&sub("min_y"), i64::from(o.min_y), -4096, 4096);
                    p.int(&sub("max_y"), i64::from(o.max_y), -4096, 4096);
                    p.positive(&sub("min_radius"), o.min_radius, MAX_FEATURE_RADIUS);
                    p.float(
                        &sub("max_radius"),
                        o.max_radius,
                        o.min_radius,
                        MAX_FEATURE_RADIUS,
                    );
                    p.blocks(&sub("replaces"), &o.replaces, d);
                    p.biomes(&sub("biomes"), &o.biomes, d);
                }
                FeatureKind::Trees(TreesDef {
                    biomes,
                    soil,
                    ground,
                }) => {
                    for (k, t) in biomes.iter().enumerate() {
                        let tp = format!("{}.trees[{}]", at, k);
                        if t.biome as usize >= d.biomes.len() {
                            p.add(
                                format!("{}.biome", tp),
                                format!("biome id {} does not exist", t.biome),
                            );
                        } else if biomes[..k].iter().any(|o| o.biome == t.biome) {
                            p.add(format!("{}.biome", tp), "a biome is listed twice");
                        }
                        if t.tree as usize >= d.trees.len() {
                            p.add(
                                format!("{}.tree", tp),
                                format!("tree id {} does not exist", t.tree),
                            );
                        }
                        p.int(
                            &format!("{}.per_chunk_quarters", tp),
                            i64::from(t.per_chunk_quarters),
                            0,
                            256,
                        );
                    }
                    p.blocks(&sub("soil"), soil, d);
                    p.block(&sub("ground"), *ground, d);
                }
                FeatureKind::Column(c) => {
                    p.block(&sub("block"), c.block, d);
                    p.int(&sub("attempts"), i64::from(c.attempts), 0, 64);
                    p.int(&sub("max_height"), i64::from(c.max_height), 1, 16);
                    p.biomes(&sub("biomes"), &c.biomes, d);
                    p.block(&sub("ground"), c.ground, d);
                }
                FeatureKind::Vegetation(v) => {
                    p.float(&sub("radius"), v.radius, 1.0, 16.0);
                    for (k, r) in v.rules.iter().enumerate() {
                        let rp = format!("{}.rules[{}]", at, k);
                        p.biomes(&format!("{}.biomes", rp), &r.biomes, d);
                        if r.plants.is_empty() {
                            p.add(format!("{}.plants", rp), "at least one plant");
                        }
                        p.blocks(&format!("{}.plants", rp), &r.plants, d);
                        p.block(&format!("{}.ground", rp), r.ground, d);
                    }
                }
            }
        }
        if pieces > 1 {
            p.add("features", "at most one structure_pieces feature");
        }
        if pieces == 0 && !d.structures.is_empty() {
            p.add(
                "features",
                "structures need a structure_pieces feature (their seed index)",
            );
        }
        for (i, t) in d.trees.iter().enumerate() {
            let at = format!("trees[{}]", i);
            p.block(&format!("{}.log", at), t.log, d);
            p.block(&format!("{}.leaves", at), t.leaves, d);
            p.int(
                &format!("{}.base_height", at),
                i64::from(t.base_height),
                1,
                i64::from(MAX_TREE_HEIGHT),
            );
            p.int(
                &format!("{}.random_height", at),
                i64::from(t.random_height),
                1,
                i64::from(MAX_TREE_HEIGHT - t.base_height + 1).max(1),
            );
        }
    }

    fn check_structures(&self, p: &mut Problems) {
        let d = self;
        for (i, s) in d.structures.iter().enumerate() {
            let at = format!("structures[{}]", i);
            if d.structures[..i].iter().any(|o| o.kind == s.kind) {
                p.add(format!("{}.kind", at), "each structure kind at most once");
            }
            p.int(&format!("{}.spacing", at), i64::from(s.spacing), 2, 64);
            p.int(
                &format!("{}.separation", at),
                i64::from(s.separation),
                0,
                i64::from(s.spacing) - 1,
            );
            p.biomes(&format!("{}.biomes", at), &s.biomes, d);
        }
        let b = &d.structure_blocks;
        for (name, id) in [
            ("wall", b.wall),
            ("mossy_wall", b.mossy_wall),
            ("planks", b.planks),
            ("bricks", b.bricks),
            ("torch", b.torch),
            ("path", b.path),
            ("chest", b.chest),
            ("spawner", b.spawner),
        ] {
            p.block(&format!("structure_blocks.{}", name), id, d);
        }
        p.blocks("structure_blocks.path_ground", &b.path_ground, d);
        if d.creatures.len() > usize::from(u16::MAX) {
            p.add("creatures", "at most 65535 creatures");
        }
    }
}
