//! The SQLite store: records round-trip, a store of another world or a newer format is
//! refused with the field named, someone else's database is left untouched.
#![cfg(feature = "sqlite")]

use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus, Priority, Scheduler};
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
    let inside = store
        .positions_in(ChunkRect::new(0, 0, 5, 5).unwrap(), ChunkStatus::Full)
        .unwrap();
    assert_eq!(
        inside.into_iter().collect::<Vec<_>>(),
        [ChunkPos::new(2, 3)]
    );
    assert!(store
        .positions_in(ChunkRect::new(3, 0, 5, 5).unwrap(), ChunkStatus::Empty)
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

    assert!(matches!(
        ChunkStore::open_existing(&temp("absent.sqlite")),
        Err(StoreError::Missing(_))
    ));
}

/// The bytes of `path` and of SQLite's side files beside it (None where a file is absent).
fn files(path: &std::path::Path) -> Vec<Option<Vec<u8>>> {
    ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|ext| std::fs::read(format!("{}{ext}", path.display())).ok())
        .collect()
}

/// Every way of opening a store refuses someone else's database, and leaves it byte for
/// byte as it was: in rollback-journal mode, in WAL mode after a clean close, and in WAL
/// mode with its log and shared-memory files present (its writer still connected, the
/// tables in the log only), a log it will not have checkpointed.
#[test]
fn foreign_databases_are_refused_byte_for_byte_untouched() {
    let id = WorldIdentity::of(&WorldGen::new(WorldSettings::default()).unwrap());
    for (name, wal, keep_open) in [
        ("foreign-rollback.sqlite", false, false),
        ("foreign-wal.sqlite", true, false),
        ("foreign-wal-open.sqlite", true, true),
    ] {
        let path = temp(name);
        let conn = rusqlite::Connection::open(&path).unwrap();
        if wal {
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        }
        conn.execute_batch(
            "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine'), ('also mine');",
        )
        .unwrap();
        let writer = if keep_open {
            Some(conn)
        } else {
            drop(conn);
            None
        };
        let before = files(&path);
        assert_eq!(
            before[1].is_some(),
            keep_open,
            "{name}: the log is there while open"
        );
        let refused = |r: Result<ChunkStore, StoreError>, how: &str| match r {
            Err(StoreError::NotAStore(p)) => assert!(p.ends_with(name), "{p}"),
            Err(e) => panic!("{name}: {how}: unexpected {e}"),
            Ok(_) => panic!("{name}: {how}: someone else's database opened"),
        };
        refused(ChunkStore::open(&path, &id), "open");
        refused(ChunkStore::open_existing(&path), "open_existing");
        refused(ChunkStore::open_read_only(&path), "open_read_only");
        let mut target = ChunkStore::open(&temp(&format!("into-{name}")), &id).unwrap();
        assert!(matches!(
            target.merge_from(&path),
            Err(StoreError::NotAStore(_))
        ));
        assert!(files(&path) == before, "{name}: a byte changed");
        drop(writer);
    }
    // A file that is no database at all is refused and left as it is too.
    let text = temp("not-a-database.sqlite");
    std::fs::write(&text, b"a shopping list, not a database\n".repeat(200)).unwrap();
    let before = files(&text);
    assert!(ChunkStore::open(&text, &id).is_err());
    assert!(files(&text) == before);
}

/// A store killed before its metadata left the write-ahead log (as an older library left
/// them) still opens: the one case the first look reads through the log.
#[test]
fn a_store_whose_schema_is_in_its_log_only_still_opens() {
    let id = WorldIdentity::of(&WorldGen::new(WorldSettings::default()).unwrap());
    let path = temp("log-only.sqlite");
    let made = ChunkStore::open(&path, &id).unwrap();
    drop(made);
    // Build the same store by hand with the schema left in the log: a connection that
    // stays open while another opens the file is what a killed writer leaves.
    let copy = temp("log-only-copy.sqlite");
    let conn = rusqlite::Connection::open(&copy).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.execute_batch(&format!(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
         CREATE TABLE chunks (x INTEGER NOT NULL, z INTEGER NOT NULL, status INTEGER NOT NULL,
             record BLOB NOT NULL, PRIMARY KEY (x, z)) WITHOUT ROWID;
         INSERT INTO meta VALUES ('store_format', '1'), ('record_format', '1');
         {}",
        id.fields()
            .iter()
            .map(|(k, v)| format!("INSERT INTO meta VALUES ('{k}', '{v}');"))
            .collect::<String>()
    ))
    .unwrap();
    let reader = ChunkStore::open_read_only(&copy).unwrap();
    assert_eq!(*reader.identity(), id);
    drop(reader);
    drop(conn);
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
