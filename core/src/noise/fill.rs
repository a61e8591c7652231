//! Allocation-free batch fills: 2D grids, heightmap chunks and 3D grids. Each (noise type,
//! fractal type) pair has its own monomorphic loop (the type is matched once per call, never
//! per sample or per octave). Value and Perlin fills share all y/z lattice work across a row
//! and all x work across rows, and run the same arithmetic as the point sampler, so `fill_2d`
//! output equals `sample_2d` at every grid position, bit for bit.

use crate::noise::def::{finite, Noise, NoiseError, Precision, MAX_LATTICE, MAX_OCTAVES};
use crate::noise::fractal::{point2, point3, Base, Cellular, Shape, Simplex};
use crate::noise::lattice::{Axis, Lattice, Row};
use crate::noise::single;
use crate::util::math::abs;

mod grid;
mod simplex_rows;

pub use grid::{Grid2, Grid3, OwnSamples, Sample};

pub(crate) use simplex_rows::{fill2_simplex, fill3_simplex};
// The generic row loops and kernel traits the x86-64 and SIMD128 kernels instantiate.
#[cfg(target_arch = "x86_64")]
pub(crate) use simplex_rows::{
    fill2_simplex_with, fill3_simplex_with, RowBatch, SimplexRow2, SimplexRows3,
};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use simplex_rows::{fill2_simplex_with, SimplexRow2};

/// The offset x of sample `i` of a row starting at `x0` with spacing `dx`, before the octave
/// frequency: every 2D fill computes it here so that all give the bits of [`point2`].
#[inline(always)]
pub(crate) fn sample_x(n: &Noise, x0: f64, dx: f64, i: usize) -> f64 {
    (x0 + i as f64 * dx) + n.offset[0]
}

/// Samples per tile of a lattice fill: bounds the stack scratch (about 20 KiB).
pub(crate) const TILE: usize = 32;

/// `out` filled with `f` at every position of `g`, in the grid's order.
#[inline(always)]
pub(crate) fn for_each_point2<T: Sample>(g: &Grid2, out: &mut [T], f: impl Fn(f64, f64) -> f64) {
    for j in 0..g.height {
        let y = g.y0 + j as f64 * g.dy;
        let row = &mut out[j * g.width..(j + 1) * g.width];
        for (i, o) in row.iter_mut().enumerate() {
            *o = T::from_f64(f(g.x0 + i as f64 * g.dx, y));
        }
    }
}

/// `out` filled with `f` at every position of `g`, in the grid's order (y, z, x).
#[inline(always)]
pub(crate) fn for_each_point3<T: Sample>(
    g: &Grid3,
    out: &mut [T],
    f: impl Fn(f64, f64, f64) -> f64,
) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    let mut idx = 0;
    for j in 0..g.height {
        let y = y0 + j as f64 * dy;
        for k in 0..g.depth {
            let z = z0 + k as f64 * dz;
            for i in 0..g.width {
                out[idx] = T::from_f64(f(x0 + i as f64 * dx, y, z));
                idx += 1;
            }
        }
    }
}

/// Fill with the point sampler (simplex, cellular, or any warped noise).
pub(crate) fn fill2_point<B: Base, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    for_each_point2(g, out, |x, y| point2::<B, S>(n, x, y))
}

pub(crate) fn fill3_point<B: Base, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    for_each_point3(g, out, |x, y, z| point3::<B, S>(n, x, y, z))
}

/// The x-axis work of one tile, all octaves: per-sample axis values and runs of equal cells.
pub(crate) struct Columns {
    /// Per octave and sample: the x fraction `f`, `f − 1` and the fade, in separate arrays so
    /// a run's samples form plain loops over contiguous floats (the compiler vectorizes them;
    /// per lane it is the same arithmetic, so the same bits).
    f: [[f64; TILE]; MAX_OCTAVES as usize],
    f1: [[f64; TILE]; MAX_OCTAVES as usize],
    s: [[f64; TILE]; MAX_OCTAVES as usize],
    /// Per octave: (cell index, first sample, end sample) of each run.
    runs: [[(i64, u8, u8); TILE]; MAX_OCTAVES as usize],
    nruns: [usize; MAX_OCTAVES as usize],
    len: usize,
}

