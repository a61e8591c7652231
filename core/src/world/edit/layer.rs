//! [`EditLayer`]: a world's edits over its generated chunks. Every read of a finished chunk
//! through the layer sees the edited state: the blocks with the chunk's edits, heightmaps of
//! those blocks, and light computed by the `light` body over the edited blocks of the chunk
//! and its eight neighbours. The edited state is computed when it is read and kept until an
//! edit that reaches the chunk makes it stale, so a burst of edits costs one relight per
//! chunk, not one per edit.
//!
//! Chunks no edit reaches are the generated ones, shared. An edited chunk's light needs its
//! neighbours' merged blocks; they are resident while the chunk is requested at `full` (the
//! request keeps its neighbours at `initialize_light`).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::{ChunkPos, ChunkStatus, Scheduler};
use crate::world::block::BlockId;
use crate::world::chunk::{ChunkData, FullChunk, Merged};
use crate::world::definition::Definition;
use crate::world::dims::Dims;
use crate::world::edit::edits::{BlockEdit, EditError, Edits};
use crate::world::heightmap::Heightmaps;
use crate::world::light;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::pipeline::World;
use crate::world::sections::Sections;
use crate::world::WorldGen;

/// Where the layer finds generated chunks.
pub trait Generated {
    /// The finished (`full`) output at `pos`, if generated.
    fn full(&self, pos: ChunkPos) -> Option<Arc<ChunkData>>;
    /// The merged blocks (`initialize_light` output) at `pos`, if generated that far.
    fn merged(&self, pos: ChunkPos) -> Option<Arc<ChunkData>>;
}

impl Generated for Scheduler<World> {
    fn full(&self, pos: ChunkPos) -> Option<Arc<ChunkData>> {
        self.output(pos, ChunkStatus::Full)
            .filter(|d| d.full().is_some())
    }

    fn merged(&self, pos: ChunkPos) -> Option<Arc<ChunkData>> {
        match self.output(pos, ChunkStatus::InitializeLight) {
            Some(m) => Some(m),
            None => {
                Generated::full(self, pos).and_then(|f| f.full().map(|f| f.merged_output().clone()))
            }
        }
    }
}

/// Finished chunks by position (a region read back from a store, say): each one's merged
/// blocks are the ones it was built from.
impl Generated for BTreeMap<ChunkPos, Arc<ChunkData>> {
    fn full(&self, pos: ChunkPos) -> Option<Arc<ChunkData>> {
        self.get(&pos).filter(|d| d.full().is_some()).cloned()
    }

    fn merged(&self, pos: ChunkPos) -> Option<Arc<ChunkData>> {
        self.get(&pos)
            .and_then(|d| d.full().map(|f| f.merged_output().clone()))
    }
}

/// A world's edits and the edited chunks computed from them. Owner thread.
pub struct EditLayer {
    edits: Edits,
    definition: Arc<Definition>,
    /// Edited merged blocks, by chunk, with the chunk's revision they were made at.
    merged: BTreeMap<ChunkPos, (u64, Arc<ChunkData>)>,
    /// Edited finished chunks, by chunk, with the stamp they were made at.
    full: BTreeMap<ChunkPos, ([u64; 9], Arc<ChunkData>)>,
}

impl EditLayer {
    /// No edits, over the world `generator` generates.
    pub fn new(generator: &WorldGen) -> EditLayer {
        let definition = generator.definition_arc().clone();
        EditLayer {
            edits: Edits::new(generator.dims(), definition.blocks.len()),
            definition,
            merged: BTreeMap::new(),
            full: BTreeMap::new(),
        }
    }

    /// The edits.
    pub fn edits(&self) -> &Edits {
        &self.edits
    }

    /// The edits, to add to them (the layer notices at the next read).
    pub fn edits_mut(&mut self) -> &mut Edits {
        &mut self.edits
    }

    fn dims(&self) -> Dims {
        self.edits.dims()
    }

    /// Put `e.block` at (e.x, e.y, e.z); see [`Edits::set_block`].
    pub fn set_block(&mut self, e: BlockEdit) -> Result<u64, EditError> {
        self.edits.set_block(e)
    }

    /// The block at (x, y, z): the edit there if any, else the generated block.
    /// [`EditError::NotReady`] if neither is known yet.
    pub fn block(
        &self,
        src: &impl Generated,
        x: i32,
        y: i32,
        z: i32,
    ) -> Result<BlockId, EditError> {
        let site = self.edits.site(x, y, z)?;
        if let Some(b) = self.edits.get(x, y, z) {
            return Ok(b);
        }
        src.full(site.chunk)
            .and_then(|d| d.full().and_then(|f| f.blocks().get(site.index as usize)))
            .ok_or(EditError::NotReady(site.chunk))
    }

