//! Simplex fills without warp, a tile row at a time through a row kernel: the fill's loops
//! (tiles, rows, octave sums, stores) are one generic body per dimension, instantiated for
//! the portable kernel here and for the AVX2 and AVX-512 kernels in `noise::simd`.

use super::{sample_x, store_row, Grid2, Grid3, Sample, TILE};
use crate::noise::def::{Noise, MAX_OCTAVES};
use crate::noise::fractal::Shape;
use crate::noise::simplex::{self, SIMPLEX_BATCH};

/// Lanes a simplex tile row computes: `len` rounded up to whole groups of AVX2 (or SIMD128)
/// vectors (the padding lanes repeat the last sample and are never stored).
#[cfg(target_arch = "x86_64")]
fn simplex_lanes(n: &Noise, len: usize) -> usize {
    if n.simd {
        let group = 4 * crate::noise::simd::U;
        (len + group - 1) / group * group
    } else {
        len
    }
}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn simplex_lanes(_: &Noise, len: usize) -> usize {
    let group = crate::noise::simd128::GROUP;
    (len + group - 1) / group * group
}
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
fn simplex_lanes(_: &Noise, len: usize) -> usize {
    len
}

/// The lattice x of each sample of a tile, per octave, for `lanes` lanes (lanes past `len`
/// repeat the last sample).
fn simplex_xs(
    n: &Noise,
    x0: f64,
    dx: f64,
    first: usize,
    len: usize,
    lanes: usize,
) -> [[f64; TILE]; MAX_OCTAVES as usize] {
    let mut xs = [[0.0f64; TILE]; MAX_OCTAVES as usize];
    for o in 0..n.octaves {
        for (t, x) in xs[o][..lanes].iter_mut().enumerate() {
            *x = sample_x(n, x0, dx, first + core::cmp::min(t, len - 1)) * n.freq[o];
        }
    }
    xs
}

/// How one octave of 2D simplex is computed along a tile row: the kernel
/// [`fill2_simplex_with`]'s loops are compiled around (as [`SimplexRows3`] for 3D).
pub(crate) trait SimplexRow2 {
    /// [`simplex::simplex2`]`(seed, xs[t], y)` into `v[t]` for `t < lanes` (`lanes` from
    /// `simplex_lanes`; the padding lanes repeat the last sample), bit for bit.
    fn row(&self, seed: u64, xs: &[f64; TILE], y: f64, lanes: usize, v: &mut [f64; TILE]);
}

/// The portable row: the staged scalar batch.
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
struct PortableRow2;
impl SimplexRow2 for PortableRow2 {
    #[inline(always)]
    fn row(&self, seed: u64, xs: &[f64; TILE], y: f64, lanes: usize, v: &mut [f64; TILE]) {
        simplex::simplex2_batch(seed, &xs[..lanes], y, v);
    }
}

/// Simplex fill without warp, a tile row per batch: per sample the same sums as [`point2`](crate::noise::fractal::point2)
/// in the same order, so the same bits. Where the CPU has AVX2 (or AVX-512), the whole fill
/// is compiled for it around its vector row; a wasm32 build with SIMD128 runs
/// [`simd128`](crate::noise::simd128)'s row.
pub(crate) fn fill2_simplex<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return crate::noise::simd::simplex::fill2::<S, T>(n, g, out);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::noise::simd128::fill2::<S, T>(n, g, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    fill2_simplex_with::<PortableRow2, S, T>(&PortableRow2, n, g, out)
}

/// [`fill2_simplex`]'s loops around the row kernel `kernel`.
#[inline(always)]
pub(crate) fn fill2_simplex_with<R: SimplexRow2, S: Shape, T: Sample>(
    kernel: &R,
    n: &Noise,
    g: &Grid2,
    out: &mut [T],
) {
    const _: () = assert!(TILE <= SIMPLEX_BATCH);
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let lanes = simplex_lanes(n, len);
        let xs = simplex_xs(n, g.x0, g.dx, first, len, lanes);
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let mut acc = [0.0f64; TILE];
            let mut v = [0.0f64; TILE];
            for o in 0..n.octaves {
                kernel.row(n.seeds[o], &xs[o], y * n.freq[o], lanes, &mut v);
                for (a, v) in acc[..len].iter_mut().zip(&v) {
                    *a += S::apply(*v) * n.amp[o];
                }
            }
            store_row(
                n,
                &acc,
                &mut out[j * g.width + first..j * g.width + first + len],
            );
        }
        first += len;
    }
}

