//! Reading a record body back: every value checked against the world (ids in range,
//! indices inside the chunk, lists ascending and bounded) before it is used.

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::bytes::{Cursor, LeReader};
use crate::world::block::BlockId;
use crate::world::dims::Dims;
use crate::world::feature::BlockEntity;
use crate::world::structure::{
    Assembled, BlockBox, Piece, PieceKind, StructureKind, StructureRef, StructureStart,
};

use super::{BodyError, COORD_LIMIT, MAX_LIST};

/// Reads a record body back, refusing any value a later status body could trip on.
pub(super) struct Reader<'a> {
    pub(super) bytes: Cursor<'a>,
    pub(super) section: &'static str,
    /// The world's block, biome and creature counts (ids at or above are refused).
    pub(super) blocks: usize,
    pub(super) biomes: usize,
    pub(super) creatures: usize,
}

impl<'a> LeReader<'a> for Reader<'a> {
    type Error = BodyError;
    fn take(&mut self, n: usize) -> Result<&'a [u8], BodyError> {
        let section = self.section;
        self.bytes.take(n).ok_or(BodyError {
            section,
            problem: "ends early (the status does not match the data)",
        })
    }
}

impl<'a> Reader<'a> {
    pub(super) fn bad(&self, problem: &'static str) -> BodyError {
        BodyError {
            section: self.section,
            problem,
        }
    }
    pub(super) fn len(&mut self) -> Result<usize, BodyError> {
        let n = self.u32()?;
        if n > MAX_LIST {
            return Err(self.bad("list length beyond any chunk's"));
        }
        Ok(n as usize)
    }
    pub(super) fn block(&mut self) -> Result<BlockId, BodyError> {
        let b = self.u16()?;
        if b as usize >= self.blocks {
            return Err(self.bad("unknown block id"));
        }
        Ok(b)
    }
    pub(super) fn blocks(&mut self, volume: usize) -> Result<Vec<BlockId>, BodyError> {
        let raw = self.take(volume * 2)?;
        let blocks: Vec<BlockId> = raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let known = self.blocks;
        if blocks.iter().any(|&b| b as usize >= known) {
            return Err(self.bad("unknown block id"));
        }
        Ok(blocks)
    }
    pub(super) fn index(&mut self, volume: usize) -> Result<u32, BodyError> {
        let i = self.u32()?;
        if i as usize >= volume {
            return Err(self.bad("block index outside the chunk"));
        }
        Ok(i)
    }
    /// (index, block) pairs; `ascending` requires strictly increasing indices (a set of
    /// changes rather than a write list applied in order).
    pub(super) fn changes(
        &mut self,
        volume: usize,
        ascending: bool,
    ) -> Result<Vec<(u32, BlockId)>, BodyError> {
        let n = self.len()?;
        let mut v: Vec<(u32, BlockId)> = Vec::with_capacity(core::cmp::min(n, 1 << 16));
        for _ in 0..n {
            let i = self.index(volume)?;
            if ascending && v.last().map_or(false, |&(last, _)| last >= i) {
                return Err(self.bad("block changes not in ascending index order"));
            }
            v.push((i, self.block()?));
        }
        Ok(v)
    }
    pub(super) fn heightmap(&mut self, dims: &Dims) -> Result<[i32; 256], BodyError> {
        let mut h = [0i32; 256];
        for v in h.iter_mut() {
            *v = self.i32()?;
            if *v < dims.min_y || *v > dims.max_y() + 1 {
                return Err(self.bad("heightmap outside the world"));
            }
        }
        Ok(h)
    }
    pub(super) fn coord(&mut self) -> Result<i32, BodyError> {
        let v = self.i32()?;
        if v.checked_abs().map_or(true, |a| a > COORD_LIMIT) {
            return Err(self.bad("coordinate outside the world's range"));
        }
        Ok(v)
    }
    pub(super) fn coords(&mut self) -> Result<[i32; 3], BodyError> {
        Ok([self.coord()?, self.coord()?, self.coord()?])
    }
    pub(super) fn chunk(&mut self) -> Result<ChunkPos, BodyError> {
        let p = ChunkPos::new(self.i32()?, self.i32()?);
        if !p.is_valid() {
            return Err(self.bad("chunk position out of range"));
        }
        Ok(p)
    }
    pub(super) fn bbox(&mut self) -> Result<BlockBox, BodyError> {
        let b = BlockBox {
            min: self.coords()?,
            max: self.coords()?,
        };
        if (0..3).any(|a| b.min[a] > b.max[a]) {
            return Err(self.bad("box with min above max"));
        }
        Ok(b)
    }
    pub(super) fn entities(&mut self) -> Result<Vec<BlockEntity>, BodyError> {
        let n = self.len()?;
        let mut v = Vec::with_capacity(core::cmp::min(n, 1 << 12));
        for _ in 0..n {
            let pos = self.coords()?;
            let kind = self.block()?;
            v.push(BlockEntity {
                pos,
                kind,
                data: self.u32()?,
            });
        }
        Ok(v)
    }
    pub(super) fn kind(&mut self) -> Result<StructureKind, BodyError> {
        match self.u8()? {
            0 => Ok(StructureKind::Dungeon),
            1 => Ok(StructureKind::Watchtower),
            _ => Err(self.bad("unknown structure kind")),
        }
    }
    pub(super) fn references(&mut self) -> Result<Vec<StructureRef>, BodyError> {
        let n = self.len()?;
        let mut v = Vec::with_capacity(core::cmp::min(n, 1 << 12));
        for _ in 0..n {
            let start = self.chunk()?;
            v.push(StructureRef {
                start,
                kind: self.kind()?,
            });
        }
        Ok(v)
    }
    pub(super) fn start(&mut self) -> Result<StructureStart, BodyError> {
        let kind = self.kind()?;
        let chunk = self.chunk()?;
        let biome = self.u8()?;
        if biome as usize >= self.biomes {
            return Err(self.bad("unknown biome id"));
        }
        let assembled = match self.u8()? {
            0 => None,
            1 => Some(self.assembled()?),
            _ => return Err(self.bad("assembled flag not 0 or 1")),
        };
        Ok(StructureStart {
            kind,
            chunk,
            biome,
            assembled,
        })
    }
    pub(super) fn assembled(&mut self) -> Result<Assembled, BodyError> {
        let n = self.len()?;
        if n == 0 {
            return Err(self.bad("assembled structure without pieces"));
        }
        let mut pieces = Vec::with_capacity(core::cmp::min(n, 1 << 12));
        for _ in 0..n {
            let kind = match self.u8()? {
                0 => PieceKind::Room,
                1 => PieceKind::Corridor,
                2 => PieceKind::Tower,
                3 => PieceKind::Hut,
                4 => PieceKind::Path,
                _ => return Err(self.bad("unknown piece kind")),
            };
            let bbox = self.bbox()?;
            let ends = [self.coord()?, self.coord()?, self.coord()?, self.coord()?];
            pieces.push(Piece { kind, bbox, ends });
        }
        let bbox = self.bbox()?;
        let union = pieces
            .iter()
            .skip(1)
            .fold(pieces[0].bbox, |b, p| b.union(&p.bbox));
        if bbox != union {
            return Err(self.bad("structure box is not the union of its pieces"));
        }
        let n = self.len()?;
        let mut links = Vec::with_capacity(core::cmp::min(n, 1 << 12));
        for _ in 0..n {
            let (a, b) = (self.u16()?, self.u16()?);
            if a as usize >= pieces.len() || b as usize >= pieces.len() {
                return Err(self.bad("link to a piece that does not exist"));
            }
            links.push((a, b));
        }
        let entities = self.entities()?;
        Ok(Assembled {
            pieces,
            bbox,
            links,
            entities,
            witness: self.u64()?,
        })
    }
}
