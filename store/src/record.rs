//! Chunk records: one chunk's outputs at the status it reached, with the world identity, in a
//! versioned, compressed, checksummed byte string.
//!
//! Layout (format version 1), every integer little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `SGCR` |
//! | 4 | 2 | format version (1) |
//! | 6 | 1 | status (0 `empty` … 9 `full`) |
//! | 7 | 1 | flags (0; reserved) |
//! | 8 | 8 | world seed (`i64`) |
//! | 16 | 4 | `min_y` (`i32`) |
//! | 20 | 4 | height (`u32`) |
//! | 24 | 4 | sea level (`i32`) |
//! | 28 | 8 | definition digest (`u64`, [`Definition::digest`](stratagen_core::world::Definition::digest)) |
//! | 36 | 4 | chunk x (`i32`) |
//! | 40 | 4 | chunk z (`i32`) |
//! | 44 | 4 | body length before compression (`u32`) |
//! | 48 | 4 | compressed length `n` (`u32`) |
//! | 52 | n | the body ([`stratagen_core::world::record`]), LZ4 block format |
//! | 52 + n | 8 | XXH64 (seed 0) of bytes `0 .. 52 + n` |
//!
//! Checks on reading, in order: long enough for a header and checksum, magic, format
//! version, lengths agree with the record's size, checksum, world identity, position,
//! status, decompression to exactly the stated length, then every value of the body.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkStatus, RestoreError, Restored, Scheduler};
use stratagen_core::world::edit::record::EditBodyError;
use stratagen_core::world::record::{decode_body, encode_body_into, BodyError};
use stratagen_core::world::{ChunkData, Definition, Dims, World, WorldGen, WorldSettings};

mod framing;

pub use framing::framed_len;
pub(crate) use framing::{frame, open_framed, pack, unpack};

/// The first four bytes of every record.
pub const MAGIC: [u8; 4] = *b"SGCR";
/// The format this library writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// Bytes before the compressed body.
pub const HEADER_LEN: usize = 52;
/// Bytes of the checksum after it.
pub const CHECKSUM_LEN: usize = 8;
/// Largest body a record may declare: every output of the tallest world (4096 blocks) fits
/// below it; a forged length cannot ask for more.
const MAX_BODY: u32 = 64 << 20;

/// What makes two worlds the same world: a record loads only into its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldIdentity {
    /// World seed.
    pub seed: i64,
    /// Lowest block y.
    pub min_y: i32,
    /// Height in blocks.
    pub height: u32,
    /// Sea level.
    pub sea_level: i32,
    /// Digest of the world definition ([`Definition::digest`](stratagen_core::world::Definition::digest)).
    pub definition: u64,
}

impl WorldIdentity {
    /// The identity of the world `generator` generates.
    pub fn of(generator: &WorldGen) -> Self {
        let def = generator.settings();
        WorldIdentity {
            seed: def.seed,
            min_y: def.min_y,
            height: def.height,
            sea_level: def.sea_level,
            definition: generator.definition_digest(),
        }
    }

    /// The settings this identity names (with [`WorldIdentity::definition`], the digest of
    /// the definition they go with).
    pub fn settings(&self) -> WorldSettings {
        WorldSettings {
            seed: self.seed,
            min_y: self.min_y,
            height: self.height,
            sea_level: self.sea_level,
        }
    }

    fn dims(&self) -> Dims {
        Dims {
            min_y: self.min_y,
            height: self.height,
            sea_level: self.sea_level,
        }
    }

