//! Noises: built once from their settings, then filled and sampled. A noise of `f64`
//! precision writes `f64` samples, one of `f32` precision `f32` samples (its own bits, as in
//! every other host).

use std::cell::RefCell;

use stratagen_core::noise::image::{noise_image, parse_palette, ImageDef};
use stratagen_core::noise::names::{
    lookup, name_of, DISTANCES, FRACTALS, LANGUAGES, PRECISIONS, RETURNS, TYPES,
};
use stratagen_core::noise::{
    fill_samples, Grid2, Grid3, Noise, NoiseDef, NoiseError, OwnSamples, Precision, Sample,
    MAX_HEIGHTMAP_RES,
};

use crate::boundary::{handle, in_slice, in_str, out_slice, status, text, Registry};

thread_local! {
    static NOISES: RefCell<Registry<Made>> = RefCell::new(Registry::new("noise"));
}

/// The numbers of a noise's settings, in the order [`sg_noise_create`] reads them.
pub const NUMBERS: [&str; 10] = [
    "octaves",
    "frequency",
    "lacunarity",
    "gain",
    "offset x",
    "offset y",
    "offset z",
    "cellular_jitter",
    "warp_amplitude",
    "warp_frequency",
];

/// The names of a noise's settings, in the order [`sg_noise_create`] reads them.
pub const NAMES: [&str; 5] = [
    "type",
    "fractal",
    "cellular_distance",
    "cellular_return",
    "precision",
];

/// The value `name` names in `table`, or a message listing what `setting` takes.
fn choose<T: Copy>(setting: &str, table: &[(&str, T)], name: &str) -> Result<T, String> {
    lookup(table, name).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        format!("{setting} {name:?}: expected one of {}", names.join(", "))
    })
}

/// The settings of [`sg_noise_create`]'s arguments, checked by the core when built.
pub fn definition(seed: i64, numbers: &[f64; 10], names: &[&str; 5]) -> Result<NoiseDef, String> {
    let octaves = numbers[0];
    if !(octaves.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&octaves)) {
        return Err(format!("octaves {octaves}: a whole number from 1 to 16"));
    }
    Ok(NoiseDef {
        seed,
        noise_type: choose(NAMES[0], &TYPES, names[0])?,
        fractal: choose(NAMES[1], &FRACTALS, names[1])?,
        octaves: octaves as u32,
        frequency: numbers[1],
        lacunarity: numbers[2],
        gain: numbers[3],
        offset: [numbers[4], numbers[5], numbers[6]],
        cellular_distance: choose(NAMES[2], &DISTANCES, names[2])?,
        cellular_return: choose(NAMES[3], &RETURNS, names[3])?,
        cellular_jitter: numbers[7],
        warp_amplitude: numbers[8],
        warp_frequency: numbers[9],
        precision: choose(NAMES[4], &PRECISIONS, names[4])?,
    })
}

/// The library's default settings: the ten [`NUMBERS`] into `out`, the five [`NAMES`] as the
/// text result (separated by NUL bytes). The default seed is 0.
///
/// # Safety
/// `out` must be writable for 10 `f64`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_defaults(out: *mut f64) -> u32 {
    let d = NoiseDef::default();
    let made = (|| {
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, NUMBERS.len(), "noise settings")? };
        out.copy_from_slice(&[
            f64::from(d.octaves),
            d.frequency,
            d.lacunarity,
            d.gain,
            d.offset[0],
            d.offset[1],
            d.offset[2],
            d.cellular_jitter,
            d.warp_amplitude,
            d.warp_frequency,
        ]);
        Ok::<(), String>(())
    })();
    match made {
        Ok(()) => text(
            [
                name_of(&TYPES, d.noise_type),
                name_of(&FRACTALS, d.fractal),
                name_of(&DISTANCES, d.cellular_distance),
                name_of(&RETURNS, d.cellular_return),
                name_of(&PRECISIONS, d.precision),
            ]
            .join("\0"),
        ),
        Err(e) => crate::boundary::fail(e),
    }
}