impl Columns {
    fn new(n: &Noise, x0: f64, dx: f64, first: usize, len: usize) -> Self {
        let mut c = Columns {
            f: [[0.0; TILE]; MAX_OCTAVES as usize],
            f1: [[0.0; TILE]; MAX_OCTAVES as usize],
            s: [[0.0; TILE]; MAX_OCTAVES as usize],
            runs: [[(0, 0, 0); TILE]; MAX_OCTAVES as usize],
            nruns: [0; MAX_OCTAVES as usize],
            len,
        };
        for o in 0..n.octaves {
            let f = n.freq[o];
            let mut nr = 0usize;
            for t in 0..len {
                let a = Axis::new(sample_x(n, x0, dx, first + t) * f);
                (c.f[o][t], c.f1[o][t], c.s[o][t]) = (a.f, a.f1, a.s);
                if nr > 0 && c.runs[o][nr - 1].0 == a.i {
                    c.runs[o][nr - 1].2 = (t + 1) as u8;
                } else {
                    c.runs[o][nr] = (a.i, t as u8, (t + 1) as u8);
                    nr += 1;
                }
            }
            c.nruns[o] = nr;
        }
        c
    }

    /// Add one octave's shaped, weighted values for a block of 3D rows (one y, consecutive
    /// z) into their `acc` rows: cell by cell, hashing a cell's corners again only when the
    /// z cell changes.
    #[inline(always)]
    fn accumulate3<L: Lattice, S: Shape>(
        &self,
        o: usize,
        amp: f64,
        rows: &[Row],
        acc: &mut [[f64; TILE]],
    ) {
        let (f, f1, s) = (&self.f[o], &self.f1[o], &self.s[o]);
        for &(ix, a, b) in &self.runs[o][..self.nruns[o]] {
            let (a, b) = (a as usize, b as usize);
            let (f, f1, s) = (&f[a..b], &f1[a..b], &s[a..b]);
            let mut corners = L::corners3(&rows[0], ix);
            let mut z_cell = rows[0].z_cell();
            for (row, acc) in rows.iter().zip(acc.iter_mut()) {
                if row.z_cell() != z_cell {
                    corners = L::corners3(row, ix);
                    z_cell = row.z_cell();
                }
                let c = L::cell3_from(row, &corners);
                let acc = &mut acc[a..b];
                for t in 0..acc.len() {
                    acc[t] += S::apply(L::eval_parts(&c, f[t], f1[t], s[t])) * amp;
                }
            }
        }
    }

    /// Add one octave's shaped, weighted values for a 2D row into `acc`.
    #[inline(always)]
    fn accumulate<L: Lattice, S: Shape>(
        &self,
        o: usize,
        amp: f64,
        row: &Row,
        acc: &mut [f64; TILE],
    ) {
        let cell = |ix| L::cell2(row, ix);
        let runs = &self.runs[o][..self.nruns[o]];
        let (f, f1, s) = (&self.f[o], &self.f1[o], &self.s[o]);
        if runs.len() == self.len {
            // Every sample in its own cell (high octaves): no run loop to mispredict.
            for (t, &(ix, _, _)) in runs.iter().enumerate() {
                acc[t] += S::apply(L::eval_parts(&cell(ix), f[t], f1[t], s[t])) * amp;
            }
            return;
        }
        for &(ix, a, b) in runs {
            let c = cell(ix);
            let (a, b) = (a as usize, b as usize);
            let acc = &mut acc[a..b];
            let (f, f1, s) = (&f[a..b], &f1[a..b], &s[a..b]);
            for t in 0..acc.len() {
                acc[t] += S::apply(L::eval_parts(&c, f[t], f1[t], s[t])) * amp;
            }
        }
    }
}

