//! Noise images on the command line: core's [`stratagen_core::noise::image`] (palettes,
//! contrast and brightness, tileable images), its refusals as usage errors.

use stratagen_core::noise::image::{self, ImageDef, ImageError, MAX_IMAGE_SIDE};

use crate::error::{usage, CliError};
use crate::map::Image;

/// A colour palette of 2 to 6 stops, interpolated linearly: a name (gray, terrain, fire, ice,
/// magma) or colours `rrggbb,...`.
pub fn palette(name: &str) -> Result<Vec<[u8; 3]>, CliError> {
    image::parse_palette(name).map_err(refused)
}

/// Settings of a noise image.
#[derive(Clone, Debug)]
pub struct NoiseImage {
    /// Base noise and fractal settings (frequency = 1 / scale, offset in pixels).
    pub def: stratagen_core::noise::NoiseDef,
    /// Contrast multiplier around mid-grey, 0..=10 (1: unchanged).
    pub contrast: f64,
    /// Brightness shift, -1..=1 (0: unchanged).
    pub brightness: f64,
    /// Colour stops.
    pub palette: Vec<[u8; 3]>,
    /// Image size.
    pub width: usize,
    /// Image size.
    pub height: usize,
    /// Wrap on both axes by sampling a 4D torus (value and Perlin only).
    pub tileable: bool,
}

/// An image size: each side 1..=8192 pixels.
pub fn check_size(width: usize, height: usize) -> Result<(), CliError> {
    if !(1..=MAX_IMAGE_SIDE).contains(&width) || !(1..=MAX_IMAGE_SIDE).contains(&height) {
        return Err(refused(ImageError::Size { width, height }));
    }
    Ok(())
}

/// Render a noise image ([`image::noise_image`]).
pub fn noise_image(n: &NoiseImage) -> Result<Image, CliError> {
    let def = ImageDef {
        contrast: n.contrast,
        brightness: n.brightness,
        palette: n.palette.clone(),
        tileable: n.tileable,
    };
    let rgb = image::noise_image(&n.def, n.width, n.height, &def).map_err(refused)?;
    Ok(Image {
        width: n.width,
        height: n.height,
        rgb,
    })
}

/// A refused image as the command line reports it: the noise's own errors as they are, the
/// rest as usage errors.
fn refused(e: ImageError) -> CliError {
    match e {
        ImageError::Noise(e) => CliError::Noise(e),
        e => usage(e.to_string()),
    }
}
