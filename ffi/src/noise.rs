//! Stateless noise: the definition's default, 2D and 3D grid fills, heightmap chunks. Any
//! thread.

use stratagen_core::noise::{Grid2, Grid3, Noise, NoiseDef, NoiseError};

use crate::boundary::{ffi, ffi_value, refused, try_def, try_ref, try_slice_mut, versioned};
use crate::enums::{
    from_wire, sg_cellular_distance, sg_cellular_return, sg_fractal, sg_noise_type,
};
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_grid2, sg_grid3, sg_noise_def};

/// Default noise settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_noise_def_default() -> sg_noise_def {
    ffi_value(refused(), || {
        let d = NoiseDef::default();
        sg_noise_def {
            struct_size: std::mem::size_of::<sg_noise_def>() as u32,
            noise_type: d.noise_type as u32,
            seed: d.seed,
            fractal: d.fractal as u32,
            octaves: d.octaves,
            frequency: d.frequency,
            lacunarity: d.lacunarity,
            gain: d.gain,
            offset: d.offset,
            cellular_distance: d.cellular_distance as u32,
            cellular_return: d.cellular_return as u32,
            cellular_jitter: d.cellular_jitter,
            warp_amplitude: d.warp_amplitude,
            warp_frequency: d.warp_frequency,
        }
    })
}

versioned!(sg_noise_def);

/// Validate a C noise definition into a [`Noise`].
pub(crate) fn noise_of(d: &sg_noise_def) -> FfiResult<Noise> {
    NoiseDef {
        seed: d.seed,
        noise_type: from_wire::<sg_noise_type, _>(d.noise_type)?,
        fractal: from_wire::<sg_fractal, _>(d.fractal)?,
        octaves: d.octaves,
        frequency: d.frequency,
        lacunarity: d.lacunarity,
        gain: d.gain,
        offset: d.offset,
        cellular_distance: from_wire::<sg_cellular_distance, _>(d.cellular_distance)?,
        cellular_return: from_wire::<sg_cellular_return, _>(d.cellular_return)?,
        cellular_jitter: d.cellular_jitter,
        warp_amplitude: d.warp_amplitude,
        warp_frequency: d.warp_frequency,
    }
    .build()
    .map_err(|_| sg_result::InvalidArgument)
}

/// A grid fill: validate the definition, convert the C grid, fill the caller's buffer.
fn grid_fill<G: Copy + Into<R>, R>(
    def: &sg_noise_def,
    grid: &G,
    out: &mut [f32],
    fill: impl FnOnce(&Noise, &R, &mut [f32]) -> Result<(), NoiseError>,
) -> FfiResult<()> {
    Ok(fill(&noise_of(def)?, &(*grid).into(), out)?)
}

/// Fill `out[0..width*height]` with fractal noise over a 2D grid (`float` samples, equal to
/// the library's point samples rounded to float). Nothing is written on error. Any thread;
/// allocates nothing and uses about 30 KiB of the calling thread's stack (every noise fill).
///
/// # Safety
/// `def` must be NULL or readable for `def->struct_size` bytes, `grid` NULL or readable; `out`
/// NULL or valid for writes of `cap` floats. The same holds for the other fills.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_2d(
    def: *const sg_noise_def,
    grid: *const sg_grid2,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (def, grid, out) = unsafe { (try_def(def)?, try_ref(grid)?, try_slice_mut(out, cap)?) };
        grid_fill(def, grid, out, Noise::fill_2d_f32)
    })
}

/// Fill `out[0..width*height*depth]` over a 3D grid (layout in `sg_grid3`). Any thread.
///
/// # Safety
/// As for `sg_noise_fill_2d`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_3d(
    def: *const sg_noise_def,
    grid: *const sg_grid3,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (def, grid, out) = unsafe { (try_def(def)?, try_ref(grid)?, try_slice_mut(out, cap)?) };
        grid_fill(def, grid, out, Noise::fill_3d_f32)
    })
}

/// Fill a heightmap chunk: `res * res` samples of chunk (cx, cz), sample (i, j) at block
/// (16*cx + i*16/res, 16*cz + j*16/res); neighbouring chunks tile seamlessly. `res` in
/// 1..=4096. Any thread. Samples in one lattice cell share its hashing (the usual heightmap
/// at long wavelengths).
///
/// # Safety
/// As for `sg_noise_fill_2d`.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_fill(
    def: *const sg_noise_def,
    cx: i32,
    cz: i32,
    res: u32,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: forwarded from this function's contract.
        let n = noise_of(unsafe { try_def(def) }?)?;
        // SAFETY: forwarded from this function's contract.
        let buf = unsafe { try_slice_mut(out, cap) }?;
        Ok(n.heightmap_chunk(cx, cz, res as usize, buf)?)
    })
}

impl From<sg_grid2> for Grid2 {
    fn from(g: sg_grid2) -> Grid2 {
        Grid2 {
            x0: g.x0,
            y0: g.y0,
            dx: g.dx,
            dy: g.dy,
            width: g.width as usize,
            height: g.height as usize,
        }
    }
}

impl From<sg_grid3> for Grid3 {
    fn from(g: sg_grid3) -> Grid3 {
        Grid3 {
            origin: g.origin,
            step: g.step,
            width: g.width as usize,
            height: g.height as usize,
            depth: g.depth as usize,
        }
    }
}
