//! Handles are tokens, not addresses: a world or task handle names an entry in a registry,
//! ids are never reused, so a destroyed world or a finished task is detected
//! (`SG_RESULT_STALE_HANDLE`) and never dereferenced.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use stratagen_core::engine::{BodyError, ChunkPos, Scheduler, Task};
use stratagen_core::world::edit::EditLayer;
use stratagen_core::world::{ChunkData, FullChunk, World, WorldGen};

use crate::boundary::Out;
use crate::palette::CPalette;
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_task, sg_world};

/// A chunk lent out through `sg_world_chunk_view`: the shared chunk and the dense arrays the
/// view points into (resident chunks are paletted; the view's layout is dense). Moving this
/// value does not move the arrays' heap buffers, so the pointers stay valid while it is kept.
pub(crate) struct PinnedView {
    /// The chunk the arrays were decoded from (its heightmaps and biomes are lent directly):
    /// held, never read.
    pub _chunk: Arc<ChunkData>,
    /// Block ids.
    pub blocks: Vec<u16>,
    /// Sky light, nibble-packed.
    pub sky: Vec<u8>,
    /// Block light, nibble-packed.
    pub block_light: Vec<u8>,
}

/// The owner thread's state of one world.
pub(crate) struct WorldState {
    pub sched: Scheduler<World>,
    pub generator: WorldGen,
    /// The world's blocks and biomes with C names (valid while the world lives).
    pub palette: Arc<CPalette>,
    /// Task handles handed out and not yet finished.
    pub tasks: BTreeSet<u64>,
    /// Chunk data lent out through `sg_world_chunk_view`, kept alive until the next mutating
    /// call.
    pub pinned: Vec<PinnedView>,
    /// The world's edits and the edited chunks read through them.
    pub edits: EditLayer,
    /// Chunks reported changed and not yet handed to the host (a call whose buffer was too
    /// small keeps them).
    pub changed: BTreeSet<ChunkPos>,
}

impl WorldState {
    /// The finished chunk at (cx, cz) with its edits, shared; `SG_RESULT_OUT_OF_RANGE`
    /// outside the world, `SG_RESULT_NOT_READY` below `full` (or, for an edited chunk, while
    /// a neighbour its light reads is not generated).
    pub fn full(&mut self, cx: i32, cz: i32) -> FfiResult<Arc<ChunkData>> {
        let pos = valid_pos(cx, cz)?;
        Ok(self.edits.full(&self.sched, pos)?)
    }

    /// Drop the edited chunks of positions no longer resident (after a release).
    pub fn forget_released(&mut self) {
        let sched = &self.sched;
        self.edits.retain(|p| sched.status(p).is_some());
    }
}

/// A chunk position the caller passed: `SG_RESULT_OUT_OF_RANGE` outside |x|, |z| < 2^21, the
/// same answer from every call that takes a position.
pub(crate) fn valid_pos(cx: i32, cz: i32) -> FfiResult<ChunkPos> {
    let pos = ChunkPos::new(cx, cz);
    if pos.is_valid() {
        Ok(pos)
    } else {
        Err(sg_result::OutOfRange)
    }
}

/// A registered world: its owner thread and its state.
pub(crate) struct WorldCell {
    pub owner: ThreadId,
    pub state: Mutex<WorldState>,
}

/// A task and, once run, its result.
pub(crate) struct TaskInner {
    pub task: Option<Task<World>>,
    pub result: Option<Result<ChunkData, BodyError>>,
}

