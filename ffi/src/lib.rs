//! The C ABI of Stratagen (DESIGN §7–§8). `include/stratagen.h` is generated from this file
//! by cbindgen (`ffi/cbindgen.toml`); a test fails when the committed header is stale.
//!
//! Conventions:
//! - Every fallible function returns an `sg_result` (fixed values, never renumbered) and
//!   writes its outputs only on success.
//! - NULL pointers give `SG_RESULT_NULL_ARGUMENT`; enum values arrive as `uint32_t` and are
//!   checked (`SG_RESULT_BAD_ENUM`).
//! - Handles are tokens, not addresses: a world or task handle names an entry in a registry,
//!   ids are never reused, so a destroyed world or finished task is detected
//!   (`SG_RESULT_STALE_HANDLE`) and never dereferenced.
//! - No panic crosses the boundary: every export runs behind `catch_unwind`
//!   (`SG_RESULT_INTERNAL_PANIC`).
//! - Thread rules are stated per function. "Owner thread" is the thread that created the
//!   world; calls from another thread return `SG_RESULT_WRONG_THREAD`.
#![allow(non_camel_case_types)]
// The exports check every pointer they dereference for NULL; the remaining obligations (the
// pointer is valid for the stated length) are the caller's, as documented per function.
#![allow(clippy::missing_safety_doc)]

use std::collections::{BTreeMap, BTreeSet};
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use stratagen_core::engine::ladder::{ChunkPos, ChunkStatus};
use stratagen_core::engine::{BodyError, Finished, Priority, Scheduler, SchedulerError, Task};
use stratagen_core::noise::{CellularDistance, CellularReturn};
use stratagen_core::noise::{
    FillStrategy, FractalType, Grid2, Grid3, NoiseDef, NoiseError, NoiseType,
};
use stratagen_core::world::Heightmap;
use stratagen_core::world::{chunk_digest, ChunkData, FullChunk, World, WorldDef, WorldGen};

/// Major version.
pub const SG_VERSION_MAJOR: u32 = 0;
/// Minor version.
pub const SG_VERSION_MINOR: u32 = 1;
/// Patch version.
pub const SG_VERSION_PATCH: u32 = 0;

/// Result of every fallible call. Values are fixed and never renumbered.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_result {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL.
    NullArgument = 1,
    /// A value is invalid (NaN, out of its documented range, a bad definition).
    InvalidArgument = 2,
    /// An enum argument has no such value.
    BadEnum = 3,
    /// A chunk position outside |x|, |z| < 2^21.
    OutOfRange = 4,
    /// The caller's buffer is too small; `needed` says how many elements are required.
    BufferTooSmall = 5,
    /// The handle was destroyed, finished or released.
    StaleHandle = 6,
    /// The handle belongs to another world.
    ForeignHandle = 7,
    /// An owner-thread function was called from another thread.
    WrongThread = 8,
    /// The chunk has not reached the status the call needs.
    NotReady = 9,
    /// `sg_world_finish_task` on a task that was never run.
    TaskNotRun = 10,
    /// `sg_task_run` on a task that already ran.
    TaskAlreadyRun = 11,
    /// The task's status body failed; the chunk stays below that status.
    TaskFailed = 12,
    /// A definition struct's `struct_size` is smaller than this version's.
    BadStructSize = 13,
    /// An internal error was caught before it crossed the boundary.
    InternalPanic = 14,
}

/// Chunk statuses, in ladder order.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_status {
    /// Nothing generated.
    Empty = 0,
    /// Structure starts.
    StructureStarts = 1,
    /// Structure references.
    StructureReferences = 2,
    /// Biomes.
    Biomes = 3,
    /// Terrain.
    Terrain = 4,
    /// Features.
    Features = 5,
    /// Light initialised (blocks merged).
    InitializeLight = 6,
    /// Light.
    Light = 7,
    /// Spawn requests.
    Spawn = 8,
    /// Finished.
    Full = 9,
}

/// Request priorities.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_priority {
    /// Needed now.
    Immediate = 0,
    /// Needed soon.
    Soon = 1,
    /// Pre-generation.
    Idle = 2,
}

/// Heightmap kinds.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_heightmap {
    /// y + 1 of the top non-air block.
    WorldSurface = 0,
    /// y + 1 of the top solid block.
    OceanFloor = 1,
    /// y + 1 of the top solid or fluid block.
    MotionBlocking = 2,
    /// y + 1 of the top solid (not leaves) or fluid block.
    MotionBlockingNoLeaves = 3,
}

