//! The host-driven scheduler (DESIGN §7): requests become ready (chunk, status) tasks; any
//! thread runs a task; the owner thread finishes it.
//!
//! Thread rules: [`Scheduler`] is owned by one thread (the owner) and every `&mut self` call
//! (`request`, `release`, `take_tasks`, `finish`, `run_inline`) happens there. A [`Task`] is
//! `Send + Sync`: it owns shared references to its frozen inputs and never touches the
//! scheduler, so [`Task::run`] may be called from any thread, many tasks at once.
//!
//! Readiness is tracked with counters, not rescans: each waiting chunk counts the neighbours
//! that have not yet reached what its next status requires; a completion decrements the
//! counters of the chunks around it, and a chunk whose counter reaches zero enters the ready
//! set, ordered by (priority, distance to the nearest request of that priority, position).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::holder::{ChunkMap, Holder, LayerWindow, Layers, ReadyKey, Slots};
use crate::ladder::{ChunkPos, ChunkStatus};
use crate::step_table::{StepTable, MAX_DIRECT_RADIUS};

/// Request priority. Ready tasks are handed out `Immediate` first, then `Soon`, then `Idle`;
/// within a priority, nearest to the request first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum Priority {
    /// Needed now (the player's own chunk).
    Immediate = 0,
    /// Needed soon (the view distance).
    Soon = 1,
    /// Pre-generation.
    Idle = 2,
}

/// Why a status body failed. Displayed messages name the status, the offset and what was
/// declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyError {
    /// The body read a (neighbour, status) outside the window its step declared.
    OutsideWindow {
        /// The status being generated.
        running: ChunkStatus,
        /// Offset of the neighbour read, in chunks.
        dx: i32,
        /// Offset of the neighbour read, in chunks.
        dz: i32,
        /// The status whose output was asked for.
        requested: ChunkStatus,
        /// What the step table declares at that distance (`None`: nothing).
        declared: Option<ChunkStatus>,
    },
    /// A declared input was not present (a scheduler bug; reported, never defaulted).
    MissingInput {
        /// The status being generated.
        running: ChunkStatus,
        /// Offset of the neighbour read.
        dx: i32,
        /// Offset of the neighbour read.
        dz: i32,
        /// The status whose output was asked for.
        requested: ChunkStatus,
    },
    /// The body itself refused (for example an input of the wrong kind).
    Failed(&'static str),
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BodyError::OutsideWindow {
                running,
                dx,
                dz,
                requested,
                declared,
            } => write!(
                f,
                "{} read {} at offset ({}, {}) outside its window: declared {} there",
                running.name(),
                requested.name(),
                dx,
                dz,
                declared.map_or("nothing", |s| s.name())
            ),
            BodyError::MissingInput {
                running,
                dx,
                dz,
                requested,
            } => write!(
                f,
                "{} input {} at offset ({}, {}) is missing",
                running.name(),
                requested.name(),
                dx,
                dz
            ),
            BodyError::Failed(m) => write!(f, "status body failed: {}", m),
        }
    }
}

/// Misuse of the scheduler, reported as a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerError {
    /// A position outside `|x|, |z| < 2^21` chunks ([`ChunkPos::LIMIT`]).
    OutOfRange(ChunkPos),
    /// The ticket is not (or no longer) held by this scheduler.
    UnknownTicket,
    /// The ticket belongs to another scheduler.
    ForeignTicket,
    /// The task was already finished (or never taken here).
    UnknownTask,
    /// The task belongs to another scheduler.
    ForeignTask,
}

impl fmt::Display for SchedulerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchedulerError::OutOfRange(p) => write!(
                f,
                "chunk ({}, {}) is outside the supported range |x|, |z| < 2^21",
                p.x, p.z
            ),
            SchedulerError::UnknownTicket => write!(f, "unknown or already released ticket"),
            SchedulerError::ForeignTicket => write!(f, "ticket belongs to another world"),
            SchedulerError::UnknownTask => write!(f, "task already finished or unknown"),
            SchedulerError::ForeignTask => write!(f, "task belongs to another world"),
        }
    }
}

/// The generation logic: one body per status, a pure function of the position and the view.
pub trait Pipeline: Send + Sync + 'static {
    /// What a status produces (typically an enum with one variant per status).
    type Output: Send + Sync + 'static;

    /// Run `status` at `pos`, reading inputs only through `view`.
    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, Self::Output>,
    ) -> Result<Self::Output, BodyError>;
}