/// Build a noise: `seed`, the ten [`NUMBERS`] at `numbers` (octaves as a whole number) and
/// the five [`NAMES`] as UTF-8 at `names`, separated by NUL bytes. Its handle, or 0.
///
/// # Safety
/// `numbers` must be readable for 10 `f64`, `names` for `names_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_create(
    seed: i64,
    numbers: *const f64,
    names: *const u8,
    names_len: usize,
) -> u32 {
    handle(|| {
        // SAFETY: the caller's promise, checked for null and alignment inside.
        let numbers = unsafe { in_slice(numbers, NUMBERS.len(), "noise settings")? };
        // SAFETY: as above.
        let text = unsafe { in_str(names, names_len, "noise names")? };
        let parts: Vec<&str> = text.split('\0').collect();
        let names: [&str; 5] = parts
            .as_slice()
            .try_into()
            .map_err(|_| format!("noise names: {} given, 5 expected", parts.len()))?;
        let mut n = [0.0; 10];
        n.copy_from_slice(numbers);
        let def = definition(seed, &n, &names)?;
        let noise = def.build().map_err(|e| e.to_string())?;
        Ok(NOISES.with(|r| r.borrow_mut().insert(Made { def, noise })))
    })
}

/// Free a noise.
#[no_mangle]
pub extern "C" fn sg_noise_free(noise: u32) -> u32 {
    status(|| NOISES.with(|r| r.borrow_mut().remove(noise)).map(drop))
}

/// Live noises (the memory tests count them).
#[no_mangle]
pub extern "C" fn sg_noise_count() -> u32 {
    NOISES.with(|r| r.borrow().len() as u32)
}

/// A noise and the settings it was built from (images sample a tileable noise from them).
pub(crate) struct Made {
    def: NoiseDef,
    noise: Noise,
}

/// `f` on the noise of `id`.
pub(crate) fn with_noise<R>(
    id: u32,
    f: impl FnOnce(&Noise) -> Result<R, String>,
) -> Result<R, String> {
    NOISES.with(|r| f(&r.borrow().get(id)?.noise))
}

/// The sample count of a fill of `dims`, refused when empty or too large.
fn samples(dims: &[u32]) -> Result<usize, String> {
    let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
    fill_samples(&dims).map_err(|e| format!("a fill of {dims:?}: {e}"))
}

/// Write `n` samples of the noise's precision to `out` with `fill`, which fills in the noise's
/// own precision: the module links no fill of the other precision.
///
/// # Safety
/// `out` must be writable for `n` samples of the noise's precision.
unsafe fn fill_into(
    noise: u32,
    n: usize,
    out: *mut u8,
    fill: impl FnOnce(&Noise, OwnSamples<'_>) -> Result<(), NoiseError>,
) -> Result<(), String> {
    with_noise(noise, |noise| {
        let out = match noise.precision() {
            // SAFETY: the caller's promise for an f64 noise.
            Precision::F64 => OwnSamples::F64(unsafe { out_slice(out as *mut f64, n, "fill")? }),
            // SAFETY: the caller's promise for an f32 noise.
            Precision::F32 => OwnSamples::F32(unsafe { out_slice(out as *mut f32, n, "fill")? }),
        };
        fill(noise, out).map_err(|e| e.to_string())
    })
}

/// Fill a `width` × `height` grid from (`x0`, `y0`) with steps `dx`, `dy` into `out` (row by
/// row: `f64` or `f32` per sample, as the noise's precision).
///
/// # Safety
/// `out` must be writable for `width * height` samples of the noise's precision.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // a grid's six numbers, the noise and the buffer
pub unsafe extern "C" fn sg_noise_fill_2d(
    noise: u32,
    x0: f64,
    y0: f64,
    dx: f64,
    dy: f64,
    width: u32,
    height: u32,
    out: *mut u8,
) -> u32 {
    status(|| {
        let n = samples(&[width, height])?;
        let g = Grid2 {
            x0,
            y0,
            dx,
            dy,
            width: width as usize,
            height: height as usize,
        };
        // SAFETY: the caller's promise, passed on.
        unsafe { fill_into(noise, n, out, |noise, v| noise.fill_2d_own(&g, v)) }
    })
}

/// Fill a `width` × `height` × `depth` grid (index `(j * depth + k) * width + i`: y, then z,
/// then x) from `(x0, y0, z0)` with steps `(dx, dy, dz)` into `out`.
///
/// # Safety
/// `out` must be writable for `width * height * depth` samples of the noise's precision.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // a grid's nine numbers, the noise and the buffer
pub unsafe extern "C" fn sg_noise_fill_3d(
    noise: u32,
    x0: f64,
    y0: f64,
    z0: f64,
    dx: f64,
    dy: f64,
    dz: f64,
    width: u32,
    height: u32,
    depth: u32,
    out: *mut u8,
) -> u32 {
    status(|| {
        let n = samples(&[width, height, depth])?;
        let g = Grid3 {
            origin: [x0, y0, z0],
            step: [dx, dy, dz],
            width: width as usize,
            height: height as usize,
            depth: depth as usize,
        };
        // SAFETY: the caller's promise, passed on.
        unsafe { fill_into(noise, n, out, |noise, v| noise.fill_3d_own(&g, v)) }
    })
}

/// One sample at (x, y) into `*out` (`f64`; an `f32` noise's sample widened exactly).
///
/// # Safety
/// `out` must be writable for one `f64`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_sample_2d(noise: u32, x: f64, y: f64, out: *mut f64) -> u32 {
    status(|| {
        let v = with_noise(noise, |n| n.point_2d(x, y).map_err(|e| e.to_string()))?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 1, "sample")? };
        out[0] = v;
        Ok(())
    })
}

