//! The SQLite store: records round-trip, a store of another world or a newer format is
//! refused with the field named, someone else's database is left untouched.
#![cfg(feature = "sqlite")]

use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::world::{World, WorldGen, WorldSettings};
use stratagen_store::record::{decode, save_chunk, WorldIdentity};
use stratagen_store::sqlite::{remove_store, ChunkStore, StoreError};

fn temp(name: &str) -> std::path::PathBuf {
    // Inside the target directory (Cargo's scratch space for integration tests), so a run
    // leaves nothing in the system's temporary directory.
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("store-{name}"));
    remove_store(&p).unwrap();
    p
}

#[test]
fn records_round_trip_and_identity_is_checked() {
    let def = WorldSettings {
        seed: 9,
        ..WorldSettings::default()
    };
    let generator = WorldGen::new(def).unwrap();
    let id = WorldIdentity::of(&generator);
    let mut s = Scheduler::new(Arc::new(World::new(generator.clone())));
    s.request(ChunkPos::new(2, 3), ChunkStatus::Full, Priority::Soon)
        .unwrap();
    while s.run_inline(1000) > 0 {}
    let rec = save_chunk(&s, ChunkPos::new(2, 3)).unwrap();

    let path = temp("roundtrip.sqlite");
    let mut store = ChunkStore::open(&path, &id).unwrap();
    store
        .put_batch(&[(ChunkPos::new(2, 3), ChunkStatus::Full, rec.clone())])
        .unwrap();
    // Replacing a row keeps one row per position.
    store
        .put_batch(&[(ChunkPos::new(2, 3), ChunkStatus::Full, rec.clone())])
        .unwrap();
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(store.get(ChunkPos::new(2, 3)).unwrap(), Some(rec.clone()));
    assert_eq!(store.get(ChunkPos::new(3, 3)).unwrap(), None);
    let inside = store.positions_in((0, 0, 5, 5), ChunkStatus::Full).unwrap();
    assert_eq!(
        inside.into_iter().collect::<Vec<_>>(),
        [ChunkPos::new(2, 3)]
    );
    assert!(store
        .positions_in((3, 0, 5, 5), ChunkStatus::Empty)
        .unwrap()
        .is_empty());
    assert_eq!(store.integrity_check().unwrap(), "ok");
    drop(store);

    let again = ChunkStore::open_existing(&path).unwrap();
    assert_eq!(*again.identity(), id);
    let back = again.get(ChunkPos::new(2, 3)).unwrap().unwrap();
    assert_eq!(decode(&generator, &back).unwrap().status, ChunkStatus::Full);
    drop(again);

    // Read-only: the same rows and positions, and a write is refused with nothing changed.
    let mut read = ChunkStore::open_read_only(&path).unwrap();
    assert_eq!(*read.identity(), id);
    assert_eq!(read.get(ChunkPos::new(2, 3)).unwrap(), Some(rec.clone()));
    assert_eq!(
        read.positions(ChunkStatus::Full)
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>(),
        [ChunkPos::new(2, 3)]
    );
    assert!(read
        .put_batch(&[(ChunkPos::new(4, 4), ChunkStatus::Full, rec.clone())])
        .is_err());
    assert_eq!(read.count().unwrap(), 1);
    drop(read);

    let other = WorldIdentity {
        sea_level: 62,
        ..id
    };
    match ChunkStore::open(&path, &other) {
        Err(StoreError::ForeignWorld { field, .. }) => assert_eq!(field, "sea_level"),
        Err(e) => panic!("unexpected {e}"),
        Ok(_) => panic!("another world's store opened"),
    }
}

#[test]
fn newer_formats_and_foreign_databases_are_refused() {
    let id = WorldIdentity::of(&WorldGen::new(WorldSettings::default()).unwrap());
    let path = temp("newer.sqlite");
    drop(ChunkStore::open(&path, &id).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'store_format'", [])
        .unwrap();
    drop(conn);
    assert!(matches!(
        ChunkStore::open(&path, &id),
        Err(StoreError::NewerFormat { found: 3 })
    ));
    assert!(matches!(
        ChunkStore::open_existing(&path),
        Err(StoreError::NewerFormat { found: 3 })
    ));

    let foreign = temp("foreign.sqlite");
    let conn = rusqlite::Connection::open(&foreign).unwrap();
    conn.execute_batch("CREATE TABLE notes (t TEXT);").unwrap();
    drop(conn);
    assert!(matches!(
        ChunkStore::open(&foreign, &id),
        Err(StoreError::Meta { .. })
    ));
    let conn = rusqlite::Connection::open(&foreign).unwrap();
    let tables: i64 = conn
        .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tables, 1, "nothing added to someone else's database");

    assert!(matches!(
        ChunkStore::open_existing(&temp("absent.sqlite")),
        Err(StoreError::Missing(_))
    ));
}

/// Edit records land in their own table in one transaction and read back by position; the
/// store's format becomes 2 with its first edits, so a library that would ignore them
/// refuses it; a store without edits reads none.
#[test]
fn edits_round_trip_and_mark_the_format() {
    let id = WorldIdentity::of(&WorldGen::new(WorldSettings::default()).unwrap());
    let path = temp("edits.sqlite");
    let mut store = ChunkStore::open(&path, &id).unwrap();
    assert!(store.edits().unwrap().is_empty());
    let format = |p: &std::path::Path| -> String {
        rusqlite::Connection::open(p)
            .unwrap()
            .query_row(
                "SELECT value FROM meta WHERE key = 'store_format'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(format(&path), "1");
    let a = (ChunkPos::new(2, -1), vec![1u8, 2, 3]);
    let b = (ChunkPos::new(-4, 0), vec![9u8; 40]);
    store.put_edits(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(format(&path), "2");
    // Ordered by position; a later batch replaces a chunk's row.
    assert_eq!(store.edits().unwrap(), vec![b.clone(), a.clone()]);
    let a2 = (a.0, vec![7u8; 5]);
    store.put_edits(std::slice::from_ref(&a2)).unwrap();
    drop(store);
    let reopened = ChunkStore::open_read_only(&path).unwrap();
    assert_eq!(reopened.edits().unwrap(), vec![b, a2]);
    assert_eq!(reopened.count().unwrap(), 0, "edits are not chunk rows");
}
