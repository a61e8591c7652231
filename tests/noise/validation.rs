//! Bad definitions and grids are clear errors, and a fill's size is bounded before a host
//! allocates it.

use super::*;

#[test]
fn invalid_definitions_and_grids_are_errors() {
    let ok = NoiseDef::default();
    let bad = |d: NoiseDef| d.build().unwrap_err();
    assert_eq!(
        bad(NoiseDef { octaves: 0, ..ok }),
        NoiseError::OctavesOutOfRange(0)
    );
    assert_eq!(
        bad(NoiseDef { octaves: 17, ..ok }),
        NoiseError::OctavesOutOfRange(17)
    );
    assert_eq!(
        bad(NoiseDef {
            frequency: f64::NAN,
            ..ok
        }),
        NoiseError::NotFinite("frequency")
    );
    assert_eq!(
        bad(NoiseDef {
            frequency: 0.0,
            ..ok
        }),
        NoiseError::NotPositive("frequency")
    );
    assert_eq!(
        bad(NoiseDef {
            frequency: -1.0,
            ..ok
        }),
        NoiseError::NotPositive("frequency")
    );
    assert_eq!(
        bad(NoiseDef {
            lacunarity: f64::INFINITY,
            ..ok
        }),
        NoiseError::NotFinite("lacunarity")
    );
    assert_eq!(
        bad(NoiseDef { gain: -0.5, ..ok }),
        NoiseError::OutOfRange("gain")
    );
    assert_eq!(
        bad(NoiseDef {
            offset: [0.0, f64::NAN, 0.0],
            ..ok
        }),
        NoiseError::NotFinite("offset")
    );
    assert_eq!(
        bad(NoiseDef {
            cellular_jitter: 1.5,
            ..ok
        }),
        NoiseError::OutOfRange("cellular_jitter")
    );
    assert_eq!(
        bad(NoiseDef {
            warp_amplitude: -1.0,
            ..ok
        }),
        NoiseError::OutOfRange("warp_amplitude")
    );
    assert!(matches!(
        bad(NoiseDef {
            octaves: 16,
            frequency: 1e300,
            lacunarity: 1e10,
            ..ok
        }),
        NoiseError::OutOfRange(_)
    ));
    let n = ok.build().unwrap();
    let g = Grid2 {
        x0: 0.0,
        y0: 0.0,
        dx: 1.0,
        dy: 1.0,
        width: 4,
        height: 4,
    };
    let mut buf = vec![7.0f64; 15];
    assert_eq!(
        n.fill_2d(&g, &mut buf),
        Err(NoiseError::BufferTooSmall {
            needed: 16,
            got: 15
        })
    );
    assert!(buf.iter().all(|&x| x == 7.0), "nothing written on error");
    let mut buf = vec![7.0f64; 16];
    assert_eq!(
        n.fill_2d(&Grid2 { width: 0, ..g }, &mut buf),
        Err(NoiseError::EmptyGrid)
    );
    assert_eq!(
        n.fill_2d(
            &Grid2 {
                width: usize::MAX,
                height: 2,
                ..g
            },
            &mut buf
        ),
        Err(NoiseError::EmptyGrid)
    );
    assert_eq!(
        n.fill_2d(&Grid2 { x0: f64::NAN, ..g }, &mut buf),
        Err(NoiseError::NotFinite("grid coordinate"))
    );
    assert_eq!(
        n.fill_2d(
            &Grid2 {
                dy: f64::INFINITY,
                ..g
            },
            &mut buf
        ),
        Err(NoiseError::NotFinite("dy"))
    );
    assert_eq!(
        n.fill_2d(&Grid2 { x0: 1e300, ..g }, &mut buf),
        Err(NoiseError::CoordinateOutOfRange)
    );
    let mut f32buf = vec![0f32; 16];
    assert_eq!(
        n.heightmap_chunk(0, 0, 0, &mut f32buf),
        Err(NoiseError::OutOfRange("res"))
    );
    let g3 = Grid3 {
        origin: [0.0; 3],
        step: [1.0; 3],
        width: 2,
        height: 2,
        depth: 0,
    };
    assert_eq!(n.fill_3d(&g3, &mut buf), Err(NoiseError::EmptyGrid));
    // Point sampling never panics, even on NaN or huge input.
    assert!(n.sample_2d(f64::NAN, 0.0).is_nan());
    let _ = n.sample_3d(1e300, -1e300, f64::INFINITY);
    let _: Noise = n;
}

/// A host's fill size: empty grids and fills past 2^28 samples (or overflowing) are refused,
/// 2^28 itself is not.
#[test]
fn fill_samples_bound_what_a_host_allocates() {
    use stratagen_core::noise::{fill_samples, MAX_FILL_SAMPLES};
    assert_eq!(fill_samples(&[3, 0, 5]), Err(NoiseError::EmptyGrid));
    assert_eq!(fill_samples(&[1 << 14, 1 << 14]), Ok(MAX_FILL_SAMPLES));
    assert_eq!(
        fill_samples(&[1 << 14, 1 << 14, 2]),
        Err(NoiseError::FillTooLarge)
    );
    assert_eq!(
        fill_samples(&[usize::MAX, 2]),
        Err(NoiseError::FillTooLarge)
    );
    assert_eq!(fill_samples(&[16, 384, 16]), Ok(16 * 384 * 16));
}