/// Read-only access to exactly the inputs a status declared: at distance `d` (Chebyshev), the
/// outputs of every status up to the direct requirement at `d`.
pub struct View<'a, O> {
    running: ChunkStatus,
    pos: ChunkPos,
    radius: i32,
    declared: &'a [Option<ChunkStatus>; MAX_DIRECT_RADIUS + 1],
    /// Every chunk within `near`, all statuses.
    near: i32,
    cells: &'a [Option<Arc<Slots<O>>>],
    /// Beyond `near`, only wide statuses are declared: read them from the region layers.
    layers: &'a LayerWindow<O>,
}

impl<'a, O> View<'a, O> {
    /// The status being generated.
    pub fn running(&self) -> ChunkStatus {
        self.running
    }

    /// The output of `status` of the chunk at offset `(dx, dz)`; an error if that read is
    /// outside the declared window.
    pub fn get(&self, dx: i32, dz: i32, status: ChunkStatus) -> Result<&'a O, BodyError> {
        self.get_shared_ref(dx, dz, status).map(|a| &**a)
    }

    /// Like [`View::get`], but a new shared reference, for outputs that keep their inputs.
    pub fn get_shared(&self, dx: i32, dz: i32, status: ChunkStatus) -> Result<Arc<O>, BodyError> {
        self.get_shared_ref(dx, dz, status).map(Arc::clone)
    }

    fn get_shared_ref(
        &self,
        dx: i32,
        dz: i32,
        status: ChunkStatus,
    ) -> Result<&'a Arc<O>, BodyError> {
        let d = core::cmp::max(dx.unsigned_abs(), dz.unsigned_abs());
        let declared = if d as i32 <= self.radius {
            self.declared[d as usize]
        } else {
            None
        };
        if declared.map_or(true, |s| status > s) {
            return Err(BodyError::OutsideWindow {
                running: self.running,
                dx,
                dz,
                requested: status,
                declared,
            });
        }
        let found = if d as i32 <= self.near {
            let side = 2 * self.near + 1;
            let idx = ((dz + self.near) * side + (dx + self.near)) as usize;
            self.cells
                .get(idx)
                .and_then(|c| c.as_ref())
                .and_then(|c| c.get(status))
        } else {
            let p = ChunkPos::new(self.pos.x + dx, self.pos.z + dz);
            self.layers.get(p, status.index())
        };
        found.ok_or(BodyError::MissingInput {
            running: self.running,
            dx,
            dz,
            requested: status,
        })
    }
}

/// A handle on a request. Release it when the chunk is no longer needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket {
    world: u64,
    id: u64,
}

impl Ticket {
    /// The ticket's number within its scheduler.
    pub fn id(&self) -> u64 {
        self.id
    }
}

#[derive(Clone, Copy, Debug)]
struct TicketInfo {
    pos: ChunkPos,
    target: ChunkStatus,
    priority: Priority,
}

/// One (chunk, status) body to run, with shared references to its frozen inputs.
pub struct Task<P: Pipeline> {
    world: u64,
    id: u64,
    pos: ChunkPos,
    status: ChunkStatus,
    pipeline: Arc<P>,
    declared: [Option<ChunkStatus>; MAX_DIRECT_RADIUS + 1],
    radius: i32,
    near: i32,
    cells: Vec<Option<Arc<Slots<P::Output>>>>,
    layers: LayerWindow<P::Output>,
}

impl<P: Pipeline> Task<P> {
    /// Run the body. Any thread; touches nothing but the task's own inputs.
    pub fn run(&self) -> Result<P::Output, BodyError> {
        let view = View {
            running: self.status,
            pos: self.pos,
            radius: self.radius,
            declared: &self.declared,
            near: self.near,
            cells: &self.cells,
            layers: &self.layers,
        };
        self.pipeline.run(self.status, self.pos, &view)
    }

    /// Drop the task's references to its inputs (call after [`Task::run`], on the thread that
    /// ran it): the last reference to a superseded output may be the task's, and freeing large
    /// outputs on the worker keeps that cost off the owner thread. `run` after this fails with
    /// `MissingInput`.
    pub fn drop_inputs(&mut self) {
        self.cells = Vec::new();
        self.layers = LayerWindow::empty();
    }

    /// The chunk.
    pub fn pos(&self) -> ChunkPos {
        self.pos
    }

    /// The status this task generates.
    pub fn status(&self) -> ChunkStatus {
        self.status
    }

