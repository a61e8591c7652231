//! Evidence for edits: an edited world read through the edit layer equals the oracle (the
//! generated merged blocks with the final edit of each position written in, lit by the light
//! body from scratch over the whole height); it survives a save and a reload into a fresh
//! world, whatever the order of edits to different positions; every chunk whose edited state
//! changes is reported; edits of chunks not generated yet wait for them.
use std::collections::BTreeMap;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::util::random::Xoroshiro128PlusPlus;
use stratagen_core::world::block::{self, BlockId};
use stratagen_core::world::edit::{BlockEdit, EditError, EditLayer, Generated};
use stratagen_core::world::sections::Sections;
use stratagen_core::world::{
    chunk_digest, light, ChunkData, Heightmaps, Neighbourhood, World, WorldGen, WorldSettings,
};
use stratagen_store::edits::{load_edits, save_edits};

const SEED: i64 = 11;

/// The blocks the random edits put: air (removing), opaque, filtering (water, leaves) and
/// light-emitting (torch, glowstone, lava) blocks.
const PALETTE: [BlockId; 8] = [
    block::AIR,
    block::AIR,
    block::STONE,
    block::WATER,
    block::OAK_LEAVES,
    block::TORCH,
    block::GLOWSTONE,
    block::LAVA,
];

fn generator() -> WorldGen {
    WorldGen::new(WorldSettings {
        seed: SEED,
        ..WorldSettings::default()
    })
    .unwrap()
}

/// A world with every chunk of `-r..=r` (square) requested at `full`, generated inline.
fn world(r: i32) -> Scheduler<World> {
    let mut sched = Scheduler::new(Arc::new(World::new(generator())));
    for z in -r..=r {
        for x in -r..=r {
            sched
                .request(ChunkPos::new(x, z), ChunkStatus::Full, Priority::Soon)
                .unwrap();
        }
    }
    while sched.run_inline(usize::MAX) > 0 {}
    sched
}

fn square(r: i32) -> Vec<ChunkPos> {
    (-r..=r)
        .flat_map(|z| (-r..=r).map(move |x| ChunkPos::new(x, z)))
        .collect()
}

/// `n` random edits inside chunks `-r..=r`, mostly around the surface (where light changes
/// most), some at any height, many of them on chunk borders and corners.
fn random_edits(rng: &mut Xoroshiro128PlusPlus, n: usize, r: i32) -> Vec<BlockEdit> {
    let side = (2 * r + 1) * 16;
    (0..n)
        .map(|_| {
            let mut x = -r * 16 + rng.next_int_bounded(side);
            let mut z = -r * 16 + rng.next_int_bounded(side);
            if rng.next_int_bounded(3) == 0 {
                // Snap to a border column of its chunk.
                x = x.div_euclid(16) * 16 + [0, 15][rng.next_int_bounded(2) as usize];
                z = z.div_euclid(16) * 16 + [0, 15][rng.next_int_bounded(2) as usize];
            }
            let y = if rng.next_int_bounded(5) == 0 {
                -64 + rng.next_int_bounded(384)
            } else {
                40 + rng.next_int_bounded(60)
            };
            let block = PALETTE[rng.next_int_bounded(PALETTE.len() as i32) as usize];
            BlockEdit { x, y, z, block }
        })
        .collect()
}

/// Two producers' edits interleaved at random, as two threads handing edits to the owner.
fn interleaved(seed: i64, n: usize, r: i32) -> Vec<BlockEdit> {
    let mut a_rng = Xoroshiro128PlusPlus::from_seed(seed);
    let mut b_rng = Xoroshiro128PlusPlus::from_seed(seed + 1);
    let a = random_edits(&mut a_rng, n / 2, r);
    let b = random_edits(&mut b_rng, n - n / 2, r);
    let mut pick = Xoroshiro128PlusPlus::from_seed(seed + 2);
    let (mut ia, mut ib) = (0, 0);
    let mut out = Vec::with_capacity(n);
    while ia < a.len() || ib < b.len() {
        let from_a = ib == b.len() || (ia < a.len() && pick.next_bool());
        if from_a {
            out.push(a[ia]);
            ia += 1;
        } else {
            out.push(b[ib]);
            ib += 1;
        }
    }
    out
}