/// One sample at (x, y, z) into `*out`.
///
/// # Safety
/// `out` must be writable for one `f64`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_sample_3d(
    noise: u32,
    x: f64,
    y: f64,
    z: f64,
    out: *mut f64,
) -> u32 {
    status(|| {
        let v = with_noise(noise, |n| n.point_3d(x, y, z).map_err(|e| e.to_string()))?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 1, "sample")? };
        out[0] = v;
        Ok(())
    })
}

/// The `res` × `res` heightmap chunk (`cx`, `cz`) as `f32` (chunks tile without seams).
///
/// # Safety
/// `out` must be writable for `res * res` `f32`.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_heightmap(
    noise: u32,
    cx: i32,
    cz: i32,
    res: u32,
    out: *mut f32,
) -> u32 {
    status(|| {
        let n = samples(&[res, res])?;
        // `Noise::heightmap_chunk`'s bound on `res`, checked here before the buffer is taken
        // and before an f64 noise's samples are allocated.
        let res = res as usize;
        if res > MAX_HEIGHTMAP_RES {
            return Err(NoiseError::OutOfRange("res").to_string());
        }
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, n, "heightmap")? };
        // `Noise::heightmap_chunk`'s samples, filled in the noise's own precision and rounded
        // as that fill rounds an f64 noise's (`Sample::from_f64`).
        let grid = Noise::heightmap_grid(cx, cz, res);
        with_noise(noise, |noise| {
            match noise.precision() {
                Precision::F32 => noise.fill_2d_own(&grid, OwnSamples::F32(out)),
                Precision::F64 => {
                    let mut wide = vec![0.0f64; n];
                    noise
                        .fill_2d_own(&grid, OwnSamples::F64(&mut wide))
                        .map(|()| {
                            for (o, w) in out.iter_mut().zip(&wide) {
                                *o = f32::from_f64(*w);
                            }
                        })
                }
            }
            .map_err(|e| e.to_string())
        })
    })
}

