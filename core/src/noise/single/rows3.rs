//! 3D value and Perlin fills with the rows in lanes: for a narrow tile (a 16-wide chunk is
//! one or two lane groups per row), the work per (y, z) row between lane kernels outweighs
//! the kernels. A block of [`LAYERS`] rows of one y goes instead as lanes of z: each lattice
//! point of the tile gets its `(P, Q)` for every row at once, and each sample of the tile
//! its value for every row at once, from its cell's two points with no lookup.
//!
//! Each lane runs the operations of [`Kernel::points3`] and [`Kernel::mix_shared`] for its
//! own row, in the same order, and every sample adds its octaves in order: the bits of the
//! row-by-row fill, which the tests compare on every lane width.

use super::kernels::{RowCells, RowsZ};
use super::*;

/// Widest tile whose blocks take their rows in lanes (wider tiles spread the per-row work
/// over more lane groups).
const ROW_TILE: usize = 32;
/// Lattice points per octave a tile row may read for its rows to go in lanes.
const ROW_POINTS: usize = 16;
/// z cells a block may span per octave for its rows to go in lanes (each a [`Corners`]).
const ROW_RUNS: usize = 4;

/// Side of the blocks a block of rows is transposed in ([`Transpose`]).
const BLOCK: usize = 8;

/// What a block of rows in lanes computes: per z cell its [`Corners`], per point its
/// `(P, Q)` in each layer, per sample of the tile its octave sum in each layer.
pub(super) struct RowLanes {
    corners: [Corners; ROW_RUNS],
    p: [[f32; LAYERS]; ROW_POINTS],
    q: [[f32; LAYERS]; ROW_POINTS],
    acc: [[f32; LAYERS]; ROW_TILE],
}

impl RowLanes {
    pub(super) fn new() -> Self {
        RowLanes {
            corners: [Corners::default(); ROW_RUNS],
            p: [[0.0; LAYERS]; ROW_POINTS],
            q: [[0.0; LAYERS]; ROW_POINTS],
            acc: [[0.0; LAYERS]; ROW_TILE],
        }
    }
}

/// A block of rows of one y: `rows[o][kk]` is layer `kk`'s row data in octave `o`, for
/// `layers` layers; the tile has `len` samples.
pub(super) struct Block<'a> {
    pub rows: &'a [[Col; LAYERS]; MAX],
    pub layers: usize,
    pub len: usize,
}

/// Vector `v` of `table`'s layers.
#[inline(always)]
fn layers<const N: usize>(table: &[f32; LAYERS], v: usize) -> F<N> {
    let mut out = [0.0; N];
    out.copy_from_slice(&table[v * N..v * N + N]);
    F(out)
}

impl<const N: usize> Columns<N> {
    /// Whether a tile of `len` samples may fill its blocks with rows in lanes: a kernel with
    /// shared corners, and every octave sharing few points.
    pub(super) fn rows_in_lanes<K: Kernel>(&self, octaves: usize, len: usize) -> bool {
        K::CORNERS3
            && len <= ROW_TILE
            && LAYERS % N == 0
            && self.plans[..octaves]
                .iter()
                .all(|p| p.shared && p.count <= CORNER_POINTS && p.needed <= ROW_POINTS)
    }

    /// The tile's samples of a block of rows, normalised, into `out` (layer `kk`'s row from
    /// `at(kk)` on). False, with nothing written, where an octave's layers span more than
    /// [`ROW_RUNS`] z cells: those rows go one by one.
    #[inline(always)]
    pub(super) fn fill_rows<K: Kernel, S: Shape, T: Transpose>(
        &self,
        oct: &[Octave],
        b: &Block,
        scratch: &mut RowLanes,
        out: &mut [f32],
        at: impl Fn(usize) -> usize,
        norm: f32,
    ) -> bool {
        // Lanes past the last layer repeat it: computed, never stored.
        let vectors = (b.layers + N - 1) / N;
        let RowLanes { corners, p, q, acc } = scratch;
        for (o, oc) in oct.iter().enumerate() {
            let plan = &self.plans[o];
            let rows = &b.rows[o];
            let row = |kk: usize| &rows[core::cmp::min(kk, b.layers - 1)];
            let mut run = [0usize; LAYERS];
            let mut runs = 0;
            for kk in 0..vectors * N {
                let r = row(kk);
                if kk == 0 || r.i[1] != row(kk - 1).i[1] {
                    if runs == ROW_RUNS {
                        return false;
                    }
                    K::corners3::<N>(oc, r, plan.first, plan.count, &mut corners[runs]);
                    runs += 1;
                }
                run[kk] = runs - 1;
            }
            let (zf, zs): ([f32; LAYERS], [f32; LAYERS]) = (
                core::array::from_fn(|kk| row(kk).f[2]),
                core::array::from_fn(|kk| row(kk).f[3]),
            );
            for v in 0..vectors {
                let z = RowsZ {
                    f: layers(&zf, v),
                    s: layers(&zs, v),
                };
                let lane_runs: [usize; N] = core::array::from_fn(|l| run[v * N + l]);
                let cells = RowCells {
                    corners: &corners[..runs],
                    run: if runs == 1 { None } else { Some(&lane_runs) },
                };
                for k in 0..plan.needed {
                    let (pk, qk) = K::point3_rows::<N>(&rows[0], &z, &cells, k);
                    p[k][v * N..v * N + N].copy_from_slice(&pk.0);
                    q[k][v * N..v * N + N].copy_from_slice(&qk.0);
                }
            }
            for (i, acc) in acc[..b.len].iter_mut().enumerate() {
                let (g, l) = (i / N, i % N);
                let cols = &self.cols[o][g];
                let k = plan.at[g] + plan.slots[g].0[l] as usize;
                let (f, s) = (cols.f[0].0[l], cols.f[1].0[l]);
                for v in 0..vectors {
                    let pq0 = (layers(&p[k], v), layers(&q[k], v));
                    let pq1 = (layers(&p[k + 1], v), layers(&q[k + 1], v));
                    let value = K::mix_rows::<N>(f, s, pq0, pq1);
                    let sum = if o == 0 {
                        F::splat(0.0)
                    } else {
                        layers(acc, v)
                    };
                    let sum = sum + S::apply_lanes(value) * oc.amp;
                    acc[v * N..v * N + N].copy_from_slice(&sum.0);
                }
            }
        }
        // Layer by layer from sample by sample, in 8 × 8 blocks. Block rows past the tile
        // hold an earlier tile's sums: transposed, never stored.
        for kk0 in (0..b.layers).step_by(BLOCK) {
            for i0 in (0..b.len).step_by(BLOCK) {
                let src: [&[f32; BLOCK]; BLOCK] = core::array::from_fn(|a| {
                    <&[f32; BLOCK]>::try_from(&acc[i0 + a][kk0..kk0 + BLOCK])
                        .expect("a block inside the sums")
                });
                let mut m = [[0.0f32; BLOCK]; BLOCK];
                T::transpose8(src, &mut m);
                let n = core::cmp::min(BLOCK, b.len - i0);
                for (kk, m) in (kk0..b.layers).zip(&m) {
                    let dst = &mut out[at(kk) + i0..at(kk) + i0 + n];
                    if let Ok(d) = <&mut [f32; BLOCK]>::try_from(&mut *dst) {
                        // A whole block row: a fixed-length loop the compiler vectorises.
                        for l in 0..BLOCK {
                            d[l] = m[l] * norm;
                        }
                    } else {
                        for (d, v) in dst.iter_mut().zip(m) {
                            *d = *v * norm;
                        }
                    }
                }
            }
        }
        true
    }
}
