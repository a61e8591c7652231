//! Rendering a region as a map image: shaded terrain, biomes, height, light, structures.

use std::sync::Arc;

use stratagen_core::mesh::colour::{biome_colour, block_colour};
use stratagen_core::world::sections::Sections;
use stratagen_core::world::{block, Definition};

use crate::region::Region;

/// What a map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layer {
    /// Biome colours.
    Biomes,
    /// Surface height in grey.
    Height,
    /// Surface colours with hill shading and water depth, structure outlines.
    Shaded,
    /// Structures outlined on a faded surface map.
    Structures,
    /// The floor of the highest cave under each column (an x-ray below the surface: cave
    /// worlds), darker the deeper it lies; black where no cave opens.
    Caves,
    /// Sky light at the surface (block light shows where it is brighter).
    Light,
}

/// An RGB image.
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Row-major RGB bytes.
    pub rgb: Vec<u8>,
}

/// Render a region as a map, one pixel per block column, north up.
pub fn render(region: &Region, layer: Layer) -> Image {
    let c = Columns::of(region);
    let dims = region.generator.dims();
    let (width, height) = (c.width, c.height);
    let mut rgb = vec![0u8; width * height * 3];
    for zz in 0..height {
        for xx in 0..width {
            let i = zz * width + xx;
            let px = match layer {
                Layer::Biomes => biome_colour(&c.world, c.biomes[i]),
                Layer::Height => {
                    let v = ((c.surface[i] - dims.min_y) as f64 / dims.height as f64 * 255.0)
                        .clamp(0.0, 255.0) as u8;
                    [v, v, v]
                }
                Layer::Shaded | Layer::Structures | Layer::Light => c.shaded(i, xx, zz),
                Layer::Caves => c.cave(i, dims.min_y, dims.height),
            };
            rgb[i * 3..i * 3 + 3].copy_from_slice(&px);
        }
    }
    if layer == Layer::Structures {
        for v in rgb.iter_mut() {
            *v = (*v / 2).saturating_add(96);
        }
    }
    if layer == Layer::Light {
        light_overlay(region, &mut rgb, width, c.x0, c.z0);
    }
    if matches!(layer, Layer::Shaded | Layer::Structures) {
        outline_structures(region, &mut rgb, width, height, c.x0, c.z0);
    }
    Image { width, height, rgb }
}

/// Per block column of the map (index `z * width + x`): surface height, top block, ocean
/// floor and biome.
struct Columns {
    world: Arc<Definition>,
    width: usize,
    height: usize,
    /// Chunk coordinates of the map's north-west chunk.
    x0: i32,
    z0: i32,
    surface: Vec<i32>,
    top: Vec<u16>,
    /// The floor block of the highest cave and its y (`None`: no cave).
    cave_floor: Vec<Option<(u16, i32)>>,
    floor: Vec<i32>,
    biomes: Vec<u8>,
}

impl Columns {
    fn of(region: &Region) -> Columns {
        let xs = region.chunks.keys().map(|p| p.x);
        let zs = region.chunks.keys().map(|p| p.z);
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (z0, z1) = (zs.clone().min().unwrap_or(0), zs.max().unwrap_or(0));
        let width = ((x1 - x0 + 1) * 16) as usize;
        let height = ((z1 - z0 + 1) * 16) as usize;
        let dims = region.generator.dims();
        let mut c = Columns {
            world: region.generator.definition_arc().clone(),
            width,
            height,
            x0,
            z0,
            surface: vec![dims.min_y; width * height],
            top: vec![block::AIR; width * height],
            cave_floor: vec![None; width * height],
            floor: vec![dims.min_y; width * height],
            biomes: vec![0u8; width * height],
        };
        for (p, d) in &region.chunks {
            let (blocks, ws_map, of_map) = match d.surface() {
                Some(t) => t,
                None => continue,
            };
            let ox = ((p.x - x0) * 16) as usize;
            let oz = ((p.z - z0) * 16) as usize;
            for z in 0..16 {
                for x in 0..16 {
                    let i = (oz + z) * width + ox + x;
                    let ws = ws_map[z * 16 + x];
                    c.surface[i] = ws;
                    c.floor[i] = of_map[z * 16 + x];
                    c.top[i] = if ws > dims.min_y {
                        blocks.value(dims.index(x, ws - 1, z))
                    } else {
                        block::AIR
                    };
                    c.cave_floor[i] = cave_floor(&c.world, &dims, blocks, x, z, ws);
                    c.biomes[i] = region
                        .generator
                        .biome_at(p.block_x() + x as i32, p.block_z() + z as i32);
                }
            }
        }
        c
    }

    /// The colour of the highest cave floor of column `i`, darker with depth.
    fn cave(&self, i: usize, min_y: i32, height: u32) -> [u8; 3] {
        match self.cave_floor[i] {
            Some((b, y)) => {
                let c = block_colour(&self.world, b, self.biomes[i]);
                // Emitters stay bright; the rest fades with depth.
                let k = if self.world.blocks.props(b).emission > 0 {
                    1.0
                } else {
                    0.35 + 0.65 * ((y - min_y) as f64 / height as f64).clamp(0.0, 1.0)
                };
                [c[0], c[1], c[2]].map(|v| (v as f64 * k) as u8)
            }
            None => [0, 0, 0],
        }
    }

