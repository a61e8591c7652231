//! Writing a record body: little-endian integers, length-prefixed lists, each output's
//! fields in the documented order.

use alloc::vec::Vec;

use crate::world::block::BlockId;
use crate::world::feature::BlockEntity;
use crate::world::sections::{Sections, SECTION_VOLUME};
use crate::world::structure::{BlockBox, StructureRef, StructureStart};

/// Appends little-endian values and lists to a record body.
pub(super) struct Writer<'a>(pub(super) &'a mut Vec<u8>);

impl Writer<'_> {
    pub(super) fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(super) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(super) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Every entry of `s` as little-endian `u16`s, a section at a time: a uniform section is
    /// a fill, any other decodes into a stack buffer and is converted into place.
    pub(super) fn sections(&mut self, s: &Sections) {
        let start = self.0.len();
        self.0.resize(start + s.len() * 2, 0);
        let mut buf = [0u16; SECTION_VOLUME];
        for (k, dst) in self.0[start..].chunks_mut(SECTION_VOLUME * 2).enumerate() {
            let section = s.section(k);
            if let Some(v) = section.uniform() {
                let b = v.to_le_bytes();
                for d in dst.chunks_exact_mut(2) {
                    d.copy_from_slice(&b);
                }
            } else {
                let values = &mut buf[..dst.len() / 2];
                section.decode_into(values);
                for (d, x) in dst.chunks_exact_mut(2).zip(values.iter()) {
                    d.copy_from_slice(&x.to_le_bytes());
                }
            }
        }
    }
    pub(super) fn len(&mut self, n: usize) {
        self.u32(n as u32);
    }
    pub(super) fn i32s(&mut self, v: &[i32]) {
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    pub(super) fn bbox(&mut self, b: &BlockBox) {
        self.i32s(&b.min);
        self.i32s(&b.max);
    }
    pub(super) fn changes(&mut self, v: &[(u32, BlockId)]) {
        self.len(v.len());
        for &(i, b) in v {
            self.u32(i);
            self.u16(b);
        }
    }
    pub(super) fn entities(&mut self, v: &[BlockEntity]) {
        self.len(v.len());
        for e in v {
            self.i32s(&e.pos);
            self.u16(e.kind);
            self.u32(e.data);
        }
    }
    pub(super) fn reference(&mut self, r: &StructureRef) {
        self.i32s(&[r.start.x, r.start.z]);
        self.0.push(r.kind as u8);
    }
    pub(super) fn start(&mut self, s: &StructureStart) {
        self.0.push(s.kind as u8);
        self.i32s(&[s.chunk.x, s.chunk.z]);
        self.0.push(s.biome);
        self.0.push(s.assembled.is_some() as u8);
        if let Some(a) = &s.assembled {
            self.len(a.pieces.len());
            for p in &a.pieces {
                self.0.push(p.kind as u8);
                self.bbox(&p.bbox);
                self.i32s(&p.ends);
            }
            self.bbox(&a.bbox);
            self.len(a.links.len());
            for &(x, y) in &a.links {
                self.u16(x);
                self.u16(y);
            }
            self.entities(&a.entities);
            self.u64(a.witness);
        }
    }
}