pub(crate) fn fill2_lattice<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return crate::noise::simd::fill2::<L, S, T>(n, g, out);
    }
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let cols = Columns::new(n, g.x0, g.dx, first, len);
        for j in 0..g.height {
            let y = (g.y0 + j as f64 * g.dy) + n.offset[1];
            let mut acc = [0.0f64; TILE];
            for o in 0..n.octaves {
                let row = L::row2(n.seeds[o], &Axis::new(y * n.freq[o]));
                cols.accumulate::<L, S>(o, n.amp[o], &row, &mut acc);
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

pub(crate) fn fill3_lattice<L: Lattice, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    if n.simd {
        return crate::noise::simd::fill3::<L, S, T>(n, g, out);
    }
    fill3_lattice_body::<L, S, T>(n, g, out)
}

/// Rows along z that a 3D lattice fill runs together: they share each cell's hashed
/// corners while they stay in one z cell.
const ROW_BLOCK: usize = 16;

/// The 3D lattice fill. Inlined into the portable [`fill3_lattice`] and into an AVX2 copy
/// (`simd::fill3`), where the compiler runs the per-sample loops four lanes wide: the same
/// operations per sample (no FMA is enabled), so the same bits.
///
/// Per tile and y, blocks of up to [`ROW_BLOCK`] z rows go octave by octave, and within an
/// octave cell by cell down the block, so a cell's corners are hashed once per z cell
/// instead of once per row. Each sample still adds its octaves in order: the same sums.
#[inline(always)]
pub(crate) fn fill3_lattice_body<L: Lattice, S: Shape, T: Sample>(
    n: &Noise,
    g: &Grid3,
    out: &mut [T],
) {
    let [x0, y0, z0] = g.origin;
    let [dx, dy, dz] = g.step;
    // Declared once: zeroing the whole block per row costs more than a small grid's samples.
    let mut acc = [[0.0f64; TILE]; ROW_BLOCK];
    let mut row = [Row::default(); ROW_BLOCK];
    let mut first = 0;
    while first < g.width {
        let len = core::cmp::min(TILE, g.width - first);
        let cols = Columns::new(n, x0, dx, first, len);
        for j in 0..g.height {
            let y = (y0 + j as f64 * dy) + n.offset[1];
            let mut ay = [Axis::default(); MAX_OCTAVES as usize];
            for o in 0..n.octaves {
                ay[o] = Axis::new(y * n.freq[o]);
            }
            let mut k0 = 0;
            while k0 < g.depth {
                let rows = core::cmp::min(ROW_BLOCK, g.depth - k0);
                for a in acc[..rows].iter_mut() {
                    a[..len].iter_mut().for_each(|v| *v = 0.0);
                }
                for o in 0..n.octaves {
                    for (kk, r) in row[..rows].iter_mut().enumerate() {
                        let z = (z0 + (k0 + kk) as f64 * dz) + n.offset[2];
                        *r = L::row3(n.seeds[o], &ay[o], &Axis::new(z * n.freq[o]));
                    }
                    cols.accumulate3::<L, S>(o, n.amp[o], &row[..rows], &mut acc[..rows]);
                }
                for (kk, acc) in acc[..rows].iter().enumerate() {
                    let base = (j * g.depth + k0 + kk) * g.width + first;
                    store_row(n, acc, &mut out[base..base + len]);
                }
                k0 += rows;
            }
        }
        first += len;
    }
}

/// A tile row's octave sums, normalised, into `dst` (how every lattice and simplex fill
/// ends a row).
#[inline(always)]
fn store_row<T: Sample>(n: &Noise, acc: &[f64; TILE], dst: &mut [T]) {
    for (d, a) in dst.iter_mut().zip(acc.iter()) {
        *d = T::from_f64(*a * n.norm);
    }
}

/// Lattice fill for value/Perlin without warp, the point fill otherwise. The warp check is
/// the one branch per call.
pub(crate) trait Fill {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]);
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]);
}
impl<L: Lattice + Base> Fill for L {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill2_point::<L, S, T>(n, g, out)
        } else {
            fill2_lattice::<L, S, T>(n, g, out)
        }
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill3_point::<L, S, T>(n, g, out)
        } else {
            fill3_lattice::<L, S, T>(n, g, out)
        }
    }
}
impl Fill for Simplex {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill2_point::<Simplex, S, T>(n, g, out)
        } else {
            fill2_simplex::<S, T>(n, g, out)
        }
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        if n.warp_amplitude > 0.0 {
            fill3_point::<Simplex, S, T>(n, g, out)
        } else {
            fill3_simplex::<S, T>(n, g, out)
        }
    }
}
impl Fill for Cellular {
    fn fill2<S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
        fill2_point::<Cellular, S, T>(n, g, out)
    }
    fn fill3<S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
        fill3_point::<Cellular, S, T>(n, g, out)
    }
}

