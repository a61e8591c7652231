//! Noise tables and `[climate]`: reading and writing.

use stratagen_core::noise::NoiseDef;
use stratagen_core::world::definition::{ClimateBox, ClimateDef, Interval};
use stratagen_core::world::Definition;

use crate::build::{array, floats, name_of, T};
use crate::node::Node;
use crate::reader::Reader;

pub use stratagen_core::noise::names::{DISTANCES, FRACTALS, PRECISIONS, RETURNS, TYPES};

/// Names of the five climate parameters, in [`ClimateDef::noises`] order.
pub const CLIMATE_NOISES: [&str; 5] = [
    "temperature",
    "humidity",
    "continentalness",
    "erosion",
    "weirdness",
];
const AXES: [&str; 5] = [
    "temperature",
    "humidity",
    "continentalness",
    "erosion",
    "peaks_valleys",
];

/// A noise table: `salt` (XORed with the world seed), then the `sg_noise_def` settings; every
/// key but `salt`, `frequency` and `octaves` has the noise default.
pub fn read_noise(r: &mut Reader, node: &Node, path: &str) -> NoiseDef {
    let d = NoiseDef::default();
    let mut t = r.table(node, path);
    let noise_type = t.choice_or(r, "type", &TYPES, d.noise_type);
    let fractal = t.choice_or(r, "fractal", &FRACTALS, d.fractal);
    let cellular_distance = t.choice_or(r, "cellular_distance", &DISTANCES, d.cellular_distance);
    let cellular_return = t.choice_or(r, "cellular_return", &RETURNS, d.cellular_return);
    let precision = t.choice_or(r, "precision", &PRECISIONS, d.precision);
    let n = NoiseDef {
        seed: t.req(r, "salt"),
        noise_type,
        fractal,
        octaves: t.req(r, "octaves"),
        frequency: t.req(r, "frequency"),
        lacunarity: t.or(r, "lacunarity", d.lacunarity),
        gain: t.or(r, "gain", d.gain),
        offset: t.or(r, "offset", d.offset),
        cellular_distance,
        cellular_return,
        cellular_jitter: t.or(r, "cellular_jitter", d.cellular_jitter),
        warp_amplitude: t.or(r, "warp_amplitude", d.warp_amplitude),
        warp_frequency: t.or(r, "warp_frequency", d.warp_frequency),
        precision,
    };
    t.end(r);
    n
}

/// A noise table: salt, type, fractal, octaves and frequency, and every other setting that
/// differs from its default.
pub fn write_noise(n: &NoiseDef) -> Node {
    let d = NoiseDef::default();
    let mut t = T::new()
        .i("salt", n.seed)
        .s("type", name_of(&TYPES, n.noise_type))
        .s("fractal", name_of(&FRACTALS, n.fractal))
        .i("octaves", i64::from(n.octaves))
        .f("frequency", n.frequency);
    // Compared by bits, so -0.0 and NaN are written as given.
    let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
    for (key, v, default) in [
        ("lacunarity", n.lacunarity, d.lacunarity),
        ("gain", n.gain, d.gain),
    ] {
        if !same(v, default) {
            t = t.f(key, v);
        }
    }
    if n.offset.iter().zip(d.offset).any(|(a, b)| !same(*a, b)) {
        t = t.n("offset", floats(&n.offset));
    }
    if n.cellular_distance != d.cellular_distance {
        t = t.s(
            "cellular_distance",
            name_of(&DISTANCES, n.cellular_distance),
        );
    }
    if n.cellular_return != d.cellular_return {
        t = t.s("cellular_return", name_of(&RETURNS, n.cellular_return));
    }
    if n.precision != d.precision {
        t = t.s("precision", name_of(&PRECISIONS, n.precision));
    }
    for (key, v, default) in [
        ("cellular_jitter", n.cellular_jitter, d.cellular_jitter),
        ("warp_amplitude", n.warp_amplitude, d.warp_amplitude),
        ("warp_frequency", n.warp_frequency, d.warp_frequency),
    ] {
        if !same(v, default) {
            t = t.f(key, v);
        }
    }
    t.done()
}

/// `[climate]`.
pub fn read_climate(r: &mut Reader, node: &Node, path: &str) -> ClimateDef {
    let mut t = r.table(node, path);
    let mut noises = [NoiseDef::default(); 5];
    for (k, name) in CLIMATE_NOISES.iter().enumerate() {
        let n = t.node(r, name);
        noises[k] = read_noise(r, n, &t.path_of(name));
    }
    let stretch = t.req(r, "stretch");
    let list = t.node(r, "boxes");
    let boxes = r.each(list, &t.path_of("boxes"), |r, item, p| {
        let mut b = r.table(item, p);
        let biome_node = b.node(r, "biome");
        let biome = r.biome(biome_node, &b.path_of("biome"));
        let any: Interval = (-2.0, 2.0);
        let iv = |b: &mut crate::reader::Table<'_>, r: &mut Reader, key: &'static str| {
            let [lo, hi]: [f64; 2] = b.or(r, key, [any.0, any.1]);
            (lo, hi)
        };
        let cb = ClimateBox {
            biome,
            t: iv(&mut b, r, AXES[0]),
            h: iv(&mut b, r, AXES[1]),
            c: iv(&mut b, r, AXES[2]),
            e: iv(&mut b, r, AXES[3]),
            pv: iv(&mut b, r, AXES[4]),
        };
        b.end(r);
        cb
    });
    t.end(r);
    ClimateDef {
        noises,
        stretch,
        boxes,
    }
}

/// `[climate]` of a definition.
pub fn write_climate(d: &Definition) -> Node {
    let c = &d.climate;
    let mut t = T::new();
    for (k, name) in CLIMATE_NOISES.iter().enumerate() {
        t = t.n(name, write_noise(&c.noises[k]));
    }
    t.f("stretch", c.stretch)
        .n(
            "boxes",
            array(c.boxes.iter().map(|b| {
                let mut t = T::new().s(
                    "biome",
                    d.biomes
                        .get(b.biome as usize)
                        .map_or("", |b| b.name.as_str()),
                );
                for (axis, iv) in AXES.iter().zip([b.t, b.h, b.c, b.e, b.pv]) {
                    t = t.n(axis, floats(&[iv.0, iv.1]));
                }
                t.done()
            })),
        )
        .done()
}
