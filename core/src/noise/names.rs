//! The names of the noise settings' values, as world documents, the Python package and the
//! JavaScript package spell them: one table per setting, `(name, value)` in number order.

use crate::noise::cellular::{CellularDistance, CellularReturn};
use crate::noise::def::{FractalType, NoiseType, Precision};
#[cfg(feature = "alloc")]
use crate::noise::shader::ShaderLanguage;

/// The noise types.
pub const TYPES: [(&str, NoiseType); 4] = [
    ("value", NoiseType::Value),
    ("perlin", NoiseType::Perlin),
    ("simplex", NoiseType::Simplex),
    ("cellular", NoiseType::Cellular),
];
/// The fractal types.
pub const FRACTALS: [(&str, FractalType); 4] = [
    ("none", FractalType::None),
    ("fbm", FractalType::Fbm),
    ("ridged", FractalType::Ridged),
    ("billow", FractalType::Billow),
];
/// The precisions.
pub const PRECISIONS: [(&str, Precision); 2] = [("f64", Precision::F64), ("f32", Precision::F32)];
/// The cellular distance functions.
pub const DISTANCES: [(&str, CellularDistance); 2] = [
    ("euclidean", CellularDistance::Euclidean),
    ("manhattan", CellularDistance::Manhattan),
];
/// The cellular return values.
pub const RETURNS: [(&str, CellularReturn); 4] = [
    ("f1", CellularReturn::F1),
    ("f2", CellularReturn::F2),
    ("f2_minus_f1", CellularReturn::F2MinusF1),
    ("cell_value", CellularReturn::CellValue),
];
/// The shader languages.
#[cfg(feature = "alloc")]
pub const LANGUAGES: [(&str, ShaderLanguage); 3] = [
    ("wgsl", ShaderLanguage::Wgsl),
    ("glsl", ShaderLanguage::Glsl),
    ("godot", ShaderLanguage::Godot),
];

/// The value `name` names in `table`.
pub fn lookup<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The name of `value` in `table` (`"?"` for a value the table lacks).
pub fn name_of<T: Copy + PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("?", |(n, _)| *n)
}