/// Rows of a 3D simplex tile computed per kernel call (consecutive z at one y): bounds the
/// stack scratch (4 KiB) and spreads a kernel's set-up over several rows.
const SIMPLEX3_ROWS: usize = 8;

/// How one octave of 3D simplex is computed along the rows of a tile: the kernel
/// [`fill3_simplex_with`]'s loops are compiled around (once per kernel, so a vector kernel
/// gets the loops, the octave sums and the stores at its CPU level too, and sets up its
/// constants once per call, not once per row).
pub(crate) trait SimplexRows3 {
    /// Row `r` of the batch into `v[r][..b.lanes]`: the bits of [`simplex::simplex3`] per
    /// sample.
    fn rows(&self, b: &RowBatch<'_>, v: &mut [[f64; TILE]]);
}

/// One octave of up to [`SIMPLEX3_ROWS`] tile rows at one y: row `r` samples
/// `(xs[t], y, zs[r])` for `t < lanes`, lattice coordinates (frequency applied).
pub(crate) struct RowBatch<'a> {
    pub seed: u64,
    pub xs: &'a [f64; TILE],
    pub y: f64,
    pub zs: &'a [f64],
    /// Samples per row computed: the tile's length rounded up to whole vector groups
    /// (`simplex_lanes`; the padding lanes repeat the last sample).
    pub lanes: usize,
}

/// The portable rows: [`simplex::simplex3`] per sample.
struct PortableRows3;
impl SimplexRows3 for PortableRows3 {
    #[inline(always)]
    fn rows(&self, b: &RowBatch<'_>, v: &mut [[f64; TILE]]) {
        for (&z, v) in b.zs.iter().zip(v) {
            for (o, &x) in v.iter_mut().zip(&b.xs[..b.lanes]) {
                *o = simplex::simplex3(b.seed, x, b.y, z);
            }
        }
    }
}

/// 3D simplex fill without warp, a tile row per batch, as [`fill2_simplex`]: the same bits
/// as [`point3`](crate::noise::fractal::point3). Where the CPU has AVX2 (or AVX-512), the whole fill is compiled for it
/// around its vector rows.
pub(crate) fn fill3_simplex<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return crate::noise::simd::simplex::fill3::<S, T>(n, g, out);
    }
    fill3_simplex_with::<PortableRows3, S, T>(&PortableRows3, n, g, out)
}

/// [`fill3_simplex`]'s loops around the row kernel `kernel`.
#[inline(always)]
pub(crate) fn fill3_simplex_with<R: SimplexRows3, S: Shape, T: Sample>(
    kernel: &R,
    n: &Noise,
    g: &Grid3,
    out: &mut [T],
) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    // Set once per fill: the first octave overwrites each row's sums (with `0.0 + …`, the
    // sum the point sampler starts from) and the kernel every value it reads.
    let mut acc = [[0.0f64; TILE]; SIMPLEX3_ROWS];
    let mut v = [[0.0f64; TILE]; SIMPLEX3_ROWS];
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let lanes = simplex_lanes(n, len);
        let xs = simplex_xs(n, x0, dx, first, len, lanes);
        for j in 0..g.height {
            let y = (y0 + j as f64 * dy) + n.offset[1];
            let mut k0 = 0;
            while k0 < g.depth {
                let rows = core::cmp::min(SIMPLEX3_ROWS, g.depth - k0);
                let mut z = [0.0f64; SIMPLEX3_ROWS];
                for (r, z) in z[..rows].iter_mut().enumerate() {
                    *z = (z0 + (k0 + r) as f64 * dz) + n.offset[2];
                }
                for o in 0..n.octaves {
                    let f = n.freq[o];
                    let mut zs = [0.0f64; SIMPLEX3_ROWS];
                    for (zs, z) in zs[..rows].iter_mut().zip(&z) {
                        *zs = z * f;
                    }
                    let batch = RowBatch {
                        seed: n.seeds[o],
                        xs: &xs[o],
                        y: y * f,
                        zs: &zs[..rows],
                        lanes,
                    };
                    kernel.rows(&batch, &mut v);
                    for (acc, v) in acc[..rows].iter_mut().zip(&v) {
                        for (a, v) in acc[..len].iter_mut().zip(v) {
                            let sum = if o == 0 { 0.0 } else { *a };
                            *a = sum + S::apply(*v) * n.amp[o];
                        }
                    }
                }
                for (r, acc) in acc[..rows].iter().enumerate() {
                    let base = (j * g.depth + k0 + r) * g.width + first;
                    store_row(n, acc, &mut out[base..base + len]);
                }
                k0 += rows;
            }
        }
        first += len;
    }
}
