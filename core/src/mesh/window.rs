//! The 3 × 3 front windows of one row's faces. The AO and light of a face (the
//! [`faces`](super::faces) module defines them) come from the occluder bits and light of the
//! nine cells around the cell it looks at. Every such cell lies in one of the nine padded
//! rows around the scanned row (one layer and one row of z either side): each face reads
//! nine light cells ([`Volume::light_cells`]) and nine occluder bits (the rows' masks) at
//! constant offsets.

use crate::mesh::faces::{self, FaceKey, CORNERS};
use crate::mesh::rows::{Mask, RowMasks};
use crate::mesh::volume::Volume;
use crate::world::block::BlockId;

/// Packed light of a cell: sky in bits 0..8, block light in bits 8..16, so that one add sums
/// both.
#[inline(always)]
pub(crate) fn packed((sky, block): (u8, u8)) -> u16 {
    u16::from(sky) | u16::from(block) << 8
}

/// For axis face `F`, window cell `(du, dv)` (`[dv][du]`, as in the corner rules) of the
/// face of padded cell `(px, py, pz)` lies at `(px + dx, py + dy, pz + dz)`: `[dx, dy, dz]`,
/// each plus one (`0..=2`, so that they stay unsigned). The front cell is one step along the
/// face's normal axis, and the window spans the face's `u` and `v` axes ([`faces::AXES`]).
#[inline(always)]
const fn cell_offset(f: usize, du: usize, dv: usize) -> [usize; 3] {
    let faces::FaceAxes {
        normal: a,
        u: ua,
        v: va,
        positive,
    } = faces::AXES[f];
    let mut o = [1; 3];
    o[a] = if positive { 2 } else { 0 };
    o[ua] = du;
    o[va] = dv;
    o
}

/// The nine padded rows around a scanned row `(py, pz)`, indexed `3 (dy + 1) + (dz + 1)`:
/// their light ([`Volume::light_cells`]) and occluder masks. Every face of the row reads its
/// front window here.
pub(crate) struct RowWindow<'v, M> {
    light: [&'v [u16]; 9],
    occ: [M; 9],
}

impl<'v, M: Mask> RowWindow<'v, M> {
    /// The rows around `(py, pz)` (`py` in `1..=ny`, `pz` in `1..=sz`) of a volume whose
    /// row masks are `rows`.
    #[inline]
    pub fn new(v: &'v Volume<'_>, rows: &[RowMasks<M>], py: usize, pz: usize) -> Self {
        let zrows = v.sz + 2;
        let mut light: [&'v [u16]; 9] = [&[]; 9];
        let mut occ = [M::ZERO; 9];
        for (i, (l, o)) in light.iter_mut().zip(occ.iter_mut()).enumerate() {
            let (y, z) = (py + i / 3 - 1, pz + i % 3 - 1);
            *l = v.light_cells(y, z);
            *o = rows[y * zrows + z].occ;
        }
        RowWindow { light, occ }
    }

    /// The key of the visible axis face `F` of block `b` at padded `c` in this row, as the
    /// `faces` module defines it (`faces::key_reference` computes it cell by cell); `top` is
    /// the block's top in sixteenths.
    #[inline(always)]
    pub fn key<const F: usize>(
        &self,
        v: &Volume<'_>,
        c: [usize; 3],
        b: BlockId,
        top: u8,
    ) -> FaceKey {
        let px = c[0];
        // Per window cell (3 dv + du): occluder bit, and light (0 for an occluder).
        let mut bits = 0u32;
        let mut light = [0u32; 9];
        if faces::AXES[F].u == 0 {
            // A y or z face: u runs along x, so each line of the window (one dv) is three
            // adjacent cells of one padded row, read as one group of mask bits and one slice.
            let x0 = px - 1;
            for dv in 0..3 {
                let [_, dy, dz] = cell_offset(F, 0, dv);
                let row = 3 * dy + dz;
                let occ = self.occ[row].three(x0);
                bits |= occ << (3 * dv);
                let cells = &self.light[row][x0..x0 + 3];
                for (du, &cell) in cells.iter().enumerate() {
                    let open = (occ >> du & 1).wrapping_sub(1);
                    light[3 * dv + du] = u32::from(cell) & open;
                }
            }
        } else {
            // An x face: each of the nine cells lies in its own padded row.
            for dv in 0..3 {
                for du in 0..3 {
                    let [dx, dy, dz] = cell_offset(F, du, dv);
                    let (row, x) = (3 * dy + dz, px + dx - 1);
                    let occ = u32::from(self.occ[row].bit(x));
                    bits |= occ << (3 * dv + du);
                    light[3 * dv + du] = u32::from(self.light[row][x]) & occ.wrapping_sub(1);
                }
            }
        }
        // The block's own cell stands in for an occluder in front (the lowered top of a
        // fluid under a ceiling).
        let front = if bits & 1 << 4 != 0 {
            u32::from(packed(v.light(c[0], c[1], c[2])))
        } else {
            light[4]
        };
        let corners = WINDOW[bits as usize & 511];
        let (mut sky, mut block_light) = (0u64, 0u64);
        for k in 0..4 {
            let [side_u, side_v, diagonal] = corner_cells(k);
            let diagonal_mask = ((corners >> (32 + k)) as u32 & 1).wrapping_neg();
            let sum = front + light[side_u] + light[side_v] + (light[diagonal] & diagonal_mask);
            // Each byte of the sum is at most 60: the masks change nothing.
            let mean = &faces::MEAN[(corners >> (8 * k)) as usize & 3];
            sky |= u64::from(mean[(sum & 63) as usize]) << (4 * k);
            block_light |= u64::from(mean[(sum >> 8 & 63) as usize]) << (4 * k);
        }
        FaceKey::from_packed(b, (corners >> 40) as u8, sky, block_light, top)
    }
}

/// The window cells (`3 dv + du`) touching corner `k` of a face ([`CORNERS`]): along u,
/// along v, diagonal.
#[inline(always)]
const fn corner_cells(k: usize) -> [usize; 3] {
    let (du, dv) = (CORNERS[k].0 as usize, CORNERS[k].1 as usize);
    [3 + 2 * du, 6 * dv + 1, 6 * dv + 2 * du]
}

/// Per 3 × 3 window of occluder bits (bit `3 dv + du`), what its four corners take from
/// [`faces::CORNER`], packed so that a face looks it up once: bits `8k..8k + 2` corner `k`'s
/// light count minus one (its [`faces::MEAN`] row), bit `32 + k` whether corner `k`
/// averages its diagonal cell, bits `40..48` the four AOs as [`FaceKey`] packs them.
const WINDOW: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut k = 0;
        while k < 4 {
            let [side_u, side_v, diagonal] = corner_cells(k);
            let corner_bits =
                (bits >> side_u & 1) | (bits >> side_v & 1) << 1 | (bits >> diagonal & 1) << 2;
            let (ao, cells, diagonal_mask) = faces::CORNER[corner_bits];
            t[bits] |= (cells as u64 - 1) << (8 * k)
                | ((diagonal_mask & 1) as u64) << (32 + k)
                | (ao as u64) << (40 + 2 * k);
            k += 1;
        }
        bits += 1;
    }
    t
};