    /// The shaded surface colour of column `i` at `(xx, zz)`: hill shading from the
    /// north-west neighbour, water darkened by depth.
    fn shaded(&self, i: usize, xx: usize, zz: usize) -> [u8; 3] {
        let surface = &self.surface;
        let nw = if xx > 0 && zz > 0 {
            surface[i - self.width - 1]
        } else {
            surface[i]
        };
        let shade = (1.0 + (surface[i] - nw) as f64 * 0.08).clamp(0.55, 1.35);
        if self.top[i] == self.world.terrain.sea_fluid {
            let depth = (surface[i] - self.floor[i]).max(0) as f64;
            let k = (1.0 - depth / 40.0).clamp(0.25, 1.0);
            [
                (40.0 * k) as u8,
                (90.0 * k + 20.0) as u8,
                (200.0 * k + 40.0) as u8,
            ]
        } else {
            let b = block_colour(&self.world, self.top[i], self.biomes[i]);
            [
                (b[0] as f64 * shade).min(255.0) as u8,
                (b[1] as f64 * shade).min(255.0) as u8,
                (b[2] as f64 * shade).min(255.0) as u8,
            ]
        }
    }
}

/// The floor of the highest cave below the surface of column `(x, z)`: scanning down from the
/// surface to the ground (the first opaque cube), through it to the first block that is not
/// (the cave), then to the first block that is solid or a fluid (its floor).
fn cave_floor(
    world: &Definition,
    dims: &stratagen_core::world::Dims,
    blocks: &Sections,
    x: usize,
    z: usize,
    surface: i32,
) -> Option<(u16, i32)> {
    let at = |y: i32| blocks.value(dims.index(x, y, z));
    let ground = |y: i32| world.blocks.props(at(y)).is_occluder();
    let mut y = surface - 1;
    while y >= dims.min_y && !ground(y) {
        y -= 1;
    }
    while y >= dims.min_y && ground(y) {
        y -= 1;
    }
    while y >= dims.min_y {
        let p = world.blocks.props(at(y));
        if p.solid || p.liquid {
            return Some((at(y), y));
        }
        y -= 1;
    }
    None
}

fn light_overlay(region: &Region, rgb: &mut [u8], width: usize, x0: i32, z0: i32) {
    let dims = region.generator.dims();
    for (p, d) in &region.chunks {
        let f = match d.full() {
            Some(f) => f,
            None => continue,
        };
        for z in 0..16 {
            for x in 0..16 {
                // Light of the block above the ground (where a player stands).
                let y =
                    f.heightmaps()[stratagen_core::world::Heightmap::MotionBlocking][z * 16 + x];
                if y > dims.max_y() {
                    continue;
                }
                let i = dims.index(x, y, z);
                let l = f.light().sky_at(i).max(f.light().block_at(i)) as u32;
                let px = (((p.z - z0) * 16) as usize + z) * width + ((p.x - x0) * 16) as usize + x;
                for c in &mut rgb[px * 3..px * 3 + 3] {
                    *c = ((*c as u32) * (l + 3) / 18) as u8;
                }
            }
        }
    }
}

fn outline_structures(
    region: &Region,
    rgb: &mut [u8],
    width: usize,
    height: usize,
    x0: i32,
    z0: i32,
) {
    use stratagen_core::world::structure::PieceKind;
    let mut plot = |x: i32, z: i32, c: [u8; 3]| {
        let (px, pz) = (x - x0 * 16, z - z0 * 16);
        if px >= 0 && pz >= 0 && (px as usize) < width && (pz as usize) < height {
            let i = (pz as usize * width + px as usize) * 3;
            rgb[i..i + 3].copy_from_slice(&c);
        }
    };
    for s in &region.starts {
        let a = match &s.assembled {
            Some(a) => a,
            None => continue,
        };
        for p in &a.pieces {
            let b = p.bbox;
            let colour = match p.kind {
                PieceKind::Room | PieceKind::Corridor => [200, 40, 200],
                PieceKind::Tower => [230, 30, 30],
                PieceKind::Hut => [250, 140, 20],
                PieceKind::Path => [250, 230, 60],
            };
            if p.kind == PieceKind::Path {
                let [ax, az, hx, hz] = p.ends;
                for x in ax.min(hx)..=ax.max(hx) {
                    plot(x, az, colour);
                }
                for z in az.min(hz)..=az.max(hz) {
                    plot(hx, z, colour);
                }
                continue;
            }
            for x in b.min[0]..=b.max[0] {
                plot(x, b.min[2], colour);
                plot(x, b.max[2], colour);
            }
            for z in b.min[2]..=b.max[2] {
                plot(b.min[0], z, colour);
                plot(b.max[0], z, colour);
            }
        }
    }
}
