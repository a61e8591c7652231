//! The C API driven as a hostile host would: fuzzer-chosen sequences of `sg_*` calls
//! (create, request, take, run, finish, release, copy, view, mesh, save, load, edits and edit
//! records, destroy, noise handles) with
//! fuzzer-chosen arguments, on handles that are live, destroyed (stale), of another kind or
//! another world (foreign), NULL, or any number at all.
//!
//! Properties: nothing panics and no call answers `SG_RESULT_INTERNAL_PANIC`; a call that
//! fails writes none of its outputs; a size query's `needed` is what the copy then takes;
//! a refused record load changes nothing the host can see. Everything created is destroyed at
//! the end of the input, so the process does not grow.
#![no_main]

use std::ptr::null_mut;

use libfuzzer_sys::fuzz_target;
use stratagen::*;

#[path = "c_api/ops.rs"]
mod ops;
use ops::{Handle, Op};

/// What this input made, by kind; destroyed handles stay listed (they are stale).
#[derive(Default)]
struct Made {
    worlds: Vec<*mut sg_world>,
    tasks: Vec<*mut sg_task>,
    sources: Vec<*mut sg_mesh_source>,
    meshes: Vec<*mut sg_mesh>,
    noises: Vec<*mut sg_noise>,
    tickets: Vec<u64>,
    records: Vec<Vec<u8>>,
    edit_records: Vec<Vec<u8>>,
}

fn pick<T>(list: &[*mut T], other: &[*mut u8], h: Handle) -> *mut T {
    match h {
        Handle::Made(i) if !list.is_empty() => list[i as usize % list.len()],
        Handle::OtherKind(i) if !other.is_empty() => other[i as usize % other.len()].cast(),
        Handle::Raw(v) => v as usize as *mut T,
        _ => null_mut(),
    }
}

impl Made {
    fn all(&self) -> Vec<*mut u8> {
        let w = self.worlds.iter().map(|p| p.cast());
        let t = self.tasks.iter().map(|p| p.cast());
        let s = self.sources.iter().map(|p| p.cast());
        let m = self.meshes.iter().map(|p| p.cast());
        let n = self.noises.iter().map(|p| p.cast());
        w.chain(t).chain(s).chain(m).chain(n).collect()
    }
    fn noise(&self, h: Handle) -> *mut sg_noise {
        pick(&self.noises, &self.all(), h)
    }
    fn world(&self, h: Handle) -> *mut sg_world {
        pick(&self.worlds, &self.all(), h)
    }
    fn task(&self, h: Handle) -> *mut sg_task {
        pick(&self.tasks, &self.all(), h)
    }
    fn source(&self, h: Handle) -> *mut sg_mesh_source {
        pick(&self.sources, &self.all(), h)
    }
    fn mesh(&self, h: Handle) -> *mut sg_mesh {
        pick(&self.meshes, &self.all(), h)
    }
}

/// No call may let a panic out.
fn ok(r: sg_result) -> bool {
    assert_ne!(r, sg_result::InternalPanic, "a panic reached the boundary");
    r == sg_result::Ok
}

const UNTOUCHED: u64 = 0xDEAD_BEEF_F00D_CAFE;

/// Copy with the size query, then with the size it asked for; outputs only on success.
unsafe fn copy<T: Copy>(cap: usize, call: impl Fn(*mut T, usize, *mut usize) -> sg_result) {
    use std::mem::MaybeUninit;
    let mut needed = UNTOUCHED as usize;
    let mut buf = vec![MaybeUninit::<T>::uninit(); cap];
    let r = call(buf.as_mut_ptr().cast(), cap, &mut needed);
    if r == sg_result::BufferTooSmall {
        assert!(needed > cap, "too small with needed {needed} <= cap {cap}");
        let mut buf = vec![MaybeUninit::<T>::uninit(); needed];
        let r = call(buf.as_mut_ptr().cast(), needed, null_mut());
        assert!(ok(r), "the size it asked for: {r:?}");
    } else if !ok(r) {
        // A world-level refusal comes before the size is known.
        assert!(needed == UNTOUCHED as usize || r == sg_result::NullArgument);
    }
}