/// Light kinds.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_light {
    /// Sky light.
    Sky = 0,
    /// Block light.
    Block = 1,
}

/// A block entity (chest or spawner of a structure piece).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_block_entity {
    /// World block position x, y, z.
    pub pos: [i32; 3],
    /// Block id (chest or spawner).
    pub kind: u16,
    /// Loot table id (chests) or creature kind (spawners).
    pub data: u32,
}

/// A spawn request.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_spawn_request {
    /// World block position x, y, z of the first creature.
    pub pos: [i32; 3],
    /// Creature kind.
    pub kind: u16,
    /// Group size 1..=4.
    pub group: u8,
}

/// Base noise types (see `sg_noise_def`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_noise_type {
    /// Value noise.
    Value = 0,
    /// Perlin noise.
    Perlin = 1,
    /// Simplex noise.
    Simplex = 2,
    /// Cellular noise.
    Cellular = 3,
}

/// Fractal types.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_fractal {
    /// One octave.
    None = 0,
    /// fBm.
    Fbm = 1,
    /// Ridged.
    Ridged = 2,
    /// Billow.
    Billow = 3,
}

/// How 2D value/Perlin fills are computed (`sg_noise_def.fill_strategy`); the same bits
/// either way. 3D fills, simplex, cellular and warped noise are not affected.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_fill_strategy {
    /// Every sample hashes its own lattice corners, 4 samples per AVX2 instruction: the same
    /// cost per sample and octave at any frequency. Without AVX2 it runs as `Adaptive`.
    Vectorized = 0,
    /// Samples that share a lattice cell (4 or more along x) share its hashing: fastest for
    /// coarse noise (heightmap chunks at long wavelengths), cost grows with frequency.
    Adaptive = 1,
}

/// World settings. Initialise with `sg_world_def_default()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_world_def {
    /// `sizeof(sg_world_def)` as the caller compiled it; set by `sg_world_def_default`.
    pub struct_size: u32,
    /// Minimum block y, a multiple of 16 in -2048..=2032. Default -64.
    pub min_y: i32,
    /// World seed. Default 0.
    pub seed: i64,
    /// Height in blocks, a multiple of 16 in 16..=4096, min_y + height <= 2048. Default 384.
    pub height: u32,
    /// Sea level (y of the top water block). Default 63.
    pub sea_level: i32,
}

/// Noise settings (mirrors the Rust `NoiseDef`). Initialise with `sg_noise_def_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_noise_def {
    /// `sizeof(sg_noise_def)`; set by `sg_noise_def_default`.
    pub struct_size: u32,
    /// An `sg_noise_type`. Default Perlin.
    pub noise_type: u32,
    /// Seed. Default 0.
    pub seed: i64,
    /// An `sg_fractal`. Default fBm.
    pub fractal: u32,
    /// Octaves, 1..=16. Default 4.
    pub octaves: u32,
    /// Cycles per world unit, > 0. Default 0.01.
    pub frequency: f64,
    /// Frequency multiplier per octave, > 0. Default 2.
    pub lacunarity: f64,
    /// Amplitude multiplier per octave, >= 0. Default 0.5.
    pub gain: f64,
    /// Added to the coordinates before scaling. Default 0.
    pub offset: [f64; 3],
    /// Cellular distance: 0 Euclidean, 1 Manhattan. Default 0.
    pub cellular_distance: u32,
    /// Cellular return: 0 F1, 1 F2, 2 F2-F1, 3 cell value. Default 0.
    pub cellular_return: u32,
    /// Cellular jitter in [0, 1]. Default 0.65.
    pub cellular_jitter: f64,
    /// Domain warp amplitude in world units, >= 0 (0: off). Default 0.
    pub warp_amplitude: f64,
    /// Domain warp frequency, > 0. Default 0.01.
    pub warp_frequency: f64,
    /// An `sg_fill_strategy`. Default Vectorized.
    pub fill_strategy: u32,
}

/// A 2D grid: sample (i, j) at (x0 + i*dx, y0 + j*dy), stored at j*width + i.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_grid2 {
    /// First x.
    pub x0: f64,
    /// First y.
    pub y0: f64,
    /// Step in x.
    pub dx: f64,
    /// Step in y.
    pub dy: f64,
    /// Samples per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// A 3D grid: sample (i, j, k) at origin + (i, j, k) * step, stored at