/// A registered task: the world it belongs to and its state.
pub(crate) struct TaskCell {
    pub world: u64,
    pub inner: Mutex<TaskInner>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static WORLDS: Mutex<BTreeMap<u64, Arc<WorldCell>>> = Mutex::new(BTreeMap::new());
static TASKS: Mutex<BTreeMap<u64, Arc<TaskCell>>> = Mutex::new(BTreeMap::new());

/// Lock a mutex. A poisoned lock means a panic was caught while it was held; the data is
/// still consistent for our purposes (every update is a single insert or remove).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh id, never reused.
pub(crate) fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// The id a handle stands for.
pub(crate) fn handle_id<T>(p: *const T) -> u64 {
    p as usize as u64
}

/// The id of a handle the caller passed: NULL is `SG_RESULT_NULL_ARGUMENT`.
pub(crate) fn try_handle<T>(p: *const T) -> FfiResult<u64> {
    match handle_id(p) {
        0 => Err(sg_result::NullArgument),
        id => Ok(id),
    }
}

/// The handle of an id (never dereferenced).
pub(crate) fn to_handle<T>(id: u64) -> *mut T {
    id as usize as *mut T
}

/// Register a world under `id` (from [`next_id`]).
pub(crate) fn register_world(id: u64, cell: WorldCell) {
    lock(&WORLDS).insert(id, Arc::new(cell));
}

/// Forget a world and its outstanding task handles.
pub(crate) fn unregister_world(id: u64, tasks: &BTreeSet<u64>) {
    let mut reg = lock(&TASKS);
    for t in tasks {
        reg.remove(t);
    }
    drop(reg);
    lock(&WORLDS).remove(&id);
}

/// The registry entry behind a handle: NULL and unknown (stale) handles are errors.
pub(crate) fn lookup<H, T>(reg: &Mutex<BTreeMap<u64, Arc<T>>>, h: *const H) -> FfiResult<Arc<T>> {
    let id = try_handle(h)?;
    lock(reg).get(&id).cloned().ok_or(sg_result::StaleHandle)
}

fn world_cell(w: *const sg_world) -> FfiResult<Arc<WorldCell>> {
    lookup(&WORLDS, w)
}

/// Run `f` on the world behind `w`, locked, after checking the calling thread is its owner.
/// `f` receives the world's id.
pub(crate) fn with_owner<R>(
    w: *const sg_world,
    f: impl FnOnce(u64, &mut WorldState) -> FfiResult<R>,
) -> FfiResult<R> {
    let cell = world_cell(w)?;
    if std::thread::current().id() != cell.owner {
        return Err(sg_result::WrongThread);
    }
    let mut st = lock(&cell.state);
    f(handle_id(w), &mut st)
}

/// [`with_owner`] whose value goes to the required output `out`, written only on success
/// (the caller checks `out` for NULL before the world is touched).
pub(crate) fn owner_out<T>(
    w: *const sg_world,
    out: Out<'_, T>,
    f: impl FnOnce(u64, &mut WorldState) -> FfiResult<T>,
) -> FfiResult<()> {
    out.write(with_owner(w, f)?);
    Ok(())
}

/// Run `f` on the finished chunk (cx, cz) of the world behind `w` (owner thread).
pub(crate) fn with_full<R>(
    w: *const sg_world,
    cx: i32,
    cz: i32,
    f: impl FnOnce(&FullChunk) -> FfiResult<R>,
) -> FfiResult<R> {
    with_owner(w, |_, st| {
        let d = st.full(cx, cz)?;
        d.full().map_or(Err(sg_result::NotReady), f)
    })
}

/// Register a task of world `world`; returns its handle.
pub(crate) fn register_task(world: u64, task: Task<World>) -> (u64, *mut sg_task) {
    let id = next_id();
    let cell = TaskCell {
        world,
        inner: Mutex::new(TaskInner {
            task: Some(task),
            result: None,
        }),
    };
    lock(&TASKS).insert(id, Arc::new(cell));
    (id, to_handle(id))
}

/// The task behind `t`.
pub(crate) fn task_cell(t: *const sg_task) -> FfiResult<Arc<TaskCell>> {
    lookup(&TASKS, t)
}

/// Forget a finished task.
pub(crate) fn unregister_task(id: u64) {
    lock(&TASKS).remove(&id);
}
