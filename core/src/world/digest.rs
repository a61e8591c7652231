//! The digests of chunk outputs: [`chunk_digest`] of a finished chunk and [`status_digest`]
//! of any status output (the parity corpus). Their byte layouts are the contract.

use crate::util::digest::Digest;
use crate::world::chunk::ChunkData;
use crate::world::feature::FeatureChunk;
use crate::world::light::{self, LightData};
use crate::world::sections::Sections;
use crate::world::structure::StructureStart;

/// The digest of a finished chunk: XXH64 (seed 0) over, in order: the block ids (`u16` LE,
/// block-index order); the 16 biome ids (bytes); the four heightmaps (256 `i32` LE each, in the
/// order world surface, ocean floor, motion blocking, motion blocking without leaves); the
/// sky-light and block-light nibble arrays (bytes); the block entities (count `u32`, then per
/// entity x, y, z `i32`, kind `u16`, data `u32`); the spawn requests (count `u32`, then per
/// request kind `u16`, x, y, z `i32`, group `u8`); the structure references (count `u32`, then
/// per reference start chunk x, z `i32`, kind `u8`). All little-endian. Non-full outputs digest
/// as the empty input.
pub fn chunk_digest(d: &ChunkData) -> u64 {
    let mut h = Digest::new();
    if let Some(f) = d.full() {
        write_blocks(&mut h, f.blocks());
        h.write_bytes(&f.biomes);
        for hm in f.heightmaps().iter() {
            for v in hm {
                h.write_i32(*v);
            }
        }
        write_light(&mut h, f.light());
        h.write_u32(f.block_entities().len() as u32);
        for e in f.block_entities() {
            for c in e.pos {
                h.write_i32(c);
            }
            h.write_u16(e.kind);
            h.write_u32(e.data);
        }
        h.write_u32(f.spawns.len() as u32);
        for s in &f.spawns {
            h.write_u16(s.kind);
            for c in s.pos {
                h.write_i32(c);
            }
            h.write_u8(s.group);
        }
        h.write_u32(f.structures.len() as u32);
        for r in &f.structures {
            h.write_i32(r.start.x);
            h.write_i32(r.start.z);
            h.write_u8(r.kind as u8);
        }
    }
    h.finish()
}

/// The digest of any status output (used by the parity corpus): XXH64 over the output's data
/// in a fixed layout. `full` outputs digest as [`chunk_digest`]; the others: `empty` nothing;
/// `structure_starts` per start kind `u8`, chunk x, z `i32`, biome `u8`, assembled `u8`, then
/// per piece kind `u8` and box min/max `i32` ×6, then per entity x, y, z `i32`, kind `u16`,
/// data `u32`, then the layout's float witness (`u64`); `structure_references` per reference start x, z `i32` and kind `u8`; `biomes`
/// the 16 bytes then the climate witness (`u64`); `terrain` blocks, both heightmaps and the
/// float witness (`u64`); `features` blocks, then for each of the
/// 9 patch lists its length `u32` and (index `u32`, block `u16`) pairs, then the protected
/// indices (`u32`) and the float witness (`u64`); `initialize_light` blocks then the 4
/// heightmaps; `light` sky then block
/// nibbles; `spawn` as in [`chunk_digest`]. Every list is preceded by its length (`u32`).
pub fn status_digest(d: &ChunkData) -> u64 {
    let mut h = Digest::new();
    match d {
        ChunkData::Full(_) => return chunk_digest(d),
        ChunkData::Empty => {}
        ChunkData::StructureStarts(v) => write_starts(&mut h, v),
        ChunkData::StructureReferences(v) => {
            h.write_u32(v.len() as u32);
            for r in v {
                h.write_i32(r.start.x);
                h.write_i32(r.start.z);
                h.write_u8(r.kind as u8);
            }
        }
        ChunkData::Biomes(b, witness) => {
            h.write_bytes(b);
            h.write_u64(*witness);
        }
        ChunkData::Terrain(t) => {
            write_blocks(&mut h, &t.blocks);
            for v in t.world_surface.iter().chain(t.ocean_floor.iter()) {
                h.write_i32(*v);
            }
            h.write_u64(t.witness);
        }
        ChunkData::Features(f) => write_features(&mut h, f),
        ChunkData::InitializeLight(m) => {
            write_blocks(&mut h, &m.blocks);
            for hm in m.heightmaps.iter() {
                for v in hm {
                    h.write_i32(*v);
                }
            }
        }
        ChunkData::Light(l) => write_light(&mut h, l),
        ChunkData::Spawn(v) => {
            h.write_u32(v.len() as u32);
            for s in v {
                h.write_u16(s.kind);
                for c in s.pos {
                    h.write_i32(c);
                }
                h.write_u8(s.group);
            }
        }
    }
    h.finish()
}

/// The `structure_starts` layout of [`status_digest`].
fn write_starts(h: &mut Digest, v: &[StructureStart]) {
    h.write_u32(v.len() as u32);
    for s in v {
        h.write_u8(s.kind as u8);
        h.write_i32(s.chunk.x);
        h.write_i32(s.chunk.z);
        h.write_u8(s.biome);
        h.write_u8(s.assembled.is_some() as u8);
        if let Some(a) = &s.assembled {
            h.write_u32(a.pieces.len() as u32);
            for p in &a.pieces {
                h.write_u8(p.kind as u8);
                for c in p.bbox.min.iter().chain(p.bbox.max.iter()) {
                    h.write_i32(*c);
                }
            }
            h.write_u32(a.entities.len() as u32);
            for e in &a.entities {
                for c in e.pos {
                    h.write_i32(c);
                }
                h.write_u16(e.kind);
                h.write_u32(e.data);
            }
            h.write_u64(a.witness);
        }
    }
}

/// Block ids as `u16` LE in index order, streamed a section at a time.
fn write_blocks(h: &mut Digest, blocks: &Sections) {
    blocks.for_each_section(|s| h.write_u16_slice(s));
}

/// The sky-light then the block-light nibble arrays.
fn write_light(h: &mut Digest, l: &LightData) {
    light::for_each_nibble_run(&l.sky, |b| h.write_bytes(b));
    light::for_each_nibble_run(&l.block, |b| h.write_bytes(b));
}

/// The `features` layout of [`status_digest`].
fn write_features(h: &mut Digest, f: &FeatureChunk) {
    h.write_u16_slice(&f.blocks());
    for p in &f.outbound {
        h.write_u32(p.len() as u32);
        for (i, b) in p {
            h.write_u32(*i);
            h.write_u16(*b);
        }
    }
    h.write_u32(f.protected.len() as u32);
    for i in &f.protected {
        h.write_u32(*i);
    }
    h.write_u64(f.witness);
}