/// (j*depth + k)*width + i (y outermost, then z, then x).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_grid3 {
    /// First sample (x, y, z).
    pub origin: [f64; 3],
    /// Steps along x, y, z.
    pub step: [f64; 3],
    /// Samples along x.
    pub width: u32,
    /// Samples along y.
    pub height: u32,
    /// Samples along z.
    pub depth: u32,
}

/// A borrowed, read-only view of a full chunk. Valid until the next call on the same world
/// from the owner thread that is not one of the `sg_chunk_*` readers or `sg_world_chunk_view`
/// (that is: request, release, take, finish, run inline, destroy).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_chunk_view {
    /// Block ids, index ((y - min_y) * 16 + z) * 16 + x.
    pub blocks: *const u16,
    /// Number of blocks (16 * 16 * height).
    pub block_count: usize,
    /// Biome ids per 4 x 4 column cell, index cz * 4 + cx (16 entries).
    pub biomes: *const u8,
    /// World-surface heightmap, index z * 16 + x (256 entries).
    pub world_surface: *const i32,
    /// Ocean-floor heightmap (256 entries).
    pub ocean_floor: *const i32,
    /// Motion-blocking heightmap (256 entries).
    pub motion_blocking: *const i32,
    /// Motion-blocking-without-leaves heightmap (256 entries).
    pub motion_blocking_no_leaves: *const i32,
    /// Sky light, nibble-packed: block i is byte i / 2, low nibble for even i.
    pub sky_light: *const u8,
    /// Block light, nibble-packed like `sky_light`.
    pub block_light: *const u8,
    /// Bytes in each light array ((block_count + 1) / 2).
    pub light_bytes: usize,
    /// Minimum block y.
    pub min_y: i32,
    /// Height in blocks.
    pub height: u32,
}

/// An opaque world handle.
pub struct sg_world {
    _private: [u8; 0],
}

/// An opaque task handle.
pub struct sg_task {
    _private: [u8; 0],
}

// ---------------------------------------------------------------------------------------
// Registry: handles are ids; ids are never reused.

struct WorldState {
    sched: Scheduler<World>,
    gen: WorldGen,
    tasks: BTreeSet<u64>,
    /// Chunk data lent out through `sg_world_chunk_view`, kept alive until the next mutating
    /// call.
    pinned: Vec<Arc<ChunkData>>,
}

struct WorldCell {
    owner: ThreadId,
    state: Mutex<WorldState>,
}

struct TaskInner {
    task: Option<Task<World>>,
    result: Option<Result<ChunkData, BodyError>>,
}

struct TaskCell {
    world: u64,
    inner: Mutex<TaskInner>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static WORLDS: Mutex<BTreeMap<u64, Arc<WorldCell>>> = Mutex::new(BTreeMap::new());
static TASKS: Mutex<BTreeMap<u64, Arc<TaskCell>>> = Mutex::new(BTreeMap::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock means a panic was caught while it was held; the data is still
    // consistent for our purposes (every update is a single insert/remove).
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn handle_id<T>(p: *const T) -> u64 {
    p as usize as u64
}

fn to_handle<T>(id: u64) -> *mut T {
    id as usize as *mut T
}

fn guard(f: impl FnOnce() -> sg_result) -> sg_result {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => sg_result::InternalPanic,
    }
}

fn world_cell(w: *const sg_world) -> Result<Arc<WorldCell>, sg_result> {
    if w.is_null() {
        return Err(sg_result::NullArgument);
    }
    lock(&WORLDS)
        .get(&handle_id(w))
        .cloned()
        .ok_or(sg_result::StaleHandle)
}

/// The world behind `w`, locked, after checking the calling thread is its owner.
fn with_owner(w: *const sg_world, f: impl FnOnce(u64, &mut WorldState) -> sg_result) -> sg_result {
    let cell = match world_cell(w) {
        Ok(c) => c,
        Err(e) => return e,
    };
    if std::thread::current().id() != cell.owner {
        return sg_result::WrongThread;
    }
    let mut st = lock(&cell.state);
    f(handle_id(w), &mut st)
}

fn status_of(v: u32) -> Result<ChunkStatus, sg_result> {
    ChunkStatus::from_index(v as usize).ok_or(sg_result::BadEnum)
}

fn sched_err(e: SchedulerError) -> sg_result {
    match e {
        SchedulerError::OutOfRange(_) => sg_result::OutOfRange,
        SchedulerError::UnknownTicket | SchedulerError::UnknownTask => sg_result::StaleHandle,
        SchedulerError::ForeignTicket | SchedulerError::ForeignTask => sg_result::ForeignHandle,
    }
}

unsafe fn write<T>(out: *mut T, v: T) {
    // Callers checked `out` for NULL.
    out.write(v)
}

// ---------------------------------------------------------------------------------------
// Version and messages.

/// The library version as `(major << 16) | (minor << 8) | patch`. Any thread.
#[no_mangle]
pub extern "C" fn sg_version() -> u32 {
    (SG_VERSION_MAJOR << 16) | (SG_VERSION_MINOR << 8) | SG_VERSION_PATCH
}

/// A static, NUL-terminated English message for a result code (never NULL; unknown codes
/// get "unknown result code"). Any thread.
#[no_mangle]
pub extern "C" fn sg_result_message(code: u32) -> *const c_char {
    let s: &'static [u8] = match code {
        0 => b"ok\0",
        1 => b"a required pointer argument is NULL\0",
        2 => b"invalid argument value\0",
        3 => b"enum argument out of range\0",
        4 => b"chunk position outside |x|, |z| < 2^21\0",
        5 => b"buffer too small (see the needed count)\0",
        6 => b"stale handle: destroyed, finished or released\0",
        7 => b"handle belongs to another world\0",
        8 => b"owner-thread function called from another thread\0",
        9 => b"chunk has not reached the required status\0",
        10 => b"task finished before it was run\0",
        11 => b"task already ran\0",
        12 => b"task body failed\0",
        13 => b"struct_size smaller than this library's struct\0",
        14 => b"internal error caught at the C boundary\0",
        _ => b"unknown result code\0",
    };
    s.as_ptr() as *const c_char
}

