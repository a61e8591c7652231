//! The body of an edit record: one chunk's edits as little-endian bytes ([`encode_body`]) and
//! back ([`decode_body`]), checked so that a body that decodes holds only positions inside the
//! chunk and blocks of the world's palette.
//!
//! Layout: the entry count `u32`, then per entry the block index `u32`
//! (`((y - min_y) * 16 + z) * 16 + x`) and the block `u16`, in strictly ascending index.
//! Framing (magic, version, world identity, position, compression, checksum) is the store
//! crate's, shared with chunk records.

use alloc::vec::Vec;
use core::fmt;

use crate::util::bytes::{Cursor, LeReader};
use crate::world::block::BlockId;
use crate::world::dims::Dims;

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 6;

/// Why an edit record body was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditBodyError {
    /// The body ends before its declared entries, or goes on after them.
    Length {
        /// Bytes given.
        len: usize,
        /// Bytes the declared count needs.
        needed: usize,
    },
    /// An index beyond the chunk's blocks.
    IndexOutOfRange {
        /// Entry number.
        entry: usize,
        /// The index.
        index: u32,
    },
    /// Indices not strictly ascending.
    Unsorted {
        /// Entry number.
        entry: usize,
    },
    /// A block id outside the world's palette.
    UnknownBlock {
        /// Entry number.
        entry: usize,
        /// The id.
        block: BlockId,
    },
}

impl fmt::Display for EditBodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditBodyError::Length { len, needed } => {
                write!(
                    f,
                    "edit record body is {len} bytes, its count needs {needed}"
                )
            }
            EditBodyError::IndexOutOfRange { entry, index } => {
                write!(f, "edit {entry}: block index {index} is outside the chunk")
            }
            EditBodyError::Unsorted { entry } => {
                write!(f, "edit {entry}: block indices are not strictly ascending")
            }
            EditBodyError::UnknownBlock { entry, block } => {
                write!(
                    f,
                    "edit {entry}: block id {block} is not in the world's palette"
                )
            }
        }
    }
}

/// The body of `entries` (sorted by index, one per index, as [`super::Edits::chunk`] gives
/// them), appended to `out`.
pub fn encode_body(entries: &[(u32, BlockId)], out: &mut Vec<u8>) {
    out.reserve(4 + entries.len() * ENTRY_BYTES);
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for &(i, b) in entries {
        out.extend_from_slice(&i.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
    }
}

struct Body<'a>(Cursor<'a>);

impl<'a> LeReader<'a> for Body<'a> {
    type Error = ();
    fn take(&mut self, n: usize) -> Result<&'a [u8], ()> {
        self.0.take(n).ok_or(())
    }
}

/// The entries of an edit record body for a world of `dims` whose palette has `blocks`
/// blocks, with every check.
pub fn decode_body(
    dims: &Dims,
    blocks: usize,
    bytes: &[u8],
) -> Result<Vec<(u32, BlockId)>, EditBodyError> {
    let mut r = Body(Cursor::new(bytes));
    let short = EditBodyError::Length {
        len: bytes.len(),
        needed: 4,
    };
    let count = r.u32().map_err(|_| short)? as usize;
    let needed = count
        .checked_mul(ENTRY_BYTES)
        .and_then(|n| n.checked_add(4))
        .unwrap_or(usize::MAX);
    if needed != bytes.len() {
        return Err(EditBodyError::Length {
            len: bytes.len(),
            needed,
        });
    }
    let volume = dims.volume();
    let mut out = Vec::with_capacity(count);
    for entry in 0..count {
        let (index, block) = match (r.u32(), r.u16()) {
            (Ok(i), Ok(b)) => (i, b),
            _ => return Err(short),
        };
        if index as usize >= volume {
            return Err(EditBodyError::IndexOutOfRange { entry, index });
        }
        if out.last().map_or(false, |&(prev, _)| prev >= index) {
            return Err(EditBodyError::Unsorted { entry });
        }
        if usize::from(block) >= blocks {
            return Err(EditBodyError::UnknownBlock { entry, block });
        }
        out.push((index, block));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const DIMS: Dims = Dims {
        min_y: 0,
        height: 16,
        sea_level: 5,
    };

    #[test]
    fn round_trip_and_every_refusal() {
        let entries = vec![(0u32, 3u16), (17, 0), (4095, 9)];
        let mut body = Vec::new();
        encode_body(&entries, &mut body);
        assert_eq!(body.len(), 4 + 3 * ENTRY_BYTES);
        assert_eq!(decode_body(&DIMS, 10, &body), Ok(entries.clone()));
        // The layout, byte for byte: count, then index and block little-endian.
        assert_eq!(&body[..10], &[3, 0, 0, 0, 0, 0, 0, 0, 3, 0]);

        assert!(matches!(
            decode_body(&DIMS, 10, &body[..body.len() - 1]),
            Err(EditBodyError::Length { .. })
        ));
        assert!(matches!(
            decode_body(&DIMS, 10, &[1, 0]),
            Err(EditBodyError::Length { .. })
        ));
        let mut huge = body.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode_body(&DIMS, 10, &huge),
            Err(EditBodyError::Length { .. })
        ));
        assert_eq!(
            decode_body(&DIMS, 9, &body),
            Err(EditBodyError::UnknownBlock { entry: 2, block: 9 })
        );
        let mut far = Vec::new();
        encode_body(&[(4096, 1)], &mut far);
        assert_eq!(
            decode_body(&DIMS, 10, &far),
            Err(EditBodyError::IndexOutOfRange {
                entry: 0,
                index: 4096
            })
        );
        let mut twice = Vec::new();
        encode_body(&[(5, 1), (5, 2)], &mut twice);
        assert_eq!(
            decode_body(&DIMS, 10, &twice),
            Err(EditBodyError::Unsorted { entry: 1 })
        );
        let mut none = Vec::new();
        encode_body(&[], &mut none);
        assert_eq!(decode_body(&DIMS, 10, &none), Ok(Vec::new()));
    }
}
