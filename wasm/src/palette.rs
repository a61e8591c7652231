//! What a world's ids mean: its blocks, biomes and scatter layers as JSON text, which the
//! package parses once per world.

use std::fmt::Write;

use stratagen_core::world::block::{Shape, Surface};
use stratagen_core::world::Definition;

use crate::boundary::{status, text};
use crate::world::with_world;

/// `s` as a JSON string.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::None => "none",
        Shape::Cube => "cube",
        Shape::Cross => "cross",
        Shape::Fluid => "fluid",
        Shape::Layer => "layer",
    }
}

fn surface_name(s: Surface) -> &'static str {
    match s {
        Surface::Opaque => "opaque",
        Surface::Cutout => "cutout",
        Surface::Translucent => "translucent",
    }
}

/// The definition's palettes as JSON: `blocks` and `biomes` in id order, `scatter` layers
/// in layer order.
pub fn palettes_json(def: &Definition) -> String {
    let blocks: Vec<String> = def
        .blocks
        .iter()
        .map(|(name, p)| {
            format!(
                "{{\"name\":{},\"shape\":\"{}\",\"surface\":\"{}\",\"solid\":{},\"liquid\":{},\
                 \"replaceable\":{},\"leaves\":{},\"tinted\":{},\"emission\":{},\"opacity\":{},\
                 \"colour\":{:?}}}",
                quoted(name),
                shape_name(p.shape),
                surface_name(p.surface),
                p.solid,
                p.liquid,
                p.replaceable,
                p.leaves,
                p.tinted,
                p.emission,
                p.opacity,
                p.colour,
            )
        })
        .collect();
    let biomes: Vec<String> = def
        .biomes
        .iter()
        .map(|b| format!("{{\"name\":{},\"colour\":{:?}}}", quoted(&b.name), b.colour))
        .collect();
    let scatter: Vec<String> = def
        .scatter
        .iter()
        .map(|l| {
            let kinds: Vec<String> = l.kinds.iter().map(|k| quoted(&k.name)).collect();
            format!(
                "{{\"name\":{},\"radius\":{},\"kinds\":[{}]}}",
                quoted(&l.name),
                l.radius,
                kinds.join(",")
            )
        })
        .collect();
    format!(
        "{{\"blocks\":[{}],\"biomes\":[{}],\"scatter\":[{}]}}",
        blocks.join(","),
        biomes.join(","),
        scatter.join(",")
    )
}

/// The world's palettes as JSON, as the text result.
#[no_mangle]
pub extern "C" fn sg_world_palettes(world: u32) -> u32 {
    status(|| {
        let json = with_world(world, |w| Ok(palettes_json(w.generator().definition())))?;
        text(json);
        Ok(())
    })
}
