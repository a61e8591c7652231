//! Evidence for structures: placement statistics with the biome check before assembly,
//! connected dungeon room graphs, whole structures across chunk borders in any order, the
//! precedence of structure blocks over patches, and golden digests.
use std::collections::BTreeMap;
use stratagen_cli::generate;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::biome::ClimateSampler;
use stratagen_core::world::block;
use stratagen_core::world::dims::Dims;
use stratagen_core::world::feature::{merge, FeatureChunk};
use stratagen_core::world::sections::Sections;
use stratagen_core::world::structure::{self, PieceKind, StructureKind, StructureStart};
use stratagen_core::world::terrain::TerrainChunk;
use stratagen_core::world::{chunk_digest, ChunkData, Definition, Neighbourhood, WorldSettings};

const DIMS: Dims = Dims {
    min_y: -64,
    height: 384,
    sea_level: 63,
};

fn area_starts(seed: i64, n: i32) -> Vec<StructureStart> {
    let world = Definition::builtin();
    let climate = ClimateSampler::new(seed, &world.climate).unwrap();
    let mut v = Vec::new();
    for z in -n / 2..n / 2 {
        for x in -n / 2..n / 2 {
            v.extend(structure::starts(
                seed,
                &DIMS,
                &world,
                &climate,
                ChunkPos::new(x, z),
            ));
        }
    }
    v
}

#[test]
fn placement_statistics_and_biome_check_before_assembly() {
    let starts = area_starts(2024, 128);
    let world = Definition::builtin();
    let mut table = BTreeMap::new();
    for s in &starts {
        let e = table.entry(s.kind).or_insert((0, 0, 0));
        e.0 += 1;
        let allowed = world
            .structures
            .iter()
            .find(|p| p.kind == s.kind)
            .unwrap()
            .biomes
            .contains(&s.biome);
        match &s.assembled {
            Some(a) => {
                e.2 += 1;
                assert!(allowed, "{:?} assembled in biome {}", s.kind, s.biome);
                assert!(!a.pieces.is_empty());
            }
            None => {
                e.1 += 1;
                assert!(!allowed, "{:?} rejected in an allowed biome", s.kind);
            }
        }
    }
    for (k, (cand, rej, asm)) in &table {
        println!("{k:?}: candidates {cand}, rejected {rej}, assembled {asm}");
        assert_eq!(cand, &(rej + asm));
        assert!(
            *asm > 0 && *rej > 0,
            "{k:?}: both outcomes occur over 128 x 128 chunks"
        );
    }
    // One candidate per grid region: every region fully inside the area has exactly one.
    for p in &world.structures {
        let inner = 128 / p.spacing - 1;
        assert!(table[&p.kind].0 >= (inner * inner) as usize, "{:?}", p.kind);
        assert!(table[&p.kind].0 <= ((128 / p.spacing + 2) * (128 / p.spacing + 2)) as usize);
    }
}

#[test]
fn dungeon_rooms_are_connected() {
    let mut checked = 0;
    for s in area_starts(7, 64) {
        let a = match (&s.assembled, s.kind) {
            (Some(a), StructureKind::Dungeon) => a,
            _ => continue,
        };
        let rooms: Vec<_> = a
            .pieces
            .iter()
            .filter(|p| p.kind == PieceKind::Room)
            .collect();
        assert!(rooms.len() >= 2);
        let mut parent: Vec<usize> = (0..rooms.len()).collect();
        fn find(p: &mut Vec<usize>, i: usize) -> usize {
            if p[i] != i {
                let r = find(p, p[i]);
                p[i] = r;
            }
            p[i]
        }
        for &(x, y) in &a.links {
            let (rx, ry) = (find(&mut parent, x as usize), find(&mut parent, y as usize));
            parent[rx] = ry;
        }
        let root = find(&mut parent, 0);
        for i in 0..rooms.len() {
            assert_eq!(find(&mut parent, i), root, "room {i} is not connected");
        }
        // Each link's corridor pair runs from inside one room to inside the other.
        assert_eq!(
            a.pieces
                .iter()
                .filter(|p| p.kind == PieceKind::Corridor)
                .count(),
            2 * a.links.len()
        );
        // A spawner and one or two chests.
        let spawners = a
            .entities
            .iter()
            .filter(|e| e.kind == block::SPAWNER)
            .count();
        let chests = a.entities.iter().filter(|e| e.kind == block::CHEST).count();
        assert_eq!(spawners, 1);
        assert!((1..=2).contains(&chests));
        checked += 1;
    }
    assert!(checked > 5);
}

