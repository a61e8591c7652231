//! The world's [`Pipeline`]: one plain function per status, from the inputs it declared (read
//! through the [`View`]) to its output.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::{BodyError, ChunkPos, ChunkStatus, Pipeline, Scheduler, StepTable, View};
use crate::world::biome::BiomeId;
use crate::world::chunk::{ChunkData, FullChunk, Merged};
use crate::world::feature::{self, FeatureChunk, FeatureInput, Writer};
use crate::world::heightmap::{Heightmap, Heightmaps};
use crate::world::light;
use crate::world::neighbourhood::Neighbourhood;
use crate::world::sections::Sections;
use crate::world::spawn;
use crate::world::structure::{self, StructureKind, StructureRef, StructureStart};
use crate::world::terrain;
use crate::world::WorldGen;

fn wrong(_: &ChunkData) -> BodyError {
    BodyError::Failed("input of the wrong kind")
}

/// The world pipeline: runs each status body of [`WorldGen`].
#[derive(Debug)]
pub struct World {
    generator: WorldGen,
    /// How far `structure_references` reads starts: its direct radius in the step table.
    references_radius: i32,
}

impl World {
    /// A pipeline for `generator`.
    pub fn new(generator: WorldGen) -> Self {
        let table = StepTable::new();
        World {
            generator,
            references_radius: table.direct_radius(ChunkStatus::StructureReferences) as i32,
        }
    }

    /// The generator.
    pub fn generator(&self) -> &WorldGen {
        &self.generator
    }
}

/// The 3 × 3 outputs of `status` around the chunk, each picked by `pick`.
fn neighbourhood<'v, T: ?Sized>(
    view: &View<'v, ChunkData>,
    status: ChunkStatus,
    pick: impl Fn(&'v ChunkData) -> Option<&'v T>,
) -> Result<Neighbourhood<Option<&'v T>>, BodyError> {
    Neighbourhood::try_from_fn(|dx, dz| {
        let d = view.get(dx, dz, status)?;
        pick(d).ok_or_else(|| wrong(d))
    })
}

/// The starts referenced by this chunk, read from the chunks that own them (within 8).
fn referenced_starts<'v>(
    view: &View<'v, ChunkData>,
    pos: ChunkPos,
) -> Result<Vec<(StructureRef, &'v StructureStart)>, BodyError> {
    let refs = match view.get(0, 0, ChunkStatus::StructureReferences)? {
        ChunkData::StructureReferences(r) => r,
        other => return Err(wrong(other)),
    };
    let mut out = Vec::new();
    for r in refs {
        let starts = match view.get(
            r.start.x - pos.x,
            r.start.z - pos.z,
            ChunkStatus::StructureStarts,
        )? {
            ChunkData::StructureStarts(v) => v,
            other => return Err(wrong(other)),
        };
        if let Some(s) = starts.iter().find(|s| s.kind == r.kind) {
            out.push((*r, s));
        }
    }
    Ok(out)
}

fn biomes_here<'v>(view: &View<'v, ChunkData>) -> Result<&'v [BiomeId; 16], BodyError> {
    let b = view.get(0, 0, ChunkStatus::Biomes)?;
    b.biomes().ok_or_else(|| wrong(b))
}

impl World {
    fn structure_references(
        &self,
        pos: ChunkPos,
        view: &View<'_, ChunkData>,
    ) -> Result<ChunkData, BodyError> {
        let r = self.references_radius;
        let mut all = Vec::new();
        for dz in -r..=r {
            for dx in -r..=r {
                match view.get(dx, dz, ChunkStatus::StructureStarts)? {
                    ChunkData::StructureStarts(v) => all.extend(v.iter()),
                    other => return Err(wrong(other)),
                }
            }
        }
        Ok(ChunkData::StructureReferences(structure::references(
            pos,
            all.into_iter(),
        )))
    }

    fn terrain(
        &self,
        pos: ChunkPos,
        view: &View<'_, ChunkData>,
        scratch: &mut terrain::TerrainScratch,
    ) -> Result<ChunkData, BodyError> {
        let mut beard = Vec::new();
        for (r, s) in referenced_starts(view, pos)? {
            if r.kind == StructureKind::Watchtower {
                structure::beard_boxes(s, pos, &mut beard);
            }
        }
        let biomes = biomes_here(view)?;
        let mut inp = self.generator.terrain_input(biomes);
        inp.beard = &beard;
        Ok(ChunkData::Terrain(Box::new(terrain::generate_in(
            &inp, pos, scratch,
        ))))
    }

    fn features(&self, pos: ChunkPos, view: &View<'_, ChunkData>) -> Result<ChunkData, BodyError> {
        let g = &self.generator;
        let terrain = neighbourhood(view, ChunkStatus::Terrain, |d| d.terrain())?;
        let own = terrain
            .centre()
            .ok_or(BodyError::Failed("missing own terrain"))?;
        let definition = g.definition();
        let mut w = Writer::new(
            g.dims,
            &definition.blocks,
            pos,
            own.blocks.to_vec(),
            terrain,
        );
        // Step 0: structure pieces, clipped to this chunk, protected from patches.
        let mut entities = Vec::new();
        for (_, s) in referenced_starts(view, pos)? {
            entities.extend(structure::place(
                s,
                &definition.structure_blocks,
                pos,
                &mut w,
            ));
        }
        entities.sort();
        let inp = FeatureInput {
            seed: g.settings.seed,
            dims: g.dims,
            definition,
            biomes: biomes_here(view)?,
            terrain,
        };
        feature::decorate(&inp, pos, &mut w);
        let own_terrain = view.get_shared(0, 0, ChunkStatus::Terrain)?;
        Ok(ChunkData::Features(Box::new(
            w.finish(own_terrain, entities),
        )))
    }

