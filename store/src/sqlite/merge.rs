//! Merging a store into another: chunk rows, then edit rows, in one transaction, a row both
//! hold compared byte for byte, and an input with a table no store has refused.

use rusqlite::{Connection, OptionalExtension};

use super::{make_edits_table, StoreError};

/// The tables a store holds: everything a merge copies or checks.
const STORE_TABLES: [&str; 3] = ["meta", "chunks", "edits"];

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

/// Copy the rows of the attached `input` database missing from `main`, chunks then edits,
/// in one transaction, after checking that the rows both hold are identical and that the
/// input holds no table a merge would lose. Nothing changes on an error.
pub(super) fn merge_attached(conn: &mut Connection) -> Result<MergeReport, StoreError> {
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
