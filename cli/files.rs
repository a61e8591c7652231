//! Output files: PNG encoding and writes that never leave a partial file.

use std::path::Path;

use crate::error::CliError;

/// Write `data` to `path` through a temporary file in the same directory and a rename, so a
/// failure never leaves a partial file at `path`.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), CliError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| CliError::Usage(format!("{}: not a file path", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let res = std::fs::write(&tmp, data).and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(CliError::Write {
            path: path.to_path_buf(),
            source: e,
        });
    }
    Ok(())
}

/// Encode an 8-bit RGB or grey PNG.
pub fn encode_png(
    width: usize,
    height: usize,
    channels: usize,
    bit16: bool,
    data: &[u8],
) -> Result<Vec<u8>, CliError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
        enc.set_color(if channels == 3 {
            png::ColorType::Rgb
        } else {
            png::ColorType::Grayscale
        });
        enc.set_depth(if bit16 {
            png::BitDepth::Sixteen
        } else {
            png::BitDepth::Eight
        });
        let mut w = enc.write_header()?;
        w.write_image_data(data)?;
    }
    Ok(out)
}
