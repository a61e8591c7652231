//! `[[scatter]]`: scatter layers, reading and writing.

use stratagen_core::world::scatter::{ScatterKind, ScatterLayer};
use stratagen_core::world::Definition;

use crate::blocks::block_name;
use crate::build::{array, floats, ints, string, T};
use crate::climate::{read_noise, write_noise};
use crate::node::Node;
use crate::reader::Reader;

/// The scatter layers. Unwritten keys take the layer's defaults: density 1, every biome,
/// any ground, every height and slope, one kind named like the layer, scale 1, upright.
pub fn read_scatter(r: &mut Reader, list: &Node, path: &str) -> Vec<ScatterLayer> {
    r.each(list, path, |r, item, p| {
        let mut t = r.table(item, p);
        let name: String = t.req(r, "name");
        let mut layer = ScatterLayer::new(&name, t.req(r, "radius"));
        layer.density = t.or(r, "density", 1.0);
        if let Some(n) = t.opt_node("density_noise") {
            layer.density_noise = Some(read_noise(r, n, &t.path_of("density_noise")));
        }
        if let Some(n) = t.opt_node("biomes") {
            layer.biomes = r.each(n, &t.path_of("biomes"), |r, n, p| r.biome(n, p));
        }
        if let Some(n) = t.opt_node("on") {
            layer.on = r.each(n, &t.path_of("on"), |r, n, p| r.block(n, p));
        }
        let [lo, hi] = t.or(r, "height", [layer.height.0, layer.height.1]);
        layer.height = (lo, hi);
        layer.max_slope = t.or(r, "max_slope", layer.max_slope);
        if let Some(n) = t.opt_node("kinds") {
            layer.kinds = r.each(n, &t.path_of("kinds"), |r, item, p| {
                let mut k = r.table(item, p);
                let kind = ScatterKind {
                    name: k.req(r, "name"),
                    weight: k.or(r, "weight", 1),
                };
                k.end(r);
                kind
            });
        }
        // Scales are f32 in instances: a document's value is rounded to the nearest f32.
        let [lo, hi] = t.or(r, "scale", [1.0, 1.0]);
        layer.scale = (lo as f32, hi as f32);
        layer.align_to_normal = t.or(r, "align_to_normal", false);
        t.end(r);
        layer
    })
}

/// An f32 as the shortest decimal that reads back to it (0.8, not 0.800000011920929).
fn short(x: f32) -> f64 {
    format!("{x}").parse().unwrap_or(f64::from(x))
}

/// `[[scatter]]` of a definition: every key, but `height` and `max_slope` only when they
/// bound something (their defaults are "any").
pub fn write_scatter(d: &Definition) -> Node {
    array(d.scatter.iter().map(|l| {
        let mut t = T::new()
            .s("name", &l.name)
            .f("radius", l.radius)
            .f("density", l.density)
            .n(
                "biomes",
                array(l.biomes.iter().map(|&b| {
                    string(d.biomes.get(usize::from(b)).map_or("", |b| b.name.as_str()))
                })),
            )
            .n("on", array(l.on.iter().map(|&b| string(block_name(d, b)))));
        if l.height != ScatterLayer::new(&l.name, l.radius).height {
            t = t.n(
                "height",
                ints(&[i64::from(l.height.0), i64::from(l.height.1)]),
            );
        }
        if l.max_slope != u32::MAX {
            t = t.i("max_slope", i64::from(l.max_slope));
        }
        if let Some(n) = &l.density_noise {
            t = t.n("density_noise", write_noise(n));
        }
        t.n("scale", floats(&[short(l.scale.0), short(l.scale.1)]))
            .b("align_to_normal", l.align_to_normal)
            .n(
                "kinds",
                array(l.kinds.iter().map(|k| {
                    T::new()
                        .s("name", &k.name)
                        .i("weight", i64::from(k.weight))
                        .done()
                })),
            )
            .done()
    }))
}