    fn initialize_light(&self, view: &View<'_, ChunkData>) -> Result<ChunkData, BodyError> {
        let f = neighbourhood(view, ChunkStatus::Features, |d| match d {
            ChunkData::Features(f) => Some(&**f),
            _ => None,
        })?;
        let own: &FeatureChunk = f
            .centre()
            .ok_or(BodyError::Failed("missing own features"))?;
        // The neighbour at (dx, dz) sees this chunk at (-dx, -dz).
        let inbound = Neighbourhood::from_fn(|dx, dz| {
            let k = Neighbourhood::<()>::slot(dx, dz);
            if k == Neighbourhood::<()>::CENTRE {
                return None;
            }
            f.at(k)
                .map(|n| &n.outbound.at(Neighbourhood::<()>::opposite(k))[..])
        });
        let blocks = feature::merge(own, inbound);
        let heightmaps = Heightmaps::of(
            &self.generator.dims,
            &self.generator.definition().blocks,
            &blocks,
        );
        Ok(ChunkData::InitializeLight(Box::new(Merged {
            blocks: Sections::from_dense(&blocks),
            heightmaps,
            block_entities: own.block_entities.clone(),
        })))
    }

    fn light(
        &self,
        view: &View<'_, ChunkData>,
        scratch: &mut light::LightScratch,
    ) -> Result<ChunkData, BodyError> {
        let dims = self.generator.dims;
        let m = neighbourhood(view, ChunkStatus::InitializeLight, |d| match d {
            ChunkData::InitializeLight(m) => Some(&**m),
            _ => None,
        })?;
        Ok(ChunkData::Light(Box::new(light::of_merged_in(
            &dims,
            &self.generator.definition().blocks,
            m,
            scratch,
        ))))
    }

    fn spawn(&self, pos: ChunkPos, view: &View<'_, ChunkData>) -> Result<ChunkData, BodyError> {
        let m = match view.get(0, 0, ChunkStatus::InitializeLight)? {
            ChunkData::InitializeLight(m) => m,
            other => return Err(wrong(other)),
        };
        Ok(ChunkData::Spawn(spawn::generate(
            self.generator.settings.seed,
            self.generator.definition(),
            &self.generator.dims,
            pos,
            biomes_here(view)?,
            &m.blocks,
            &m.heightmaps[Heightmap::MotionBlocking],
        )))
    }

    fn full(&self, pos: ChunkPos, view: &View<'_, ChunkData>) -> Result<ChunkData, BodyError> {
        let spawns = match view.get(0, 0, ChunkStatus::Spawn)? {
            ChunkData::Spawn(s) => s.clone(),
            other => return Err(wrong(other)),
        };
        let structures = match view.get(0, 0, ChunkStatus::StructureReferences)? {
            ChunkData::StructureReferences(r) => r.clone(),
            other => return Err(wrong(other)),
        };
        Ok(ChunkData::Full(Box::new(FullChunk::new(
            pos,
            *biomes_here(view)?,
            view.get_shared(0, 0, ChunkStatus::InitializeLight)?,
            view.get_shared(0, 0, ChunkStatus::Light)?,
            spawns,
            structures,
        ))))
    }
}

/// The finished chunk at `pos`, shared (`None` if it has not reached `full`). Owner thread.
pub fn full_output(sched: &Scheduler<World>, pos: ChunkPos) -> Option<Arc<ChunkData>> {
    sched
        .output(pos, ChunkStatus::Full)
        .filter(|d| d.full().is_some())
}

/// [`full_output`] of `pos` and its eight neighbours, in [`Neighbourhood`] order: what a
/// mesher reads, shared so it can run off the owner thread. Owner thread.
pub fn full_neighbourhood(sched: &Scheduler<World>, pos: ChunkPos) -> [Option<Arc<ChunkData>>; 9] {
    Neighbourhood::<()>::OFFSETS
        .map(|(dx, dz)| full_output(sched, ChunkPos::new(pos.x + dx, pos.z + dz)))
}

/// The working memory of a [`World`]'s bodies ([`Pipeline::Scratch`]): one per thread that
/// runs tasks, reused from task to task.
#[derive(Debug, Default)]
pub struct WorldScratch {
    terrain: terrain::TerrainScratch,
    light: light::LightScratch,
}

impl Pipeline for World {
    type Output = ChunkData;
    type Scratch = WorldScratch;

    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, ChunkData>,
        scratch: &mut WorldScratch,
    ) -> Result<ChunkData, BodyError> {
        let g = &self.generator;
        match status {
            ChunkStatus::Empty => Ok(ChunkData::Empty),
            ChunkStatus::StructureStarts => Ok(ChunkData::StructureStarts(g.structure_starts(pos))),
            ChunkStatus::StructureReferences => self.structure_references(pos, view),
            ChunkStatus::Biomes => Ok(ChunkData::Biomes(g.biomes(pos), g.climate_witness(pos))),
            ChunkStatus::Terrain => self.terrain(pos, view, &mut scratch.terrain),
            ChunkStatus::Features => self.features(pos, view),
            ChunkStatus::InitializeLight => self.initialize_light(view),
            ChunkStatus::Light => self.light(view, &mut scratch.light),
            ChunkStatus::Spawn => self.spawn(pos, view),
            ChunkStatus::Full => self.full(pos, view),
        }
    }

    /// The terrain and feature outputs: the merged blocks (`initialize_light`, shared by the
    /// full chunk) hold their result, so a finished chunk needs neither.
    fn transient(&self, status: ChunkStatus) -> bool {
        matches!(status, ChunkStatus::Terrain | ChunkStatus::Features)
    }
}
