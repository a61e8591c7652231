//! Chunk meshes: what an engine draws. Pure computation over full chunks and
//! their neighbours, callable on any thread: the input is borrowed chunk data
//! ([`FullChunk`]s, which workers may hold through `Arc`s), the output plain arrays.
//!
//! A mesh has three [`SurfaceMesh`]es, one per [`Surface`] (opaque, cutout, translucent),
//! each structure-of-arrays:
//!
//! | array | per | meaning |
//! |---|---|---|
//! | `positions` | vertex | `[x, y, z]`: x, z local to the meshed area's north-west corner (0..=16 for a chunk), y world |
//! | `faces` | vertex | [`Face`]: the normal, six axis directions and four plant planes |
//! | `ao` | vertex | ambient occlusion 0 (open) ..= 3 (fully occluded) |
//! | `sky_light`, `block_light` | vertex | 0..=15, averaged as [`faces`] documents |
//! | `uvs` | vertex | in blocks: the texture repeats once per block (sample with wrapping) |
//! | `quad_blocks` | quad | the block id of quad `q` (vertices `4q..4q + 4`) |
//! | `indices` | 6 per quad | two counter-clockwise triangles (seen from outside) |
//!
//! Output order: see `emit`. Meshing the same inputs gives the same bytes on every CPU and
//! thread: positions are integers and sixteenths, exact in `f32`, and everything else is
//! integer arithmetic.

pub mod colour;
mod emit;
pub mod faces;
pub mod heightmap;
mod lanes;
mod padded;
mod rows;
mod scan;
mod volume;
mod window;

#[cfg(test)]
mod tests;

use alloc::vec::Vec;

use crate::util::digest::Digest;
use crate::world::block::{BlockId, Surface};
use crate::world::chunk::FullChunk;
use crate::world::dims::Dims;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::palette::Palette;

pub use faces::Face;
pub use volume::{outside_block, ChunkArea, MissingNeighbour, OPEN_SKY};

/// Brightness of a vertex at ambient-occlusion level `ao` (0 open ..= 3 occluded).
pub const AO_BRIGHTNESS: [f32; 4] = [1.0, 0.78, 0.6, 0.45];
/// Brightness of a vertex at light level 0 (light 15 is 1).
pub const DARKEST: f32 = 0.2;

/// The factor a vertex's colour is multiplied by to bake its AO and light in (the brighter of
/// sky and block light), as the glTF export and the Godot binding draw it.
pub fn vertex_shade(ao: u8, sky_light: u8, block_light: u8) -> f32 {
    let light = f32::from(core::cmp::max(sky_light, block_light).min(15));
    AO_BRIGHTNESS[(ao & 3) as usize] * (DARKEST + (1.0 - DARKEST) * light / 15.0)
}

/// How faces become quads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One quad per visible block face.
    Culled = 0,
    /// Rectangles of adjacent coplanar faces with the same block id, AO and light per
    /// corner, grown along `u` first, then `v`.
    Greedy = 1,
}

/// Mesher settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MeshOptions {
    /// Culled faces or greedy quads. Default [`Mode::Culled`].
    pub mode: Mode,
    /// What a missing neighbour chunk counts as. Default [`MissingNeighbour::Emit`].
    pub missing: MissingNeighbour,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions {
            mode: Mode::Culled,
            missing: MissingNeighbour::Emit,
        }
    }
}

/// Why a mesh could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshError {
    /// The chunk to mesh is not there (a neighbour may be missing, the centre may not).
    MissingChunk,
    /// A chunk's block or light arrays do not match the world height given.
    HeightMismatch,
    /// The area is empty or its chunk list has the wrong length.
    BadArea,
}

impl core::fmt::Display for MeshError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MeshError::MissingChunk => "the chunk to mesh is missing",
            MeshError::HeightMismatch => "a chunk's arrays do not match the world height",
            MeshError::BadArea => "the area is empty or its chunk list has the wrong length",
        })
    }
}