/// Find an assembled watchtower near the origin and generate every chunk it touches in two
/// orders and thread counts: the blocks inside its box are identical, and the tower's walls
/// are where the piece says.
#[test]
fn a_watchtower_across_chunk_borders_is_whole() {
    let seed = 2024;
    let tower = area_starts(seed, 96)
        .into_iter()
        .find(|s| s.kind == StructureKind::Watchtower && s.assembled.is_some())
        .expect("a watchtower within 48 chunks");
    let a = tower.assembled.clone().unwrap();
    let (x0, x1) = (a.bbox.min[0].div_euclid(16), a.bbox.max[0].div_euclid(16));
    let (z0, z1) = (a.bbox.min[2].div_euclid(16), a.bbox.max[2].div_euclid(16));
    let chunks = stratagen_cli::rect(x0, z0, x1, z1);
    assert!(chunks.len() >= 2, "the structure spans several chunks");
    let mut rev = chunks.clone();
    rev.reverse();
    let def = WorldSettings {
        seed,
        ..WorldSettings::default()
    };
    let r1 = generate(def, &chunks, ChunkStatus::Full, 1, |_, _| {}).unwrap();
    let r2 = generate(def, &rev, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    let block_at = |r: &stratagen_cli::Region, x: i32, y: i32, z: i32| {
        let f = r.chunks[&ChunkPos::new(x.div_euclid(16), z.div_euclid(16))]
            .full()
            .unwrap();
        f.blocks()[DIMS.index(x.rem_euclid(16) as usize, y, z.rem_euclid(16) as usize)]
    };
    for p in &chunks {
        assert_eq!(
            r1.chunks[p].full().unwrap().blocks(),
            r2.chunks[p].full().unwrap().blocks()
        );
    }
    let t = a
        .pieces
        .iter()
        .find(|p| p.kind == PieceKind::Tower)
        .unwrap()
        .bbox;
    let mut walls = 0;
    for y in t.min[1] + 3..t.max[1] - 2 {
        for x in t.min[0]..=t.max[0] {
            for z in [t.min[2], t.max[2]] {
                let mid = x == (t.min[0] + t.max[0]) / 2;
                if (t.min[1]..t.min[1] + 3).contains(&y) && mid {
                    continue; // the door
                }
                if (y - t.min[1]) % 5 == 0 {
                    continue;
                }
                assert_eq!(
                    block_at(&r1, x, y, z),
                    block::STONE_BRICKS,
                    "tower wall at ({x},{y},{z})"
                );
                walls += 1;
            }
        }
    }
    assert!(walls > 50);
    // The chests of the structure are block entities of the chunks that hold them.
    for e in &a.entities {
        let f = r1.chunks[&ChunkPos::new(e.pos[0].div_euclid(16), e.pos[2].div_euclid(16))]
            .full()
            .unwrap();
        assert!(f.block_entities().contains(e), "{e:?}");
        assert_eq!(block_at(&r1, e.pos[0], e.pos[1], e.pos[2]), e.kind);
    }
}

#[test]
fn structure_blocks_win_over_inbound_patches() {
    // Terrain of stone with one own feature write (index 6 to dirt) on top.
    let terrain = ChunkData::Terrain(Box::new(TerrainChunk {
        blocks: Sections::from_dense(&[block::STONE; 8]),
        world_surface: [0; 256],
        ocean_floor: [0; 256],
        witness: 0,
    }));
    let own = FeatureChunk {
        terrain: std::sync::Arc::new(terrain),
        changes: vec![(6, block::DIRT)],
        outbound: Default::default(),
        protected: vec![2, 5],
        block_entities: Vec::new(),
        witness: 0,
    };
    let west = [(2u32, block::OAK_LEAVES), (3, block::OAK_LEAVES)];
    let north = [(5u32, block::COAL_ORE), (3, block::COAL_ORE)];
    let inbound = Neighbourhood::from_fn(|dx, dz| match (dx, dz) {
        (-1, 0) => Some(&west[..]),
        (0, -1) => Some(&north[..]),
        _ => None,
    });
    let m = merge(&own, inbound);
    assert_eq!(m[2], block::STONE, "protected against the west patch");
    assert_eq!(m[5], block::STONE, "protected against the north patch");
    // Unprotected: patches apply in (dz, dx) order, so the west one (dz = 0) lands after the
    // north one (dz = -1).
    assert_eq!(m[3], block::OAK_LEAVES);
    assert_eq!(m[6], block::DIRT, "the own write over the terrain");
    assert_eq!(m[7], block::STONE, "the terrain where nothing wrote");
}

#[test]
fn golden_digests_of_chunks_with_pieces() {
    let seed = 2024;
    let starts = area_starts(seed, 64);
    let mut picks = Vec::new();
    for kind in [StructureKind::Dungeon, StructureKind::Watchtower] {
        if let Some(s) = starts
            .iter()
            .find(|s| s.kind == kind && s.assembled.is_some())
        {
            picks.push(s.chunk);
        }
    }
    assert_eq!(picks.len(), 2);
    let r = generate(
        WorldSettings {
            seed,
            ..WorldSettings::default()
        },
        &picks,
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap();
    let mut lines = String::new();
    for p in &picks {
        let f = r.chunks[p].full().unwrap();
        assert!(!f.structures.is_empty());
        lines.push_str(&format!(
            "({}, {}) refs {} digest {:016x}\n",
            p.x,
            p.z,
            f.structures.len(),
            chunk_digest(&r.chunks[p])
        ));
    }
    insta::assert_snapshot!("structure_digests", lines);
}
