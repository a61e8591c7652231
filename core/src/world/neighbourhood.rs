//! The 3 × 3 chunks around a centre chunk, addressed by offset instead of index arithmetic.

/// One value per chunk of the 3 × 3 window around a centre, by offset `(dx, dz)` in `-1..=1`.
/// Stored in the fixed order of [`Neighbourhood::OFFSETS`] (by `dz`, then `dx`): the order in
/// which patches are merged, so iteration order is part of the output contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Neighbourhood<T> {
    cells: [T; 9],
}

impl<T> Neighbourhood<T> {
    /// The offsets `(dx, dz)` in storage order: by `dz`, then `dx`.
    pub const OFFSETS: [(i32, i32); 9] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (0, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];

    /// The storage slot of offset `(dx, dz)` (both in `-1..=1`).
    #[inline]
    pub fn slot(dx: i32, dz: i32) -> usize {
        debug_assert!((-1..=1).contains(&dx) && (-1..=1).contains(&dz));
        ((dz + 1) * 3 + (dx + 1)) as usize
    }

    /// The slot of the centre chunk.
    pub const CENTRE: usize = 4;

    /// The slot that sees slot `k` from the other side: if chunk B is at offset `o` from A,
    /// A is at offset `-o` from B.
    #[inline]
    pub fn opposite(k: usize) -> usize {
        8 - k
    }

    /// Build from a function of the offset.
    pub fn from_fn(mut f: impl FnMut(i32, i32) -> T) -> Self {
        Neighbourhood {
            cells: Self::OFFSETS.map(|(dx, dz)| f(dx, dz)),
        }
    }

    /// Wrap values already in storage order.
    pub fn from_array(cells: [T; 9]) -> Self {
        Neighbourhood { cells }
    }

    /// The value at offset `(dx, dz)`.
    #[inline]
    pub fn get(&self, dx: i32, dz: i32) -> &T {
        &self.cells[Self::slot(dx, dz)]
    }

    /// The value at a storage slot.
    #[inline]
    pub fn at(&self, slot: usize) -> &T {
        &self.cells[slot]
    }

    /// The value at a storage slot, mutable.
    #[inline]
    pub fn at_mut(&mut self, slot: usize) -> &mut T {
        &mut self.cells[slot]
    }

    /// The centre chunk's value.
    #[inline]
    pub fn centre(&self) -> &T {
        &self.cells[Self::CENTRE]
    }

    /// Values in storage order.
    pub fn iter(&self) -> core::slice::Iter<'_, T> {
        self.cells.iter()
    }

    /// Values in storage order, as an array.
    pub fn as_array(&self) -> &[T; 9] {
        &self.cells
    }

    /// Apply `f` to every value, keeping the offsets.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Neighbourhood<U> {
        Neighbourhood {
            cells: self.cells.map(f),
        }
    }
}

impl<'a, T> IntoIterator for &'a Neighbourhood<T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.cells.iter()
    }
}

impl<T> Neighbourhood<Option<T>> {
    /// Build from a fallible function of the offset; the first error is returned.
    pub fn try_from_fn<E>(mut f: impl FnMut(i32, i32) -> Result<T, E>) -> Result<Self, E> {
        let mut cells: [Option<T>; 9] = Default::default();
        for (k, &(dx, dz)) in Self::OFFSETS.iter().enumerate() {
            cells[k] = Some(f(dx, dz)?);
        }
        Ok(Neighbourhood { cells })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_offsets_and_opposites_agree() {
        for (k, &(dx, dz)) in Neighbourhood::<()>::OFFSETS.iter().enumerate() {
            assert_eq!(Neighbourhood::<()>::slot(dx, dz), k);
            let o = Neighbourhood::<()>::opposite(k);
            assert_eq!(Neighbourhood::<()>::OFFSETS[o], (-dx, -dz));
        }
        assert_eq!(
            Neighbourhood::<()>::OFFSETS[Neighbourhood::<()>::CENTRE],
            (0, 0)
        );
        let n = Neighbourhood::from_fn(|dx, dz| dx * 10 + dz);
        assert_eq!(*n.get(1, -1), 9);
        assert_eq!(*n.centre(), 0);
    }
}