/// The `width` × `height` image of the noise (pixel `(x, y)` sampled at `(x, y)`) through
/// `contrast`, `brightness` and the palette named or listed at `palette` (UTF-8, as the
/// command line's `--palette`), tileable when `tileable` is 1, into `out` as RGBA, row by row,
/// alpha 255: [`stratagen_core::noise::image::noise_image`], the command line's pixels.
///
/// # Safety
/// `palette` must be readable for `palette_len` bytes, `out` writable for
/// `4 * width * height` bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the image's settings, the noise and the buffer
pub unsafe extern "C" fn sg_noise_image(
    noise: u32,
    width: u32,
    height: u32,
    contrast: f64,
    brightness: f64,
    palette: *const u8,
    palette_len: usize,
    tileable: u32,
    out: *mut u8,
) -> u32 {
    status(|| {
        let n = samples(&[width, height])?;
        // SAFETY: the caller's promise.
        let palette = unsafe { in_str(palette, palette_len, "palette")? };
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 4 * n, "image")? };
        let image = ImageDef {
            contrast,
            brightness,
            palette: parse_palette(palette).map_err(|e| e.to_string())?,
            tileable: tileable != 0,
        };
        let rgb = NOISES.with(|r| {
            let made = r.borrow();
            let def = &made.get(noise)?.def;
            noise_image(def, width as usize, height as usize, &image).map_err(|e| e.to_string())
        })?;
        for (px, c) in out.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
            px[..3].copy_from_slice(c);
            px[3] = u8::MAX;
        }
        Ok(())
    })
}

