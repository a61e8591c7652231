//! The canonical encoding of a definition and [`Definition::digest`], XXH64 over the encoding
//! of everything but its name. The encoding is of the resolved structs (ids, not names;
//! numbers by their bits, little-endian), so whitespace, key order, comments and the text
//! format (TOML or JSON) do not change it. Every list is length-prefixed and every option
//! tagged, so no two definitions share an encoding; [`Definition::from_bytes`] reads it back
//! (which proves the digest covers every field).

use alloc::vec::Vec;

use crate::noise::NoiseDef;
use crate::util::digest::xxh64;
use crate::world::block::BlockProps;
use crate::world::definition::*;
use crate::world::scatter::ScatterLayer;

/// Marks the scatter layers after the digested part of [`Definition::to_bytes`] ("SCAT").
pub const SCATTER_TAG: u32 = u32::from_le_bytes(*b"SCAT");

/// Little-endian bytes, written with the same calls as the streaming digest.
#[derive(Default)]
pub(super) struct Bytes(pub(super) Vec<u8>);

impl Bytes {
    pub(super) fn write_bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    pub(super) fn write_u8(&mut self, x: u8) {
        self.0.push(x);
    }
    pub(super) fn write_u16(&mut self, x: u16) {
        self.write_bytes(&x.to_le_bytes());
    }
    pub(super) fn write_u32(&mut self, x: u32) {
        self.write_bytes(&x.to_le_bytes());
    }
    pub(super) fn write_i32(&mut self, x: i32) {
        self.write_bytes(&x.to_le_bytes());
    }
    pub(super) fn write_u64(&mut self, x: u64) {
        self.write_bytes(&x.to_le_bytes());
    }
    pub(super) fn write_i64(&mut self, x: i64) {
        self.write_bytes(&x.to_le_bytes());
    }
    pub(super) fn write_f64(&mut self, x: f64) {
        self.write_u64(x.to_bits());
    }
    pub(super) fn write_u16_slice(&mut self, xs: &[u16]) {
        for x in xs {
            self.write_u16(*x);
        }
    }
    pub(super) fn write_f64_slice(&mut self, xs: &[f64]) {
        for x in xs {
            self.write_f64(*x);
        }
    }
}

/// Version of the canonical encoding; part of the digest so a change in encoding never
/// matches an old digest by accident.
pub(super) const ENCODING: u32 = 1;

/// Where a noise's precision sits in the word that carries its type (bits 16 and up).
pub(super) const PRECISION_SHIFT: u32 = 16;

struct Canon(Bytes);

impl Canon {
    fn len(&mut self, n: usize) {
        self.0.write_u64(n as u64);
    }
    fn scatter_layer(&mut self, l: &ScatterLayer) {
        self.str(&l.name);
        self.0.write_f64(l.radius);
        self.0.write_f64(l.density);
        self.bytes(&l.biomes);
        self.ids(&l.on);
        self.0.write_i32(l.height.0);
        self.0.write_i32(l.height.1);
        self.0.write_u32(l.max_slope);
        self.len(l.kinds.len());
        for k in &l.kinds {
            self.str(&k.name);
            self.0.write_u32(k.weight);
        }
        self.0.write_u32(l.scale.0.to_bits());
        self.0.write_u32(l.scale.1.to_bits());
        self.0.write_u8(u8::from(l.align_to_normal));
        match &l.density_noise {
            None => self.0.write_u8(0),
            Some(n) => {
                self.0.write_u8(1);
                self.noise(n);
            }
        }
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.write_bytes(s.as_bytes());
    }
    fn ids(&mut self, ids: &[u16]) {
        self.len(ids.len());
        self.0.write_u16_slice(ids);
    }
    fn bytes(&mut self, ids: &[u8]) {
        self.len(ids.len());
        self.0.write_bytes(ids);
    }
    fn opt_u16(&mut self, v: Option<u16>) {
        match v {
            Some(v) => {
                self.0.write_u8(1);
                self.0.write_u16(v);
            }
            None => self.0.write_u8(0),
        }
    }
    fn noise(&mut self, n: &NoiseDef) {
        let h = &mut self.0;
        h.write_i64(n.seed);
        // The precision rides in the type word's high half, so an f64 noise (precision 0)
        // keeps the bytes and the digest it always had.
        h.write_u32(n.noise_type as u32 | (n.precision as u32) << PRECISION_SHIFT);
        h.write_u32(n.fractal as u32);
        h.write_u32(n.octaves);
        for v in [n.frequency, n.lacunarity, n.gain] {
            h.write_f64(v);
        }
        h.write_f64_slice(&n.offset);
        h.write_u32(n.cellular_distance as u32);
        h.write_u32(n.cellular_return as u32);
        for v in [n.cellular_jitter, n.warp_amplitude, n.warp_frequency] {
            h.write_f64(v);
        }
    }
    fn block(&mut self, name: &str, p: &BlockProps) {
        self.str(name);
        let h = &mut self.0;
        for f in [p.solid, p.liquid, p.replaceable, p.leaves, p.tinted] {
            h.write_u8(u8::from(f));
        }
        h.write_u8(p.emission);
        h.write_u8(p.opacity);
        h.write_u8(p.shape as u8);
        h.write_u8(p.surface as u8);
        h.write_bytes(&p.colour);
    }
    fn spline(&mut self, s: &Spline) {
        self.len(s.knots.len());
        for &(x, y) in &s.knots {
            self.0.write_f64(x);
            self.0.write_f64(y);
        }
    }
    fn ramp(&mut self, r: &Ramp) {
        self.0.write_f64(r.from);
        self.0.write_f64(r.width);
    }
    fn rules(&mut self, rules: &[SurfaceRule]) {
        self.len(rules.len());
        for r in rules {
            let tag = |v: bool| u8::from(v);
            let h = &mut self.0;
            h.write_u8(r.underwater.map_or(0, |u| 1 + tag(u)));
            h.write_u8(tag(r.min_slope.is_some()));
            h.write_f64(r.min_slope.unwrap_or(0.0));
            h.write_u8(tag(r.above_sea.is_some()));
            h.write_i32(r.above_sea.unwrap_or(0));
            h.write_u8(tag(r.below_sea.is_some()));
            h.write_i32(r.below_sea.unwrap_or(0));
            // 0 for none, else 1 + the jitter (wrapping: only 0 and 1 pass the check).
            h.write_u8(r.jitter.map_or(0, |j| j.wrapping_add(1)));
            h.write_u16(r.top);
            h.write_u16(r.under);
            h.write_i32(r.depth);
        }
    }
}