// ---------------------------------------------------------------------------------------
// Worlds.

/// Default world settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_world_def_default() -> sg_world_def {
    let d = WorldDef::default();
    sg_world_def {
        struct_size: std::mem::size_of::<sg_world_def>() as u32,
        min_y: d.min_y,
        seed: d.seed,
        height: d.height,
        sea_level: d.sea_level,
    }
}

/// Create a world; the calling thread becomes its owner. Writes `*out` on success.
/// Release it with `sg_world_destroy`. Any thread (becomes the owner).
#[no_mangle]
pub unsafe extern "C" fn sg_world_create(
    def: *const sg_world_def,
    out: *mut *mut sg_world,
) -> sg_result {
    guard(|| {
        if def.is_null() || out.is_null() {
            return sg_result::NullArgument;
        }
        let d = &*def;
        if (d.struct_size as usize) < std::mem::size_of::<sg_world_def>() {
            return sg_result::BadStructSize;
        }
        let gen = match WorldGen::new(WorldDef {
            seed: d.seed,
            min_y: d.min_y,
            height: d.height,
            sea_level: d.sea_level,
        }) {
            Ok(g) => g,
            Err(_) => return sg_result::InvalidArgument,
        };
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let cell = WorldCell {
            owner: std::thread::current().id(),
            state: Mutex::new(WorldState {
                sched: Scheduler::with_id(Arc::new(World::new(gen.clone())), id),
                gen,
                tasks: BTreeSet::new(),
                pinned: Vec::new(),
            }),
        };
        lock(&WORLDS).insert(id, Arc::new(cell));
        write(out, to_handle(id));
        sg_result::Ok
    })
}

/// Destroy a world. Its outstanding task handles become stale (a task already running on
/// another thread finishes safely; finishing it then returns `SG_RESULT_STALE_HANDLE`).
/// Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_destroy(world: *mut sg_world) -> sg_result {
    guard(|| {
        let r = with_owner(world, |_, st| {
            let mut tasks = lock(&TASKS);
            for t in &st.tasks {
                tasks.remove(t);
            }
            sg_result::Ok
        });
        if r == sg_result::Ok {
            lock(&WORLDS).remove(&handle_id(world));
        }
        r
    })
}

/// Ask for chunk (cx, cz) to reach `status` (an `sg_status`) with `priority` (an
/// `sg_priority`). Writes a ticket id to `*ticket`. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_request(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    status: u32,
    priority: u32,
    ticket: *mut u64,
) -> sg_result {
    guard(|| {
        if ticket.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |_, st| {
            let s = match status_of(status) {
                Ok(s) => s,
                Err(e) => return e,
            };
            let p = match priority {
                0 => Priority::Immediate,
                1 => Priority::Soon,
                2 => Priority::Idle,
                _ => return sg_result::BadEnum,
            };
            st.pinned.clear();
            match st.sched.request(ChunkPos::new(cx, cz), s, p) {
                Ok(t) => {
                    write(ticket, t.id());
                    sg_result::Ok
                }
                Err(e) => sched_err(e),
            }
        })
    })
}