    /// The task's number within its scheduler (unique over the scheduler's life).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The id of the scheduler that handed the task out.
    pub fn world_id(&self) -> u64 {
        self.world
    }
}

/// What `finish` did with a task's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// Stored; the chunk reached the task's status.
    Done,
    /// The chunk was released while the task ran; the result was dropped.
    Dropped,
    /// The body failed; the chunk stays below the task's status (see [`Scheduler::failure`]).
    Failed(BodyError),
}

/// Counters for tests and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedulerStats {
    /// Tasks finished with a stored result, per status.
    pub done: [u64; ChunkStatus::COUNT],
    /// Results dropped because their chunk was released.
    pub dropped: u64,
    /// Tasks whose body failed.
    pub failed: u64,
    /// Most holders resident at once.
    pub peak_holders: usize,
}

/// The scheduler: holders, tickets and the ready set. See the module docs for thread rules.
pub struct Scheduler<P: Pipeline> {
    id: u64,
    pipeline: Arc<P>,
    table: StepTable,
    holders: ChunkMap<Holder<P::Output>>,
    tickets: BTreeMap<u64, TicketInfo>,
    next_ticket: u64,
    in_flight: BTreeMap<u64, (ChunkPos, ChunkStatus, u64)>,
    next_task: u64,
    next_gen: u64,
    ready: BTreeSet<(ReadyKey, ChunkPos)>,
    failures: BTreeMap<ChunkPos, (ChunkStatus, BodyError)>,
    stats: SchedulerStats,
    /// Per status X: the farthest distance at which some status directly requires X, so a
    /// completion of X only notifies that far.
    notify_radius: [u8; ChunkStatus::COUNT],
    /// Outputs of the wide statuses per region, shared by tasks with wide windows.
    layers: Layers<P::Output>,
    /// Per status: the radius within which a task holds every neighbour's outputs; beyond
    /// it only wide statuses are declared and come from `layers`.
    near: [u8; ChunkStatus::COUNT],
    /// Per status: whether its requirements beyond `near` are the layers' ring (the same
    /// wide status at every distance up to the ring radius), counted per position by the
    /// layers instead of by the holder's `missing`.
    ring_of: [bool; ChunkStatus::COUNT],
}

impl<P: Pipeline> Scheduler<P> {
    /// A scheduler with a caller-chosen id. Tickets and tasks carry the id, so handing one to
    /// a scheduler with another id is detected; give every live scheduler a distinct id.
    pub fn with_id(pipeline: Arc<P>, id: u64) -> Self {
        let table = StepTable::new();
        // Wide statuses: those some status reads at distance 2 or more (with everything
        // before them, since a declaration covers lower statuses too).
        let mut wide = 0;
        for s in ChunkStatus::ALL {
            for d in 2..=table.direct_radius(s) {
                if let Some(x) = table.direct_at(s, d) {
                    wide = core::cmp::max(wide, x.index() + 1);
                }
            }
        }
        let mut near = [0u8; ChunkStatus::COUNT];
        for s in ChunkStatus::ALL {
            for d in 0..=table.direct_radius(s) {
                if table.direct_at(s, d).map_or(false, |x| x.index() >= wide) {
                    near[s.index()] = d as u8;
                }
            }
        }
        // The ring: the first (wide status, radius) that some status requires at every
        // distance beyond its near radius. Statuses with another shape keep plain counters.
        let mut ring = None;
        let mut ring_of = [false; ChunkStatus::COUNT];
        for s in ChunkStatus::ALL {
            let (n, r) = (u32::from(near[s.index()]), table.direct_radius(s));
            let x = match table.direct_at(s, r) {
                Some(x) if r > n => x,
                _ => continue,
            };
            if (n + 1..=r).all(|d| table.direct_at(s, d) == Some(x)) {
                let this = (x, r as i32);
                if *ring.get_or_insert(this) == this {
                    ring_of[s.index()] = true;
                }
            }
        }
        // A completion notifies only the counters that count it.
        let mut notify_radius = [0u8; ChunkStatus::COUNT];
        for s in ChunkStatus::ALL {
            for d in 0..=table.direct_radius(s) {
                let counted = !ring_of[s.index()] || d <= u32::from(near[s.index()]);
                if let (Some(x), true) = (table.direct_at(s, d), counted) {
                    let r = &mut notify_radius[x.index()];
                    *r = core::cmp::max(*r, d as u8);
                }
            }
        }
        Scheduler {
            id,
            pipeline,
            table,
            notify_radius,
            layers: Layers::new(wide, ring),
            near,
            ring_of,
            holders: ChunkMap::new(),
            tickets: BTreeMap::new(),
            next_ticket: 1,
            in_flight: BTreeMap::new(),
            next_task: 1,
            next_gen: 1,
            ready: BTreeSet::new(),
            failures: BTreeMap::new(),
            stats: SchedulerStats::default(),
        }
    }

