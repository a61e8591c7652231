//! Vertex colours for drawing a mesh without textures: the block's palette colour (tinted
//! blocks such as grass in their biome's colour), converted to linear light and multiplied by
//! the vertex's ambient occlusion and light ([`vertex_shade`]). The glTF export and the Godot
//! binding both draw meshes with these, so a world looks the same in either.

use alloc::vec::Vec;

use super::{vertex_shade, SurfaceMesh};
use crate::world::biome::BiomeId;
use crate::world::block::BlockId;
use crate::world::definition::Definition;

/// The map colour (sRGB) of biome `id`; black for an id the world does not have.
pub fn biome_colour(world: &Definition, id: BiomeId) -> [u8; 3] {
    world
        .biomes
        .get(usize::from(id))
        .map_or([0; 3], |b| b.colour)
}

/// The palette colour (sRGB bytes and alpha) of block `b` in biome `biome`: tinted blocks
/// take the biome's map colour and keep their own alpha. The map renderer and the meshes
/// share it. A biome id the world does not have tints black.
pub fn block_colour(world: &Definition, b: BlockId, biome: BiomeId) -> [u8; 4] {
    let props = world.blocks.props(b);
    if props.tinted {
        let rgb = biome_colour(world, biome);
        [rgb[0], rgb[1], rgb[2], props.colour[3]]
    } else {
        props.colour
    }
}

/// An sRGB byte as linear light in `[0, 1]` (the sRGB transfer function).
pub fn srgb_to_linear(c: u8) -> f32 {
    let s = f32::from(c) / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        libm::powf((s + 0.055) / 1.055, 2.4)
    }
}

/// One linear RGBA colour per vertex of `s` (a surface of the chunk whose 4 × 4 biome grid is
/// `biomes`, as [`crate::world::FullChunk::biomes`]): [`block_colour`] in the biome of the
/// quad's first vertex column, RGB converted to linear and multiplied by [`vertex_shade`],
/// alpha straight from the palette. Any thread.
pub fn vertex_colours(
    s: &SurfaceMesh,
    world: &Definition,
    biomes: &[BiomeId; 16],
) -> Vec<[f32; 4]> {
    let mut out = Vec::with_capacity(s.vertex_count());
    // The transfer function of each byte, computed the first time a quad needs it: a chunk
    // uses a few dozen distinct bytes over thousands of quads, and `powf` is the cost.
    let mut linear = [None::<f32>; 256];
    let mut to_linear = |c: u8| *linear[usize::from(c)].get_or_insert_with(|| srgb_to_linear(c));
    // [`vertex_shade`] of every AO and light level as an RGBA factor (alpha × 1 is alpha):
    // its division would otherwise be most of a vertex's cost.
    let shades: [[[f32; 4]; 16]; 4] = core::array::from_fn(|ao| {
        core::array::from_fn(|l| {
            let s = vertex_shade(ao as u8, l as u8, 0);
            [s, s, s, 1.0]
        })
    });
    for (q, &b) in s.quad_blocks.iter().enumerate() {
        // Local x and z of the quad's first vertex, clamped into the chunk (a face on the
        // chunk's far side sits at 16).
        let p = s.positions[4 * q];
        let (x, z) = ((p[0] as usize).min(15), (p[2] as usize).min(15));
        let base = block_colour(world, b, biomes[(z / 4) * 4 + x / 4]);
        let rgba = [
            to_linear(base[0]),
            to_linear(base[1]),
            to_linear(base[2]),
            f32::from(base[3]) / 255.0,
        ];
        let (ao, sky, block) = (
            &s.ao[4 * q..4 * q + 4],
            &s.sky_light[4 * q..4 * q + 4],
            &s.block_light[4 * q..4 * q + 4],
        );
        let quad: [[f32; 4]; 4] = core::array::from_fn(|v| {
            let light = core::cmp::max(sky[v], block[v]).min(15);
            let shade = &shades[usize::from(ao[v] & 3)][usize::from(light)];
            core::array::from_fn(|i| rgba[i] * shade[i])
        });
        out.extend_from_slice(&quad);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::block::{GRASS_BLOCK as GRASS, STONE};

    /// Known values of the sRGB transfer function.
    #[test]
    fn srgb_known_answers() {
        assert_eq!(srgb_to_linear(0), 0.0);
        assert_eq!(srgb_to_linear(255), 1.0);
        // 10/255 is in the linear segment.
        assert!((srgb_to_linear(10) - 10.0 / 255.0 / 12.92).abs() < 1e-7);
        // sRGB 188 is about 50% linear (0.5029).
        assert!((srgb_to_linear(188) - 0.5029).abs() < 1e-3);
    }

    /// Grass takes its biome's colour, stone its own; both keep the palette's alpha.
    #[test]
    fn tinted_blocks_take_the_biome_colour() {
        let w = Definition::builtin();
        for (id, biome) in w.biomes.iter().enumerate() {
            let g = block_colour(&w, GRASS, id as BiomeId);
            assert_eq!(&g[..3], &biome.colour[..]);
            assert_eq!(g[3], w.blocks.props(GRASS).colour[3]);
            assert_eq!(
                block_colour(&w, STONE, id as BiomeId),
                w.blocks.props(STONE).colour
            );
        }
    }
}
