//! What a mesh job builds on a worker: the chunk's mesh from its neighbourhood (edited
//! neighbours relit first), vertex colours, collision faces and scatter props.

use std::sync::Arc;

use stratagen_core::engine::ChunkPos;
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, Mesh, MeshOptions};
use stratagen_core::world::block::Surface;
use stratagen_core::world::edit::EditedFull;
use stratagen_core::world::scatter::{is_ground, scatter_chunk};
use stratagen_core::world::{ChunkData, Definition, Dims, FullChunk, Neighbourhood};

use super::Done;
use crate::error::StreamError;

/// A chunk's mesh, its vertex colours and its collision faces, all built on a worker.
pub struct ChunkMesh {
    /// The mesh.
    pub mesh: Mesh,
    /// Per surface, one colour per vertex (linear RGBA, indexed like [`Mesh::surfaces`]).
    pub colours: [Vec<[f32; 4]>; 3],
    /// The opaque surface's triangles as a face list, three corners per triangle wound as
    /// Godot's front faces: what a `ConcavePolygonShape3D` takes.
    pub collision: Vec<[f32; 3]>,
    /// The chunk's scatter instances, one set per layer and kind that has any (empty when
    /// the mesher places no props).
    pub props: Vec<PropSet>,
}

/// The instances of one kind of one scatter layer in a chunk: what a `MultiMesh` draws.
#[derive(Clone, Debug, PartialEq)]
pub struct PropSet {
    /// The layer's index in the definition.
    pub layer: u16,
    /// The kind's index in the layer.
    pub kind: u16,
    /// Each instance: position relative to the chunk's corner, rotation (unit quaternion
    /// `[x, y, z, w]`) and uniform scale.
    pub instances: Vec<([f32; 3], [f32; 4], f32)>,
}

/// One chunk to mesh: its 3 × 3 neighbourhood of finished chunks as the edits show them,
/// each shared or to be relit on the worker.
pub(super) struct MeshJob {
    pub(super) pos: ChunkPos,
    pub(super) chunks: [Option<EditedFull>; 9],
}

/// How meshes are built: the same for every job.
pub struct Mesher {
    /// World dimensions.
    pub dims: Dims,
    /// The definition (palette and biome colours).
    pub definition: Arc<Definition>,
    /// Mesh options.
    pub options: MeshOptions,
    /// The world seed, for the scatter layers.
    pub seed: i64,
    /// Place the definition's scatter layers' props with each mesh.
    pub props: bool,
}

impl Mesher {
    /// Build a job's mesh: relight edited neighbours, mesh, bake colours and collision.
    pub(super) fn build(&self, job: MeshJob) -> Done {
        let mut kept = Vec::new();
        let chunks: [Option<Arc<ChunkData>>; 9] = job.chunks.map(|c| {
            let (d, built) = c?.build();
            kept.extend(built);
            Some(d)
        });
        let n = Neighbourhood::from_array(
            chunks
                .each_ref()
                .map(|c| c.as_deref().and_then(ChunkData::full)),
        );
        let built = mesh_chunk(&n, self.dims, &self.definition.blocks, &self.options)
            .map_err(|error| StreamError::Mesh {
                pos: job.pos,
                error,
            })
            .map(|mesh| {
                // `mesh_chunk` succeeded, so the centre chunk is there.
                let biomes = n.centre().map_or([0; 16], |c| c.biomes);
                let colours = mesh
                    .surfaces
                    .each_ref()
                    .map(|s| vertex_colours(s, &self.definition, &biomes));
                let collision = collision_faces(&mesh);
                let props = match n.centre() {
                    Some(c) if self.props => self.props_of(c),
                    _ => Vec::new(),
                };
                Box::new(ChunkMesh {
                    mesh,
                    colours,
                    collision,
                    props,
                })
            });
        Done::Meshed(job.pos, built, kept)
    }
}

impl Mesher {
    /// The chunk's props: every scatter layer's instances, grouped by kind, on solid ground.
    pub fn props_of(&self, chunk: &FullChunk) -> Vec<PropSet> {
        let world = &self.definition;
        let ground = |b| is_ground(&world.blocks, b);
        let mut out = Vec::new();
        for (li, layer) in world.scatter.iter().enumerate() {
            let mut sets: Vec<PropSet> = (0..layer.kinds.len())
                .map(|k| PropSet {
                    layer: li as u16,
                    kind: k as u16,
                    instances: Vec::new(),
                })
                .collect();
            for i in scatter_chunk(self.seed, &self.dims, layer, chunk, ground) {
                if let Some(set) = sets.get_mut(usize::from(i.kind)) {
                    set.instances.push((i.position, i.rotation(), i.scale));
                }
            }
            out.extend(sets.into_iter().filter(|s| !s.instances.is_empty()));
        }
        out
    }
}

/// The opaque surface's triangles as a face list, re-wound clockwise (Godot's front faces).
/// Sized once: an iterator chain through `flat_map` gives `collect` no length, and the
/// doubling reallocations cost a worker more than the copy itself.
pub fn collision_faces(mesh: &Mesh) -> Vec<[f32; 3]> {
    let s = mesh.surface(Surface::Opaque);
    let mut faces = Vec::with_capacity(s.indices.len());
    for t in s.indices.chunks_exact(3) {
        for i in [t[0], t[2], t[1]] {
            if let Some(&p) = s.positions.get(i as usize) {
                faces.push(p);
            }
        }
    }
    faces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One opaque quad (two counter-clockwise triangles) and a translucent one: the faces are
    /// the opaque triangles' corners, each triangle re-wound (first, third, second).
    #[test]
    fn collision_faces_rewind_the_opaque_triangles() {
        let p = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0],
        ];
        let mut mesh = Mesh::default();
        mesh.surfaces[Surface::Opaque as usize].positions = p.to_vec();
        mesh.surfaces[Surface::Opaque as usize].indices = vec![0, 1, 2, 0, 2, 3];
        mesh.surfaces[Surface::Translucent as usize].positions = p.to_vec();
        mesh.surfaces[Surface::Translucent as usize].indices = vec![0, 1, 2];
        assert_eq!(
            collision_faces(&mesh),
            vec![p[0], p[2], p[1], p[0], p[3], p[2]]
        );
        assert!(collision_faces(&Mesh::default()).is_empty());
    }
}