impl Definition {
    /// The definition digest (see the module docs): part of a world's identity, so a host can
    /// tell whether stored chunks belong to this world.
    pub fn digest(&self) -> u64 {
        xxh64(&self.canonical())
    }

    /// The whole definition, name included, in the canonical encoding: the name's length
    /// (`u64`) and UTF-8 bytes, then [`Definition::digest`]'s bytes, then, if there are scatter
    /// layers, [`SCATTER_TAG`] and the layers. [`Definition::from_bytes`] reads it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut c = Canon(Bytes::default());
        c.str(&self.name);
        c.0 .0.extend_from_slice(&self.canonical());
        if !self.scatter.is_empty() {
            c.0.write_u32(SCATTER_TAG);
            c.len(self.scatter.len());
            for l in &self.scatter {
                c.scatter_layer(l);
            }
        }
        c.0 .0
    }

    /// The encoding of everything but the name.
    fn canonical(&self) -> Vec<u8> {
        let mut c = Canon(Bytes::default());
        c.0.write_u32(ENCODING);
        c.len(self.blocks.len());
        for (name, p) in self.blocks.iter() {
            c.block(name, p);
        }
        c.len(self.biomes.len());
        for b in &self.biomes {
            c.str(&b.name);
            c.0.write_bytes(&b.colour);
            c.rules(&b.surface);
            c.opt_u16(b.snow);
            c.opt_u16(b.ice);
            c.0.write_u16(b.spawn_ground);
            c.len(b.spawns.len());
            for s in &b.spawns {
                c.0.write_u16(s.creature);
                c.0.write_i32(s.weight);
            }
        }
        for n in &self.climate.noises {
            c.noise(n);
        }
        c.0.write_f64(self.climate.stretch);
        c.len(self.climate.boxes.len());
        for b in &self.climate.boxes {
            c.0.write_u8(b.biome);
            for iv in [b.t, b.h, b.c, b.e, b.pv] {
                c.0.write_f64(iv.0);
                c.0.write_f64(iv.1);
            }
        }
        self.digest_terrain(&mut c);
        self.digest_features(&mut c);
        c.0 .0
    }

    fn digest_terrain(&self, c: &mut Canon) {
        let t = &self.terrain;
        for id in [t.stone, t.deep_stone, t.bedrock, t.sea_fluid, t.deep_fluid] {
            c.0.write_u16(id);
        }
        c.0.write_i32(t.deep_stone_below);
        c.0.write_u32(t.deep_stone_dither_bits);
        c.0.write_i32(t.bedrock_layers);
        c.0.write_i32(t.deep_fluid_layers);
        c.noise(&t.density);
        c.spline(&t.height);
        c.spline(&t.mountains);
        c.ramp(&t.inland);
        c.0.write_f64(t.river.valley);
        c.0.write_f64(t.river.valley_width);
        c.ramp(&t.river.coast);
        c.ramp(&t.river.erosion);
        c.0.write_f64(t.river.depth);
        c.0.write_f64(t.coast_jag);
        c.spline(&t.jag);
        c.rules(&t.surface);
        let v = &t.caves;
        c.noise(&v.cheese);
        c.noise(&v.spaghetti_a);
        c.noise(&v.spaghetti_b);
        c.0.write_f64_slice(&[
            v.cheese_y_stretch,
            v.spaghetti_y_stretch,
            v.cheese_threshold,
            v.cheese_sharpness,
            v.spaghetti_radius,
            v.spaghetti_sharpness,
            v.surface_margin,
            v.surface_fade,
            v.floor_margin,
            v.floor_fade,
            v.fade_close,
        ]);
        c.noise(&t.aquifer.noise);
        c.0.write_i32(t.aquifer.below_sea);
        c.0.write_f64(t.aquifer.spread);
        let w = &t.carvers;
        for v in [w.chance, w.max_tunnels, w.start_min, w.start_span] {
            c.0.write_i32(v);
        }
        c.0.write_f64(w.min_radius);
        c.0.write_f64(w.vertical_scale);
        c.0.write_i32(w.floor_margin);
        c.0.write_i32(w.top_margin);
    }

    fn digest_features(&self, c: &mut Canon) {
        c.len(self.features.len());
        for f in &self.features {
            c.str(&f.name);
            c.0.write_i32(f.step);
            match &f.kind {
                FeatureKind::StructurePieces => c.0.write_u8(0),
                FeatureKind::Boulder(b) => {
                    c.0.write_u8(1);
                    c.0.write_u16(b.block);
                    c.0.write_i32(b.chance);
                    c.0.write_f64(b.radius);
                    c.0.write_f64(b.radius_spread);
                    c.bytes(&b.biomes);
                    c.ids(&b.replaces);
                }
                FeatureKind::Ore(o) => {
                    c.0.write_u8(2);
                    c.0.write_u16(o.block);
                    for v in [o.attempts, o.min_y, o.max_y] {
                        c.0.write_i32(v);
                    }
                    c.0.write_f64(o.min_radius);
                    c.0.write_f64(o.max_radius);
                    c.ids(&o.replaces);
                    c.bytes(&o.biomes);
                }
                FeatureKind::Trees(t) => {
                    c.0.write_u8(3);
                    c.len(t.biomes.len());
                    for s in &t.biomes {
                        c.0.write_u8(s.biome);
                        c.0.write_u16(s.tree);
                        c.0.write_i32(s.per_chunk_quarters);
                    }
                    c.ids(&t.soil);
                    c.0.write_u16(t.ground);
                }
                FeatureKind::Column(k) => {
                    c.0.write_u8(4);
                    c.0.write_u16(k.block);
                    c.0.write_i32(k.attempts);
                    c.0.write_i32(k.max_height);
                    c.bytes(&k.biomes);
                    c.0.write_u16(k.ground);
                }
                FeatureKind::Vegetation(v) => {
                    c.0.write_u8(5);
                    c.0.write_f64(v.radius);
                    c.0.write_i64(v.salt);
                    c.len(v.rules.len());
                    for r in &v.rules {
                        c.bytes(&r.biomes);
                        c.ids(&r.plants);
                        c.0.write_u16(r.ground);
                    }
                }
            }
        }
        c.len(self.trees.len());
        for t in &self.trees {
            c.str(&t.name);
            c.0.write_u8(t.shape as u8);
            c.0.write_u16(t.log);
            c.0.write_u16(t.leaves);
            c.0.write_i32(t.base_height);
            c.0.write_i32(t.random_height);
        }
        c.len(self.structures.len());
        for s in &self.structures {
            c.0.write_u8(s.kind as u8);
            for v in [s.spacing, s.separation, s.salt] {
                c.0.write_i32(v);
            }
            c.bytes(&s.biomes);
        }
        let b = &self.structure_blocks;
        for id in [
            b.wall,
            b.mossy_wall,
            b.planks,
            b.bricks,
            b.torch,
            b.path,
            b.chest,
            b.spawner,
        ] {
            c.0.write_u16(id);
        }
        c.ids(&b.path_ground);
        c.len(self.creatures.len());
        for s in &self.creatures {
            c.str(s);
        }
    }
}
