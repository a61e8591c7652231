//! `stratagen.Noise`: the core's noise settings as keyword arguments, validated once; fills
//! return numpy arrays and release the GIL while they run.

use numpy::PyArrayDyn;
use pyo3::prelude::*;
use pyo3::types::PyAny;
use stratagen_core::noise::names::{
    name_of, DISTANCES, FRACTALS, LANGUAGES, PRECISIONS, RETURNS, TYPES,
};
use stratagen_core::noise::{fill_samples, Grid2, Grid3, Noise as CoreNoise, NoiseDef};

use crate::arrays::{float_type, owned, FloatType};
use crate::errors::{argument, choose as parse, noise as noise_error, Int};

/// Deterministic noise: the same settings give the same values on every machine.
///
/// Settings are keyword arguments with the core's defaults: `type` ("value", "perlin",
/// "simplex", "cellular"), `fractal` ("none", "fbm", "ridged", "billow"), `octaves`
/// (1..=16), `frequency` (cycles per unit), `lacunarity`, `gain`, `seed`, `offset` (x, y, z
/// added before scaling), `warp_amplitude` and `warp_frequency` (domain warp; 0 disables),
/// for cellular noise `cellular_distance` ("euclidean", "manhattan"), `cellular_return`
/// ("f1", "f2", "f2_minus_f1", "cell_value") and `cellular_jitter` (0..=1); and `precision`
/// ("f64", or "f32": its own noise, about twice as fast to fill, as exact far out).
#[pyclass(frozen, module = "stratagen")]
pub struct Noise {
    def: NoiseDef,
    noise: CoreNoise,
}

/// `n` samples of a fill of `dims`, refused when empty or too large.
fn samples(dims: &[usize]) -> PyResult<usize> {
    fill_samples(dims).map_err(|e| argument(format!("a fill of {dims:?}: {e}")))
}

/// Fill `n` samples with `f` with the GIL released and hand them to numpy as `shape`.
fn fill_array<'py, T: numpy::Element + Default + Clone + Send>(
    py: Python<'py>,
    n: usize,
    shape: &[usize],
    f: impl FnOnce(&mut [T]) -> Result<(), stratagen_core::noise::NoiseError> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let v = py.detach(|| {
        let mut v = vec![T::default(); n];
        f(&mut v).map(|()| v)
    });
    Ok(owned(py, v.map_err(noise_error)?, shape)?.into_any())
}

