//! `[terrain]`: reading and writing.

use stratagen_core::world::definition::{
    AquiferDef, CarverDef, CaveDef, Ramp, RiverDef, Spline, TerrainDef,
};
use stratagen_core::world::Definition;

use crate::blocks::{block_name, read_rules, write_rules};
use crate::build::{array, floats, T};
use crate::climate::{read_noise, write_noise};
use crate::node::Node;
use crate::reader::{Reader, Table};

fn spline(r: &mut Reader, t: &mut Table<'_>, key: &'static str) -> Spline {
    let knots: Vec<[f64; 2]> = t.req(r, key);
    Spline {
        knots: knots.into_iter().map(|[x, y]| (x, y)).collect(),
    }
}

fn write_spline(s: &Spline) -> Node {
    array(s.knots.iter().map(|&(x, y)| floats(&[x, y])))
}

fn ramp(r: &mut Reader, t: &mut Table<'_>, key: &'static str) -> Ramp {
    let n = t.node(r, key);
    let mut rt = r.table(n, &t.path_of(key));
    let ramp = Ramp {
        from: rt.req(r, "from"),
        width: rt.req(r, "width"),
    };
    rt.end(r);
    ramp
}

fn write_ramp(r: &Ramp) -> Node {
    T::new().f("from", r.from).f("width", r.width).done()
}

fn noise(r: &mut Reader, t: &mut Table<'_>, key: &'static str) -> stratagen_core::noise::NoiseDef {
    let n = t.node(r, key);
    read_noise(r, n, &t.path_of(key))
}

fn sub<'n>(r: &mut Reader, t: &mut Table<'n>, key: &'static str) -> Table<'n> {
    let n = t.node(r, key);
    r.table(n, &t.path_of(key))
}

/// `[terrain]`.
pub fn read_terrain(r: &mut Reader, node: &Node, path: &str) -> TerrainDef {
    let mut t = r.table(node, path);
    let stone = t.block(r, "stone");
    let deep_stone = t.block(r, "deep_stone");
    let bedrock = t.block(r, "bedrock");
    let sea_fluid = t.block(r, "sea_fluid");
    let deep_fluid = t.block(r, "deep_fluid");
    let mut rv = sub(r, &mut t, "river");
    let river = RiverDef {
        valley: rv.req(r, "valley"),
        valley_width: rv.req(r, "valley_width"),
        coast: ramp(r, &mut rv, "coast"),
        erosion: ramp(r, &mut rv, "erosion"),
        depth: rv.req(r, "depth"),
    };
    rv.end(r);
    let mut c = sub(r, &mut t, "caves");
    let caves = CaveDef {
        cheese: noise(r, &mut c, "cheese"),
        spaghetti_a: noise(r, &mut c, "spaghetti_a"),
        spaghetti_b: noise(r, &mut c, "spaghetti_b"),
        cheese_y_stretch: c.req(r, "cheese_y_stretch"),
        spaghetti_y_stretch: c.req(r, "spaghetti_y_stretch"),
        cheese_threshold: c.req(r, "cheese_threshold"),
        cheese_sharpness: c.req(r, "cheese_sharpness"),
        spaghetti_radius: c.req(r, "spaghetti_radius"),
        spaghetti_sharpness: c.req(r, "spaghetti_sharpness"),
        surface_margin: c.req(r, "surface_margin"),
        surface_fade: c.req(r, "surface_fade"),
        floor_margin: c.req(r, "floor_margin"),
        floor_fade: c.req(r, "floor_fade"),
        fade_close: c.req(r, "fade_close"),
    };
    c.end(r);
    let mut a = sub(r, &mut t, "aquifer");
    let aquifer = AquiferDef {
        noise: noise(r, &mut a, "noise"),
        below_sea: a.req(r, "below_sea"),
        spread: a.req(r, "spread"),
    };
    a.end(r);
    let mut w = sub(r, &mut t, "carvers");
    let carvers = CarverDef {
        chance: w.req(r, "chance"),
        max_tunnels: w.req(r, "max_tunnels"),
        start_min: w.req(r, "start_min"),
        start_span: w.req(r, "start_span"),
        min_radius: w.req(r, "min_radius"),
        vertical_scale: w.req(r, "vertical_scale"),
        floor_margin: w.req(r, "floor_margin"),
        top_margin: w.req(r, "top_margin"),
    };
    w.end(r);
    let surface_node = t.node(r, "surface");
    let surface = read_rules(r, surface_node, &t.path_of("surface"));
    let def = TerrainDef {
        stone,
        deep_stone,
        deep_stone_below: t.req(r, "deep_stone_below"),
        deep_stone_dither_bits: t.req(r, "deep_stone_dither_bits"),
        bedrock,
        bedrock_layers: t.req(r, "bedrock_layers"),
        sea_fluid,
        deep_fluid,
        deep_fluid_layers: t.req(r, "deep_fluid_layers"),
        density: noise(r, &mut t, "density"),
        height: spline(r, &mut t, "height"),
        mountains: spline(r, &mut t, "mountains"),
        inland: ramp(r, &mut t, "inland"),
        river,
        coast_jag: t.req(r, "coast_jag"),
        jag: spline(r, &mut t, "jag"),
        surface,
        caves,
        aquifer,
        carvers,
    };
    t.end(r);
    def
}