pub(crate) fn do_fill2<F: Fill, S: Shape, T: Sample>(n: &Noise, g: &Grid2, out: &mut [T]) {
    F::fill2::<S, T>(n, g, out)
}
pub(crate) fn do_fill3<F: Fill, S: Shape, T: Sample>(n: &Noise, g: &Grid3, out: &mut [T]) {
    F::fill3::<S, T>(n, g, out)
}

impl Noise {
    fn check_coord(&self, lo: f64, hi: f64, off: f64) -> Result<(), NoiseError> {
        let scale = self.max_frequency();
        let w = self.warp_amplitude;
        for c in [lo, hi] {
            if !c.is_finite() {
                return Err(NoiseError::NotFinite("grid coordinate"));
            }
            let m = (abs(c + off) + w) * scale;
            if m >= MAX_LATTICE {
                return Err(NoiseError::CoordinateOutOfRange);
            }
        }
        Ok(())
    }

    /// One sample at (x, y), its coordinates checked as a fill's are: the value of
    /// [`Noise::sample_2d`], which a fill of a grid through (x, y) also gives.
    pub fn point_2d(&self, x: f64, y: f64) -> Result<f64, NoiseError> {
        self.check_coord(x, x, self.offset[0])?;
        self.check_coord(y, y, self.offset[1])?;
        Ok(self.sample_2d(x, y))
    }

    /// One sample at (x, y, z), its coordinates checked as a fill's are (see
    /// [`Noise::point_2d`]).
    pub fn point_3d(&self, x: f64, y: f64, z: f64) -> Result<f64, NoiseError> {
        self.check_coord(x, x, self.offset[0])?;
        self.check_coord(y, y, self.offset[1])?;
        self.check_coord(z, z, self.offset[2])?;
        Ok(self.sample_3d(x, y, z))
    }

    fn check2(&self, g: &Grid2, got: usize) -> Result<(), NoiseError> {
        let needed = g
            .width
            .checked_mul(g.height)
            .filter(|&n| n > 0)
            .ok_or(NoiseError::EmptyGrid)?;
        if got < needed {
            return Err(NoiseError::BufferTooSmall { needed, got });
        }
        let x1 = g.x0 + (g.width - 1) as f64 * g.dx;
        let y1 = g.y0 + (g.height - 1) as f64 * g.dy;
        finite(g.dx, "dx")?;
        finite(g.dy, "dy")?;
        self.check_coord(g.x0, x1, self.offset[0])?;
        self.check_coord(g.y0, y1, self.offset[1])
    }

    fn check3(&self, g: &Grid3, got: usize) -> Result<(), NoiseError> {
        let needed = g
            .width
            .checked_mul(g.height)
            .and_then(|n| n.checked_mul(g.depth))
            .filter(|&n| n > 0)
            .ok_or(NoiseError::EmptyGrid)?;
        if got < needed {
            return Err(NoiseError::BufferTooSmall { needed, got });
        }
        let counts = [g.width, g.height, g.depth];
        for a in 0..3 {
            finite(g.step[a], "step")?;
            let end = g.origin[a] + (counts[a] - 1) as f64 * g.step[a];
            self.check_coord(g.origin[a], end, self.offset[a])?;
        }
        Ok(())
    }