/// The last block written to each position: what "later wins" means.
fn final_blocks(edits: &[BlockEdit]) -> BTreeMap<(i32, i32, i32), BlockId> {
    edits.iter().map(|e| ((e.x, e.y, e.z), e.block)).collect()
}

/// The oracle's blocks of `pos`: its generated merged blocks with the final edits written in.
fn oracle_blocks(
    sched: &Scheduler<World>,
    finals: &BTreeMap<(i32, i32, i32), BlockId>,
    pos: ChunkPos,
) -> Vec<BlockId> {
    let dims = sched.pipeline().generator().dims();
    let merged = sched.merged(pos).expect("neighbourhood generated");
    let mut blocks = match &*merged {
        ChunkData::InitializeLight(m) => m.blocks.to_vec(),
        _ => unreachable!(),
    };
    for (&(x, y, z), &b) in finals {
        if x.div_euclid(16) == pos.x && z.div_euclid(16) == pos.z {
            blocks[dims.index(x.rem_euclid(16) as usize, y, z.rem_euclid(16) as usize)] = b;
        }
    }
    blocks
}

/// Compare every chunk of `-r..=r` read through the layer with the oracle.
fn assert_matches_oracle(
    sched: &Scheduler<World>,
    layer: &mut EditLayer,
    finals: &BTreeMap<(i32, i32, i32), BlockId>,
    r: i32,
) {
    let g = sched.pipeline().generator();
    let (dims, palette) = (g.dims(), &g.definition().blocks);
    let mut cache = BTreeMap::new();
    let mut blocks_of = |p: ChunkPos| {
        cache
            .entry(p)
            .or_insert_with(|| oracle_blocks(sched, finals, p))
            .clone()
    };
    for pos in square(r) {
        let d = layer.full(sched, pos).unwrap();
        let f = d.full().unwrap();
        let own = blocks_of(pos);
        assert!(f.blocks().to_vec() == own, "blocks of {pos:?}");
        assert_eq!(
            f.heightmaps(),
            &Heightmaps::of(&dims, palette, &own),
            "heightmaps of {pos:?}"
        );
        let around: Vec<Sections> = Neighbourhood::<()>::OFFSETS
            .iter()
            .map(|&(dx, dz)| Sections::from_dense(&blocks_of(pos.offset(dx, dz))))
            .collect();
        let chunks =
            Neighbourhood::from_fn(|dx, dz| Some(&around[Neighbourhood::<()>::slot(dx, dz)]));
        // The whole height, not the surface heightmaps: the oracle reads no derived data.
        let want = light::compute(&dims, palette, chunks, dims.max_y());
        assert!(f.light() == &want, "light of {pos:?}");
    }
}

#[test]
fn ten_thousand_edits_match_the_oracle_and_survive_a_reload() {
    let sched = world(3);
    let g = sched.pipeline().generator().clone();
    let mut layer = EditLayer::new(&g);
    let edits = interleaved(5, 10_000, 2);
    let mut probe = Xoroshiro128PlusPlus::from_seed(9);
    for (k, e) in edits.iter().enumerate() {
        layer.set_block(*e).unwrap();
        // Reads between edits keep edited chunks cached, so a stale one would show.
        if k % 700 == 0 {
            for _ in 0..3 {
                let p = ChunkPos::new(probe.next_int_bounded(5) - 2, probe.next_int_bounded(5) - 2);
                layer.full(&sched, p).unwrap();
            }
        }
    }
    let finals = final_blocks(&edits);
    assert_matches_oracle(&sched, &mut layer, &finals, 3);
    for e in edits.iter().step_by(97) {
        assert_eq!(
            layer.block(&sched, e.x, e.y, e.z),
            Ok(finals[&(e.x, e.y, e.z)])
        );
    }

    // Save every edited chunk, load the records into a fresh world before it generates
    // anything (the edits wait), then generate it.
    let records: Vec<Vec<u8>> = layer
        .edits()
        .edited_chunks()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|p| save_edits(&g, layer.edits_mut(), p))
        .collect();
    assert_eq!(records.len(), 25);
    let mut fresh = EditLayer::new(&g);
    for r in &records {
        load_edits(&g, fresh.edits_mut(), r).unwrap();
    }
    let reloaded = world(3);
    for pos in square(3) {
        let a = chunk_digest(&layer.full(&sched, pos).unwrap());
        let b = chunk_digest(&fresh.full(&reloaded, pos).unwrap());
        assert_eq!(a, b, "chunk {pos:?} after reload");
    }
    assert_matches_oracle(&reloaded, &mut fresh, &finals, 3);
}

