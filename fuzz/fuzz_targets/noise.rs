//! Noise definitions and grids from a C caller: every field of `sg_noise_def` (enums as raw
//! numbers, any float), any grid, through the C exports.
//!
//! Properties: nothing panics; a refused call writes nothing; an accepted 2D or 3D fill equals
//! the library's point samples rounded to float, bit for bit; a heightmap apron's inner samples
//! equal the heightmap fill of the same chunk, bit for bit (the apron, reaching one sample into
//! the neighbours, may be refused where the chunk is not: coordinates past the lattice).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use stratagen::{
    sg_cellular_distance, sg_cellular_return, sg_fractal, sg_grid2, sg_grid3, sg_heightmap_fill,
    sg_heightmap_fill_apron, sg_noise_def, sg_noise_def_default, sg_noise_fill_2d,
    sg_noise_fill_3d, sg_noise_type, sg_precision, sg_result,
};
use stratagen_core::noise::{
    CellularDistance, CellularReturn, FractalType, NoiseDef, NoiseType, Precision,
};

#[derive(Arbitrary, Debug)]
struct Input {
    noise_type: u32,
    seed: i64,
    fractal: u32,
    octaves: u8,
    frequency: f64,
    lacunarity: f64,
    gain: f64,
    offset: [f64; 3],
    cellular_distance: u32,
    cellular_return: u32,
    cellular_jitter: f64,
    warp_amplitude: f64,
    warp_frequency: f64,
    precision: u32,
    origin: [f64; 3],
    step: [f64; 3],
    size: [u8; 3],
    chunk: (i32, i32),
    res: u8,
}

/// Where the enums' raw numbers land in the core's enums (as the C boundary converts them).
fn core_def(i: &Input) -> Option<NoiseDef> {
    Some(NoiseDef {
        seed: i.seed,
        noise_type: NoiseType::from(sg_noise_type::try_from(i.noise_type).ok()?),
        fractal: FractalType::from(sg_fractal::try_from(i.fractal).ok()?),
        octaves: i.octaves as u32,
        frequency: i.frequency,
        lacunarity: i.lacunarity,
        gain: i.gain,
        offset: i.offset,
        cellular_distance: CellularDistance::from(
            sg_cellular_distance::try_from(i.cellular_distance).ok()?,
        ),
        cellular_return: CellularReturn::from(
            sg_cellular_return::try_from(i.cellular_return).ok()?,
        ),
        cellular_jitter: i.cellular_jitter,
        warp_amplitude: i.warp_amplitude,
        warp_frequency: i.warp_frequency,
        precision: Precision::from(sg_precision::try_from(i.precision).ok()?),
    })
}

const SENTINEL: f32 = -1234.5;

fuzz_target!(|i: Input| {
    let def = sg_noise_def {
        noise_type: i.noise_type,
        seed: i.seed,
        fractal: i.fractal,
        octaves: i.octaves as u32,
        frequency: i.frequency,
        lacunarity: i.lacunarity,
        gain: i.gain,
        offset: i.offset,
        cellular_distance: i.cellular_distance,
        cellular_return: i.cellular_return,
        cellular_jitter: i.cellular_jitter,
        warp_amplitude: i.warp_amplitude,
        warp_frequency: i.warp_frequency,
        precision: i.precision,
        ..sg_noise_def_default()
    };
    let noise = core_def(&i).and_then(|d| d.build().ok());
    let [w, h, d] = i.size.map(|s| (s % 9) as usize);

    let g2 = sg_grid2 {
        x0: i.origin[0],
        y0: i.origin[1],
        dx: i.step[0],
        dy: i.step[1],
        width: w as u32,
        height: h as u32,
    };
    let mut out = vec![SENTINEL; 81];
    // SAFETY: every pointer is valid; `out` holds `cap` floats.
    let r = unsafe { sg_noise_fill_2d(&def, &g2, out.as_mut_ptr(), out.len()) };
    match r {
        sg_result::Ok => {
            let n = noise
                .as_ref()
                .expect("the C call accepted what the core refuses");
            for j in 0..h {
                for k in 0..w {
                    let x = g2.x0 + k as f64 * g2.dx;
                    let y = g2.y0 + j as f64 * g2.dy;
                    let want = n.sample_2d(x, y) as f32;
                    assert_eq!(out[j * w + k].to_bits(), want.to_bits(), "2D ({k}, {j})");
                }
            }
        }
        sg_result::InternalPanic => panic!("a panic reached the boundary"),
        _ => assert!(
            out.iter().all(|&v| v.to_bits() == SENTINEL.to_bits()),
            "{r:?} wrote"
        ),
    }

    let g3 = sg_grid3 {
        origin: i.origin,
        step: i.step,
        width: w as u32,
        height: h as u32,
        depth: d as u32,
    };
    let mut out = vec![SENTINEL; 729];
    // SAFETY: every pointer is valid; `out` holds `cap` floats.
    let r = unsafe { sg_noise_fill_3d(&def, &g3, out.as_mut_ptr(), out.len()) };
    match r {
        sg_result::Ok => {
            let n = noise
                .as_ref()
                .expect("the C call accepted what the core refuses");
            // x fastest, then z, then y (the `sg_grid3` layout).
            for y in 0..h {
                for z in 0..d {
                    for x in 0..w {
                        let p = [x, y, z].map(|c| c as f64);
                        let want = n.sample_3d(
                            g3.origin[0] + p[0] * g3.step[0],
                            g3.origin[1] + p[1] * g3.step[1],
                            g3.origin[2] + p[2] * g3.step[2],
                        ) as f32;
                        let got = out[(y * d + z) * w + x];
                        assert_eq!(got.to_bits(), want.to_bits(), "3D ({x}, {y}, {z})");
                    }
                }
            }
        }
        sg_result::InternalPanic => panic!("a panic reached the boundary"),
        _ => assert!(
            out.iter().all(|&v| v.to_bits() == SENTINEL.to_bits()),
            "{r:?} wrote"
        ),
    }

    let res = 1 + (i.res % 16) as usize;
    let (cx, cz) = i.chunk;
    let mut tile = vec![SENTINEL; res * res];
    let mut apron = vec![SENTINEL; (res + 3) * (res + 3)];
    // SAFETY: every pointer is valid; the buffers hold their lengths.
    let (a, b) = unsafe {
        (
            sg_heightmap_fill(&def, cx, cz, res as u32, tile.as_mut_ptr(), tile.len()),
            sg_heightmap_fill_apron(&def, cx, cz, res as u32, apron.as_mut_ptr(), apron.len()),
        )
    };
    assert_ne!(a, sg_result::InternalPanic, "a panic reached the boundary");
    assert_ne!(b, sg_result::InternalPanic, "a panic reached the boundary");
    if b == sg_result::Ok {
        // The apron holds the chunk's own samples, so its fill cannot have been refused.
        assert_eq!(a, sg_result::Ok, "the apron was filled but not the chunk");
        for j in 0..res {
            for k in 0..res {
                let inner = apron[(j + 1) * (res + 3) + k + 1];
                assert_eq!(
                    inner.to_bits(),
                    tile[j * res + k].to_bits(),
                    "apron ({k}, {j})"
                );
            }
        }
    } else {
        assert!(
            apron.iter().all(|&v| v.to_bits() == SENTINEL.to_bits()),
            "{b:?} wrote"
        );
    }
    if a != sg_result::Ok {
        assert!(
            tile.iter().all(|&v| v.to_bits() == SENTINEL.to_bits()),
            "{a:?} wrote"
        );
    }
});
