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

use std::collections::BTreeSet;
use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};
use stratagen_core::engine::{ChunkPos, ChunkStatus};

use crate::record::{stored_definition, WorldIdentity, FORMAT_VERSION};

/// The newest store format this library writes and reads (2: with edits).
pub const STORE_FORMAT: u32 = 2;
/// The format of a store without edits.
const CHUNKS_ONLY_FORMAT: u32 = 1;

/// Why a store could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (the file is not a database, is locked, the disk is full…).
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The store was written by a newer format.
    #[error("store format {found} is newer than this library's {STORE_FORMAT}")]
    NewerFormat {
        /// The store's format.
        found: u32,
    },
    /// The store's records are of a format this library does not read.
    #[error("store holds record format {found}, this library reads {FORMAT_VERSION}")]
    RecordFormat {
        /// The store's record format.
        found: u32,
    },
    /// The store belongs to another world.
    #[error("store of another world: its {field} is {stored}, not {wanted}")]
    ForeignWorld {
        /// The field that differs.
        field: &'static str,
        /// The store's value.
        stored: String,
        /// The value asked for.
        wanted: String,
    },
    /// A metadata entry is missing or unreadable.
    #[error("store metadata {key}: {problem}")]
    Meta {
        /// The key.
        key: &'static str,
        /// What is wrong.
        problem: &'static str,
    },
    /// The file does not exist (opening for reading).
    #[error("no store at {0}")]
    Missing(String),
    /// Merging: both stores hold the chunk, with different bytes. Records are a function of
    /// the world and the position, so one of the two is damaged: nothing of that input is
    /// merged.
    #[error("chunk ({x}, {z}) is stored in both with different bytes: one of them is damaged")]
    Conflict {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
}

/// What merging one store into another did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Rows copied.
    pub copied: u64,
    /// Rows the output held already, byte for byte.
    pub identical: u64,
}

/// An open chunk store.
pub struct ChunkStore {
    conn: Connection,
    identity: WorldIdentity,
}

fn identity_fields(id: &WorldIdentity) -> [(&'static str, String); 5] {
    [
        ("seed", id.seed.to_string()),
        ("min_y", id.min_y.to_string()),
        ("height", id.height.to_string()),
        ("sea_level", id.sea_level.to_string()),
        ("definition", format!("{:016x}", id.definition)),
    ]
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
    /// A store of another world, or of a newer format, is an error (the file is untouched).
    pub fn open(path: &Path, identity: &WorldIdentity) -> Result<ChunkStore, StoreError> {
        let mut conn = Connection::open(path)?;
        configure(&conn)?;
        let tables: i64 = conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
            [],
            |r| r.get(0),
        )?;
        let others: i64 = conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))?;
        if tables == 0 && others > 0 {
            // Someone else's database: add nothing to it.
            return Err(StoreError::Meta {
                key: "store_format",
                problem: "missing (not a Stratagen store?)",
            });
        }
        let tx = conn.transaction()?;
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS chunks (x INTEGER NOT NULL, z INTEGER NOT NULL,
                 status INTEGER NOT NULL, record BLOB NOT NULL, PRIMARY KEY (x, z))
                 WITHOUT ROWID;",
        )?;
        let fresh: Option<String> = tx
            .query_row(
                "SELECT value FROM meta WHERE key = 'store_format'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if fresh.is_none() {
            let mut put = tx.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
            put.execute(params!["store_format", CHUNKS_ONLY_FORMAT.to_string()])?;
            put.execute(params!["record_format", FORMAT_VERSION.to_string()])?;
            for (k, v) in identity_fields(identity) {
                put.execute(params![k, v])?;
            }
        }
        tx.commit()?;
        let stored = read_identity(&conn)?;
        for ((field, s), (_, w)) in identity_fields(&stored)
            .into_iter()
            .zip(identity_fields(identity))
        {
            if s != w {
                return Err(StoreError::ForeignWorld {
                    field,
                    stored: s,
                    wanted: w,
                });
            }
        }
        Ok(ChunkStore {
            conn,
            identity: stored,
        })
    }

    /// Open an existing store for reading and writing, taking the world identity it holds.
    pub fn open_existing(path: &Path) -> Result<ChunkStore, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.display().to_string()));
        }
        let conn = Connection::open(path)?;
        configure(&conn)?;
        let identity = read_identity(&conn)?;
        Ok(ChunkStore { conn, identity })
    }

    /// Open an existing store for reading only: nothing this handle does can change the file.
    pub fn open_read_only(path: &Path) -> Result<ChunkStore, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.display().to_string()));
        }
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let identity = read_identity(&conn)?;
        Ok(ChunkStore { conn, identity })
    }

    /// Copy every row of the store at `input` into this one, in one transaction: a row this
    /// store holds already must be identical byte for byte (it is then skipped), so merging
    /// again after a kill, or merging overlapping inputs, is safe. Refused, changing
    /// nothing: a store of another world ([`StoreError::ForeignWorld`]), of another format,
    /// or with a row that conflicts ([`StoreError::Conflict`]).
    pub fn merge_from(&mut self, input: &Path) -> Result<MergeReport, StoreError> {
        let src = ChunkStore::open_read_only(input)?;
        for ((field, stored), (_, wanted)) in identity_fields(src.identity())
            .into_iter()
            .zip(identity_fields(&self.identity))
        {
            if stored != wanted {
                return Err(StoreError::ForeignWorld {
                    field,
                    stored,
                    wanted,
                });
            }
        }
        drop(src);
        // SQLite copies the rows itself (no row crosses into Rust): the input is attached
        // read-only by URI, and checked and copied in one transaction.
        self.conn
            .execute("ATTACH DATABASE ?1 AS input", params![read_only_uri(input)])?;
        let merged = merge_attached(&mut self.conn);
        self.conn.execute("DETACH DATABASE input", [])?;
        merged
    }

    /// The world this store belongs to.
    pub fn identity(&self) -> &WorldIdentity {
        &self.identity
    }

    /// The positions stored at `status` or higher inside the inclusive rectangle.
    pub fn positions_in(
        &self,
        (x0, z0, x1, z1): (i32, i32, i32, i32),
        status: ChunkStatus,
    ) -> Result<BTreeSet<ChunkPos>, StoreError> {
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
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS edits (x INTEGER NOT NULL, z INTEGER NOT NULL,
                 record BLOB NOT NULL, PRIMARY KEY (x, z)) WITHOUT ROWID;",
        )?;
        tx.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'store_format'",
            params![STORE_FORMAT.to_string()],
        )?;
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

