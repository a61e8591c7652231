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

use crate::record::{decode_full, stored_definition, RecordError, WorldIdentity, FORMAT_VERSION};

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
    /// The file system refused to tell what is at the path.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is a database, but not a Stratagen store (it has no `meta` table): it is
    /// left as it is.
    #[error("{0} is not a Stratagen store (no meta table); it was left untouched")]
    NotAStore(String),
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
        /// The field that differs (`seed`, `min_y`, `height`, `sea_level`, `definition`).
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
    /// A stored row was refused: damaged, of another world, or not the chunk it is stored
    /// under.
    #[error("chunk ({x}, {z}): {source}")]
    Record {
        /// Chunk x of the row.
        x: i32,
        /// Chunk z of the row.
        z: i32,
        /// Why it was refused.
        #[source]
        source: RecordError,
    },
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
    /// Merging: both stores hold edits of the chunk, and they differ. Nothing of that input
    /// is merged: which edits win is the player's choice, not the merge's.
    #[error("chunk ({x}, {z}) has different edits in both stores")]
    EditConflict {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
    /// Merging: the input holds a table this library does not know, which a merge would
    /// drop; nothing of that input is merged.
    #[error("the store holds a table {0:?} that merging would lose")]
    ForeignTable(String),
}

impl From<crate::record::IdentityMismatch> for StoreError {
    fn from(m: crate::record::IdentityMismatch) -> StoreError {
        StoreError::ForeignWorld {
            field: m.field,
            stored: m.stored,
            wanted: m.wanted,
        }
    }
}

/// What merging one store into another did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Chunk rows copied.
    pub copied: u64,
    /// Chunk rows the output held already, byte for byte.
    pub identical: u64,
    /// Edit rows (one per edited chunk) copied.
    pub edits_copied: u64,
    /// Edit rows the output held already, byte for byte.
    pub edits_identical: u64,
}

/// An open chunk store.
pub struct ChunkStore {
    conn: Connection,
    identity: WorldIdentity,
}

/// Reads of a file's schema before it counts as not a database (see [`probe`]).
const PROBE_ATTEMPTS: u32 = 3;

/// The tables a store holds: everything a merge copies or checks.
const STORE_TABLES: [&str; 3] = ["meta", "chunks", "edits"];

/// What is at a store path, told without changing a byte of any file.
enum Found {
    /// No file, or an empty one: a store may be made there.
    Nothing,
    /// A Stratagen store.
    Store,
}

/// Look at `path` (see the module docs): [`Found::Nothing`], [`Found::Store`], or
/// [`StoreError::NotAStore`] for a database of something else.
fn probe(path: &Path) -> Result<Found, StoreError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(e.into()),
        Ok(m) if m.len() == 0 && !side_file(path, "-wal") => return Ok(Found::Nothing),
        Ok(_) => {}
    }
    // An immutable read takes no lock, so a writer checkpointing meanwhile can show it a page
    // mid-write; such a read fails, and is read again.
    let mut attempt = 0;
    let (meta, tables) = loop {
        let read = Connection::open_with_flags(
            uri(path, "mode=ro&immutable=1"),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
        )
        .map_err(StoreError::from)
        .and_then(|c| schema(&c));
        match read {
            Err(StoreError::Sqlite(_)) if attempt + 1 < PROBE_ATTEMPTS => attempt += 1,
            other => break other?,
        }
    };
    if meta {
        return Ok(Found::Store);
    }
    // A store killed before its first checkpoint by an older library keeps its schema in
    // the write-ahead log only. A file whose main database holds no table at all, beside a
    // log, is looked at once more through the log, on a copy: even a read-only connection
    // writes its read marks into the original's shared-memory file.
    if tables == 0 && side_file(path, "-wal") && schema_through_log(path)? {
        return Ok(Found::Store);
    }
    Err(StoreError::NotAStore(path.display().to_string()))
}

/// Whether the database at `path` read with its write-ahead log holds the `meta` table,
/// read from copies of the two files in a directory of its own (removed after). Only for a
/// main file without tables, which is a page or a few.
fn schema_through_log(path: &Path) -> Result<bool, StoreError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("stratagen-probe-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let copy = dir.join("store.sqlite");
    let found = (|| {
        std::fs::copy(path, &copy)?;
        std::fs::copy(
            format!("{}-wal", path.display()),
            format!("{}-wal", copy.display()),
        )?;
        let conn = Connection::open(&copy)?;
        let found = schema(&conn)?.0;
        drop(conn);
        Ok::<bool, StoreError>(found)
    })();
    // The copies are this function's own; a failure to remove them loses nothing.
    let _ = std::fs::remove_dir_all(&dir);
    found
}

