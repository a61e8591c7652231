//! The first look at a store path, which changes no byte of any file: nothing there, a
//! Stratagen store, or someone else's database (refused as it is).

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::{uri, StoreError};

/// Reads of a file's schema before it counts as not a database (see [`probe`]).
const PROBE_ATTEMPTS: u32 = 3;

/// What is at a store path, told without changing a byte of any file.
pub(super) enum Found {
    /// No file, or an empty one: a store may be made there.
    Nothing,
    /// A Stratagen store.
    Store,
}

/// Look at `path` (see the module docs): [`Found::Nothing`], [`Found::Store`], or
/// [`StoreError::NotAStore`] for a database of something else.
pub(super) fn probe(path: &Path) -> Result<Found, StoreError> {
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

/// Refuse a path that holds no store: missing, empty, or someone else's database.
pub(super) fn require_store(path: &Path) -> Result<(), StoreError> {
    match probe(path)? {
        Found::Store => Ok(()),
        Found::Nothing => Err(StoreError::Missing(path.display().to_string())),
    }
}
