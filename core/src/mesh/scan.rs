//! Finding the visible axis faces of a volume: a pass over the row masks, layer by layer
//! and row by row, where visibility is mask arithmetic (`drawn & !occluder_neighbour`) and
//! only the candidates read blocks and light. Each face gets its key (block, AO, light,
//! height) from the row windows.

use alloc::vec::Vec;

use crate::mesh::emit::Entry;
use crate::mesh::faces::{self, Face, FULL16};
use crate::mesh::rows::{equal_mask, Mask, RowMasks, Rows, MIXED_ROW};
use crate::mesh::volume::Volume;
use crate::mesh::window::RowWindow;
use crate::world::block::{BlockId, Surface};

/// Find every visible axis face, one list per face direction in [`Face::AXIS`] order, each
/// in scan order (y, z, x), on the volume's row masks as they are stored (32 bits for a
/// chunk mesh, where each 128-bit operation would cost two or more instructions).
pub(crate) fn scan(v: &Volume<'_>, lists: &mut [Vec<Entry>; 6]) {
    match &v.rows {
        Rows::Narrow(rows) => scan_with(v, rows, lists),
        Rows::Wide(rows) => scan_with(v, rows, lists),
    }
}

/// [`scan`] over row masks of type `M`.
fn scan_with<M: Mask>(v: &Volume<'_>, rows: &[RowMasks<M>], lists: &mut [Vec<Entry>; 6]) {
    let zrows = v.sz + 2;
    let interior = M::of(v.interior());
    for py in 1..=v.ny {
        for pz in 1..=v.sz {
            let r = py * zrows + pz;
            let (occ, other) = (rows[r].occ, rows[r].other);
            if (occ | other) & interior == M::ZERO {
                continue; // air
            }
            let (down, up) = (rows[r - zrows].occ, rows[r + zrows].occ);
            let (north, south) = (rows[r - 1].occ, rows[r + 1].occ);
            // The neighbours' occluder bits, aligned with the blocks they touch.
            let n_occ = [occ << 1, occ >> 1, down, up, north, south];
            if other & interior == M::ZERO {
                let enclosed = occ & n_occ[0] & n_occ[1] & down & up & north & south;
                if enclosed & interior == interior {
                    continue; // solid rock
                }
            }
            let blocks = v.row_blocks(py, pz);
            let window = RowWindow::new(v, rows, py, pz);
            let row = Row {
                rows,
                r,
                py,
                pz,
                occ,
                other,
                interior,
            };
            row.faces::<0>(v, n_occ[0], blocks, &window, &mut lists[0]);
            row.faces::<1>(v, n_occ[1], blocks, &window, &mut lists[1]);
            row.faces::<2>(v, n_occ[2], blocks, &window, &mut lists[2]);
            row.faces::<3>(v, n_occ[3], blocks, &window, &mut lists[3]);
            row.faces::<4>(v, n_occ[4], blocks, &window, &mut lists[4]);
            row.faces::<5>(v, n_occ[5], blocks, &window, &mut lists[5]);
        }
    }
}

/// One padded row of the scan and its masks.
struct Row<'r, M> {
    /// The volume's row masks, and this row's index.
    rows: &'r [RowMasks<M>],
    r: usize,
    py: usize,
    pz: usize,
    occ: M,
    other: M,
    interior: M,
}

impl<M: Mask> Row<'_, M> {
    /// The visible faces of axis face `F` in this row; `n_occ` holds the occluder bits of
    /// the neighbours they look at, aligned with the blocks.
    #[inline(always)]
    fn faces<const F: usize>(
        &self,
        v: &Volume<'_>,
        n_occ: M,
        blocks: &[BlockId],
        window: &RowWindow<'_, M>,
        list: &mut Vec<Entry>,
    ) {
        let (py, pz) = (self.py, self.pz);
        // Plants have no axis faces (their crossed quads come later).
        let rows = self.rows;
        let boxes = self.other & !rows[self.r].plants;
        let mut cand = (self.occ | boxes) & !n_occ & self.interior;
        // Fluids and see-through cubes facing the same block stay hidden: whole rows at once
        // when this row and the one faced are one block (inside a lake), else by comparing
        // the row's blocks with the faced cells. The faced row: this one for x faces.
        let [_, fy, fz] = faces::towards::<F>([1, py, pz]);
        let check = cand & rows[self.r].hides_same;
        let here = rows[self.r].uniform;
        if here != MIXED_ROW && here == rows[fy * (v.sz + 2) + fz].uniform {
            cand &= !check;
        } else if check != M::ZERO {
            let n = v.sx + 2;
            let row = blocks;
            let same = match F {
                0 => equal_mask(&row[1..], row, n - 1) << 1,
                1 => equal_mask(row, &row[1..], n - 1),
                _ => equal_mask(row, v.row_blocks(fy, fz), n),
            };
            cand &= !(check & M::of(same));
        }
        if F == Face::PosY as usize {
            // The lowered top of a fluid or layer shows under an occluder.
            cand |= boxes & n_occ & self.interior;
        }
        let face = Face::AXIS[F];
        let faces::FaceAxes {
            normal: a,
            u: ua,
            v: va,
            ..
        } = faces::AXES[F];
        // The masks make a superset; `visible` decides.
        while cand != M::ZERO {
            let px = cand.trailing_zeros() as usize;
            cand = cand.without_lowest();
            let c = [px, py, pz];
            // An occluder facing a non-occluder is always drawn, a full cube; the others
            // go through the rules.
            // (An occluder is an opaque cube: its surface is opaque.)
            let (b, top, surface) = if self.occ.bit(px) {
                (v.block(px, py, pz), FULL16, Surface::Opaque)
            } else {
                let (b, faced) = v.block_and_facing::<F>(px, py, pz);
                let p = v.palette.props(b);
                let top = faces::top16(v, c, b, p);
                if !faces::visible(v.palette, face, b, p, faced, top) {
                    continue;
                }
                (b, top, p.surface)
            };
            let k = window.key::<F>(v, c, b, top);
            let cell = [px - 1, py - 1, pz - 1];
            list.push(Entry {
                layer: cell[a] as u32,
                v: cell[va] as u32,
                u: cell[ua] as u16,
                surface: surface as u16,
                key: k.0,
            });
        }
    }
}