/// Whether SQLite's side file `path` + `ext` exists and is not empty.
fn side_file(path: &Path, ext: &str) -> bool {
    std::fs::metadata(format!("{}{ext}", path.display())).is_ok_and(|m| m.len() > 0)
}

/// Whether the database holds the `meta` table, and how many tables it holds.
fn schema(conn: &Connection) -> Result<(bool, i64), StoreError> {
    let tables: i64 = conn.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
        [],
        |r| r.get(0),
    )?;
    let meta: i64 = conn.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
        [],
        |r| r.get(0),
    )?;
    Ok((meta > 0, tables))
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

/// Refuse a path that holds no store: missing, empty, or someone else's database.
fn require_store(path: &Path) -> Result<(), StoreError> {
    match probe(path)? {
        Found::Store => Ok(()),
        Found::Nothing => Err(StoreError::Missing(path.display().to_string())),
    }
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

/// Copy the rows of the attached `input` database missing from `main`, chunks then edits,
/// in one transaction, after checking that the rows both hold are identical and that the
/// input holds no table a merge would lose. Nothing changes on an error.
fn merge_attached(conn: &mut Connection) -> Result<MergeReport, StoreError> {
    let tx = conn.transaction()?;
    let unknown: Option<String> = tx
        .query_row(
            &format!(
                "SELECT name FROM input.sqlite_master WHERE type = 'table'
                 AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN ({}) LIMIT 1",
                STORE_TABLES.map(|t| format!("'{t}'")).join(", ")
            ),
            [],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(name) = unknown {
        return Err(StoreError::ForeignTable(name));
    }
    let (copied, identical) = merge_table(&tx, "chunks", "status, record", |x, z| {
        StoreError::Conflict { x, z }
    })?;
    let input_edits: i64 = tx.query_row(
        "SELECT COUNT(*) FROM input.sqlite_master WHERE type = 'table' AND name = 'edits'",
        [],
        |r| r.get(0),
    )?;
    let (mut edits_copied, mut edits_identical) = (0, 0);
    if input_edits > 0 {
        make_edits_table(&tx, "main")?;
        (edits_copied, edits_identical) = merge_table(&tx, "edits", "record", |x, z| {
            StoreError::EditConflict { x, z }
        })?;
    }
    tx.commit()?;
    Ok(MergeReport {
        copied,
        identical,
        edits_copied,
        edits_identical,
    })
}

/// Copy the rows of `input.table` (keyed by x, z; the other columns `columns`) missing from
/// `main.table`; a row both hold must be equal in every column, or `conflict(x, z)` is the
/// error. Rows copied and rows held already.
///
/// The rows are copied first and compared after, and only when some position was held
/// already: finding a row of these tables by position reads its whole record (a `WITHOUT
/// ROWID` table keeps the record in the key, and a 7 KiB record overflows its page), so a
/// check before the copy, needed only for reruns and overlapping inputs, cost every merge
/// half its time. A conflict found after the copy rolls the copy back.
fn merge_table(
    tx: &Connection,
    table: &str,
    columns: &str,
    conflict: impl Fn(i32, i32) -> StoreError,
) -> Result<(u64, u64), StoreError> {
    let rows: i64 = tx.query_row(&format!("SELECT COUNT(*) FROM input.{table}"), [], |r| {
        r.get(0)
    })?;
    let selected: Vec<String> = columns.split(", ").map(|c| format!("i.{c}")).collect();
    // `WHERE true` is how SQLite parses an upsert after `INSERT ... SELECT`. Only a held
    // position is skipped; any other constraint still fails the merge.
    let copied = tx.execute(
        &format!(
            "INSERT INTO main.{table} (x, z, {columns})
             SELECT i.x, i.z, {} FROM input.{table} i WHERE true ORDER BY i.x, i.z
             ON CONFLICT (x, z) DO NOTHING",
            selected.join(", ")
        ),
        [],
    )? as i64;
    if copied < rows {
        // The rows just copied are the input's own bytes; a held one must be too.
        let differs: Vec<String> = columns
            .split(", ")
            .map(|c| format!("m.{c} != i.{c}"))
            .collect();
        let found = tx
            .query_row(
                &format!(
                    "SELECT i.x, i.z FROM input.{table} i JOIN main.{table} m
                     ON m.x = i.x AND m.z = i.z WHERE {} LIMIT 1",
                    differs.join(" OR ")
                ),
                [],
                |r| Ok((r.get::<_, i32>(0)?, r.get::<_, i32>(1)?)),
            )
            .optional()?;
        if let Some((x, z)) = found {
            return Err(conflict(x, z));
        }
    }
    Ok((copied as u64, (rows - copied) as u64))
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