#[test]
fn edit_order_does_not_change_digests() {
    let sched = world(2);
    let g = sched.pipeline().generator().clone();
    let edits = interleaved(21, 3000, 1);
    // Two other orders that keep the edits of each position in their sequence order: grouped
    // by position ascending, and by position descending.
    let mut by_pos = edits.clone();
    by_pos.sort_by_key(|e| (e.x, e.y, e.z));
    let mut by_pos_desc = edits.clone();
    by_pos_desc.sort_by_key(|e| std::cmp::Reverse((e.x, e.y, e.z)));
    let digests = |list: &[BlockEdit]| -> Vec<u64> {
        let mut layer = EditLayer::new(&g);
        layer.edits_mut().set_blocks(list).unwrap();
        square(2)
            .into_iter()
            .map(|p| chunk_digest(&layer.full(&sched, p).unwrap()))
            .collect()
    };
    let want = digests(&edits);
    assert_eq!(digests(&by_pos), want);
    assert_eq!(digests(&by_pos_desc), want);
    // The edits did change the world.
    let plain: Vec<u64> = square(2)
        .into_iter()
        .map(|p| chunk_digest(&Generated::full(&sched, p).unwrap()))
        .collect();
    assert_ne!(plain, want);
}

#[test]
fn every_changed_chunk_is_reported() {
    let sched = world(2);
    let g = sched.pipeline().generator().clone();
    let mut layer = EditLayer::new(&g);
    let mut rng = Xoroshiro128PlusPlus::from_seed(3);
    let digests = |layer: &mut EditLayer| -> BTreeMap<ChunkPos, u64> {
        square(2)
            .into_iter()
            .map(|p| (p, chunk_digest(&layer.full(&sched, p).unwrap())))
            .collect()
    };
    let mut before = digests(&mut layer);
    let mut reported_without_change = 0;
    for _ in 0..60 {
        let n = 1 + rng.next_int_bounded(3) as usize;
        for e in random_edits(&mut rng, n, 0) {
            layer.set_block(e).unwrap();
        }
        let changed = layer.edits_mut().take_changed();
        let after = digests(&mut layer);
        for (p, d) in &after {
            if before[p] != *d {
                assert!(changed.contains(p), "{p:?} changed unreported");
            } else if changed.contains(p) {
                reported_without_change += 1;
            }
        }
        assert!(layer.edits_mut().take_changed().is_empty());
        before = after;
    }
    // The report is conservative, not indiscriminate: it names at most the 3 x 3 around the
    // edited chunk.
    assert!(reported_without_change < 60 * 8);
}

#[test]
fn reads_refuse_what_is_not_generated() {
    let sched = world(0);
    let g = sched.pipeline().generator().clone();
    let mut layer = EditLayer::new(&g);
    // Chunk (0, 0) is full; its neighbours only reached initialize_light.
    layer
        .set_block(BlockEdit {
            x: 4,
            y: 70,
            z: 4,
            block: block::GLOWSTONE,
        })
        .unwrap();
    assert!(layer.full(&sched, ChunkPos::new(0, 0)).is_ok());
    assert_eq!(
        layer.full(&sched, ChunkPos::new(1, 0)).unwrap_err(),
        EditError::NotReady(ChunkPos::new(1, 0))
    );
    // An edit is readable before its chunk exists; an unedited block of it is not.
    layer
        .set_block(BlockEdit {
            x: 100,
            y: 0,
            z: 100,
            block: block::STONE,
        })
        .unwrap();
    assert_eq!(layer.block(&sched, 100, 0, 100), Ok(block::STONE));
    assert_eq!(
        layer.block(&sched, 100, 1, 100),
        Err(EditError::NotReady(ChunkPos::new(6, 6)))
    );
    assert_eq!(
        layer.block(&sched, 0, 400, 0),
        Err(EditError::OutOfRange { x: 0, y: 400, z: 0 })
    );
}