    /// The finished chunk at `pos` as edited: the generated one (shared) when no edit reaches
    /// it. [`EditError::NotReady`] names the chunk that is missing: `pos` below `full`, or a
    /// neighbour whose merged blocks its light needs.
    pub fn full(
        &mut self,
        src: &impl Generated,
        pos: ChunkPos,
    ) -> Result<Arc<ChunkData>, EditError> {
        let (chunk, built) = self.prepare(src, pos)?.build();
        if let Some(b) = &built {
            self.keep(b);
        }
        Ok(chunk)
    }

    /// What [`EditLayer::full`] of `pos` needs, without the relight: the chunk itself when it
    /// is generated or already computed, else an [`EditedBuild`] holding shared inputs and
    /// copies of the diffs, to build on any thread and hand back through
    /// [`EditLayer::keep`]. Owner thread.
    pub fn prepare(
        &mut self,
        src: &impl Generated,
        pos: ChunkPos,
    ) -> Result<EditedFull, EditError> {
        let generated = src.full(pos).ok_or(EditError::NotReady(pos))?;
        let stamp = self.edits.stamp(pos);
        if stamp == [0; 9] {
            return Ok(EditedFull::Ready(generated));
        }
        if let Some((s, d)) = self.full.get(&pos) {
            if *s == stamp {
                return Ok(EditedFull::Ready(d.clone()));
            }
        }
        let mut around: [Option<MergedSource>; 9] = Default::default();
        for (k, &(dx, dz)) in Neighbourhood::<()>::OFFSETS.iter().enumerate() {
            around[k] = Some(self.merged_source(src, pos.offset(dx, dz))?);
        }
        Ok(EditedFull::Build(Box::new(EditedBuild {
            pos,
            stamp,
            dims: self.dims(),
            definition: self.definition.clone(),
            generated,
            around,
        })))
    }

    /// Keep what a build computed, where the edits have not moved on since it was prepared.
    /// Owner thread.
    pub fn keep(&mut self, built: &EditedChunk) {
        if self.edits.stamp(built.pos) == built.stamp {
            self.full
                .insert(built.pos, (built.stamp, built.full.clone()));
        }
        for (pos, rev, merged) in built.merged.iter().flatten() {
            if self.edits.revision(*pos) == *rev {
                self.merged.insert(*pos, (*rev, merged.clone()));
            }
        }
    }

    /// [`EditLayer::full`] of `pos` and its eight neighbours in [`Neighbourhood`] order (what a
    /// mesher reads); a neighbour that cannot be read is `None`.
    pub fn full_neighbourhood(
        &mut self,
        src: &impl Generated,
        pos: ChunkPos,
    ) -> [Option<Arc<ChunkData>>; 9] {
        Neighbourhood::<()>::OFFSETS.map(|(dx, dz)| self.full(src, pos.offset(dx, dz)).ok())
    }

    /// The merged blocks of `pos` with its edits: ready (generated, or computed before) or
    /// the inputs to compute them.
    fn merged_source(
        &mut self,
        src: &impl Generated,
        pos: ChunkPos,
    ) -> Result<MergedSource, EditError> {
        let generated = src.merged(pos).ok_or(EditError::NotReady(pos))?;
        if !matches!(&*generated, ChunkData::InitializeLight(_)) {
            return Err(EditError::NotReady(pos));
        }
        let rev = self.edits.revision(pos);
        if rev == 0 {
            return Ok(MergedSource::Ready(generated));
        }
        if let Some((r, d)) = self.merged.get(&pos) {
            if *r == rev {
                return Ok(MergedSource::Ready(d.clone()));
            }
        }
        Ok(MergedSource::Apply {
            pos,
            rev,
            generated,
            diff: self.edits.chunk(pos).to_vec(),
        })
    }

    /// Drop the edited chunks computed for positions `keep` refuses (chunks the host
    /// released); the edits stay.
    pub fn retain(&mut self, mut keep: impl FnMut(ChunkPos) -> bool) {
        self.merged.retain(|&p, _| keep(p));
        self.full.retain(|&p, _| keep(p));
    }

    /// Edited chunks held, merged and finished (for memory reports and tests).
    pub fn cached(&self) -> (usize, usize) {
        (self.merged.len(), self.full.len())
    }
}

/// Where an edited chunk's light reads one neighbour's merged blocks from.
enum MergedSource {
    /// Generated (no edits) or computed before.
    Ready(Arc<ChunkData>),
    /// To compute: the generated merged blocks of `pos` with `diff` (revision `rev`) applied.
    Apply {
        pos: ChunkPos,
        rev: u64,
        generated: Arc<ChunkData>,
        diff: Vec<(u32, BlockId)>,
    },
}

/// An edited finished chunk, read at once or built later ([`EditLayer::prepare`]).
pub enum EditedFull {
    /// The generated chunk (no edit reaches it) or one computed before.
    Ready(Arc<ChunkData>),
    /// The inputs of its relight, to build on any thread (boxed: nine sources and a stamp).
    Build(Box<EditedBuild>),
}