/// Drop a request; chunks nothing else needs are released. Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_release(world: *mut sg_world, ticket: u64) -> sg_result {
    guard(|| {
        with_owner(world, |_, st| {
            st.pinned.clear();
            match st.sched.release_id(ticket) {
                Ok(()) => sg_result::Ok,
                Err(e) => sched_err(e),
            }
        })
    })
}

/// Take up to `cap` ready tasks into `out[0..*count]`, best first. Each must be run
/// (`sg_task_run`, any thread) and then finished (`sg_world_finish_task`, owner thread).
/// Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_take_tasks(
    world: *mut sg_world,
    out: *mut *mut sg_task,
    cap: usize,
    count: *mut usize,
) -> sg_result {
    guard(|| {
        if count.is_null() || (out.is_null() && cap > 0) {
            return sg_result::NullArgument;
        }
        with_owner(world, |wid, st| {
            st.pinned.clear();
            let tasks = st.sched.take_tasks(cap);
            let n = tasks.len();
            let mut reg = lock(&TASKS);
            for (i, t) in tasks.into_iter().enumerate() {
                let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
                reg.insert(
                    id,
                    Arc::new(TaskCell {
                        world: wid,
                        inner: Mutex::new(TaskInner {
                            task: Some(t),
                            result: None,
                        }),
                    }),
                );
                st.tasks.insert(id);
                out.add(i).write(to_handle(id));
            }
            write(count, n);
            sg_result::Ok
        })
    })
}

fn task_cell(t: *const sg_task) -> Result<Arc<TaskCell>, sg_result> {
    if t.is_null() {
        return Err(sg_result::NullArgument);
    }
    lock(&TASKS)
        .get(&handle_id(t))
        .cloned()
        .ok_or(sg_result::StaleHandle)
}

/// Run a task's status body. Any thread, many tasks at once; touches only the task.
/// `SG_RESULT_TASK_ALREADY_RUN` if it ran before. A body failure is reported by
/// `sg_world_finish_task`, not here.
#[no_mangle]
pub extern "C" fn sg_task_run(task: *mut sg_task) -> sg_result {
    guard(|| {
        let cell = match task_cell(task) {
            Ok(c) => c,
            Err(e) => return e,
        };
        let mut inner = lock(&cell.inner);
        if inner.result.is_some() {
            return sg_result::TaskAlreadyRun;
        }
        let r = match &mut inner.task {
            Some(t) => {
                let r = t.run();
                // Free inputs on this (worker) thread, not on the owner at finish.
                t.drop_inputs();
                r
            }
            None => return sg_result::StaleHandle,
        };
        inner.result = Some(r);
        sg_result::Ok
    })
}

/// The chunk and status a task generates. Any thread. Writes only non-NULL outputs.
#[no_mangle]
pub unsafe extern "C" fn sg_task_info(
    task: *const sg_task,
    cx: *mut i32,
    cz: *mut i32,
    status: *mut u32,
) -> sg_result {
    guard(|| {
        let cell = match task_cell(task) {
            Ok(c) => c,
            Err(e) => return e,
        };
        let inner = lock(&cell.inner);
        let t = match &inner.task {
            Some(t) => t,
            None => return sg_result::StaleHandle,
        };
        if !cx.is_null() {
            write(cx, t.pos().x);
        }
        if !cz.is_null() {
            write(cz, t.pos().z);
        }
        if !status.is_null() {
            write(status, t.status() as u32);
        }
        sg_result::Ok
    })
}