/// The vertices and indices of one surface (see the module table).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SurfaceMesh {
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Vertex face ([`Face`] as `u8`).
    pub faces: Vec<u8>,
    /// Vertex ambient occlusion, 0..=3.
    pub ao: Vec<u8>,
    /// Vertex sky light, 0..=15.
    pub sky_light: Vec<u8>,
    /// Vertex block light, 0..=15.
    pub block_light: Vec<u8>,
    /// Vertex texture coordinates, in blocks.
    pub uvs: Vec<[f32; 2]>,
    /// Block id per quad.
    pub quad_blocks: Vec<BlockId>,
    /// Triangle list, 6 per quad.
    pub indices: Vec<u32>,
}

impl SurfaceMesh {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }
    /// Number of quads.
    pub fn quad_count(&self) -> usize {
        self.quad_blocks.len()
    }
    fn write_digest(&self, d: &mut Digest) {
        d.write_u64(self.positions.len() as u64);
        for p in &self.positions {
            d.write_f32_slice(p);
        }
        d.write_bytes(&self.faces);
        d.write_bytes(&self.ao);
        d.write_bytes(&self.sky_light);
        d.write_bytes(&self.block_light);
        for uv in &self.uvs {
            d.write_f32_slice(uv);
        }
        d.write_u16_slice(&self.quad_blocks);
        d.write_u64(self.indices.len() as u64);
        for i in &self.indices {
            d.write_u32(*i);
        }
    }
}

/// A chunk's (or an area's) mesh: one [`SurfaceMesh`] per [`Surface`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Indexed by `Surface as usize`.
    pub surfaces: [SurfaceMesh; 3],
}

impl Mesh {
    /// The surface mesh for `s`.
    pub fn surface(&self, s: Surface) -> &SurfaceMesh {
        &self.surfaces[s as usize]
    }
    fn surface_mut(&mut self, palette: &Palette, b: BlockId) -> &mut SurfaceMesh {
        &mut self.surfaces[palette.props(b).surface as usize]
    }
    /// Total quads over the surfaces.
    pub fn quad_count(&self) -> usize {
        self.surfaces.iter().map(SurfaceMesh::quad_count).sum()
    }
    /// XXH64 of every array of every surface in order, little-endian, each surface's
    /// vertex and index counts first.
    pub fn digest(&self) -> u64 {
        let mut d = Digest::new();
        for s in &self.surfaces {
            s.write_digest(&mut d);
        }
        d.finish()
    }
}

/// Mesh the centre chunk of a neighbourhood of finished chunks (missing neighbours per
/// `options.missing`). Any thread.
pub fn mesh_chunk(
    chunks: &Neighbourhood<Option<&FullChunk>>,
    dims: Dims,
    palette: &Palette,
    options: &MeshOptions,
) -> Result<Mesh, MeshError> {
    // A 1 × 1 area in the neighbourhood's own order (by z, then x).
    let list: Vec<Option<&FullChunk>> = chunks.iter().copied().collect();
    mesh_area(
        ChunkArea {
            width: 1,
            depth: 1,
            chunks: &list,
        },
        dims,
        palette,
        options,
    )
}

/// Mesh a rectangle of chunks as one volume (its interior borders are not borders). Any
/// thread.
pub fn mesh_area(
    area: ChunkArea<'_>,
    dims: Dims,
    palette: &Palette,
    options: &MeshOptions,
) -> Result<Mesh, MeshError> {
    let (cw, cd) = (area.width + 2, area.depth + 2);
    if area.width == 0 || area.depth == 0 || area.chunks.len() != cw * cd {
        return Err(MeshError::BadArea);
    }
    let interior_missing =
        (1..=area.depth).any(|z| (1..=area.width).any(|x| area.chunks[z * cw + x].is_none()));
    if interior_missing {
        return Err(MeshError::MissingChunk);
    }
    let v = volume::Volume::gather(area, dims, palette, options.missing)?;
    Ok(emit::mesh(&v, options.mode))
}