    /// A scheduler whose id is the address of its pipeline (distinct among live schedulers
    /// with distinct pipelines).
    pub fn new(pipeline: Arc<P>) -> Self {
        let id = Arc::as_ptr(&pipeline) as *const u8 as usize as u64;
        Self::with_id(pipeline, id)
    }

    /// The scheduler's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The pipeline.
    pub fn pipeline(&self) -> &Arc<P> {
        &self.pipeline
    }

    /// The step table in use.
    pub fn table(&self) -> &StepTable {
        &self.table
    }

    /// Ask for `pos` to reach `target`. Owner thread.
    pub fn request(
        &mut self,
        pos: ChunkPos,
        target: ChunkStatus,
        priority: Priority,
    ) -> Result<Ticket, SchedulerError> {
        if !pos.is_valid() {
            return Err(SchedulerError::OutOfRange(pos));
        }
        let id = self.next_ticket;
        self.next_ticket += 1;
        let info = TicketInfo {
            pos,
            target,
            priority,
        };
        self.tickets.insert(id, info);
        self.apply_ticket(info, true);
        Ok(Ticket { world: self.id, id })
    }

    /// Drop a request. Chunks nothing else needs are released (their untaken tasks
    /// cancelled, their taken tasks' results dropped on finish). Owner thread.
    pub fn release(&mut self, ticket: Ticket) -> Result<(), SchedulerError> {
        if ticket.world != self.id {
            return Err(SchedulerError::ForeignTicket);
        }
        let info = self
            .tickets
            .remove(&ticket.id)
            .ok_or(SchedulerError::UnknownTicket)?;
        self.apply_ticket(info, false);
        Ok(())
    }

    /// [`Scheduler::release`] by ticket number (for handle tables that store the number).
    pub fn release_id(&mut self, id: u64) -> Result<(), SchedulerError> {
        self.release(Ticket { world: self.id, id })
    }

    fn apply_ticket(&mut self, t: TicketInfo, add: bool) {
        let r = self.table.accumulated_radius(t.target) as i32;
        let (table, prio) = (&self.table, t.priority as usize);
        let mut touched = Vec::new();
        let mut emptied = Vec::new();
        for dz in -r..=r {
            let z = t.pos.z + dz;
            let mut update = |x: i32, h: &mut Holder<P::Output>| {
                let d = core::cmp::max((x - t.pos.x).unsigned_abs(), dz.unsigned_abs());
                let level = match table.ticket_level(t.target, d) {
                    Some(l) => l,
                    None => return,
                };
                // The order key only matters for chunks already in the ready set.
                let wanted = h.wants_next();
                let key = h.ready_key.map(|_| h.key());
                if add {
                    h.need[level.index()] += 1;
                    h.cover[prio][d as usize] += 1;
                } else {
                    h.need[level.index()] -= 1;
                    h.cover[prio][d as usize] -= 1;
                    if h.unneeded() {
                        emptied.push(ChunkPos::new(x, z));
                        return;
                    }
                }
                // Only a change of wanting, or of the order of a ready chunk, needs a refresh.
                if h.wants_next() != wanted || key.map_or(false, |k| h.key() != k) {
                    touched.push(ChunkPos::new(x, z));
                }
            };
            if add {
                let gen = &mut self.next_gen;
                let make = |_| {
                    *gen += 1;
                    Holder::new(*gen)
                };
                self.holders
                    .row_insert(z, t.pos.x - r, t.pos.x + r, make, &mut update);
            } else {
                self.holders
                    .row_mut(z, t.pos.x - r, t.pos.x + r, &mut update);
            }
        }
        for q in emptied {
            if let Some(h) = self.holders.remove(q) {
                if let Some(k) = h.ready_key {
                    self.ready.remove(&(k, q));
                }
                self.layers.clear(q);
                self.failures.remove(&q);
            }
        }
        for q in touched {
            self.refresh(q);
        }
        self.stats.peak_holders = core::cmp::max(self.stats.peak_holders, self.holders.len());
    }

