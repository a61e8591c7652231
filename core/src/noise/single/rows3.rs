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

/// Lanes a block's corners are computed in where they cover the points its tile reads
/// (else [`PORTABLE_LANES`] where those do, else the fill's own): a 16-wide tile of one
/// cell reads two, and 16 lanes would compute fourteen unused ones.
const CORNER_LANES: usize = 8;

/// Side of the blocks a block of rows is transposed in ([`Transpose`]).
const BLOCK: usize = 8;

/// What a block of rows in lanes computes: per octave, which z cell each layer is in (the
/// same for every y of the block) and each layer's z fraction and fade; per z cell its
/// [`Corners`], per point its `(P, Q)` in each layer, per sample of the tile its octave sum
/// in each layer.
pub(super) struct RowLanes {
    run: [[u8; LAYERS]; MAX],
    start: [[u8; ROW_RUNS]; MAX],
    runs: [usize; MAX],
    zf: [[f32; LAYERS]; MAX],
    zs: [[f32; LAYERS]; MAX],
    corners: [Corners; ROW_RUNS],
    p: [[f32; LAYERS]; ROW_POINTS],
    q: [[f32; LAYERS]; ROW_POINTS],
    acc: [[f32; LAYERS]; ROW_TILE],
}

impl RowLanes {
    pub(super) fn new() -> Self {
        RowLanes {
            run: [[0; LAYERS]; MAX],
            start: [[0; ROW_RUNS]; MAX],
            runs: [0; MAX],
            zf: [[0.0; LAYERS]; MAX],
            zs: [[0.0; LAYERS]; MAX],
            corners: [Corners::default(); ROW_RUNS],
            p: [[0.0; LAYERS]; ROW_POINTS],
            q: [[0.0; LAYERS]; ROW_POINTS],
            acc: [[0.0; LAYERS]; ROW_TILE],
        }
    }

    /// The z side of a block of `layers` layers of z data `z[o][kk]` for `N` lanes: false
    /// where an octave's layers span more than [`ROW_RUNS`] z cells (those rows go one by
    /// one). Lanes past the last layer repeat it: computed, never stored.
    pub(super) fn plan<const N: usize>(
        &mut self,
        z: &[[Col; LAYERS]; MAX],
        octaves: usize,
        layers: usize,
    ) -> bool {
        let lanes = (layers + N - 1) / N * N;
        for o in 0..octaves {
            let z = |kk: usize| &z[o][core::cmp::min(kk, layers - 1)];
            let mut runs = 0;
            for kk in 0..lanes {
                if kk == 0 || z(kk).i[0] != z(kk - 1).i[0] {
                    if runs == ROW_RUNS {
                        return false;
                    }
                    self.start[o][runs] = kk as u8;
                    runs += 1;
                }
                self.run[o][kk] = (runs - 1) as u8;
                self.zf[o][kk] = z(kk).f[0];
                self.zs[o][kk] = z(kk).f[1];
            }
            self.runs[o] = runs;
        }
        true
    }
}

/// A block of rows of one y: in octave `o`, `y[o]` is the y data and `z[o][kk]` layer
/// `kk`'s z data, for `layers` layers; the tile has `len` samples.
pub(super) struct Block<'a> {
    pub y: &'a [Col; MAX],
    pub z: &'a [[Col; LAYERS]; MAX],
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

    /// The tile's samples of a block of rows (planned by [`RowLanes::plan`]), normalised,
    /// into `out` (layer `kk`'s row from `at(kk)` on).
    #[inline(always)]
    pub(super) fn fill_rows<K: Kernel, S: Shape, T: Transpose>(
        &self,
        oct: &[Octave],
        b: &Block,
        scratch: &mut RowLanes,
        out: &mut [f32],
        at: impl Fn(usize) -> usize,
        norm: f32,
    ) {
        let vectors = (b.layers + N - 1) / N;
        let RowLanes {
            run,
            start,
            runs,
            zf,
            zs,
            corners,
            p,
            q,
            acc,
        } = scratch;
        for (o, oc) in oct.iter().enumerate() {
            let plan = &self.plans[o];
            let (y, runs) = (&b.y[o], runs[o]);
            for (c, kk) in corners.iter_mut().zip(&start[o][..runs]) {
                let r = K::row3(y, &b.z[o][*kk as usize]);
                if N > PORTABLE_LANES && plan.needed <= PORTABLE_LANES {
                    K::corners3::<PORTABLE_LANES>(oc, &r, plan.first, PORTABLE_LANES, c);
                } else if N > CORNER_LANES && plan.needed <= CORNER_LANES {
                    K::corners3::<CORNER_LANES>(oc, &r, plan.first, CORNER_LANES, c);
                } else {
                    K::corners3::<N>(oc, &r, plan.first, plan.count, c);
                }
            }
            for v in 0..vectors {
                let z = RowsZ {
                    f: layers(&zf[o], v),
                    s: layers(&zs[o], v),
                };
                let lane_runs: [usize; N] = core::array::from_fn(|l| run[o][v * N + l] as usize);
                let cells = RowCells {
                    corners: &corners[..runs],
                    run: if runs == 1 { None } else { Some(&lane_runs) },
                };
                for k in 0..plan.needed {
                    let (pk, qk) = K::point3_rows::<N>(y, &z, &cells, k);
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
    }
}