    /// The identity's fields by name, in the order they are compared (the names are the
    /// store's metadata keys).
    pub fn fields(&self) -> [(&'static str, String); 5] {
        [
            ("seed", self.seed.to_string()),
            ("min_y", self.min_y.to_string()),
            ("height", self.height.to_string()),
            ("sea_level", self.sea_level.to_string()),
            ("definition", format!("{:016x}", self.definition)),
        ]
    }

    /// The first field where this identity (what a record or store holds) differs from
    /// `wanted` (the world asked for), if any: the one comparison of world identities that
    /// records, stores and hosts share.
    pub fn mismatch(&self, wanted: &WorldIdentity) -> Option<IdentityMismatch> {
        if self == wanted {
            return None;
        }
        self.fields()
            .into_iter()
            .zip(wanted.fields())
            .find(|((_, a), (_, b))| a != b)
            .map(|((field, stored), (_, wanted))| IdentityMismatch {
                field,
                stored,
                wanted,
            })
    }
}

/// Where two world identities differ: the first field, and both values as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityMismatch {
    /// The field (`seed`, `min_y`, `height`, `sea_level`, `definition`).
    pub field: &'static str,
    /// The value held (by the record or store).
    pub stored: String,
    /// The value of the world asked for.
    pub wanted: String,
}

/// The definition digest written before world definitions existed: the built-in world's
/// placeholder. Records and stores that carry it are read as the `default` definition's.
pub const LEGACY_BUILTIN_DEFINITION: u64 = 0;

/// The definition digest a record or store means by the digest it carries
/// ([`LEGACY_BUILTIN_DEFINITION`] is the `default` world's).
pub fn stored_definition(raw: u64) -> u64 {
    // Computed once; a race computes the same value twice. (Not a `OnceLock`: this module
    // builds with Rust 1.63 for the npm package.)
    static BUILTIN: AtomicU64 = AtomicU64::new(LEGACY_BUILTIN_DEFINITION);
    if raw != LEGACY_BUILTIN_DEFINITION {
        return raw;
    }
    match BUILTIN.load(Ordering::Relaxed) {
        LEGACY_BUILTIN_DEFINITION => {
            let d = Definition::builtin().digest();
            BUILTIN.store(d, Ordering::Relaxed);
            d
        }
        d => d,
    }
}

