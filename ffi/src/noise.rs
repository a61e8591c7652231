//! Noise: a definition built once into a handle (`sg_noise_create`), filled and sampled from
//! any thread, and the definition-per-call fills (each builds the noise first). Any thread.

use std::collections::BTreeMap;
use std::os::raw::c_char;
use std::sync::{Arc, RwLock};

use stratagen_core::noise::{Grid2, Grid3, Noise, NoiseDef, NoiseError, ShaderLanguage};

use crate::boundary::{
    copy_out_str, ffi, ffi_value, out_buf, refused, try_def, try_out, try_ref, try_slice_mut,
    versioned,
};
use crate::enums::{
    from_wire, sg_cellular_distance, sg_cellular_return, sg_fractal, sg_noise_type, sg_precision,
    sg_shader_language,
};
use crate::handles::{next_id, to_handle, try_handle};
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
            precision: d.precision as u32,
        }
    })
}

versioned!(sg_noise_def);

/// An opaque noise handle: a definition validated and built once.
pub struct sg_noise {
    _private: [u8; 0],
}

/// Built noises by handle id. A read lock per call: fills on many threads do not wait on one
/// another.
static NOISES: RwLock<BTreeMap<u64, Arc<Noise>>> = RwLock::new(BTreeMap::new());

/// The noise behind a handle: NULL and unknown (destroyed) handles are errors.
fn noise(h: *const sg_noise) -> FfiResult<Arc<Noise>> {
    let id = try_handle(h)?;
    let reg = NOISES.read().unwrap_or_else(|e| e.into_inner());
    reg.get(&id).cloned().ok_or(sg_result::StaleHandle)
}

/// Validate and build a noise definition into `*noise` (release it with
/// `sg_noise_destroy`). Errors as for `sg_noise_fill_2d`'s definition. Any thread; the handle
/// is used from any thread, by many at once.
///
/// # Safety
/// `def` must be NULL or readable for `def->struct_size` bytes; `noise` NULL or valid for a
/// write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_create(
    def: *const sg_noise_def,
    noise: *mut *mut sg_noise,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (out, def) = unsafe { (try_out(noise)?, try_def(def)?) };
        let n = noise_of(def)?;
        let id = next_id();
        let mut reg = NOISES.write().unwrap_or_else(|e| e.into_inner());
        reg.insert(id, Arc::new(n));
        out.write(to_handle(id));
        Ok(())
    })
}

/// Destroy a noise (fills running on other threads finish first). Any thread.
#[no_mangle]
pub extern "C" fn sg_noise_destroy(noise: *mut sg_noise) -> sg_result {
    ffi(|| {
        let id = try_handle(noise)?;
        let mut reg = NOISES.write().unwrap_or_else(|e| e.into_inner());
        reg.remove(&id).map(drop).ok_or(sg_result::StaleHandle)
    })
}

/// `sg_noise_fill_2d` on a built noise: no definition is read or built. Any thread.
///
/// # Safety
/// `grid` must be NULL or readable; `out` NULL or valid for writes of `cap` floats.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_grid_2d(
    noise: *const sg_noise,
    grid: *const sg_grid2,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (grid, out) = unsafe { (try_ref(grid)?, try_slice_mut(out, cap)?) };
        grid_fill(self::noise(noise)?.as_ref(), grid, out, Noise::fill_2d_f32)
    })
}

/// `sg_noise_fill_3d` on a built noise. Any thread.
///
/// # Safety
/// As for `sg_noise_fill_grid_2d`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_grid_3d(
    noise: *const sg_noise,
    grid: *const sg_grid3,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (grid, out) = unsafe { (try_ref(grid)?, try_slice_mut(out, cap)?) };
        grid_fill(self::noise(noise)?.as_ref(), grid, out, Noise::fill_3d_f32)
    })
}

/// `sg_heightmap_fill` on a built noise. Any thread.
///
/// # Safety
/// `out` must be NULL or valid for writes of `cap` floats.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_heightmap(
    noise: *const sg_noise,
    cx: i32,
    cz: i32,
    res: u32,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or valid for `cap` writes by this function's contract.
        let out = unsafe { try_slice_mut(out, cap) }?;
        Ok(self::noise(noise)?.heightmap_chunk(cx, cz, res as usize, out)?)
    })
}

/// One sample at (x, y) into `*value`, the library's point sample in double precision (a
/// fill gives the same value rounded to float). Coordinates are refused as a fill's are.
/// Any thread.
///
/// # Safety
/// `value` must be NULL or valid for a write of a `double`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_sample_2d(
    noise: *const sg_noise,
    x: f64,
    y: f64,
    value: *mut f64,
) -> sg_result {
    ffi(|| {
        // SAFETY: `value` is NULL or writable by this function's contract.
        let value = unsafe { try_out(value) }?;
        value.write(self::noise(noise)?.point_2d(x, y)?);
        Ok(())
    })
}

/// One sample at (x, y, z) into `*value`. Any thread.
///
/// # Safety
/// `value` must be NULL or valid for a write of a `double`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_sample_3d(
    noise: *const sg_noise,
    x: f64,
    y: f64,
    z: f64,
    value: *mut f64,
) -> sg_result {
    ffi(|| {
        // SAFETY: `value` is NULL or writable by this function's contract.
        let value = unsafe { try_out(value) }?;
        value.write(self::noise(noise)?.point_3d(x, y, z)?);
        Ok(())
    })
}

/// The noise as GPU shader source in `language` (`sg_shader_language`): one function
/// `sg_noise_2d(vec2)` (`dims` 2) or `sg_noise_3d(vec3)` (`dims` 3) that gives this noise's
/// float samples, as a NUL-terminated string in `buf[0..*needed]`. `*needed` (optional)
/// receives its size with the NUL; a smaller `cap` gives `SG_RESULT_BUFFER_TOO_SMALL` (call
/// with `buf = NULL, cap = 0` to ask the size). `SG_RESULT_INVALID_ARGUMENT` for `dims`
/// other than 2 or 3 and for a double-precision noise (shaders are made from
/// `SG_PRECISION_F32` noises: every type, fractal and domain warp). Any thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_shader(
    noise: *const sg_noise,
    language: u32,
    dims: u32,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf.cast::<u8>(), cap, needed) };
        let language = from_wire::<sg_shader_language, ShaderLanguage>(language)?;
        let source = self::noise(noise)?
            .shader(language, dims)
            .map_err(|_| sg_result::InvalidArgument)?;
        copy_out_str(&source, buf)
    })
}

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
        precision: from_wire::<sg_precision, _>(d.precision)?,
    }
    .build()
    .map_err(|_| sg_result::InvalidArgument)
}

/// A grid fill of either form (a handle's noise, or a definition built for the call): convert
/// the C grid, fill the caller's buffer.
fn grid_fill<G: Copy + Into<R>, R>(
    noise: &Noise,
    grid: &G,
    out: &mut [f32],
    fill: impl FnOnce(&Noise, &R, &mut [f32]) -> Result<(), NoiseError>,
) -> FfiResult<()> {
    Ok(fill(noise, &(*grid).into(), out)?)
}

/// Fill `out[0..width*height]` with fractal noise over a 2D grid (`float` samples, equal to
/// the library's point samples rounded to float). Nothing is written on error. Any thread;
/// allocates nothing and uses about 30 KiB of the calling thread's stack, 60 KiB for a
/// single-precision noise (every noise fill).
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
        grid_fill(&noise_of(def)?, grid, out, Noise::fill_2d_f32)
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
        grid_fill(&noise_of(def)?, grid, out, Noise::fill_3d_f32)
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