/// Hand a run task back; the handle is invalid afterwards (unless the result is
/// `SG_RESULT_TASK_NOT_RUN`, `SG_RESULT_FOREIGN_HANDLE` or `SG_RESULT_WRONG_THREAD`, which
/// leave it untouched). `SG_RESULT_TASK_FAILED` if the body failed. Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_finish_task(world: *mut sg_world, task: *mut sg_task) -> sg_result {
    guard(|| {
        if task.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |wid, st| {
            let tid = handle_id(task);
            let cell = match lock(&TASKS).get(&tid).cloned() {
                Some(c) => c,
                None => return sg_result::StaleHandle,
            };
            if cell.world != wid {
                return sg_result::ForeignHandle;
            }
            let (t, r) = {
                let mut inner = lock(&cell.inner);
                if inner.result.is_none() {
                    return sg_result::TaskNotRun;
                }
                match (inner.task.take(), inner.result.take()) {
                    (Some(t), Some(r)) => (t, r),
                    _ => return sg_result::StaleHandle,
                }
            };
            lock(&TASKS).remove(&tid);
            st.tasks.remove(&tid);
            st.pinned.clear();
            match st.sched.finish(t, r) {
                Ok(Finished::Done) | Ok(Finished::Dropped) => sg_result::Ok,
                Ok(Finished::Failed(_)) => sg_result::TaskFailed,
                Err(e) => sched_err(e),
            }
        })
    })
}

/// Run up to `max_tasks` tasks on the calling thread (take, run, finish); writes the number
/// run to `*ran` if not NULL. For hosts without threads. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_run_inline(
    world: *mut sg_world,
    max_tasks: usize,
    ran: *mut usize,
) -> sg_result {
    guard(|| {
        with_owner(world, |_, st| {
            st.pinned.clear();
            let n = st.sched.run_inline(max_tasks);
            if !ran.is_null() {
                write(ran, n);
            }
            sg_result::Ok
        })
    })
}

/// Counts of ready tasks and tasks in flight (taken, not finished). Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_pending(
    world: *mut sg_world,
    ready: *mut usize,
    in_flight: *mut usize,
) -> sg_result {
    guard(|| {
        if ready.is_null() || in_flight.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |_, st| {
            write(ready, st.sched.ready_count());
            write(in_flight, st.sched.in_flight_count());
            sg_result::Ok
        })
    })
}

/// The highest completed status of chunk (cx, cz) into `*status`; `SG_RESULT_NOT_READY` if
/// nothing is generated there. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_chunk_status(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    status: *mut u32,
) -> sg_result {
    guard(|| {
        if status.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |_, st| {
            match st.sched.status(ChunkPos::new(cx, cz)) {
                Some(s) => {
                    write(status, s as u32);
                    sg_result::Ok
                }
                None => sg_result::NotReady,
            }
        })
    })
}

fn full(st: &WorldState, cx: i32, cz: i32) -> Result<Arc<ChunkData>, sg_result> {
    st.sched
        .output(ChunkPos::new(cx, cz), ChunkStatus::Full)
        .ok_or(sg_result::NotReady)
}

/// Copy `src` into `buf` if it fits; always writes the element count to `*needed` (if not
/// NULL). The buffer is untouched unless the result is OK.
unsafe fn copy_out<T: Copy>(src: &[T], buf: *mut T, cap: usize, needed: *mut usize) -> sg_result {
    if !needed.is_null() {
        write(needed, src.len());
    }
    if cap < src.len() {
        return sg_result::BufferTooSmall;
    }
    if buf.is_null() {
        return sg_result::NullArgument;
    }
    std::ptr::copy_nonoverlapping(src.as_ptr(), buf, src.len());
    sg_result::Ok
}

fn with_full(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    f: impl FnOnce(&FullChunk) -> sg_result,
) -> sg_result {
    with_owner(world, |_, st| match full(st, cx, cz) {
        Ok(d) => match d.full() {
            Some(fc) => f(fc),
            None => sg_result::NotReady,
        },
        Err(e) => e,
    })
}

/// Copy a full chunk's block ids (index ((y - min_y) * 16 + z) * 16 + x) into
/// `buf[0..16*16*height]`. `*needed` (optional) receives the count; a smaller `cap` gives
/// `SG_RESULT_BUFFER_TOO_SMALL` (call with `buf = NULL, cap = 0` to ask the size).
/// Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_blocks(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u16,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| with_full(world, cx, cz, |f| copy_out(f.blocks(), buf, cap, needed)))
}

/// Copy a full chunk's 16 biome ids (per 4 x 4 cell, index cz * 4 + cx). Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_biomes(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| with_full(world, cx, cz, |f| copy_out(&f.biomes, buf, cap, needed)))
}

/// Copy one of a full chunk's heightmaps (`kind` an `sg_heightmap`; 256 entries, index
/// z * 16 + x, each y + 1 of the top block of that kind, min_y if none). Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_heightmap(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    kind: u32,
    buf: *mut i32,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| {
        if kind > 3 {
            return sg_result::BadEnum;
        }
        with_full(world, cx, cz, |f| {
            copy_out(
                &f.heightmaps()[Heightmap::ALL[kind as usize]],
                buf,
                cap,
                needed,
            )
        })
    })
}

