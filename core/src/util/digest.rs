//! The 64-bit digest of outputs: XXH64 (seed 0) over little-endian bytes.
//!
//! XXH64 is fully specified by its authors (the xxHash specification, "XXH64 algorithm
//! description") and has published test vectors, so a C program can recompute any digest with
//! the reference `XXH64()` function. Values are fed as their little-endian bytes whatever the
//! host's byte order, so a big-endian machine computes the same digest.
//!
//! [`Digest`] is a streaming hasher: feeding bytes in any split gives the same result as one call
//! over the concatenation.

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline]
fn round(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

#[inline]
fn merge_round(acc: u64, val: u64) -> u64 {
    (acc ^ round(0, val)).wrapping_mul(P1).wrapping_add(P4)
}

#[inline]
fn read_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

#[inline]
fn read_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4]);
    u32::from_le_bytes(a)
}

/// Streaming XXH64. Create with [`Digest::new`], feed with the `write_*` methods, read with
/// [`Digest::finish`] (which does not consume, so a running digest can be read at any point).
#[derive(Clone, Debug)]
pub struct Digest {
    seed: u64,
    v: [u64; 4],
    buf: [u8; 32],
    buf_len: usize,
    total: u64,
}

impl Default for Digest {
    fn default() -> Self {
        Self::new()
    }
}

impl Digest {
    /// A digest with seed 0 (the project's digest).
    pub fn new() -> Self {
        Self::with_seed(0)
    }

    /// A digest with the given XXH64 seed (for the known-answer tests and for derived hashes).
    pub fn with_seed(seed: u64) -> Self {
        Digest {
            seed,
            v: [
                seed.wrapping_add(P1).wrapping_add(P2),
                seed.wrapping_add(P2),
                seed,
                seed.wrapping_sub(P1),
            ],
            buf: [0; 32],
            buf_len: 0,
            total: 0,
        }
    }

    #[inline]
    fn stripe(v: &mut [u64; 4], s: &[u8]) {
        v[0] = round(v[0], read_u64(&s[0..]));
        v[1] = round(v[1], read_u64(&s[8..]));
        v[2] = round(v[2], read_u64(&s[16..]));
        v[3] = round(v[3], read_u64(&s[24..]));
    }

