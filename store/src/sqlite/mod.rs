//! The SQLite chunk store: one row per chunk (x, z, status, record), one row per edited chunk
//! (x, z, edit record) plus a metadata table holding the store format and the world identity.
//! A store may hold only edits: the world they edit is its identity. WAL journal, batched transactions: a
//! killed writer loses at most the batch it was writing, never what was committed, and never
//! corrupts the file.
//!
//! Schema (store format 2; format 1 is the same without `edits`, and becomes 2 when edits are
//! first written, so a library that would ignore them refuses the store instead):
//!
//! ```sql
//! CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
//! CREATE TABLE chunks (x INTEGER NOT NULL, z INTEGER NOT NULL, status INTEGER NOT NULL,
//!                      record BLOB NOT NULL, PRIMARY KEY (x, z)) WITHOUT ROWID;
//! CREATE TABLE edits (x INTEGER NOT NULL, z INTEGER NOT NULL, record BLOB NOT NULL,
//!                     PRIMARY KEY (x, z)) WITHOUT ROWID;
//! ```
//!
//! `meta` keys: `store_format`, `record_format`, `seed`, `min_y`, `height`, `sea_level`,
//! `definition` (16 hex digits). Thread rule: a [`ChunkStore`] is used from one thread at a
//! time (it may move between threads).
//!
//! A file is looked at before anything is written to it: an existing file is first read as
//! an immutable database (no lock, no journal, no `-wal` or `-shm` file opened or made), and
//! only a file whose main database holds the `meta` table is opened for real. Someone else's
//! database is refused byte for byte untouched. A new store checkpoints its metadata into the
//! main file at once, so every store passes that look even after a kill.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::world::{ChunkData, WorldGen};

use crate::record::{decode_full, stored_definition, WorldIdentity, FORMAT_VERSION};

mod error;
mod merge;
mod probe;

pub use error::StoreError;
use merge::merge_attached;
pub use merge::MergeReport;
use probe::{probe, require_store, Found};

/// The newest store format this library writes and reads (2: with edits).
pub const STORE_FORMAT: u32 = 2;
/// The format of a store without edits.
const CHUNKS_ONLY_FORMAT: u32 = 1;

/// An open chunk store.
pub struct ChunkStore {
    conn: Connection,
    identity: WorldIdentity,
}

