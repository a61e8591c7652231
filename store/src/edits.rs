//! Edit records: one chunk's edits with the world identity, in the framing of chunk records
//! (magic `SGER`, the same format version, header, LZ4 body and XXH64). The kind byte (a chunk
//! record's status) is 0; the body is [`stratagen_core::world::edit::record`]'s.
//!
//! Checks on reading, in order: as for chunk records up to the checksum, the kind byte, the
//! world identity and position, decompression to exactly the stated length, then every entry
//! of the body. A refused record changes nothing.

use stratagen_core::engine::ChunkPos;
use stratagen_core::world::block::BlockId;
use stratagen_core::world::edit::record::{decode_body, encode_body, ENTRY_BYTES};
use stratagen_core::world::edit::Edits;
use stratagen_core::world::WorldGen;

use crate::record::{check_identity, frame, open_framed, pack, unpack, RecordError, WorldIdentity};

/// The first four bytes of every edit record.
pub const EDIT_MAGIC: [u8; 4] = *b"SGER";

/// A decoded edit record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditRecord {
    /// The chunk.
    pub pos: ChunkPos,
    /// Its edits: (block index, block), strictly ascending index.
    pub entries: Vec<(u32, BlockId)>,
}

/// The edit record of `entries` (sorted by index, one per index) of chunk `pos` in the world
/// `identity`.
pub fn encode_edits(
    identity: &WorldIdentity,
    pos: ChunkPos,
    entries: &[(u32, BlockId)],
) -> Vec<u8> {
    let mut body = Vec::new();
    encode_body(entries, &mut body);
    frame(&EDIT_MAGIC, 0, identity, pos, body.len(), &pack(&body))
}

/// Decode an edit record of the world `generator` generates, with every check.
pub fn decode_edits(generator: &WorldGen, bytes: &[u8]) -> Result<EditRecord, RecordError> {
    let identity = WorldIdentity::of(generator);
    let f = open_framed(bytes, &EDIT_MAGIC)?;
    if f.kind != 0 {
        return Err(RecordError::NotARecord("edit record kind byte set"));
    }
    check_identity(&f.identity, f.pos, &identity)?;
    let dims = generator.dims();
    let max = dims.volume().saturating_mul(ENTRY_BYTES).saturating_add(4);
    let body = unpack(f.packed, f.body_len, u32::try_from(max).unwrap_or(u32::MAX))?;
    let entries = decode_body(&dims, generator.definition().blocks.len(), &body)
        .map_err(RecordError::EditBody)?;
    Ok(EditRecord {
        pos: f.pos,
        entries,
    })
}

/// The edit record of chunk `pos` (an empty record if it has no edits). Owner thread.
pub fn save_edits(generator: &WorldGen, edits: &mut Edits, pos: ChunkPos) -> Vec<u8> {
    encode_edits(&WorldIdentity::of(generator), pos, edits.chunk(pos))
}

/// Decode `bytes` and apply its edits, in index order, after those already made (they win
/// where both edit a position). A refused record changes nothing. Owner thread.
pub fn load_edits(
    generator: &WorldGen,
    edits: &mut Edits,
    bytes: &[u8],
) -> Result<ChunkPos, RecordError> {
    apply_edits(edits, &decode_edits(generator, bytes)?)
}

/// Apply a decoded edit record's edits, in index order, after those already made: all of
/// them, or (an edit no chunk can take) none. Split from [`load_edits`] so a host can decode
/// outside the lock that guards its edits.
pub fn apply_edits(edits: &mut Edits, r: &EditRecord) -> Result<ChunkPos, RecordError> {
    edits.import(r.pos, &r.entries).map_err(|(_, e)| {
        RecordError::NotARecord(match e {
            stratagen_core::world::edit::EditError::UnknownBlock(_) => "edit of an unknown block",
            _ => "edit outside the chunk",
        })
    })?;
    Ok(r.pos)
}
