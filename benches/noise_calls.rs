//! What one noise call costs besides its samples: 1 × 1 and 16 × 16 fills (2D Perlin fBm, 4
//! octaves) through a prebuilt `Noise`, through the C API on a noise handle
//! (`sg_noise_fill_grid_2d`), and through the C API with the definition on every call
//! (`sg_noise_fill_2d`, which validates and builds first); and point sampling as
//! `StratagenNoise.get_noise_2d` does it (its engine-free core: the settings compared, the
//! built noise reused) beside `Noise::sample_2d`. Summary line: `noise_calls
//! fill16_handle_ratio=... fill16_def_ratio=... sample_ns=... godot_sample_ns=...`.
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use stratagen::{
    sg_grid2, sg_noise_create, sg_noise_def_default, sg_noise_destroy, sg_noise_fill_2d,
    sg_noise_fill_grid_2d, sg_result,
};
use stratagen_core::noise::{Grid2, NoiseDef};
use stratagen_godot::noise_settings::{NoiseCache, NoiseSettings};

/// Nanoseconds per call of `f`, the best of 5 timed batches of `n` calls.
fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    println!("cpu {}", stratagen_cli::cpu_model());
    let noise = NoiseDef::default().build().unwrap();
    let def = sg_noise_def_default();
    let mut handle = std::ptr::null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { sg_noise_create(&def, &mut handle) }, sg_result::Ok);
    let settings = NoiseSettings::default();
    let mut cache = NoiseCache::default();

    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let mut ratios = Vec::new();
    for side in [1u32, 16] {
        let n = (side * side) as usize;
        let g = Grid2 {
            x0: 100.0,
            y0: -50.0,
            dx: 1.0,
            dy: 1.0,
            width: side as usize,
            height: side as usize,
        };
        let cg = sg_grid2 {
            x0: g.x0,
            y0: g.y0,
            dx: g.dx,
            dy: g.dy,
            width: side,
            height: side,
        };
        let mut out = vec![0f32; n];
        let mut rust = || noise.fill_2d_f32(&g, &mut out).unwrap();
        c.bench_function(&format!("fill_{side}x{side}_prebuilt_noise"), |b| {
            b.iter(&mut rust)
        });
        let mut out = vec![0f32; n];
        // SAFETY: valid pointers; `out` holds `n` floats.
        let mut by_handle = || unsafe { sg_noise_fill_grid_2d(handle, &cg, out.as_mut_ptr(), n) };
        c.bench_function(&format!("fill_{side}x{side}_c_handle"), |b| {
            b.iter(&mut by_handle)
        });
        let mut out = vec![0f32; n];
        // SAFETY: valid pointers; `out` holds `n` floats.
        let mut by_def = || unsafe { sg_noise_fill_2d(&def, &cg, out.as_mut_ptr(), n) };
        c.bench_function(&format!("fill_{side}x{side}_c_definition"), |b| {
            b.iter(&mut by_def)
        });
        let calls = if side == 1 { 200_000 } else { 20_000 };
        let t_rust = per_call(calls, || {
            let mut out = [0f32; 256];
            noise.fill_2d_f32(&g, &mut out[..n]).unwrap();
            black_box(&out);
        });
        let t_handle = per_call(calls, || {
            let mut out = [0f32; 256];
            // SAFETY: valid pointers; `out` holds at least `n` floats.
            unsafe { sg_noise_fill_grid_2d(handle, &cg, out.as_mut_ptr(), n) };
            black_box(&out);
        });
        let t_def = per_call(calls, || {
            let mut out = [0f32; 256];
            // SAFETY: valid pointers; `out` holds at least `n` floats.
            unsafe { sg_noise_fill_2d(&def, &cg, out.as_mut_ptr(), n) };
            black_box(&out);
        });
        ratios.push(format!(
            "fill{side}_rust_ns={t_rust:.0} fill{side}_handle_ratio={:.2} fill{side}_def_ratio={:.2}",
            t_handle / t_rust,
            t_def / t_rust
        ));
    }
    let mut x = 0.0f64;
    c.bench_function("sample_2d_noise", |b| {
        b.iter(|| {
            x += 0.37;
            noise.sample_2d(black_box(x), 5.0)
        })
    });
    c.bench_function("sample_2d_stratagen_noise_core", |b| {
        b.iter(|| {
            x += 0.37;
            cache.get(&settings).unwrap().sample_2d(black_box(x), 5.0)
        })
    });
    let t_sample = per_call(1_000_000, || {
        x += 0.37;
        black_box(noise.sample_2d(black_box(x), 5.0));
    });
    let t_godot = per_call(1_000_000, || {
        x += 0.37;
        black_box(cache.get(&settings).unwrap().sample_2d(black_box(x), 5.0));
    });
    sg_noise_destroy(handle);
    println!(
        "noise_calls {} sample_ns={t_sample:.1} godot_sample_ns={t_godot:.1}",
        ratios.join(" ")
    );
}