    /// Unmet direct requirements of `status` at `q`.
    fn count_missing(&self, q: ChunkPos, status: ChunkStatus) -> u32 {
        // A ring status counts only its near requirements here; the ring is the layers'.
        let r = if self.ring_of[status.index()] {
            i32::from(self.near[status.index()])
        } else {
            self.table.direct_radius(status) as i32
        };
        let mut missing = 0;
        for dz in -r..=r {
            self.holders.row(q.z + dz, q.x - r, q.x + r, |x, h| {
                let d = core::cmp::max((x - q.x).unsigned_abs(), dz.unsigned_abs());
                if let Some(need) = self.table.direct_at(status, d) {
                    missing += (!h.map_or(false, |h| h.has_reached(need))) as u32;
                }
            });
        }
        missing
    }

    /// Bring `q`'s active flag, counter and ready-set entry up to date.
    fn refresh(&mut self, q: ChunkPos) {
        let (wants, active, next) = match self.holders.get(q) {
            Some(h) => (h.wants_next(), h.active, h.next()),
            None => return,
        };
        let missing = match (wants, active, next) {
            (true, false, Some(n)) => Some(self.count_missing(q, n)),
            _ => None,
        };
        let h = match self.holders.get_mut(q) {
            Some(h) => h,
            None => return,
        };
        if let Some(m) = missing {
            h.active = true;
            h.missing = m;
        }
        if !wants {
            h.active = false;
        }
        let ring_done = match next {
            Some(n) if self.ring_of[n.index()] => {
                self.layers.ring_count(q) == self.layers.ring_full()
            }
            _ => true,
        };
        let key = if h.active && h.missing == 0 && ring_done {
            Some(h.key())
        } else {
            None
        };
        if key != h.ready_key {
            if let Some(old) = h.ready_key {
                self.ready.remove(&(old, q));
            }
            if let Some(k) = key {
                self.ready.insert((k, q));
            }
            h.ready_key = key;
        }
    }

    /// Hand out up to `max` ready tasks, best first. Owner thread. Every task returned must
    /// come back through [`Scheduler::finish`].
    pub fn take_tasks(&mut self, max: usize) -> Vec<Task<P>> {
        let mut out = Vec::new();
        while out.len() < max {
            let (key, q) = match self.ready.iter().next() {
                Some(e) => *e,
                None => break,
            };
            self.ready.remove(&(key, q));
            let (status, gen) = match self.holders.get_mut(q) {
                Some(h) => match h.next() {
                    Some(s) => {
                        h.ready_key = None;
                        h.active = false;
                        h.in_flight = true;
                        (s, h.gen)
                    }
                    None => continue,
                },
                None => continue,
            };
            let r = self.table.direct_radius(status) as i32;
            let mut declared = [None; MAX_DIRECT_RADIUS + 1];
            for (d, slot) in declared.iter_mut().enumerate().take(r as usize + 1) {
                *slot = self.table.direct_at(status, d as u32);
            }
            let near = i32::from(self.near[status.index()]);
            let mut cells = Vec::with_capacity(((2 * near + 1) * (2 * near + 1)) as usize);
            for dz in -near..=near {
                self.holders.row(q.z + dz, q.x - near, q.x + near, |_, h| {
                    cells.push(h.map(|h| h.slots.clone()))
                });
            }
            let layers = if r > near {
                self.layers.window(q, r)
            } else {
                LayerWindow::empty()
            };
            let id = self.next_task;
            self.next_task += 1;
            self.in_flight.insert(id, (q, status, gen));
            out.push(Task {
                world: self.id,
                id,
                pos: q,
                status,
                pipeline: self.pipeline.clone(),
                declared,
                radius: r,
                near,
                cells,
                layers,
            });
        }
        out
    }