#[pymethods]
impl Noise {
    #[new]
    #[pyo3(signature = (
        *,
        r#type = "perlin",
        fractal = "fbm",
        octaves = Int(4),
        frequency = 0.01,
        lacunarity = 2.0,
        gain = 0.5,
        seed = Int(0),
        offset = (0.0, 0.0, 0.0),
        warp_amplitude = 0.0,
        warp_frequency = 0.01,
        cellular_distance = "euclidean",
        cellular_return = "f1",
        cellular_jitter = 0.65,
        precision = "f64",
    ), text_signature = "(*, type='perlin', fractal='fbm', octaves=4, frequency=0.01, \
        lacunarity=2.0, gain=0.5, seed=0, offset=(0.0, 0.0, 0.0), warp_amplitude=0.0, \
        warp_frequency=0.01, cellular_distance='euclidean', cellular_return='f1', \
        cellular_jitter=0.65, precision='f64')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        r#type: &str,
        fractal: &str,
        octaves: Int<u32>,
        frequency: f64,
        lacunarity: f64,
        gain: f64,
        seed: Int<i64>,
        offset: (f64, f64, f64),
        warp_amplitude: f64,
        warp_frequency: f64,
        cellular_distance: &str,
        cellular_return: &str,
        cellular_jitter: f64,
        precision: &str,
    ) -> PyResult<Self> {
        let (octaves, seed) = (octaves.0, seed.0);
        let def = NoiseDef {
            seed,
            noise_type: parse("type", r#type, &TYPES)?,
            fractal: parse("fractal", fractal, &FRACTALS)?,
            octaves,
            frequency,
            lacunarity,
            gain,
            offset: [offset.0, offset.1, offset.2],
            cellular_distance: parse("cellular_distance", cellular_distance, &DISTANCES)?,
            cellular_return: parse("cellular_return", cellular_return, &RETURNS)?,
            cellular_jitter,
            warp_amplitude,
            warp_frequency,
            precision: parse("precision", precision, &PRECISIONS)?,
        };
        let noise = def.build().map_err(noise_error)?;
        Ok(Noise { def, noise })
    }

    /// A `(height, width)` C-contiguous array: sample `[j, i]` at `(x0 + i*dx, y0 + j*dy)`.
    /// `dtype` is float64 (default) or float32; both give the bits of the same fill in the
    /// C API and the command line.
    #[pyo3(signature = (width, height, *, x0 = 0.0, y0 = 0.0, dx = 1.0, dy = 1.0, dtype = None))]
    #[allow(clippy::too_many_arguments)]
    fn fill_2d<'py>(
        &self,
        py: Python<'py>,
        width: Int<usize>,
        height: Int<usize>,
        x0: f64,
        y0: f64,
        dx: f64,
        dy: f64,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (width, height) = (width.0, height.0);
        let n = samples(&[height, width])?;
        let grid = Grid2 {
            x0,
            y0,
            dx,
            dy,
            width,
            height,
        };
        let shape = [height, width];
        let noise = &self.noise;
        match dtype.map_or(Ok(FloatType::F64), |d| float_type(py, d))? {
            FloatType::F64 => fill_array(py, n, &shape, |v: &mut [f64]| noise.fill_2d(&grid, v)),
            FloatType::F32 => {
                fill_array(py, n, &shape, |v: &mut [f32]| noise.fill_2d_f32(&grid, v))
            }
        }
    }

    /// A `(height, depth, width)` C-contiguous array — y outermost, then z, then x, the
    /// block order of a chunk: sample `[j, k, i]` at `(x0 + i*dx, y0 + j*dy, z0 + k*dz)`.
    #[pyo3(signature = (
        width, height, depth, *, x0 = 0.0, y0 = 0.0, z0 = 0.0, dx = 1.0, dy = 1.0, dz = 1.0,
        dtype = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn fill_3d<'py>(
        &self,
        py: Python<'py>,
        width: Int<usize>,
        height: Int<usize>,
        depth: Int<usize>,
        x0: f64,
        y0: f64,
        z0: f64,
        dx: f64,
        dy: f64,
        dz: f64,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (width, height, depth) = (width.0, height.0, depth.0);
        let n = samples(&[height, depth, width])?;
        let grid = Grid3 {
            origin: [x0, y0, z0],
            step: [dx, dy, dz],
            width,
            height,
            depth,
        };
        let shape = [height, depth, width];
        let noise = &self.noise;
        match dtype.map_or(Ok(FloatType::F64), |d| float_type(py, d))? {
            FloatType::F64 => fill_array(py, n, &shape, |v: &mut [f64]| noise.fill_3d(&grid, v)),
            FloatType::F32 => {
                fill_array(py, n, &shape, |v: &mut [f32]| noise.fill_3d_f32(&grid, v))
            }
        }
    }

    /// The `(res, res)` float32 heightmap of chunk `(cx, cz)`: sample `[j, i]` at block
    /// `(16*cx + i*16/res, 16*cz + j*16/res)`, so neighbouring chunks tile without a seam.
    #[pyo3(signature = (cx, cz, res = Int(16)), text_signature = "($self, cx, cz, res=16)")]
    fn heightmap<'py>(
        &self,
        py: Python<'py>,
        cx: Int<i32>,
        cz: Int<i32>,
        res: Int<usize>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let (cx, cz, res) = (cx.0, cz.0, res.0);
        let n = samples(&[res, res])?;
        let v = py.detach(|| {
            let mut v = vec![0f32; n];
            self.noise.heightmap_chunk(cx, cz, res, &mut v).map(|()| v)
        });
        owned(py, v.map_err(noise_error)?, &[res, res])
    }

    /// The value at `(x, y)`: the same bits as the fill's sample there.
    fn sample_2d(&self, x: f64, y: f64) -> PyResult<f64> {
        if !(x.is_finite() && y.is_finite()) {
            return Err(argument("sample coordinates must be finite"));
        }
        Ok(self.noise.sample_2d(x, y))
    }

    /// The value at `(x, y, z)`: the same bits as the fill's sample there.
    fn sample_3d(&self, x: f64, y: f64, z: f64) -> PyResult<f64> {
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            return Err(argument("sample coordinates must be finite"));
        }
        Ok(self.noise.sample_3d(x, y, z))
    }

    /// The noise as GPU shader source: one function `sg_noise_2d(p)` (`dims` 2) or
    /// `sg_noise_3d(p)` (`dims` 3) in `language` ("wgsl", "glsl" for GLSL ES 3.0, "godot")
    /// that gives the same samples as `sample_2d`/`sample_3d` in float32. Only for
    /// `precision="f32"` noises (`ArgumentError` otherwise).
    #[pyo3(signature = (language = "wgsl", dims = Int(2)), text_signature = "($self, language='wgsl', dims=2)")]
    fn shader(&self, language: &str, dims: Int<u32>) -> PyResult<String> {
        let dims = dims.0;
        let lang = parse("language", language, &LANGUAGES)?;
        self.noise
            .shader(lang, dims)
            .map_err(|e| argument(e.to_string()))
    }

    fn __repr__(&self) -> String {
        let d = &self.def;
        format!(
            "Noise(type={:?}, fractal={:?}, octaves={}, frequency={}, seed={}, precision={:?})",
            name_of(&TYPES, d.noise_type),
            name_of(&FRACTALS, d.fractal),
            d.octaves,
            d.frequency,
            d.seed,
            name_of(&PRECISIONS, d.precision)
        )
    }
}
