//! [`ChunkRect`]: an inclusive rectangle of chunk positions, checked when it is made, so a
//! region that reaches a driver, a store query or a shard plan always holds at least one
//! chunk and lies inside the supported range.

use core::fmt;

use crate::engine::ladder::ChunkPos;

/// Why a rectangle was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RectError {
    /// `x1 < x0` or `z1 < z0`: the rectangle holds no chunk.
    Inverted {
        /// The corners as given: x0, z0, x1, z1.
        corners: [i32; 4],
    },
    /// A corner outside the supported range (`|x|, |z| < ChunkPos::LIMIT`).
    OutOfRange {
        /// The corners as given: x0, z0, x1, z1.
        corners: [i32; 4],
    },
}

impl fmt::Display for RectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RectError::Inverted {
                corners: [x0, z0, x1, z1],
            } => write!(
                f,
                "region {x0},{z0},{x1},{z1} holds no chunk: X1 must be >= X0 and Z1 >= Z0"
            ),
            RectError::OutOfRange {
                corners: [x0, z0, x1, z1],
            } => write!(
                f,
                "region {x0},{z0},{x1},{z1} reaches outside the supported range |x|, |z| < 2^21"
            ),
        }
    }
}

/// An inclusive rectangle of chunks `x0..=x1` × `z0..=z1`: never empty, every position
/// valid ([`ChunkPos::is_valid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkRect {
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
}

impl ChunkRect {
    /// The rectangle `x0..=x1` × `z0..=z1`; refused when it holds no chunk or a corner is out
    /// of range.
    pub fn new(x0: i32, z0: i32, x1: i32, z1: i32) -> Result<ChunkRect, RectError> {
        let corners = [x0, z0, x1, z1];
        if !ChunkPos::new(x0, z0).is_valid() || !ChunkPos::new(x1, z1).is_valid() {
            return Err(RectError::OutOfRange { corners });
        }
        if x1 < x0 || z1 < z0 {
            return Err(RectError::Inverted { corners });
        }
        Ok(ChunkRect { x0, z0, x1, z1 })
    }

    /// The one-chunk rectangle of `p`.
    pub fn of(p: ChunkPos) -> Result<ChunkRect, RectError> {
        ChunkRect::new(p.x, p.z, p.x, p.z)
    }

    /// The square of chunks within Chebyshev distance `radius` (>= 0) of `center`.
    pub fn square(center: ChunkPos, radius: i32) -> Result<ChunkRect, RectError> {
        let r = radius.max(0);
        ChunkRect::new(
            center.x.saturating_sub(r),
            center.z.saturating_sub(r),
            center.x.saturating_add(r),
            center.z.saturating_add(r),
        )
    }

    /// The corners `(x0, z0, x1, z1)`.
    pub fn bounds(&self) -> (i32, i32, i32, i32) {
        (self.x0, self.z0, self.x1, self.z1)
    }

    /// The corner of the lowest x and z.
    pub fn min(&self) -> ChunkPos {
        ChunkPos::new(self.x0, self.z0)
    }

    /// The corner of the highest x and z.
    pub fn max(&self) -> ChunkPos {
        ChunkPos::new(self.x1, self.z1)
    }

    /// Chunks along x (at least 1).
    pub fn width(&self) -> u32 {
        (i64::from(self.x1) - i64::from(self.x0) + 1) as u32
    }

    /// Chunks along z (at least 1).
    pub fn depth(&self) -> u32 {
        (i64::from(self.z1) - i64::from(self.z0) + 1) as u32
    }

    /// Chunks in the rectangle (at least 1).
    pub fn count(&self) -> u64 {
        u64::from(self.width()) * u64::from(self.depth())
    }

    /// Whether `p` lies in the rectangle.
    pub fn contains(&self, p: ChunkPos) -> bool {
        (self.x0..=self.x1).contains(&p.x) && (self.z0..=self.z1).contains(&p.z)
    }

    /// The rectangle with `ring` more chunks on every side, clipped to the supported range
    /// (no chunk outside it can be generated).
    pub fn grown(&self, ring: u32) -> ChunkRect {
        let edge = ChunkPos::LIMIT - 1;
        let ring = i64::from(ring);
        let clip =
            |v: i32, d: i64| (i64::from(v) + d).clamp(-i64::from(edge), i64::from(edge)) as i32;
        ChunkRect {
            x0: clip(self.x0, -ring),
            z0: clip(self.z0, -ring),
            x1: clip(self.x1, ring),
            z1: clip(self.z1, ring),
        }
    }

