//! Little-endian reading: one cursor and one set of fixed-width reads under both decoders
//! that take bytes from outside (chunk records, encoded definitions). Each decoder supplies
//! only `take` with its own error; limits and meanings stay with it.

/// A position in a byte slice.
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// The next `n` bytes, or `None` (and nothing read) when fewer are left.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Some(s)
    }
}

/// Fixed-width little-endian reads over a decoder's `take`.
pub trait LeReader<'a> {
    /// What the decoder reports when the bytes end early.
    type Error;

    /// The next `n` bytes, or the decoder's error.
    fn take(&mut self, n: usize) -> Result<&'a [u8], Self::Error>;

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Self::Error> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    /// The next byte.
    fn u8(&mut self) -> Result<u8, Self::Error> {
        Ok(self.take(1)?[0])
    }
    /// The next `u16`.
    fn u16(&mut self) -> Result<u16, Self::Error> {
        self.array().map(u16::from_le_bytes)
    }
    /// The next `u32`.
    fn u32(&mut self) -> Result<u32, Self::Error> {
        self.array().map(u32::from_le_bytes)
    }
    /// The next `i32`.
    fn i32(&mut self) -> Result<i32, Self::Error> {
        self.array().map(i32::from_le_bytes)
    }
    /// The next `u64`.
    fn u64(&mut self) -> Result<u64, Self::Error> {
        self.array().map(u64::from_le_bytes)
    }
    /// The next `i64`.
    fn i64(&mut self) -> Result<i64, Self::Error> {
        self.array().map(i64::from_le_bytes)
    }
    /// The next `f64`, from its bits.
    fn f64(&mut self) -> Result<f64, Self::Error> {
        self.u64().map(f64::from_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain<'a>(Cursor<'a>);

    impl<'a> LeReader<'a> for Plain<'a> {
        type Error = usize;
        fn take(&mut self, n: usize) -> Result<&'a [u8], usize> {
            let at = self.0.position();
            self.0.take(n).ok_or(at)
        }
    }

    #[test]
    fn reads_little_endian_and_stops_at_the_end() {
        let bytes = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a];
        let mut r = Plain(Cursor::new(&bytes));
        assert_eq!(r.u8(), Ok(0x01));
        assert_eq!(r.u16(), Ok(0x0302));
        assert_eq!(r.u32(), Ok(0x0706_0504));
        // Three bytes left: a u32 is refused and reads nothing.
        assert_eq!(r.u32(), Err(7));
        assert_eq!(r.0.position(), 7);
        assert_eq!(r.i32(), Err(7));
        assert_eq!(r.take(2), Ok(&bytes[7..9]));
        assert!(!r.0.at_end());
        assert_eq!(r.u8(), Ok(0x0a));
        assert!(r.0.at_end());
        assert_eq!(r.u8(), Err(10));
        // A length that would overflow the position is refused, not wrapped.
        assert_eq!(r.take(usize::MAX), Err(10));
        let f = (-2.5f64).to_bits().to_le_bytes();
        let mut r = Plain(Cursor::new(&f));
        assert_eq!(r.f64().map(f64::to_bits), Ok((-2.5f64).to_bits()));
        let m = (-3i64).to_le_bytes();
        assert_eq!(Plain(Cursor::new(&m)).i64(), Ok(-3));
        assert_eq!(Plain(Cursor::new(&m)).u64(), Ok(u64::MAX - 2));
        assert_eq!(Plain(Cursor::new(&m[..4])).i32(), Ok(-3));
    }
}