    /// Fill a 2D grid with `f64` samples, equal bit for bit to [`Noise::sample_2d`] at each
    /// sample's position. Writes `out[..width*height]` only on success.
    pub fn fill_2d(&self, g: &Grid2, out: &mut [f64]) -> Result<(), NoiseError> {
        if self.precision == Precision::F32 {
            self.check2(g, out.len())?;
            let out = &mut out[..g.width * g.height];
            grid::widened_in_place(out, |words| single::fill2(self, g, words));
            return Ok(());
        }
        self.fill_2d_own(g, OwnSamples::F64(out))
    }

    /// [`Noise::fill_2d`] rounded to `f32`.
    pub fn fill_2d_f32(&self, g: &Grid2, out: &mut [f32]) -> Result<(), NoiseError> {
        if self.precision == Precision::F64 {
            self.check2(g, out.len())?;
            dispatch!(self, do_fill2::<f32>(self, g, out));
            return Ok(());
        }
        self.fill_2d_own(g, OwnSamples::F32(out))
    }

    /// [`Noise::fill_2d`] in the noise's own precision, with no conversion: `out` must be of
    /// that precision ([`NoiseError::WrongPrecision`] otherwise). Only that precision's fill
    /// is reached from here, so a host that never converts links half the fills (the
    /// WebAssembly module keeps its size so).
    pub fn fill_2d_own(&self, g: &Grid2, out: OwnSamples<'_>) -> Result<(), NoiseError> {
        match (self.precision, out) {
            (Precision::F64, OwnSamples::F64(out)) => {
                self.check2(g, out.len())?;
                dispatch!(self, do_fill2::<f64>(self, g, out));
            }
            (Precision::F32, OwnSamples::F32(out)) => {
                self.check2(g, out.len())?;
                single::fill2(self, g, out);
            }
            (noise, _) => return Err(NoiseError::WrongPrecision(noise)),
        }
        Ok(())
    }

    /// Fill a 3D grid with `f64` samples (layout in [`Grid3`]), equal bit for bit to
    /// [`Noise::sample_3d`].
    pub fn fill_3d(&self, g: &Grid3, out: &mut [f64]) -> Result<(), NoiseError> {
        if self.precision == Precision::F32 {
            self.check3(g, out.len())?;
            let out = &mut out[..g.width * g.height * g.depth];
            grid::widened_in_place(out, |words| single::fill3(self, g, words));
            return Ok(());
        }
        self.fill_3d_own(g, OwnSamples::F64(out))
    }

    /// [`Noise::fill_3d`] rounded to `f32`.
    pub fn fill_3d_f32(&self, g: &Grid3, out: &mut [f32]) -> Result<(), NoiseError> {
        if self.precision == Precision::F64 {
            self.check3(g, out.len())?;
            dispatch!(self, do_fill3::<f32>(self, g, out));
            return Ok(());
        }
        self.fill_3d_own(g, OwnSamples::F32(out))
    }

    /// [`Noise::fill_3d`] in the noise's own precision, with no conversion (see
    /// [`Noise::fill_2d_own`]).
    pub fn fill_3d_own(&self, g: &Grid3, out: OwnSamples<'_>) -> Result<(), NoiseError> {
        match (self.precision, out) {
            (Precision::F64, OwnSamples::F64(out)) => {
                self.check3(g, out.len())?;
                dispatch!(self, do_fill3::<f64>(self, g, out));
            }
            (Precision::F32, OwnSamples::F32(out)) => {
                self.check3(g, out.len())?;
                single::fill3(self, g, out);
            }
            (noise, _) => return Err(NoiseError::WrongPrecision(noise)),
        }
        Ok(())
    }