/// The noise as GPU shader source in `language` (`wgsl`, `glsl`, `godot`, UTF-8 at
/// `language`), of 2 or 3 `dims`, as the text result.
///
/// # Safety
/// `language` must be readable for `language_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_shader(
    noise: u32,
    language: *const u8,
    language_len: usize,
    dims: u32,
) -> u32 {
    let made = (|| {
        // SAFETY: the caller's promise.
        let name = unsafe { in_str(language, language_len, "shader language")? };
        let lang = choose("language", &LANGUAGES, name)?;
        with_noise(noise, |n| n.shader(lang, dims).map_err(|e| e.to_string()))
    })();
    match made {
        Ok(t) => text(t),
        Err(e) => crate::boundary::fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{sg_alloc, sg_error_len, sg_error_ptr, sg_free, FAILED, OK};

    fn error() -> String {
        // SAFETY: the error text is the module's own, valid until the next failure.
        let bytes = unsafe { std::slice::from_raw_parts(sg_error_ptr(), sg_error_len()) };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    fn create(numbers: [f64; 10], names: &str) -> u32 {
        // SAFETY: both buffers are live for the call.
        unsafe { sg_noise_create(7, numbers.as_ptr(), names.as_ptr(), names.len()) }
    }

    const DEFAULTS: [f64; 10] = [4.0, 0.01, 2.0, 0.5, 0.0, 0.0, 0.0, 0.65, 0.0, 0.01];

    /// A fill through the boundary equals the core's fill, in both precisions.
    #[test]
    fn fills_equal_the_core_s() {
        for (names, precision) in [
            ("simplex\0ridged\0euclidean\0f1\0f64", Precision::F64),
            ("simplex\0ridged\0euclidean\0f1\0f32", Precision::F32),
        ] {
            let h = create(DEFAULTS, names);
            assert_ne!(h, 0, "{}", error());
            let want = NoiseDef {
                seed: 7,
                noise_type: stratagen_core::noise::NoiseType::Simplex,
                fractal: stratagen_core::noise::FractalType::Ridged,
                precision,
                ..NoiseDef::default()
            }
            .build()
            .unwrap();
            let g = Grid2 {
                x0: -3.5,
                y0: 9.0,
                dx: 0.5,
                dy: 2.0,
                width: 16,
                height: 8,
            };
            let p = sg_alloc(16 * 8 * 8);
            // SAFETY: 1024 bytes hold 128 samples of either precision.
            let r = unsafe { sg_noise_fill_2d(h, -3.5, 9.0, 0.5, 2.0, 16, 8, p) };
            assert_eq!(r, OK, "{}", error());
            if precision == Precision::F64 {
                let mut v = vec![0.0; 128];
                want.fill_2d(&g, &mut v).unwrap();
                // SAFETY: filled above with 128 f64.
                let got = unsafe { std::slice::from_raw_parts(p as *const f64, 128) };
                assert!(got.iter().zip(&v).all(|(a, b)| a.to_bits() == b.to_bits()));
            } else {
                let mut v = vec![0.0f32; 128];
                want.fill_2d_f32(&g, &mut v).unwrap();
                // SAFETY: filled above with 128 f32.
                let got = unsafe { std::slice::from_raw_parts(p as *const f32, 128) };
                assert!(got.iter().zip(&v).all(|(a, b)| a.to_bits() == b.to_bits()));
            }
            // SAFETY: allocated above with this size.
            unsafe { sg_free(p, 1024) };
            assert_eq!(sg_noise_free(h), OK);
            assert_eq!(sg_noise_free(h), FAILED, "a freed handle is refused");
        }
    }

    /// The module fills heightmaps in the noise's own precision: the samples equal the core's
    /// `heightmap_chunk`, which rounds an f64 noise's fill, and its range of `res` is the same.
    #[test]
    fn heightmaps_equal_the_core_s() {
        for names in [
            ["perlin", "fbm", "euclidean", "f1", "f64"],
            ["value", "billow", "euclidean", "f1", "f32"],
        ] {
            let h = create(DEFAULTS, &names.join("\0"));
            assert_ne!(h, 0, "{}", error());
            let want = definition(7, &DEFAULTS, &names).unwrap().build().unwrap();
            let res = 24;
            let mut v = vec![0.0f32; res * res];
            want.heightmap_chunk(-3, 5, res, &mut v).unwrap();
            let p = sg_alloc(4 * res * res);
            // SAFETY: the buffer holds res² f32.
            let r = unsafe { sg_noise_heightmap(h, -3, 5, res as u32, p as *mut f32) };
            assert_eq!(r, OK, "{}", error());
            // SAFETY: filled above with res² f32.
            let got = unsafe { std::slice::from_raw_parts(p as *const f32, res * res) };
            assert!(got.iter().zip(&v).all(|(a, b)| a.to_bits() == b.to_bits()));
            // SAFETY: allocated above with this size.
            unsafe { sg_free(p, 4 * res * res) };
            let mut one = [0.0f32; 1];
            let refused = want.heightmap_chunk(0, 0, 4097, &mut one).unwrap_err();
            // SAFETY: a res past the range is refused before the buffer is used.
            let r = unsafe { sg_noise_heightmap(h, 0, 0, 4097, one.as_mut_ptr()) };
            assert_eq!((r, error()), (FAILED, refused.to_string()));
            assert_eq!(sg_noise_free(h), OK);
        }
    }

    #[test]
    fn bad_settings_are_refused_with_the_core_s_message() {
        let mut nan = DEFAULTS;
        nan[1] = f64::NAN;
        assert_eq!(create(nan, "perlin\0fbm\0euclidean\0f1\0f64"), 0);
        assert!(error().contains("frequency"), "{}", error());
        let mut half = DEFAULTS;
        half[0] = 2.5;
        assert_eq!(create(half, "perlin\0fbm\0euclidean\0f1\0f64"), 0);
        assert!(error().contains("octaves"), "{}", error());
        assert_eq!(create(DEFAULTS, "purlin\0fbm\0euclidean\0f1\0f64"), 0);
        assert!(
            error().contains("expected one of value, perlin"),
            "{}",
            error()
        );
        assert_eq!(create(DEFAULTS, "perlin\0fbm"), 0);
        assert!(error().contains("2 given"), "{}", error());
        let h = create(DEFAULTS, "perlin\0fbm\0euclidean\0f1\0f64");
        // SAFETY: a null buffer is refused before any write.
        let r = unsafe { sg_noise_fill_2d(h, 0.0, 0.0, 1.0, 1.0, 4, 4, std::ptr::null_mut()) };
        assert_eq!(r, FAILED);
        // SAFETY: an empty grid is refused before the buffer is read.
        let r = unsafe { sg_noise_fill_2d(h, 0.0, 0.0, 1.0, 1.0, 0, 4, std::ptr::null_mut()) };
        assert_eq!(r, FAILED);
        assert!(error().contains("zero"), "{}", error());
        sg_noise_free(h);
    }
}