/// Why a record could not be written or was refused. Refusal changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Fewer bytes than the header and checksum, or than the lengths in the header say.
    Truncated {
        /// Bytes given.
        len: usize,
        /// Bytes the record needs.
        needed: usize,
    },
    /// More bytes than the lengths in the header say.
    TrailingBytes {
        /// Bytes beyond the record.
        extra: usize,
    },
    /// Not a chunk record (wrong magic) or a reserved field set.
    NotARecord(&'static str),
    /// A format version this library does not read.
    UnsupportedVersion {
        /// The record's version.
        found: u16,
    },
    /// The checksum does not match: the bytes were damaged.
    Checksum {
        /// The checksum in the record.
        stored: u64,
        /// The checksum of the bytes.
        computed: u64,
    },
    /// The record belongs to another world.
    ForeignWorld {
        /// The first identity field that differs.
        field: &'static str,
    },
    /// The position is outside `|x|, |z| < 2^21`.
    OutOfRange {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
    /// A status byte that names no status.
    BadStatus(u8),
    /// The body does not decompress to its stated length.
    Compression(&'static str),
    /// The body does not match its status, or holds a value no chunk can have.
    Body(BodyError),
    /// An edit record's body holds an edit no chunk can take.
    EditBody(EditBodyError),
    /// A store's row of one chunk holds another chunk, or the chunk below `full`.
    Misplaced {
        /// The position the row is stored under.
        row: ChunkPos,
        /// The position the record holds.
        held: ChunkPos,
        /// The status the record holds.
        status: ChunkStatus,
    },
    /// The chunk cannot take the record (already there at that status or higher, busy, failed).
    Restore(RestoreError),
    /// Nothing is generated at that position (save).
    NotResident {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
    /// The chunk keeps only its full output ([`Retention::FullChunks`]); a record holds
    /// every status (save).
    ///
    /// [`Retention::FullChunks`]: stratagen_core::engine::Retention::FullChunks
    Compact {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Truncated { len, needed } => {
                write!(f, "record truncated: {len} bytes, {needed} needed")
            }
            RecordError::TrailingBytes { extra } => {
                write!(f, "record has {extra} bytes after its checksum")
            }
            RecordError::NotARecord(why) => write!(f, "not a Stratagen chunk record: {why}"),
            RecordError::UnsupportedVersion { found } => write!(
                f,
                "record format version {found}, this library reads version {FORMAT_VERSION}"
            ),
            RecordError::Checksum { stored, computed } => write!(
                f,
                "record checksum mismatch (stored {stored:016x}, computed {computed:016x}): damaged"
            ),
            RecordError::ForeignWorld { field } => {
                write!(f, "record of another world: its {field} differs")
            }
            RecordError::OutOfRange { x, z } => {
                write!(f, "record position ({x}, {z}) outside |x|, |z| < 2^21")
            }
            RecordError::BadStatus(s) => write!(f, "record status {s} names no status"),
            RecordError::Compression(why) => write!(f, "record body does not decompress: {why}"),
            RecordError::Body(e) => write!(f, "{e}"),
            RecordError::EditBody(e) => write!(f, "{e}"),
            RecordError::Misplaced { row, held, status } => write!(
                f,
                "the row of chunk ({}, {}) holds chunk ({}, {}) at {}",
                row.x,
                row.z,
                held.x,
                held.z,
                status.name()
            ),
            RecordError::Restore(e) => write!(f, "record refused by the world: {e}"),
            RecordError::NotResident { x, z } => write!(f, "no chunk is resident at ({x}, {z})"),
            RecordError::Compact { x, z } => write!(
                f,
                "chunk ({x}, {z}) keeps only its full output (retention: full chunks): no record \
                 can be made of it"
            ),
        }
    }
}

// Written out rather than derived: this module builds for wasm32 with Rust 1.63 called
// directly (the npm package's edit records), where a derive macro's crates would each need
// building by hand.
impl std::error::Error for RecordError {}

/// A decoded record.
#[derive(Clone, Debug)]
pub struct Record {
    /// Chunk position.
    pub pos: ChunkPos,
    /// The status reached.
    pub status: ChunkStatus,
    /// The outputs of statuses `empty..=status`, index = status.
    pub outputs: Vec<Arc<ChunkData>>,
}

/// The header fields of a record, read without the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// World identity.
    pub identity: WorldIdentity,
    /// Chunk position.
    pub pos: ChunkPos,
    /// Status.
    pub status: ChunkStatus,
}

/// The record of `outputs` (index = status, `empty` up to the status reached) of the chunk
/// at `pos` in the world `identity`.
pub fn encode(
    identity: &WorldIdentity,
    pos: ChunkPos,
    outputs: &[Arc<ChunkData>],
) -> Result<Vec<u8>, RecordError> {
    Encoder::default().encode(identity, pos, outputs)
}

/// [`encode`] with buffers kept between records (a writer thread holds one): no allocation
/// and no zero-fill of ~300 KiB per record for the body and its compressed form.
#[derive(Default)]
pub struct Encoder {
    body: Vec<u8>,
    packed: Vec<u8>,
}

impl Encoder {
    /// The record of `outputs` of the chunk at `pos` (as [`encode`]).
    pub fn encode(
        &mut self,
        identity: &WorldIdentity,
        pos: ChunkPos,
        outputs: &[Arc<ChunkData>],
    ) -> Result<Vec<u8>, RecordError> {
        let status = outputs
            .len()
            .checked_sub(1)
            .and_then(ChunkStatus::from_index)
            .ok_or(RecordError::NotResident { x: pos.x, z: pos.z })?;
        encode_body_into(&identity.dims(), outputs, &mut self.body).map_err(RecordError::Body)?;
        let max = lz4_flex::block::get_maximum_output_size(self.body.len());
        if self.packed.len() < max {
            self.packed.resize(max, 0);
        }
        let n = lz4_flex::block::compress_into(&self.body, &mut self.packed)
            .map_err(|_| RecordError::Compression("the compressed body does not fit"))?;
        Ok(frame(
            &MAGIC,
            status as u8,
            identity,
            pos,
            self.body.len(),
            &self.packed[..n],
        ))
    }
}

/// Check everything of a chunk record but the body and return the header and the compressed
/// body.
fn open(bytes: &[u8]) -> Result<(Header, u32, &[u8]), RecordError> {
    let f = open_framed(bytes, &MAGIC)?;
    let status = ChunkStatus::from_index(f.kind as usize).ok_or(RecordError::BadStatus(f.kind))?;
    let header = Header {
        identity: f.identity,
        pos: f.pos,
        status,
    };
    Ok((header, f.body_len, f.packed))
}

/// Refuse a record of another world or outside the position range.
pub(crate) fn check_identity(
    found: &WorldIdentity,
    pos: ChunkPos,
    world: &WorldIdentity,
) -> Result<(), RecordError> {
    if let Some(m) = found.mismatch(world) {
        return Err(RecordError::ForeignWorld { field: m.field });
    }
    if !pos.is_valid() {
        return Err(RecordError::OutOfRange { x: pos.x, z: pos.z });
    }
    Ok(())
}

/// Decode a record of the world `generator` generates, with every check.
pub fn decode(generator: &WorldGen, bytes: &[u8]) -> Result<Record, RecordError> {
    let identity = WorldIdentity::of(generator);
    let (h, body_len, packed) = open(bytes)?;
    check_identity(&h.identity, h.pos, &identity)?;
    let body = unpack(packed, body_len, MAX_BODY)?;
    let outputs = decode_body(
        &identity.dims(),
        generator.definition(),
        h.pos,
        h.status,
        &body,
    )
    .map_err(RecordError::Body)?;
    Ok(Record {
        pos: h.pos,
        status: h.status,
        outputs,
    })
}

/// The finished chunk of the record stored under `pos`: decoded with every check, and
/// refused ([`RecordError::Misplaced`]) unless it holds that chunk at `full`. Every host reads
/// a store's rows through this.
pub fn decode_full(
    generator: &WorldGen,
    pos: ChunkPos,
    bytes: &[u8],
) -> Result<Arc<ChunkData>, RecordError> {
    let mut r = decode(generator, bytes)?;
    if r.pos != pos || r.status != ChunkStatus::Full {
        return Err(RecordError::Misplaced {
            row: pos,
            held: r.pos,
            status: r.status,
        });
    }
    // A full record holds every status's output, the last one the finished chunk.
    r.outputs.pop().ok_or(RecordError::Misplaced {
        row: pos,
        held: r.pos,
        status: r.status,
    })
}

/// The record of the chunk at `pos` at the status it has reached; refused for a compact
/// chunk ([`RecordError::Compact`]). Owner thread.
pub fn save_chunk(sched: &Scheduler<World>, pos: ChunkPos) -> Result<Vec<u8>, RecordError> {
    if sched.is_compact(pos) {
        return Err(RecordError::Compact { x: pos.x, z: pos.z });
    }
    let identity = WorldIdentity::of(sched.pipeline().generator());
    encode(&identity, pos, &sched.outputs(pos))
}

/// Decode `bytes` and give the chunk to the scheduler ([`Scheduler::restore_outputs`]): generation
/// continues from the stored status. Refused records change nothing. Owner thread.
pub fn load_chunk(
    sched: &mut Scheduler<World>,
    bytes: &[u8],
) -> Result<(Header, Restored), RecordError> {
    let generator = sched.pipeline().generator();
    let identity = WorldIdentity::of(generator);
    let r = decode(generator, bytes)?;
    let header = Header {
        identity,
        pos: r.pos,
        status: r.status,
    };
    let loaded = sched
        .restore_outputs(r.pos, r.outputs)
        .map_err(RecordError::Restore)?;
    Ok((header, loaded))
}