impl EditedFull {
    /// The edited chunk, built here if it is not ready (any thread, no layer needed), and
    /// what the build computed, to hand back through [`EditLayer::keep`].
    pub fn build(self) -> (Arc<ChunkData>, Option<EditedChunk>) {
        match self {
            EditedFull::Ready(d) => (d, None),
            EditedFull::Build(b) => {
                let built = b.build();
                (built.full.clone(), Some(built))
            }
        }
    }
}

/// The inputs of an edited chunk's relight: shared chunk outputs and copies of the diffs, so
/// [`EditedBuild::build`] runs on any thread without the layer.
pub struct EditedBuild {
    pos: ChunkPos,
    stamp: [u64; 9],
    dims: Dims,
    definition: Arc<Definition>,
    generated: Arc<ChunkData>,
    around: [Option<MergedSource>; 9],
}

/// A built edited chunk, and the edited merged blocks computed on the way (for
/// [`EditLayer::keep`]).
pub struct EditedChunk {
    pos: ChunkPos,
    stamp: [u64; 9],
    full: Arc<ChunkData>,
    merged: [Option<(ChunkPos, u64, Arc<ChunkData>)>; 9],
}

impl EditedChunk {
    /// The edited finished chunk.
    pub fn chunk(&self) -> &Arc<ChunkData> {
        &self.full
    }
}

impl EditedBuild {
    /// The chunk's position.
    pub fn pos(&self) -> ChunkPos {
        self.pos
    }

    /// The edited merged blocks of every neighbour, then the light over them: the work of
    /// [`EditLayer::full`]. Any thread.
    pub fn build(self) -> EditedChunk {
        let mut merged: [Option<(ChunkPos, u64, Arc<ChunkData>)>; 9] = Default::default();
        let mut around: [Option<Arc<ChunkData>>; 9] = Default::default();
        for (k, source) in self.around.into_iter().enumerate() {
            around[k] = source.map(|m| match m {
                MergedSource::Ready(d) => d,
                MergedSource::Apply {
                    pos,
                    rev,
                    generated,
                    diff,
                } => {
                    let d = edited_merged(&self.dims, &self.definition, &generated, &diff);
                    merged[k] = Some((pos, rev, d.clone()));
                    d
                }
            });
        }
        let m = Neighbourhood::from_array(merged_slots(&around));
        let light = light::of_merged(&self.dims, &self.definition.blocks, m);
        let own = around[Neighbourhood::<()>::CENTRE]
            .clone()
            .unwrap_or_else(|| self.generated.clone());
        let g = self.generated.full();
        let full = Arc::new(ChunkData::Full(Box::new(FullChunk::new(
            self.pos,
            g.map_or([0; 16], |g| g.biomes),
            own,
            Arc::new(ChunkData::Light(Box::new(light))),
            g.map_or_else(Vec::new, |g| g.spawns.clone()),
            g.map_or_else(Vec::new, |g| g.structures.clone()),
        ))));
        EditedChunk {
            pos: self.pos,
            stamp: self.stamp,
            full,
            merged,
        }
    }
}

/// The merged blocks of `generated` (an `initialize_light` output) with `diff` applied: the
/// blocks, their heightmaps, and the block entities whose block stays.
fn edited_merged(
    dims: &Dims,
    definition: &Definition,
    generated: &ChunkData,
    diff: &[(u32, BlockId)],
) -> Arc<ChunkData> {
    let g = match generated {
        ChunkData::InitializeLight(m) => m,
        // `merged_source` only builds from `initialize_light` outputs.
        other => return Arc::new(other.clone()),
    };
    let mut blocks = g.blocks.to_vec();
    for &(i, b) in diff {
        if let Some(slot) = blocks.get_mut(i as usize) {
            *slot = b;
        }
    }
    let heightmaps = Heightmaps::of(dims, &definition.blocks, &blocks);
    // A block entity belongs to its block: it stays while that block does.
    let block_entities = g
        .block_entities
        .iter()
        .filter(|e| {
            let (lx, lz) = (
                e.pos[0].rem_euclid(16) as usize,
                e.pos[2].rem_euclid(16) as usize,
            );
            blocks.get(dims.index(lx, e.pos[1], lz)) == Some(&e.kind)
        })
        .copied()
        .collect();
    Arc::new(ChunkData::InitializeLight(Box::new(Merged {
        blocks: Sections::from_dense(&blocks),
        heightmaps,
        block_entities,
    })))
}

/// The merged blocks in each slot of a neighbourhood of `initialize_light` outputs.
fn merged_slots(around: &[Option<Arc<ChunkData>>; 9]) -> [Option<&Merged>; 9] {
    let mut out = [None; 9];
    for (o, d) in out.iter_mut().zip(around.iter()) {
        *o = d.as_deref().and_then(|d| match d {
            ChunkData::InitializeLight(m) => Some(&**m),
            _ => None,
        });
    }
    out
}
