//! What the fuzz targets share: the small world records are decoded against, and the framing
//! that turns a fuzzer-chosen body into a record with a valid checksum (a coverage-guided
//! fuzzer cannot find a 64-bit checksum by itself, so without it only the framing checks
//! would ever run).

use std::sync::{Arc, OnceLock};

use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::{World, WorldGen, WorldSettings};
use stratagen_store::record::{CHECKSUM_LEN, FORMAT_VERSION, HEADER_LEN, MAGIC};
use stratagen_store::WorldIdentity;

/// The settings of the world records are decoded against: the built-in definition, 32 blocks
/// high, so a full chunk's body is small enough to mutate quickly.
pub fn small_settings() -> WorldSettings {
    WorldSettings {
        seed: 7,
        min_y: 0,
        height: 32,
        sea_level: 20,
    }
}

/// The generator of [`small_settings`], built once per process.
pub fn small_world() -> &'static Arc<WorldGen> {
    static WORLD: OnceLock<Arc<WorldGen>> = OnceLock::new();
    WORLD.get_or_init(|| Arc::new(WorldGen::new(small_settings()).expect("a valid world")))
}

/// The pipeline of [`small_world`], built once per process (a scheduler over it is cheap).
pub fn small_pipeline() -> &'static Arc<World> {
    static PIPELINE: OnceLock<Arc<World>> = OnceLock::new();
    PIPELINE.get_or_init(|| Arc::new(World::new((**small_world()).clone())))
}

/// A record of `generator`'s world for the chunk at `pos` at `status` whose body is `body`
/// (uncompressed): LZ4-compressed as the encoder does, framed with the right lengths and a
/// valid checksum. Written from the format's description rather than by calling the encoder,
/// so the `record` target also checks the encoder's framing: a body that decodes must
/// re-encode to exactly these bytes.
pub fn frame(generator: &WorldGen, pos: ChunkPos, status: u8, body: &[u8]) -> Vec<u8> {
    frame_with(&MAGIC, generator, pos, status, body)
}

/// [`frame`] with another magic: `SGER` and kind 0 frame an edit record.
pub fn frame_with(
    magic: &[u8; 4],
    generator: &WorldGen,
    pos: ChunkPos,
    status: u8,
    body: &[u8],
) -> Vec<u8> {
    let identity = WorldIdentity::of(generator);
    let packed = lz4_flex::block::compress(body);
    let mut r = Vec::with_capacity(HEADER_LEN + packed.len() + CHECKSUM_LEN);
    r.extend_from_slice(magic);
    r.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    r.push(status);
    r.push(0);
    r.extend_from_slice(&identity.seed.to_le_bytes());
    r.extend_from_slice(&identity.min_y.to_le_bytes());
    r.extend_from_slice(&identity.height.to_le_bytes());
    r.extend_from_slice(&identity.sea_level.to_le_bytes());
    r.extend_from_slice(&identity.definition.to_le_bytes());
    r.extend_from_slice(&pos.x.to_le_bytes());
    r.extend_from_slice(&pos.z.to_le_bytes());
    r.extend_from_slice(&(body.len() as u32).to_le_bytes());
    r.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    r.extend_from_slice(&packed);
    let mut d = Digest::new();
    d.write_bytes(&r);
    r.extend_from_slice(&d.finish().to_le_bytes());
    r
}

/// The uncompressed body of a well-formed record (for seed corpora).
pub fn body_of(record: &[u8]) -> Option<Vec<u8>> {
    let body_len = u32::from_le_bytes(record.get(44..48)?.try_into().ok()?) as usize;
    let packed = record.get(HEADER_LEN..record.len().checked_sub(CHECKSUM_LEN)?)?;
    lz4_flex::block::decompress(packed, body_len).ok()
}

/// Every status, in order.
pub fn statuses() -> impl Iterator<Item = ChunkStatus> {
    (0..).map_while(ChunkStatus::from_index)
}