fn configure(conn: &Connection) -> Result<(), StoreError> {
    // WAL: readers do not block the writer and a killed writer leaves the file consistent;
    // NORMAL sync in WAL mode loses no committed transaction on a process crash.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

impl ChunkStore {
    /// Open the store at `path` for the world `identity`, creating it if it does not exist.
    /// A store of another world, or of a newer format, is an error; someone else's database
    /// is refused untouched ([`StoreError::NotAStore`]).
    pub fn open(path: &Path, identity: &WorldIdentity) -> Result<ChunkStore, StoreError> {
        let fresh = matches!(probe(path)?, Found::Nothing);
        let mut conn = Connection::open(path)?;
        configure(&conn)?;
        if fresh {
            let tx = conn.transaction()?;
            tx.execute_batch(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS chunks (x INTEGER NOT NULL, z INTEGER NOT NULL,
                     status INTEGER NOT NULL, record BLOB NOT NULL, PRIMARY KEY (x, z))
                     WITHOUT ROWID;",
            )?;
            let mut put = tx.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?1, ?2)")?;
            put.execute(params!["store_format", CHUNKS_ONLY_FORMAT.to_string()])?;
            put.execute(params!["record_format", FORMAT_VERSION.to_string()])?;
            for (k, v) in identity.fields() {
                put.execute(params![k, v])?;
            }
            drop(put);
            tx.commit()?;
            // The metadata into the main file now: the next open's first look reads it there.
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        let stored = read_identity(&conn)?;
        if let Some(m) = stored.mismatch(identity) {
            return Err(m.into());
        }
        Ok(ChunkStore {
            conn,
            identity: stored,
        })
    }

    /// Open an existing store for reading and writing, taking the world identity it holds.
    pub fn open_existing(path: &Path) -> Result<ChunkStore, StoreError> {
        require_store(path)?;
        let conn = Connection::open(path)?;
        configure(&conn)?;
        let identity = read_identity(&conn)?;
        Ok(ChunkStore { conn, identity })
    }

    /// Open an existing store for reading only: nothing this handle does can change the file.
    pub fn open_read_only(path: &Path) -> Result<ChunkStore, StoreError> {
        require_store(path)?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let identity = read_identity(&conn)?;
        Ok(ChunkStore { conn, identity })
    }

    /// Copy every row of the store at `input` into this one, chunks and edits, in one
    /// transaction: a row this store holds already must be identical byte for byte (it is
    /// then skipped), so merging again after a kill, or merging overlapping inputs, is safe.
    /// Refused, changing nothing: a store of another world ([`StoreError::ForeignWorld`]),
    /// of another format, with a chunk or edits that conflict ([`StoreError::Conflict`],
    /// [`StoreError::EditConflict`]), or with a table a merge would lose
    /// ([`StoreError::ForeignTable`]).
    pub fn merge_from(&mut self, input: &Path) -> Result<MergeReport, StoreError> {
        let src = ChunkStore::open_read_only(input)?;
        if let Some(m) = src.identity().mismatch(&self.identity) {
            return Err(m.into());
        }
        drop(src);
        // SQLite copies the rows itself (no row crosses into Rust): the input is attached
        // read-only by URI, and checked and copied in one transaction.
        self.conn.execute(
            "ATTACH DATABASE ?1 AS input",
            params![uri(input, "mode=ro")],
        )?;
        let merged = merge_attached(&mut self.conn);
        self.conn.execute("DETACH DATABASE input", [])?;
        merged
    }

    /// The world this store belongs to.
    pub fn identity(&self) -> &WorldIdentity {
        &self.identity
    }

    /// The positions stored at `status` or higher inside `rect`.
    pub fn positions_in(
        &self,
        rect: ChunkRect,
        status: ChunkStatus,
    ) -> Result<BTreeSet<ChunkPos>, StoreError> {
        let (x0, z0, x1, z1) = rect.bounds();
        let mut q = self.conn.prepare(
            "SELECT x, z FROM chunks WHERE x BETWEEN ?1 AND ?3 AND z BETWEEN ?2 AND ?4
             AND status >= ?5",
        )?;
        let rows = q.query_map(params![x0, z0, x1, z1, status as u32], |r| {
            Ok(ChunkPos::new(r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every position stored at `status` or higher.
    pub fn positions(&self, status: ChunkStatus) -> Result<BTreeSet<ChunkPos>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT x, z FROM chunks WHERE status >= ?1")?;
        let rows = q.query_map(params![status as u32], |r| {
            Ok(ChunkPos::new(r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The record stored at `pos`, if any.
    pub fn get(&self, pos: ChunkPos) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT record FROM chunks WHERE x = ?1 AND z = ?2",
                params![pos.x, pos.z],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The finished chunk stored at `pos` for the world `generator` generates, decoded and
    /// checked ([`decode_full`]), or None when the store does not hold it.
    pub fn full_chunk(
        &self,
        generator: &WorldGen,
        pos: ChunkPos,
    ) -> Result<Option<Arc<ChunkData>>, StoreError> {
        match self.get(pos)? {
            None => Ok(None),
            Some(bytes) => decode_full(generator, pos, &bytes)
                .map(Some)
                .map_err(|source| StoreError::Record {
                    x: pos.x,
                    z: pos.z,
                    source,
                }),
        }
    }

    /// Store `records` (position, status, record) in one transaction, replacing rows at the
    /// same positions: all of them land, or (on error or a crash) none.
    pub fn put_batch(
        &mut self,
        records: &[(ChunkPos, ChunkStatus, Vec<u8>)],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        {
            let mut put = tx.prepare_cached(
                "INSERT OR REPLACE INTO chunks (x, z, status, record) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (p, s, r) in records {
                put.execute(params![p.x, p.z, *s as u32, r])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Store edit records (position, record: the chunk's whole diff) in one transaction,
    /// replacing rows at the same positions: all of them land, or (on error or a crash) none.
    pub fn put_edits(&mut self, records: &[(ChunkPos, Vec<u8>)]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        make_edits_table(&tx, "main")?;
        {
            let mut put = tx.prepare_cached(
                "INSERT OR REPLACE INTO edits (x, z, record) VALUES (?1, ?2, ?3)",
            )?;
            for (p, r) in records {
                put.execute(params![p.x, p.z, r])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Every edit record, by position (none for a store that never held edits).
    pub fn edits(&self) -> Result<Vec<(ChunkPos, Vec<u8>)>, StoreError> {
        let has: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'edits'",
            [],
            |r| r.get(0),
        )?;
        if has == 0 {
            return Ok(Vec::new());
        }
        let mut q = self
            .conn
            .prepare("SELECT x, z, record FROM edits ORDER BY x, z")?;
        let rows = q.query_map([], |r| Ok((ChunkPos::new(r.get(0)?, r.get(1)?), r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Rows in the store.
    pub fn count(&self) -> Result<u64, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM chunks", [], |r| r.get::<_, i64>(0))?
            as u64)
    }

    /// SQLite's `PRAGMA integrity_check` ("ok" when the file is sound).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }
}

/// Delete the store at `path` and SQLite's side files (`-wal`, `-shm`); missing files are
/// not an error. No connection to it may be open.
pub fn remove_store(path: &Path) -> std::io::Result<()> {
    for ext in ["", "-wal", "-shm"] {
        match std::fs::remove_file(format!("{}{}", path.display(), ext)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

fn meta(conn: &Connection, key: &'static str) -> Result<String, StoreError> {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?
        .ok_or(StoreError::Meta {
            key,
            problem: "missing (not a Stratagen store?)",
        })
}

fn parsed<T: std::str::FromStr>(conn: &Connection, key: &'static str) -> Result<T, StoreError> {
    meta(conn, key)?.parse().map_err(|_| StoreError::Meta {
        key,
        problem: "not a number",
    })
}

/// The SQLite URI of `path` with the query `query` (`?`, `#` and `%` of the path escaped).
fn uri(path: &Path, query: &str) -> String {
    let mut uri = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            '%' => uri.push_str("%25"),
            c => uri.push(c),
        }
    }
    uri.push('?');
    uri.push_str(query);
    uri
}

/// Make the `edits` table in `schema` if it is not there, and mark the store's format as
/// the one with edits.
fn make_edits_table(conn: &Connection, schema: &str) -> Result<(), StoreError> {
    conn.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS {schema}.edits (x INTEGER NOT NULL, z INTEGER NOT NULL,
             record BLOB NOT NULL, PRIMARY KEY (x, z)) WITHOUT ROWID;"
    ))?;
    conn.execute(
        &format!("UPDATE {schema}.meta SET value = ?1 WHERE key = 'store_format'"),
        params![STORE_FORMAT.to_string()],
    )?;
    Ok(())
}

fn read_identity(conn: &Connection) -> Result<WorldIdentity, StoreError> {
    let format: u32 = parsed(conn, "store_format")?;
    if format > STORE_FORMAT {
        return Err(StoreError::NewerFormat { found: format });
    }
    let record: u32 = parsed(conn, "record_format")?;
    if record != u32::from(FORMAT_VERSION) {
        return Err(StoreError::RecordFormat { found: record });
    }
    let definition =
        u64::from_str_radix(&meta(conn, "definition")?, 16).map_err(|_| StoreError::Meta {
            key: "definition",
            problem: "not 16 hex digits",
        })?;
    Ok(WorldIdentity {
        seed: parsed(conn, "seed")?,
        min_y: parsed(conn, "min_y")?,
        height: parsed(conn, "height")?,
        sea_level: parsed(conn, "sea_level")?,
        definition: stored_definition(definition),
    })
}
