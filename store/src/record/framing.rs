//! The framing every record kind shares: magic, format version, kind byte, world identity,
//! position, lengths, the LZ4-compressed body and the XXH64 checksum (the layout in
//! [`super`]). Chunk records and edit records differ only in their magic, kind byte and body.

use stratagen_core::engine::ChunkPos;
use stratagen_core::util::digest::Digest;

use super::{
    stored_definition, RecordError, WorldIdentity, CHECKSUM_LEN, FORMAT_VERSION, HEADER_LEN,
};

fn checksum(bytes: &[u8]) -> u64 {
    let mut d = Digest::new();
    d.write_bytes(bytes);
    d.finish()
}

/// A framed record: the header (`magic`, the format version, `kind`, the identity, the
/// position, the body's length `body_len` and the compressed length), `packed` (the
/// compressed body) and the checksum. `kind` is the status of a chunk record, 0 for an edit
/// record.
pub(crate) fn frame(
    magic: &[u8; 4],
    kind: u8,
    identity: &WorldIdentity,
    pos: ChunkPos,
    body_len: usize,
    packed: &[u8],
) -> Vec<u8> {
    let mut r = Vec::with_capacity(HEADER_LEN + packed.len() + CHECKSUM_LEN);
    r.extend_from_slice(magic);
    r.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    r.push(kind);
    r.push(0);
    r.extend_from_slice(&identity.seed.to_le_bytes());
    r.extend_from_slice(&identity.min_y.to_le_bytes());
    r.extend_from_slice(&identity.height.to_le_bytes());
    r.extend_from_slice(&identity.sea_level.to_le_bytes());
    r.extend_from_slice(&identity.definition.to_le_bytes());
    r.extend_from_slice(&pos.x.to_le_bytes());
    r.extend_from_slice(&pos.z.to_le_bytes());
    r.extend_from_slice(&(body_len as u32).to_le_bytes());
    r.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    r.extend_from_slice(packed);
    let sum = checksum(&r);
    r.extend_from_slice(&sum.to_le_bytes());
    r
}

fn le<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[at..at + N]);
    a
}

/// The fields of a framed record's header.
pub(crate) struct Framed<'a> {
    /// World identity.
    pub identity: WorldIdentity,
    /// Chunk position.
    pub pos: ChunkPos,
    /// The kind byte (a chunk record's status).
    pub kind: u8,
    /// The body's stated length before compression.
    pub body_len: u32,
    /// The compressed body.
    pub packed: &'a [u8],
}

/// The length in bytes of the record that `bytes` starts with, as its header states it: how
/// records stored one after another are told apart. Only the header's presence is checked;
/// reading the record checks the rest.
pub fn framed_len(bytes: &[u8]) -> Result<usize, RecordError> {
    if bytes.len() < HEADER_LEN {
        return Err(RecordError::Truncated {
            len: bytes.len(),
            needed: HEADER_LEN + CHECKSUM_LEN,
        });
    }
    let packed_len = u32::from_le_bytes(le(bytes, 48)) as usize;
    Ok((HEADER_LEN + CHECKSUM_LEN).saturating_add(packed_len))
}

/// Check everything of a framed record with `magic` but the kind and the body.
pub(crate) fn open_framed<'a>(bytes: &'a [u8], magic: &[u8; 4]) -> Result<Framed<'a>, RecordError> {
    let min = HEADER_LEN + CHECKSUM_LEN;
    if bytes.len() < min {
        return Err(RecordError::Truncated {
            len: bytes.len(),
            needed: min,
        });
    }
    if bytes[0..4] != *magic {
        return Err(RecordError::NotARecord("wrong magic"));
    }
    let version = u16::from_le_bytes(le(bytes, 4));
    if version != FORMAT_VERSION {
        return Err(RecordError::UnsupportedVersion { found: version });
    }
    let packed_len = u32::from_le_bytes(le(bytes, 48)) as usize;
    let needed = min.saturating_add(packed_len);
    if bytes.len() < needed {
        return Err(RecordError::Truncated {
            len: bytes.len(),
            needed,
        });
    }
    if bytes.len() > needed {
        return Err(RecordError::TrailingBytes {
            extra: bytes.len() - needed,
        });
    }
    let end = HEADER_LEN + packed_len;
    let stored = u64::from_le_bytes(le(bytes, end));
    let computed = checksum(&bytes[..end]);
    if stored != computed {
        return Err(RecordError::Checksum { stored, computed });
    }
    if bytes[7] != 0 {
        return Err(RecordError::NotARecord("reserved flags set"));
    }
    let identity = WorldIdentity {
        seed: i64::from_le_bytes(le(bytes, 8)),
        min_y: i32::from_le_bytes(le(bytes, 16)),
        height: u32::from_le_bytes(le(bytes, 20)),
        sea_level: i32::from_le_bytes(le(bytes, 24)),
        definition: stored_definition(u64::from_le_bytes(le(bytes, 28))),
    };
    let pos = ChunkPos::new(
        i32::from_le_bytes(le(bytes, 36)),
        i32::from_le_bytes(le(bytes, 40)),
    );
    Ok(Framed {
        identity,
        pos,
        kind: bytes[6],
        body_len: u32::from_le_bytes(le(bytes, 44)),
        packed: &bytes[HEADER_LEN..end],
    })
}

/// Decompress a framed body of `body_len` bytes, refusing lengths beyond `max`.
pub(crate) fn unpack(packed: &[u8], body_len: u32, max: u32) -> Result<Vec<u8>, RecordError> {
    if body_len > max {
        return Err(RecordError::Compression("stated length beyond any chunk's"));
    }
    let mut body = vec![0u8; body_len as usize];
    let n = lz4_flex::block::decompress_into(packed, &mut body)
        .map_err(|_| RecordError::Compression("malformed LZ4 block"))?;
    if n != body.len() {
        return Err(RecordError::Compression("shorter than its stated length"));
    }
    Ok(body)
}

/// Compress `body` (LZ4 block format).
pub(crate) fn pack(body: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress(body)
}