/// Known answers: glowstone (emission 15) in open air lights a cell d blocks away (x plus z
/// plus y) at 15 − d, across the chunk border, and a cached neighbour is relit by an edit
/// 14 blocks from it.
#[test]
fn light_crosses_into_the_neighbour_by_known_amounts() {
    let sched = world(1);
    let g = sched.pipeline().generator().clone();
    let dims = g.dims();
    let mut layer = EditLayer::new(&g);
    let east = ChunkPos::new(1, 0);
    let block_light = |layer: &mut EditLayer, x: usize, y: i32, z: usize| {
        let d = layer.full(&sched, east).unwrap();
        d.full().unwrap().light().block_at(dims.index(x, y, z))
    };
    // High above the terrain: air all round.
    for y in 270..=310 {
        assert_eq!(layer.block(&sched, 16, y, 8), Ok(block::AIR));
    }
    let glow = |x, y, z| BlockEdit {
        x,
        y,
        z,
        block: block::GLOWSTONE,
    };
    layer.set_block(glow(8, 300, 8)).unwrap();
    assert_eq!(block_light(&mut layer, 0, 300, 8), 7, "8 blocks away");
    assert_eq!(block_light(&mut layer, 0, 300, 3), 2, "13 blocks away");
    assert_eq!(block_light(&mut layer, 0, 280, 8), 0, "28 blocks away");
    // The neighbour is cached now; an edit 14 blocks from it must relight it.
    layer.set_block(glow(2, 280, 8)).unwrap();
    assert_eq!(block_light(&mut layer, 0, 280, 8), 1, "14 blocks away");
    assert_eq!(block_light(&mut layer, 1, 280, 8), 0, "15 blocks away");
    // The report names the neighbour: its border cells' light changed.
    assert!(layer.edits_mut().take_changed().contains(&east));
}

/// 1,000 edits spread over 100 chunks take at most 2% of the bytes of those chunks' full
/// records (the figure is printed).
#[test]
fn edit_records_are_a_small_fraction_of_chunk_records() {
    let mut sched = Scheduler::new(Arc::new(World::new(generator())));
    let chunks: Vec<ChunkPos> = (-5..5)
        .flat_map(|z| (-5..5).map(move |x| ChunkPos::new(x, z)))
        .collect();
    for &p in &chunks {
        sched.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
    }
    while sched.run_inline(usize::MAX) > 0 {}
    let g = sched.pipeline().generator().clone();
    let full_bytes: usize = chunks
        .iter()
        .map(|&p| {
            stratagen_store::record::save_chunk(&sched, p)
                .unwrap()
                .len()
        })
        .sum();
    let mut layer = EditLayer::new(&g);
    let mut rng = Xoroshiro128PlusPlus::from_seed(17);
    for k in 0..1000 {
        let p = chunks[k % chunks.len()];
        let e = BlockEdit {
            x: p.x * 16 + rng.next_int_bounded(16),
            y: 40 + rng.next_int_bounded(60),
            z: p.z * 16 + rng.next_int_bounded(16),
            block: PALETTE[rng.next_int_bounded(PALETTE.len() as i32) as usize],
        };
        layer.set_block(e).unwrap();
    }
    let edited: Vec<ChunkPos> = layer.edits().edited_chunks().collect();
    assert_eq!(edited.len(), 100);
    let edit_bytes: usize = edited
        .iter()
        .map(|&p| save_edits(&g, layer.edits_mut(), p).len())
        .sum();
    let share = edit_bytes as f64 / full_bytes as f64;
    println!(
        "edit records {edit_bytes} bytes, full records {full_bytes} bytes: {:.2}%",
        share * 100.0
    );
    assert!(share <= 0.02, "{:.2}%", share * 100.0);
}