    /// Feed raw bytes.
    pub fn write_bytes(&mut self, mut data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u64);
        if self.buf_len > 0 {
            let take = core::cmp::min(32 - self.buf_len, data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 32 {
                return;
            }
            let buf = self.buf;
            Self::stripe(&mut self.v, &buf);
            self.buf_len = 0;
        }
        let mut chunks = data.chunks_exact(32);
        for s in &mut chunks {
            Self::stripe(&mut self.v, s);
        }
        let rest = chunks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// Feed one byte.
    pub fn write_u8(&mut self, x: u8) {
        self.write_bytes(&[x]);
    }

    /// Feed a `u16` as 2 little-endian bytes.
    pub fn write_u16(&mut self, x: u16) {
        self.write_bytes(&x.to_le_bytes());
    }

    /// Feed a `u32` as 4 little-endian bytes.
    pub fn write_u32(&mut self, x: u32) {
        self.write_bytes(&x.to_le_bytes());
    }

    /// Feed an `i32` as 4 little-endian bytes (two's complement).
    pub fn write_i32(&mut self, x: i32) {
        self.write_bytes(&x.to_le_bytes());
    }

    /// Feed a `u64` as 8 little-endian bytes. The common case (the 8 bytes fit the
    /// buffer) skips the general path: float witnesses feed millions of single values.
    #[inline]
    pub fn write_u64(&mut self, x: u64) {
        let at = self.buf_len;
        if at > 24 {
            return self.write_bytes(&x.to_le_bytes());
        }
        self.total = self.total.wrapping_add(8);
        self.buf[at..at + 8].copy_from_slice(&x.to_le_bytes());
        if at == 24 {
            let buf = self.buf;
            Self::stripe(&mut self.v, &buf);
            self.buf_len = 0;
        } else {
            self.buf_len = at + 8;
        }
    }

    /// Feed an `i64` as 8 little-endian bytes (two's complement).
    pub fn write_i64(&mut self, x: i64) {
        self.write_bytes(&x.to_le_bytes());
    }

    /// Feed an `f32` as the little-endian bytes of its bit pattern.
    pub fn write_f32(&mut self, x: f32) {
        self.write_u32(x.to_bits());
    }

    /// Feed an `f64` as the little-endian bytes of its bit pattern.
    pub fn write_f64(&mut self, x: f64) {
        self.write_u64(x.to_bits());
    }

    /// Feed a slice of `u16` as consecutive little-endian pairs (a block array).
    pub fn write_u16_slice(&mut self, xs: &[u16]) {
        // Convert through a stack buffer: no allocation, and byte order is explicit.
        let mut tmp = [0u8; 256];
        for chunk in xs.chunks(128) {
            for (i, x) in chunk.iter().enumerate() {
                let b = x.to_le_bytes();
                tmp[2 * i] = b[0];
                tmp[2 * i + 1] = b[1];
            }
            self.write_bytes(&tmp[..2 * chunk.len()]);
        }
    }

    /// Feed a slice of `f32` as consecutive little-endian bit patterns.
    pub fn write_f32_slice(&mut self, xs: &[f32]) {
        let mut tmp = [0u8; 256];
        for chunk in xs.chunks(64) {
            for (i, x) in chunk.iter().enumerate() {
                tmp[4 * i..4 * i + 4].copy_from_slice(&x.to_bits().to_le_bytes());
            }
            self.write_bytes(&tmp[..4 * chunk.len()]);
        }
    }

    /// Feed a slice of `f64` as consecutive little-endian bit patterns.
    pub fn write_f64_slice(&mut self, xs: &[f64]) {
        let mut tmp = [0u8; 256];
        for chunk in xs.chunks(32) {
            for (i, x) in chunk.iter().enumerate() {
                tmp[8 * i..8 * i + 8].copy_from_slice(&x.to_bits().to_le_bytes());
            }
            self.write_bytes(&tmp[..8 * chunk.len()]);
        }
    }

    /// The XXH64 of everything fed so far.
    pub fn finish(&self) -> u64 {
        let mut h = if self.total >= 32 {
            let v = self.v;
            let mut h = v[0]
                .rotate_left(1)
                .wrapping_add(v[1].rotate_left(7))
                .wrapping_add(v[2].rotate_left(12))
                .wrapping_add(v[3].rotate_left(18));
            h = merge_round(h, v[0]);
            h = merge_round(h, v[1]);
            h = merge_round(h, v[2]);
            merge_round(h, v[3])
        } else {
            self.seed.wrapping_add(P5)
        };
        h = h.wrapping_add(self.total);
        let mut rest = &self.buf[..self.buf_len];
        while rest.len() >= 8 {
            h ^= round(0, read_u64(rest));
            h = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            h ^= u64::from(read_u32(rest)).wrapping_mul(P1);
            h = h.rotate_left(23).wrapping_mul(P2).wrapping_add(P3);
            rest = &rest[4..];
        }
        for &b in rest {
            h ^= u64::from(b).wrapping_mul(P5);
            h = h.rotate_left(11).wrapping_mul(P1);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^= h >> 32;
        h
    }
}

/// XXH64 (seed 0) of a byte slice in one call.
pub fn xxh64(data: &[u8]) -> u64 {
    xxh64_with_seed(data, 0)
}

/// XXH64 with a seed, in one call.
pub fn xxh64_with_seed(data: &[u8], seed: u64) -> u64 {
    let mut d = Digest::with_seed(seed);
    d.write_bytes(data);
    d.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRIME32: u32 = 2_654_435_761;

    /// The sanity buffer of the reference `xxhsum` self-test: byte i is the top byte of a
    /// generator that starts at PRIME32 and is squared each step.
    fn sanity_buffer() -> [u8; 101] {
        let mut b = [0u8; 101];
        let mut g = PRIME32;
        for x in b.iter_mut() {
            *x = (g >> 24) as u8;
            g = g.wrapping_mul(g);
        }
        b
    }

    #[test]
    fn reference_sanity_vectors() {
        // The expected values are the ones hard-coded in the reference xxhsum self-test
        // (BMK_sanityCheck) and agree with the reference C library.
        let b = sanity_buffer();
        let s = u64::from(PRIME32);
        assert_eq!(xxh64_with_seed(&b[..0], 0), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64_with_seed(&b[..1], 0), 0x4FCE_394C_C889_52D8);
        assert_eq!(xxh64_with_seed(&b[..1], s), 0x7398_40CB_819F_A723);
        assert_eq!(xxh64_with_seed(&b[..14], 0), 0xCFFA_8DB8_81BC_3A3D);
        assert_eq!(xxh64_with_seed(&b[..14], s), 0x5B96_1158_5EFC_C9CB);
        assert_eq!(xxh64_with_seed(&b[..101], 0), 0x0EAB_5433_84F8_78AD);
        assert_eq!(xxh64_with_seed(&b[..101], s), 0xCAA6_5939_306F_1E21);
    }

    #[test]
    fn string_vectors() {
        assert_eq!(xxh64(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
        assert_eq!(xxh64(b"abcdefghijklmnopqrstuvwxyz"), 0xCFE1_F278_FA89_835C);
    }

    #[test]
    fn streaming_split_invariance() {
        let mut data = [0u8; 300];
        let mut g = 1u32;
        for x in data.iter_mut() {
            g = g.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *x = (g >> 16) as u8;
        }
        for len in [0usize, 1, 7, 31, 32, 33, 64, 100, 300] {
            let whole = xxh64(&data[..len]);
            for split in [1usize, 3, 8, 31, 32, 33] {
                let mut d = Digest::new();
                for c in data[..len].chunks(split) {
                    d.write_bytes(c);
                }
                assert_eq!(d.finish(), whole, "len {len} split {split}");
            }
        }
    }

    /// `write_u64`'s fast path at every buffer offset: values fed between odd-length byte
    /// runs equal the one-shot hash of the concatenated bytes.
    #[test]
    fn u64_writes_at_every_offset_equal_one_shot() {
        let mut bytes = [0u8; 400];
        let mut n = 0;
        let mut d = Digest::new();
        let mut g = 7u64;
        for k in 0..30usize {
            g = g.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let run = k % 5;
            for i in 0..run {
                let b = (g >> (8 * i)) as u8;
                d.write_u8(b);
                bytes[n] = b;
                n += 1;
            }
            d.write_u64(g);
            bytes[n..n + 8].copy_from_slice(&g.to_le_bytes());
            n += 8;
        }
        assert_eq!(d.finish(), xxh64(&bytes[..n]));
    }

    #[test]
    fn typed_writes_are_little_endian_bytes() {
        let xs: [u16; 5] = [1, 0x0203, 0xFFFF, 0, 0x8000];
        let mut d = Digest::new();
        d.write_u16_slice(&xs);
        assert_eq!(d.finish(), xxh64(&[1, 0, 3, 2, 0xFF, 0xFF, 0, 0, 0, 0x80]));
        let mut d = Digest::new();
        d.write_f64_slice(&[1.0]);
        d.write_i32(-2);
        let mut bytes = [0u8; 12];
        bytes[..8].copy_from_slice(&0x3FF0_0000_0000_0000u64.to_le_bytes());
        bytes[8..].copy_from_slice(&[0xFE, 0xFF, 0xFF, 0xFF]);
        assert_eq!(d.finish(), xxh64(&bytes));
    }
}