/// A record saved through the size query and then the size it asked for (`None` when the
/// save is refused).
unsafe fn saved(save: impl Fn(*mut u8, usize, *mut usize) -> sg_result) -> Option<Vec<u8>> {
    let mut needed = 0;
    if save(null_mut(), 0, &mut needed) != sg_result::BufferTooSmall {
        return None;
    }
    let mut rec = vec![0u8; needed];
    assert!(ok(save(rec.as_mut_ptr(), needed, null_mut())));
    Some(rec)
}

/// The `pick`-th of `records`, with the bits `flip` names flipped.
fn damaged(records: &[Vec<u8>], pick: u8, flip: Option<(u16, u8)>) -> Option<Vec<u8>> {
    let mut rec = records.get(pick as usize % records.len().max(1))?.clone();
    if let Some((at, bits)) = flip {
        let at = at as usize % rec.len();
        rec[at] ^= bits.max(1);
    }
    Some(rec)
}

unsafe fn apply(op: Op, m: &mut Made) {
    match op {
        Op::Create { seed, tall } => {
            let def = sg_world_def {
                seed: seed as i64,
                min_y: 0,
                height: if tall { 48 } else { 16 },
                sea_level: 8,
                ..sg_world_def_default()
            };
            let mut w = null_mut();
            if ok(sg_world_create(&def, &mut w)) {
                m.worlds.push(w);
            } else {
                assert!(w.is_null(), "a failed create wrote its output");
            }
        }
        Op::CreateFromPreset { preset, seed } => {
            let names: [&[u8]; 3] = [b"default\0", b"archipelago\0", b"caverns\0"];
            let name = names[preset as usize % 3].as_ptr().cast();
            let mut needed = 0;
            assert_eq!(
                sg_definition_preset(name, null_mut(), 0, &mut needed),
                sg_result::BufferTooSmall
            );
            let mut text = vec![0u8; needed];
            assert!(ok(sg_definition_preset(
                name,
                text.as_mut_ptr().cast(),
                needed,
                null_mut()
            )));
            let def = sg_world_def {
                seed: seed as i64,
                min_y: 0,
                height: 32,
                sea_level: 20,
                ..sg_world_def_default()
            };
            let mut w = null_mut();
            let mut err = [0 as std::os::raw::c_char; 64];
            let r = sg_world_create_from_definition(
                &def,
                text.as_ptr().cast(),
                needed - 1,
                &mut w,
                err.as_mut_ptr(),
                err.len(),
            );
            if ok(r) {
                m.worlds.push(w);
            }
        }
        Op::Destroy(h) => {
            ok(sg_world_destroy(m.world(h)));
        }
        Op::Request {
            w,
            x,
            z,
            status,
            priority,
        } => {
            let mut ticket = UNTOUCHED;
            let r = sg_world_request(
                m.world(w),
                x as i32,
                z as i32,
                status as u32 % 13,
                priority as u32 % 5,
                &mut ticket,
            );
            if ok(r) {
                m.tickets.push(ticket);
            } else {
                assert_eq!(ticket, UNTOUCHED, "a failed request wrote its ticket");
            }
        }
        Op::Release { w, ticket } => {
            let t = m
                .tickets
                .get(ticket as usize)
                .copied()
                .unwrap_or(ticket as u64);
            ok(sg_world_release(m.world(w), t));
        }
        Op::Take { w, cap } => {
            let cap = cap as usize % 9;
            let mut out = vec![null_mut(); cap];
            let mut n = UNTOUCHED as usize;
            if ok(sg_world_take_tasks(
                m.world(w),
                out.as_mut_ptr(),
                cap,
                &mut n,
            )) {
                assert!(n <= cap);
                m.tasks.extend_from_slice(&out[..n]);
            } else {
                assert_eq!(n, UNTOUCHED as usize);
            }
        }
        Op::Run(t) => {
            ok(sg_task_run(m.task(t)));
        }
        Op::Info(t) => {
            let (mut x, mut z, mut s) = (i32::MIN, i32::MIN, u32::MAX);
            if !ok(sg_task_info(m.task(t), &mut x, &mut z, &mut s)) {
                assert_eq!((x, z, s), (i32::MIN, i32::MIN, u32::MAX));
            }
        }
        Op::Finish { w, t } => {
            ok(sg_world_finish_task(m.world(w), m.task(t)));
        }
        Op::RunInline { w, max } => {
            let mut ran = 0;
            ok(sg_world_run_inline(m.world(w), max as usize % 17, &mut ran));
        }
        Op::Pending(w) => {
            let (mut r, mut f) = (UNTOUCHED as usize, UNTOUCHED as usize);
            if !ok(sg_world_pending(m.world(w), &mut r, &mut f)) {
                assert_eq!((r, f), (UNTOUCHED as usize, UNTOUCHED as usize));
            }
        }
        Op::Status { w, x, z } => {
            let mut s = u32::MAX;
            if !ok(sg_world_chunk_status(
                m.world(w),
                x as i32,
                z as i32,
                &mut s,
            )) {
                assert_eq!(s, u32::MAX);
            }
        }
        Op::Copy {
            w,
            x,
            z,
            what,
            kind,
            cap,
        } => {
            let (w, x, z, cap) = (m.world(w), x as i32, z as i32, cap as usize % 20000);
            let kind = kind as u32 % 5;
            match what % 6 {
                0 => copy::<u16>(cap, |b, c, n| sg_chunk_copy_blocks(w, x, z, b, c, n)),
                1 => copy::<u8>(cap, |b, c, n| sg_chunk_copy_biomes(w, x, z, b, c, n)),
                2 => copy::<i32>(cap, |b, c, n| {
                    sg_chunk_copy_heightmap(w, x, z, kind, b, c, n)
                }),
                3 => copy::<u8>(cap, |b, c, n| {
                    sg_chunk_copy_light(w, x, z, kind % 3, b, c, n)
                }),
                4 => copy::<sg_block_entity>(cap % 64, |b, c, n| {
                    sg_chunk_copy_block_entities(w, x, z, b, c, n)
                }),
                _ => copy::<sg_spawn_request>(cap % 64, |b, c, n| {
                    sg_chunk_copy_spawns(w, x, z, b, c, n)
                }),
            }
        }
        Op::Digest { w, x, z } => {
            let mut d = UNTOUCHED;
            if !ok(sg_chunk_digest(m.world(w), x as i32, z as i32, &mut d)) {
                assert_eq!(d, UNTOUCHED);
            }
        }
        Op::View { w, x, z } => {
            let mut v = std::mem::MaybeUninit::<sg_chunk_view>::uninit();
            if ok(sg_world_chunk_view(
                m.world(w),
                x as i32,
                z as i32,
                v.as_mut_ptr(),
            )) {
                let v = v.assume_init();
                // The view's arrays are readable for their stated lengths.
                let blocks = std::slice::from_raw_parts(v.blocks, v.block_count);
                let light = std::slice::from_raw_parts(v.sky_light, v.light_bytes);
                std::hint::black_box((blocks.iter().max(), light.iter().max()));
            }
        }
        Op::Source { w, x, z } => {
            let mut s = null_mut();
            if ok(sg_world_mesh_source(m.world(w), x as i32, z as i32, &mut s)) {
                m.sources.push(s);
            } else {
                assert!(s.is_null());
            }
        }
        Op::Build { s, mode, missing } => {
            let def = sg_mesh_def {
                mode: mode as u32 % 3,
                missing: missing as u32 % 3,
                ..sg_mesh_def_default()
            };
            let mut mesh = null_mut();
            if ok(sg_mesh_build(m.source(s), &def, &mut mesh)) {
                m.meshes.push(mesh);
            } else {
                assert!(mesh.is_null());
            }
        }
        Op::ReadMesh { m: h, surface } => {
            let (mesh, surface) = (m.mesh(h), surface as u32 % 4);
            let (mut v, mut i) = (0usize, 0usize);
            if ok(sg_mesh_counts(mesh, surface, &mut v, &mut i)) {
                let mut pos = vec![0f32; 3 * v];
                let mut idx = vec![0u32; i];
                let b = sg_mesh_buffers {
                    positions: pos.as_mut_ptr(),
                    faces: null_mut(),
                    ao: null_mut(),
                    sky_light: null_mut(),
                    block_light: null_mut(),
                    uvs: null_mut(),
                    quad_blocks: null_mut(),
                    vertex_capacity: v,
                    indices: idx.as_mut_ptr(),
                    index_capacity: i,
                };
                assert!(ok(sg_mesh_copy(mesh, surface, &b)));
                assert!(
                    idx.iter().all(|&k| (k as usize) < v),
                    "an index past the vertices"
                );
                let mut d = 0;
                assert!(ok(sg_mesh_digest(mesh, &mut d)));
            }
        }
        Op::DestroySource(s) => {
            ok(sg_mesh_source_destroy(m.source(s)));
        }
        Op::DestroyMesh(h) => {
            ok(sg_mesh_destroy(m.mesh(h)));
        }
        Op::Save { w, x, z } => {
            let (w, x, z) = (m.world(w), x as i32, z as i32);
            if let Some(rec) =
                saved(|buf, cap, needed| sg_world_save_chunk(w, x, z, buf, cap, needed))
            {
                m.records.push(rec);
            }
        }
        Op::Load { w, record, flip } => {
            let Some(rec) = damaged(&m.records, record, flip) else {
                return;
            };
            let w = m.world(w);
            let (mut x, mut z, mut s) = (i32::MIN, i32::MIN, u32::MAX);
            let before = (0..5).map(|k| status_of(w, k)).collect::<Vec<_>>();
            if !ok(sg_world_load_chunk(
                w,
                rec.as_ptr(),
                rec.len(),
                &mut x,
                &mut z,
                &mut s,
            )) {
                assert_eq!((x, z, s), (i32::MIN, i32::MIN, u32::MAX));
                let after = (0..5).map(|k| status_of(w, k)).collect::<Vec<_>>();
                assert_eq!(before, after, "a refused record changed the world");
            }
        }
        Op::SetBlock { w, x, y, z, block } => {
            ok(sg_world_set_block(
                m.world(w),
                x.into(),
                y.into(),
                z.into(),
                block,
            ));
        }
        Op::SetBlocks { w, edits, null } => {
            let list: Vec<sg_block_edit> = edits
                .iter()
                .map(|&(x, y, z, block)| sg_block_edit {
                    x: x.into(),
                    y: y.into(),
                    z: z.into(),
                    block,
                })
                .collect();
            let ptr = if null {
                std::ptr::null()
            } else {
                list.as_ptr()
            };
            let mut failed = usize::MAX;
            let r = sg_world_set_blocks(m.world(w), ptr, list.len(), &mut failed);
            if r == sg_result::OutOfRange || r == sg_result::UnknownBlock {
                assert!(failed < list.len(), "the refused edit is named");
            } else {
                ok(r);
                assert_eq!(failed, usize::MAX, "no refused edit named");
            }
        }
        Op::Block { w, x, y, z } => {
            let mut b = u16::MAX - 1;
            if !ok(sg_world_block(
                m.world(w),
                x.into(),
                y.into(),
                z.into(),
                &mut b,
            )) {
                assert_eq!(b, u16::MAX - 1, "a failed read wrote its output");
            }
        }
        Op::Changed { w, cap } => {
            let w = m.world(w);
            copy::<sg_chunk_pos>(cap as usize, |buf, cap, needed| {
                sg_world_changed_chunks(w, buf, cap, needed)
            });
        }
        Op::SaveEdits { w, x, z } => {
            let (w, x, z) = (m.world(w), x as i32, z as i32);
            if let Some(rec) =
                saved(|buf, cap, needed| sg_world_save_edits(w, x, z, buf, cap, needed))
            {
                m.edit_records.push(rec);
            }
        }
        Op::LoadEdits { w, record, flip } => {
            let Some(rec) = damaged(&m.edit_records, record, flip) else {
                return;
            };
            let (mut x, mut z) = (i32::MIN, i32::MIN);
            if !ok(sg_world_load_edits(
                m.world(w),
                rec.as_ptr(),
                rec.len(),
                &mut x,
                &mut z,
            )) {
                assert_eq!(
                    (x, z),
                    (i32::MIN, i32::MIN),
                    "a refused load wrote its outputs"
                );
            }
        }
        Op::Palette { w, id, name } => {
            let w = m.world(w);
            let mut count = 0;
            if ok(sg_world_block_count(w, &mut count)) {
                let mut info = std::mem::MaybeUninit::<sg_block_info>::uninit();
                if ok(sg_world_block_info(
                    w,
                    id as u32 % (count + 2),
                    info.as_mut_ptr(),
                )) {
                    let info = info.assume_init();
                    let mut back = u32::MAX;
                    assert!(ok(sg_world_block_by_name(w, info.name, &mut back)));
                }
            }
            let names: [&[u8]; 3] = [b"stone\0", b"no_such_biome\0", b"\0"];
            let mut id = u32::MAX;
            if !ok(sg_world_biome_by_name(
                w,
                names[name as usize % 3].as_ptr().cast(),
                &mut id,
            )) {
                assert_eq!(id, u32::MAX);
            }
        }
        Op::NoiseCreate { octaves, frequency } => {
            let def = sg_noise_def {
                octaves: octaves as u32 % 18,
                frequency,
                ..sg_noise_def_default()
            };
            let mut n = null_mut();
            if ok(sg_noise_create(&def, &mut n)) {
                m.noises.push(n);
            } else {
                assert!(n.is_null());
            }
        }
        Op::NoiseFill {
            n,
            width,
            height,
            x0,
        } => {
            let (w, h) = (width as usize % 17, height as usize % 17);
            let g = sg_grid2 {
                x0,
                y0: 0.5,
                dx: 1.0,
                dy: 1.0,
                width: w as u32,
                height: h as u32,
            };
            let mut out = vec![f32::NAN; w * h];
            let noise = m.noise(n);
            if ok(sg_noise_fill_grid_2d(
                noise,
                &g,
                out.as_mut_ptr(),
                out.len(),
            )) {
                // The handle's samples are its point samples.
                let mut v = 0.0;
                for (k, &s) in out.iter().enumerate() {
                    let x = g.x0 + (k % w) as f64 * g.dx;
                    let y = g.y0 + (k / w) as f64 * g.dy;
                    assert!(ok(sg_noise_sample_2d(noise, x, y, &mut v)));
                    assert_eq!((v as f32).to_bits(), s.to_bits(), "fill and sample differ");
                }
            } else {
                assert!(out.iter().all(|s| s.is_nan()), "a failed fill wrote");
            }
        }
        Op::NoiseSample { n, x, y } => {
            let mut v = f64::from_bits(UNTOUCHED);
            if !ok(sg_noise_sample_2d(m.noise(n), x, y, &mut v)) {
                assert_eq!(v.to_bits(), UNTOUCHED);
            }
        }
        Op::NoiseDestroy(n) => {
            ok(sg_noise_destroy(m.noise(n)));
        }
    }
}

/// The status of a few chunks near the origin, as the host sees them.
unsafe fn status_of(w: *mut sg_world, k: i32) -> (sg_result, u32) {
    let mut s = u32::MAX;
    let r = sg_world_chunk_status(w, k - 2, 0, &mut s);
    (r, s)
}

fuzz_target!(|ops: Vec<Op>| {
    let mut made = Made::default();
    // SAFETY: every pointer argument is NULL, a token (handles are never dereferenced), or a
    // buffer of this function's own of the length passed with it.
    unsafe {
        for op in ops.into_iter().take(48) {
            apply(op, &mut made);
        }
        for &s in &made.sources {
            sg_mesh_source_destroy(s);
        }
        for &mesh in &made.meshes {
            sg_mesh_destroy(mesh);
        }
        for &w in &made.worlds {
            sg_world_destroy(w);
        }
        for &n in &made.noises {
            sg_noise_destroy(n);
        }
    }
});