/// Copy a full chunk's light (`kind` an `sg_light`), nibble-packed: block i is byte i / 2,
/// low nibble for even i; (block count + 1) / 2 bytes. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_light(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    kind: u32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| {
        if kind > 1 {
            return sg_result::BadEnum;
        }
        with_full(world, cx, cz, |f| {
            let l = f.light();
            copy_out(if kind == 0 { &l.sky } else { &l.block }, buf, cap, needed)
        })
    })
}

/// Copy a full chunk's block entities. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_block_entities(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut sg_block_entity,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| {
        with_full(world, cx, cz, |f| {
            let v: Vec<sg_block_entity> = f
                .block_entities()
                .iter()
                .map(|e| sg_block_entity {
                    pos: e.pos,
                    kind: e.kind,
                    data: e.data,
                })
                .collect();
            copy_out(&v, buf, cap, needed)
        })
    })
}

/// Copy a full chunk's spawn requests. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_spawns(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut sg_spawn_request,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    guard(|| {
        with_full(world, cx, cz, |f| {
            let v: Vec<sg_spawn_request> = f
                .spawns
                .iter()
                .map(|s| sg_spawn_request {
                    pos: s.pos,
                    kind: s.kind,
                    group: s.group,
                })
                .collect();
            copy_out(&v, buf, cap, needed)
        })
    })
}

/// The digest of a full chunk (XXH64, see ARCHITECTURE.md) into `*digest`. Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_digest(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    digest: *mut u64,
) -> sg_result {
    guard(|| {
        if digest.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |_, st| match full(st, cx, cz) {
            Ok(d) => {
                write(digest, chunk_digest(&d));
                sg_result::Ok
            }
            Err(e) => e,
        })
    })
}

/// A borrowed view of a full chunk (lifetime: see `sg_chunk_view`). Owner thread.
#[no_mangle]
pub unsafe extern "C" fn sg_world_chunk_view(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    view: *mut sg_chunk_view,
) -> sg_result {
    guard(|| {
        if view.is_null() {
            return sg_result::NullArgument;
        }
        with_owner(world, |_, st| {
            let d = match full(st, cx, cz) {
                Ok(d) => d,
                Err(e) => return e,
            };
            let f = match d.full() {
                Some(f) => f,
                None => return sg_result::NotReady,
            };
            let dims = st.gen.dims();
            let hm = f.heightmaps();
            let v = sg_chunk_view {
                blocks: f.blocks().as_ptr(),
                block_count: f.blocks().len(),
                biomes: f.biomes.as_ptr(),
                world_surface: hm[Heightmap::WorldSurface].as_ptr(),
                ocean_floor: hm[Heightmap::OceanFloor].as_ptr(),
                motion_blocking: hm[Heightmap::MotionBlocking].as_ptr(),
                motion_blocking_no_leaves: hm[Heightmap::MotionBlockingNoLeaves].as_ptr(),
                sky_light: f.light().sky.as_ptr(),
                block_light: f.light().block.as_ptr(),
                light_bytes: f.light().sky.len(),
                min_y: dims.min_y,
                height: dims.height,
            };
            // The view points into `d` (and what it shares); keep it alive for the
            // documented lifetime.
            st.pinned.push(d.clone());
            write(view, v);
            sg_result::Ok
        })
    })
}

// ---------------------------------------------------------------------------------------
// Stateless noise.

/// Default noise settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_noise_def_default() -> sg_noise_def {
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
        fill_strategy: d.fill as u32,
    }
}