    /// Hand back a task with the result of its [`Task::run`]. Owner thread.
    pub fn finish(
        &mut self,
        task: Task<P>,
        result: Result<P::Output, BodyError>,
    ) -> Result<Finished, SchedulerError> {
        if task.world != self.id {
            return Err(SchedulerError::ForeignTask);
        }
        let (q, status, gen) = self
            .in_flight
            .remove(&task.id)
            .ok_or(SchedulerError::UnknownTask)?;
        drop(task);
        let h = match self.holders.get_mut(q) {
            Some(h) if h.gen == gen => h,
            _ => {
                self.stats.dropped += 1;
                return Ok(Finished::Dropped);
            }
        };
        h.in_flight = false;
        let output = match result {
            Ok(o) => o,
            Err(e) => {
                h.failed = true;
                self.stats.failed += 1;
                self.failures.insert(q, (status, e));
                self.refresh(q);
                return Ok(Finished::Failed(e));
            }
        };
        let output = Arc::new(output);
        // Tasks still running may hold the current snapshot: replace it then, never change
        // it. When no task does, fill the slot in place (no copy of the other outputs).
        match Arc::get_mut(&mut h.slots) {
            Some(slots) => slots.out[status.index()] = Some(output.clone()),
            None => {
                let mut slots = Slots::empty();
                slots.out.clone_from(&h.slots.out);
                slots.out[status.index()] = Some(output.clone());
                h.slots = Arc::new(slots);
            }
        }
        let mut woken = Vec::new();
        if self.layers.is_wide(status) {
            self.layers.set(q, status, output, &mut woken);
        }
        h.done = status.index() as u8 + 1;
        self.stats.done[status.index()] += 1;
        // Neighbours whose next status needs exactly this one here are one step closer.
        let r = self.notify_radius[status.index()] as i32;
        for dz in -r..=r {
            let (table, near, ring_of) = (&self.table, &self.near, &self.ring_of);
            self.holders.row_mut(q.z + dz, q.x - r, q.x + r, |x, n| {
                let d = core::cmp::max((x - q.x).unsigned_abs(), dz.unsigned_abs());
                let counts = |s: ChunkStatus| {
                    table.direct_at(s, d) == Some(status)
                        && (!ring_of[s.index()] || d <= u32::from(near[s.index()]))
                };
                if n.active && d > 0 && n.next().map_or(false, counts) {
                    n.missing = n.missing.saturating_sub(1);
                    if n.missing == 0 {
                        woken.push(ChunkPos::new(x, q.z + dz));
                    }
                }
            });
        }
        for p in woken {
            self.refresh(p);
        }
        self.refresh(q);
        Ok(Finished::Done)
    }

    /// Run up to `max_tasks` tasks on the calling thread (take, run, finish), for hosts without
    /// threads. Returns how many ran. Owner thread.
    pub fn run_inline(&mut self, max_tasks: usize) -> usize {
        let mut ran = 0;
        while ran < max_tasks {
            let tasks = self.take_tasks(1);
            if tasks.is_empty() {
                break;
            }
            for t in tasks {
                let r = t.run();
                // The task came from this scheduler and is finished once: cannot fail.
                let _ = self.finish(t, r);
                ran += 1;
            }
        }
        ran
    }

    /// The highest completed status of `pos` (`None` if it has no holder or nothing is done).
    pub fn status(&self, pos: ChunkPos) -> Option<ChunkStatus> {
        self.holders.get(pos).and_then(|h| h.status())
    }

    /// The frozen output of `status` at `pos`, shared.
    pub fn output(&self, pos: ChunkPos, status: ChunkStatus) -> Option<Arc<P::Output>> {
        self.holders
            .get(pos)
            .and_then(|h| h.slots.get(status).cloned())
    }

    /// Whether the ticket's chunk has reached its target.
    pub fn is_ready(&self, ticket: Ticket) -> Result<bool, SchedulerError> {
        if ticket.world != self.id {
            return Err(SchedulerError::ForeignTicket);
        }
        let t = self
            .tickets
            .get(&ticket.id)
            .ok_or(SchedulerError::UnknownTicket)?;
        Ok(self.status(t.pos) >= Some(t.target))
    }

    /// The failure recorded at `pos`, if its last task failed.
    pub fn failure(&self, pos: ChunkPos) -> Option<(ChunkStatus, BodyError)> {
        self.failures.get(&pos).copied()
    }

    /// Holders resident now.
    pub fn holder_count(&self) -> usize {
        self.holders.len()
    }

    /// Tasks ready to be taken.
    pub fn ready_count(&self) -> usize {
        self.ready.len()
    }

    /// Tasks taken and not yet finished.
    pub fn in_flight_count(&self) -> usize {
        self.in_flight.len()
    }

    /// Live tickets.
    pub fn ticket_count(&self) -> usize {
        self.tickets.len()
    }

    /// No task is ready or in flight: every request is satisfied (or blocked by a failure).
    pub fn is_idle(&self) -> bool {
        self.ready.is_empty() && self.in_flight.is_empty()
    }

    /// Counters.
    pub fn stats(&self) -> SchedulerStats {
        self.stats
    }
}