    /// The grid of a heightmap chunk: `res × res` samples of chunk `(cx, cz)` (16 × 16 blocks),
    /// sample `(i, j)` at block position `(16*cx + i*16/res, 16*cz + j*16/res)`. Neighbouring
    /// chunks continue the same lattice of positions, so their heightmaps tile with no seam.
    pub fn heightmap_grid(cx: i32, cz: i32, res: usize) -> Grid2 {
        let step = 16.0 / res as f64;
        Grid2 {
            x0: f64::from(cx) * 16.0,
            y0: f64::from(cz) * 16.0,
            dx: step,
            dy: step,
            width: res,
            height: res,
        }
    }

    /// Fill a heightmap chunk (see [`Noise::heightmap_grid`]); `res` in
    /// `1..=`[`MAX_HEIGHTMAP_RES`].
    pub fn heightmap_chunk(
        &self,
        cx: i32,
        cz: i32,
        res: usize,
        out: &mut [f32],
    ) -> Result<(), NoiseError> {
        check_res(res)?;
        self.fill_2d_f32(&Self::heightmap_grid(cx, cz, res), out)
    }

    /// Fill a heightmap chunk with a one-sample apron: `(res + 3)²` samples, sample `(i, j)`
    /// for `i, j` in `-1..=res + 1` at index `(j + 1) * (res + 3) + (i + 1)`. Samples outside
    /// the chunk are computed exactly as the neighbouring chunk's own
    /// [`Noise::heightmap_chunk`] computes them (same position expression, so the same
    /// bits), which is what makes meshes of neighbouring chunks meet without a seam.
    pub fn heightmap_apron(
        &self,
        cx: i32,
        cz: i32,
        res: usize,
        out: &mut [f32],
    ) -> Result<(), NoiseError> {
        check_res(res)?;
        let side = res + 3;
        if out.len() < side * side {
            return Err(NoiseError::BufferTooSmall {
                needed: side * side,
                got: out.len(),
            });
        }
        let step = 16.0 / res as f64;
        // Along each axis: (owning chunk offset, first index in that chunk, count, first
        // apron index).
        let segments = [(-1, res - 1, 1, 0), (0, 0, res, 1), (1, 0, 2, res + 1)];
        // One row per fill, each starting exactly where the owning chunk's own fill puts
        // that sample: `16 * c + k * step`, then `+ i * step` along the row. Every row is
        // checked before any is filled, so a refused apron writes nothing.
        let rows = |f: &mut dyn FnMut(&Grid2, usize) -> Result<(), NoiseError>| {
            for &(dz, kz, nz, oz) in &segments {
                for j in 0..nz {
                    // In i64: the neighbour of chunk i32::MAX is past i32 (and refused as out
                    // of range by the checks, not wrapped).
                    let y0 = (i64::from(cz) + dz) as f64 * 16.0 + (kz + j) as f64 * step;
                    for &(dx, kx, nx, ox) in &segments {
                        let g = Grid2 {
                            x0: (i64::from(cx) + dx) as f64 * 16.0 + kx as f64 * step,
                            y0,
                            dx: step,
                            dy: step,
                            width: nx,
                            height: 1,
                        };
                        f(&g, (oz + j) * side + ox)?;
                    }
                }
            }
            Ok(())
        };
        rows(&mut |g, _| self.check2(g, g.width))?;
        rows(&mut |g, at| self.fill_2d_f32(g, &mut out[at..at + g.width]))?;
        Ok(())
    }
}

/// The finest heightmap chunk: samples per chunk side.
pub const MAX_HEIGHTMAP_RES: usize = 4096;

/// Samples per heightmap chunk side: `1..=MAX_HEIGHTMAP_RES`.
fn check_res(res: usize) -> Result<(), NoiseError> {
    if (1..=MAX_HEIGHTMAP_RES).contains(&res) {
        Ok(())
    } else {
        Err(NoiseError::OutOfRange("res"))
    }
}