/// The SQLite URI that opens `path` read-only (`?`, `#` and `%` escaped).
fn read_only_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            '%' => uri.push_str("%25"),
            c => uri.push(c),
        }
    }
    uri.push_str("?mode=ro");
    uri
}

/// Copy the rows of the attached `input` database missing from `main`, in one transaction,
/// after checking that the rows both hold are identical. Nothing changes on an error.
///
/// The rows are copied first and compared after, and only when some position was held
/// already: finding a row of this table by position reads its whole record (a `WITHOUT ROWID`
/// table keeps the record in the key, and a 7 KiB record overflows its page), so a check
/// before the copy, needed only for reruns and overlapping inputs, cost every merge half its
/// time. A conflict found after the copy rolls the copy back.
fn merge_attached(conn: &mut Connection) -> Result<MergeReport, StoreError> {
    let tx = conn.transaction()?;
    let rows: i64 = tx.query_row("SELECT COUNT(*) FROM input.chunks", [], |r| r.get(0))?;
    // `WHERE true` is how SQLite parses an upsert after `INSERT ... SELECT`. Only a held
    // position is skipped; any other constraint still fails the merge.
    let copied = tx.execute(
        "INSERT INTO main.chunks (x, z, status, record)
         SELECT i.x, i.z, i.status, i.record FROM input.chunks i WHERE true ORDER BY i.x, i.z
         ON CONFLICT (x, z) DO NOTHING",
        [],
    )? as i64;
    if copied < rows {
        // The rows just copied are the input's own bytes; a held one must be too.
        let conflict = tx
            .query_row(
                "SELECT i.x, i.z FROM input.chunks i JOIN main.chunks m ON m.x = i.x AND m.z = i.z
                 WHERE m.status != i.status OR m.record != i.record LIMIT 1",
                [],
                |r| Ok((r.get::<_, i32>(0)?, r.get::<_, i32>(1)?)),
            )
            .optional()?;
        if let Some((x, z)) = conflict {
            return Err(StoreError::Conflict { x, z });
        }
    }
    tx.commit()?;
    Ok(MergeReport {
        copied: copied as u64,
        identical: (rows - copied) as u64,
    })
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