/// `[terrain]` of a definition.
pub fn write_terrain(d: &Definition) -> Node {
    let t = &d.terrain;
    let c = &t.caves;
    let w = &t.carvers;
    T::new()
        .s("stone", block_name(d, t.stone))
        .s("deep_stone", block_name(d, t.deep_stone))
        .i("deep_stone_below", i64::from(t.deep_stone_below))
        .i(
            "deep_stone_dither_bits",
            i64::from(t.deep_stone_dither_bits),
        )
        .s("bedrock", block_name(d, t.bedrock))
        .i("bedrock_layers", i64::from(t.bedrock_layers))
        .s("sea_fluid", block_name(d, t.sea_fluid))
        .s("deep_fluid", block_name(d, t.deep_fluid))
        .i("deep_fluid_layers", i64::from(t.deep_fluid_layers))
        .n("height", write_spline(&t.height))
        .n("mountains", write_spline(&t.mountains))
        .n("inland", write_ramp(&t.inland))
        .f("coast_jag", t.coast_jag)
        .n("jag", write_spline(&t.jag))
        .n("density", write_noise(&t.density))
        .n(
            "river",
            T::new()
                .f("valley", t.river.valley)
                .f("valley_width", t.river.valley_width)
                .n("coast", write_ramp(&t.river.coast))
                .n("erosion", write_ramp(&t.river.erosion))
                .f("depth", t.river.depth)
                .done(),
        )
        .n("surface", write_rules(d, &t.surface))
        .n(
            "caves",
            T::new()
                .n("cheese", write_noise(&c.cheese))
                .n("spaghetti_a", write_noise(&c.spaghetti_a))
                .n("spaghetti_b", write_noise(&c.spaghetti_b))
                .f("cheese_y_stretch", c.cheese_y_stretch)
                .f("spaghetti_y_stretch", c.spaghetti_y_stretch)
                .f("cheese_threshold", c.cheese_threshold)
                .f("cheese_sharpness", c.cheese_sharpness)
                .f("spaghetti_radius", c.spaghetti_radius)
                .f("spaghetti_sharpness", c.spaghetti_sharpness)
                .f("surface_margin", c.surface_margin)
                .f("surface_fade", c.surface_fade)
                .f("floor_margin", c.floor_margin)
                .f("floor_fade", c.floor_fade)
                .f("fade_close", c.fade_close)
                .done(),
        )
        .n(
            "aquifer",
            T::new()
                .n("noise", write_noise(&t.aquifer.noise))
                .i("below_sea", i64::from(t.aquifer.below_sea))
                .f("spread", t.aquifer.spread)
                .done(),
        )
        .n(
            "carvers",
            T::new()
                .i("chance", i64::from(w.chance))
                .i("max_tunnels", i64::from(w.max_tunnels))
                .i("start_min", i64::from(w.start_min))
                .i("start_span", i64::from(w.start_span))
                .f("min_radius", w.min_radius)
                .f("vertical_scale", w.vertical_scale)
                .i("floor_margin", i64::from(w.floor_margin))
                .i("top_margin", i64::from(w.top_margin))
                .done(),
        )
        .done()
}