    /// The rows `z0..=z1` from `z` on, at most `rows` of them, as a rectangle of the same
    /// width (None past the last row).
    pub fn rows(&self, z: i32, rows: u32) -> Option<ChunkRect> {
        if z < self.z0 || z > self.z1 || rows == 0 {
            return None;
        }
        let last = (i64::from(z) + i64::from(rows) - 1).min(i64::from(self.z1)) as i32;
        Some(ChunkRect {
            x0: self.x0,
            z0: z,
            x1: self.x1,
            z1: last,
        })
    }

    /// Every position, row-major (z, then x).
    pub fn positions(&self) -> Positions {
        Positions {
            rect: *self,
            next: Some(self.min()),
        }
    }
}

impl fmt::Display for ChunkRect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{},{}", self.x0, self.z0, self.x1, self.z1)
    }
}

/// The positions of a [`ChunkRect`], row-major (z, then x).
#[derive(Clone, Debug)]
pub struct Positions {
    rect: ChunkRect,
    next: Option<ChunkPos>,
}

impl Iterator for Positions {
    type Item = ChunkPos;

    fn next(&mut self) -> Option<ChunkPos> {
        let p = self.next?;
        let r = &self.rect;
        self.next = if p.x < r.x1 {
            Some(ChunkPos::new(p.x + 1, p.z))
        } else if p.z < r.z1 {
            Some(ChunkPos::new(r.x0, p.z + 1))
        } else {
            None
        };
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = match self.next {
            None => 0,
            Some(p) => {
                let r = &self.rect;
                let rows_after = u64::from((r.z1 - p.z) as u32);
                rows_after * u64::from(r.width()) + u64::from((r.x1 - p.x) as u32) + 1
            }
        };
        match usize::try_from(left) {
            Ok(n) => (n, Some(n)),
            Err(_) => (usize::MAX, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverted_and_out_of_range_rectangles_are_refused() {
        assert!(matches!(
            ChunkRect::new(1, 0, 0, 0),
            Err(RectError::Inverted { .. })
        ));
        assert!(matches!(
            ChunkRect::new(0, 1, 0, 0),
            Err(RectError::Inverted { .. })
        ));
        let l = ChunkPos::LIMIT;
        for c in [
            (-l, 0, 0, 0),
            (0, -l, 0, 0),
            (0, 0, l, 0),
            (0, 0, 0, l),
            (i32::MIN, i32::MIN, i32::MAX, i32::MAX),
        ] {
            assert!(
                matches!(
                    ChunkRect::new(c.0, c.1, c.2, c.3),
                    Err(RectError::OutOfRange { .. })
                ),
                "{c:?}"
            );
        }
        // The widest rectangle the range allows.
        let widest = ChunkRect::new(-l + 1, -l + 1, l - 1, l - 1).unwrap();
        assert_eq!(widest.width(), (2 * l - 1) as u32);
        assert_eq!(widest.count(), u64::from(widest.width()).pow(2));
    }

    /// The positions are the nested loops' (z outer, x inner), and their count is `count`.
    #[test]
    fn positions_are_row_major_and_counted() {
        let r = ChunkRect::new(-2, 5, 1, 7).unwrap();
        let mut want = [ChunkPos::default(); 12];
        let mut k = 0;
        for z in 5..=7 {
            for x in -2..=1 {
                want[k] = ChunkPos::new(x, z);
                k += 1;
            }
        }
        let mut it = r.positions();
        assert_eq!(it.size_hint(), (12, Some(12)));
        for w in want {
            assert_eq!(it.next(), Some(w));
        }
        assert_eq!(it.next(), None);
        assert_eq!(r.count(), 12);
        assert!(r.contains(ChunkPos::new(1, 7)) && !r.contains(ChunkPos::new(2, 7)));
    }

    #[test]
    fn growing_clips_to_the_range_and_rows_cut_bands() {
        let edge = ChunkPos::LIMIT - 1;
        let r = ChunkRect::new(edge, -edge, edge, -edge).unwrap();
        assert_eq!(r.grown(3).bounds(), (edge - 3, -edge, edge, -edge + 3));
        let r = ChunkRect::new(0, 0, 3, 9).unwrap();
        assert_eq!(r.rows(0, 4).map(|b| b.bounds()), Some((0, 0, 3, 3)));
        assert_eq!(r.rows(8, 4).map(|b| b.bounds()), Some((0, 8, 3, 9)));
        assert_eq!(r.rows(10, 4), None);
        assert_eq!(r.rows(0, 0), None);
        assert_eq!(
            ChunkRect::square(ChunkPos::new(1, 1), 2).unwrap().bounds(),
            (-1, -1, 3, 3)
        );
    }
}