unsafe fn noise_of(def: *const sg_noise_def) -> Result<stratagen_core::noise::Noise, sg_result> {
    if def.is_null() {
        return Err(sg_result::NullArgument);
    }
    let d = &*def;
    if (d.struct_size as usize) < std::mem::size_of::<sg_noise_def>() {
        return Err(sg_result::BadStructSize);
    }
    let noise_type = match d.noise_type {
        0 => NoiseType::Value,
        1 => NoiseType::Perlin,
        2 => NoiseType::Simplex,
        3 => NoiseType::Cellular,
        _ => return Err(sg_result::BadEnum),
    };
    let fractal = match d.fractal {
        0 => FractalType::None,
        1 => FractalType::Fbm,
        2 => FractalType::Ridged,
        3 => FractalType::Billow,
        _ => return Err(sg_result::BadEnum),
    };
    let cellular_distance = match d.cellular_distance {
        0 => CellularDistance::Euclidean,
        1 => CellularDistance::Manhattan,
        _ => return Err(sg_result::BadEnum),
    };
    let cellular_return = match d.cellular_return {
        0 => CellularReturn::F1,
        1 => CellularReturn::F2,
        2 => CellularReturn::F2MinusF1,
        3 => CellularReturn::CellValue,
        _ => return Err(sg_result::BadEnum),
    };
    let fill = match d.fill_strategy {
        0 => FillStrategy::Vectorized,
        1 => FillStrategy::Adaptive,
        _ => return Err(sg_result::BadEnum),
    };
    NoiseDef {
        seed: d.seed,
        noise_type,
        fractal,
        octaves: d.octaves,
        frequency: d.frequency,
        lacunarity: d.lacunarity,
        gain: d.gain,
        offset: d.offset,
        cellular_distance,
        cellular_return,
        cellular_jitter: d.cellular_jitter,
        warp_amplitude: d.warp_amplitude,
        warp_frequency: d.warp_frequency,
        fill,
    }
    .build()
    .map_err(|_| sg_result::InvalidArgument)
}

fn noise_err(e: NoiseError) -> sg_result {
    match e {
        NoiseError::BufferTooSmall { .. } => sg_result::BufferTooSmall,
        _ => sg_result::InvalidArgument,
    }
}

/// Fill `out[0..width*height]` with fractal noise over a 2D grid (`float` samples, equal to
/// the library's point samples rounded to float). Nothing is written on error. Any thread;
/// allocates nothing and uses about 30 KiB of the calling thread's stack (every noise fill).
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_2d(
    def: *const sg_noise_def,
    grid: *const sg_grid2,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    guard(|| {
        let n = match noise_of(def) {
            Ok(n) => n,
            Err(e) => return e,
        };
        if grid.is_null() || out.is_null() {
            return sg_result::NullArgument;
        }
        let g = &*grid;
        let grid = Grid2 {
            x0: g.x0,
            y0: g.y0,
            dx: g.dx,
            dy: g.dy,
            width: g.width as usize,
            height: g.height as usize,
        };
        let buf = std::slice::from_raw_parts_mut(out, cap);
        match n.fill_2d_f32(&grid, buf) {
            Ok(()) => sg_result::Ok,
            Err(e) => noise_err(e),
        }
    })
}

/// Fill `out[0..width*height*depth]` over a 3D grid (layout in `sg_grid3`). Any thread.
#[no_mangle]
pub unsafe extern "C" fn sg_noise_fill_3d(
    def: *const sg_noise_def,
    grid: *const sg_grid3,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    guard(|| {
        let n = match noise_of(def) {
            Ok(n) => n,
            Err(e) => return e,
        };
        if grid.is_null() || out.is_null() {
            return sg_result::NullArgument;
        }
        let g = &*grid;
        let grid = Grid3 {
            origin: g.origin,
            step: g.step,
            width: g.width as usize,
            height: g.height as usize,
            depth: g.depth as usize,
        };
        let buf = std::slice::from_raw_parts_mut(out, cap);
        match n.fill_3d_f32(&grid, buf) {
            Ok(()) => sg_result::Ok,
            Err(e) => noise_err(e),
        }
    })
}

/// Fill a heightmap chunk: `res * res` samples of chunk (cx, cz), sample (i, j) at block
/// (16*cx + i*16/res, 16*cz + j*16/res); neighbouring chunks tile seamlessly. `res` in
/// 1..=4096. Any thread. At long wavelengths (many samples per lattice cell, the usual
/// heightmap) set `def.fill_strategy = SG_FILL_STRATEGY_ADAPTIVE`: 2–4× faster, same output.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_fill(
    def: *const sg_noise_def,
    cx: i32,
    cz: i32,
    res: u32,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    guard(|| {
        let n = match noise_of(def) {
            Ok(n) => n,
            Err(e) => return e,
        };
        if out.is_null() {
            return sg_result::NullArgument;
        }
        let buf = std::slice::from_raw_parts_mut(out, cap);
        match n.heightmap_chunk(cx, cz, res as usize, buf) {
            Ok(()) => sg_result::Ok,
            Err(e) => noise_err(e),
        }
    })
}
