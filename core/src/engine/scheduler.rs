//! The host-driven scheduler: requests become ready (chunk, status) tasks; any
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

use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::chunk_map::ChunkMap;
use crate::engine::holder::{Holder, ReadyEntry};
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::layers::{LayerWindow, Layers};
use crate::engine::pipeline::{BodyError, Pipeline};
use crate::engine::plan::{self, Plan};
use crate::engine::step_table::StepTable;
use crate::engine::task::{Finished, Task, Ticket};

mod errors;
mod queries;
mod restore;
mod retention;
mod tasks;

pub use errors::{RestoreError, Restored, SchedulerError};
pub use retention::Retention;

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

/// Counters for tests and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedulerStats {
    /// Tasks finished with a stored result, per status.
    pub done: [u64; ChunkStatus::COUNT],
    /// Results dropped because their chunk was released.
    pub dropped: u64,
    /// Tasks whose body failed.
    pub failed: u64,
    /// Dropped outputs generated again for a neighbour ([`Retention::FullChunks`]).
    pub refilled: u64,
    /// Most holders resident at once.
    pub peak_holders: usize,
}

/// What a ticket asks for.
#[derive(Clone, Copy, Debug)]
struct TicketInfo {
    pos: ChunkPos,
    target: ChunkStatus,
    priority: Priority,
}

/// A task handed out and not yet finished.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    pos: ChunkPos,
    status: ChunkStatus,
    /// The holder generation the task was taken from.
    generation: u64,
    /// Whether the task generates a dropped output again (the holder's status stays).
    refill: bool,
}

/// The scheduler: holders, tickets and the ready set. See the module docs for thread rules.
pub struct Scheduler<P: Pipeline> {
    id: u64,
    pipeline: Arc<P>,
    table: StepTable,
    /// Derived from `table`: wide statuses, near radii, the ring, notify radii.
    plan: Plan,
    holders: ChunkMap<Holder<P::Output>>,
    /// Outputs of the wide statuses per region, shared by tasks with wide windows.
    layers: Layers<P::Output>,
    tickets: BTreeMap<u64, TicketInfo>,
    next_ticket: u64,
    in_flight: BTreeMap<u64, InFlight>,
    next_task: u64,
    next_generation: u64,
    ready: BTreeSet<ReadyEntry>,
    failures: BTreeMap<ChunkPos, (ChunkStatus, BodyError)>,
    /// Stored outputs loaded for chunks no request covered yet, by position; moved into the
    /// holder when a request creates it.
    pending: BTreeMap<ChunkPos, Vec<Arc<P::Output>>>,
    /// Points ready tasks are ordered by (nearest first within a priority); empty: by the
    /// distance to the nearest request.
    focus: Vec<ChunkPos>,
    retention: Retention,
    /// Compact chunks whose dropped outputs a neighbour waits for, with the highest status
    /// it needs.
    refills: BTreeMap<ChunkPos, ChunkStatus>,
    /// Refills whose inputs are all there, handed out before the ready set.
    refills_ready: VecDeque<(ChunkPos, ChunkStatus)>,
    /// Per status: whether [`Retention::FullChunks`] drops it (transient and not wide).
    droppable: [bool; ChunkStatus::COUNT],
    /// What every neighbour of a full chunk must have reached before its droppable outputs
    /// are dropped (`None`: nothing reads them at distance 1).
    drop_after: Option<ChunkStatus>,
    stats: SchedulerStats,
}

impl<P: Pipeline> Scheduler<P> {
    /// A scheduler with a caller-chosen id. Tickets and tasks carry the id, so handing one to
    /// a scheduler with another id is detected; give every live scheduler a distinct id.
    pub fn with_id(pipeline: Arc<P>, id: u64) -> Self {
        let table = StepTable::new();
        let plan = Plan::new(&table);
        let droppable = ChunkStatus::ALL
            .map(|s| s != ChunkStatus::Full && !plan.is_wide(s) && pipeline.transient(s));
        let drop_after = ChunkStatus::ALL
            .iter()
            .filter(|s| droppable[s.index()])
            .filter_map(|s| plan.last_reader_at_one(*s))
            .max();
        Scheduler {
            id,
            pipeline,
            layers: Layers::new(plan.wide_count(), plan.ring()),
            table,
            plan,
            holders: ChunkMap::new(),
            tickets: BTreeMap::new(),
            next_ticket: 1,
            in_flight: BTreeMap::new(),
            next_task: 1,
            next_generation: 1,
            ready: BTreeSet::new(),
            failures: BTreeMap::new(),
            pending: BTreeMap::new(),
            focus: Vec::new(),
            retention: Retention::AllStatuses,
            refills: BTreeMap::new(),
            refills_ready: VecDeque::new(),
            droppable,
            drop_after,
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

    /// The plan derived from the step table.
    pub fn plan(&self) -> &Plan {
        &self.plan
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

    /// Add (or remove) a ticket's need at every chunk in its accumulated radius, then drop
    /// the holders nothing needs and refresh the ones whose wanting or order changed.
    fn apply_ticket(&mut self, t: TicketInfo, add: bool) {
        let r = self.table.accumulated_radius(t.target) as i32;
        let (table, prio, focus) = (&self.table, t.priority as usize, &self.focus);
        let mut touched = Vec::new();
        let mut emptied = Vec::new();
        let mut restored = Vec::new();
        for z in t.pos.z - r..=t.pos.z + r {
            let mut update = |x: i32, h: &mut Holder<P::Output>| {
                let q = ChunkPos::new(x, z);
                let d = q.distance(t.pos);
                let level = match table.ticket_level(t.target, d) {
                    Some(l) => l,
                    None => return,
                };
                // The order key only matters for chunks already in the ready set.
                let wanted = h.wants_next();
                let key = h.ready_key().map(|_| h.key(q, focus));
                if add {
                    h.add_ticket(level, prio, d);
                } else {
                    h.remove_ticket(level, prio, d);
                    if h.unneeded() {
                        emptied.push(q);
                        return;
                    }
                }
                // Only a change of wanting, or of the order of a ready chunk, needs a refresh.
                if h.wants_next() != wanted || key.map_or(false, |k| h.key(q, focus) != k) {
                    touched.push(q);
                }
            };
            if add {
                let generation = &mut self.next_generation;
                let pending = &mut self.pending;
                let make = |x| {
                    *generation += 1;
                    let mut h = Holder::new(*generation);
                    if !pending.is_empty() {
                        if let Some(out) = pending.remove(&ChunkPos::new(x, z)) {
                            h.restore(&out);
                            restored.push((ChunkPos::new(x, z), out));
                        }
                    }
                    h
                };
                self.holders
                    .row_insert(z, t.pos.x - r, t.pos.x + r, make, &mut update);
            } else {
                self.holders
                    .row_mut(z, t.pos.x - r, t.pos.x + r, &mut update);
            }
        }
        for &q in &emptied {
            if let Some(h) = self.holders.remove(q) {
                if let Some(key) = h.ready_key() {
                    self.ready.remove(&ReadyEntry { key, pos: q });
                }
                self.layers.clear(q);
                self.failures.remove(&q);
                self.refills.remove(&q);
                self.refills_ready.retain(|r| r.0 != q);
            }
        }
        let mut woken = Vec::new();
        for (q, out) in restored {
            self.settle(q, 0, &out, &mut woken);
        }
        for q in woken.into_iter().chain(touched) {
            self.refresh(q);
        }
        self.pump_refills();
        self.stats.peak_holders = core::cmp::max(self.stats.peak_holders, self.holders.len());
    }

    /// [`Scheduler::completed`] for statuses `from..outputs.len()`, which a holder took from
    /// storage.
    fn settle(
        &mut self,
        q: ChunkPos,
        from: usize,
        outputs: &[Arc<P::Output>],
        woken: &mut Vec<ChunkPos>,
    ) {
        for (i, out) in outputs.iter().enumerate().skip(from) {
            self.completed(q, ChunkStatus::ALL[i], out.clone(), woken);
        }
    }

    /// The bookkeeping of `status` completing at `q` (its holder already has `output`): the
    /// wide layers and ring counts, and the neighbours' counters. Chunks that became ready
    /// are pushed to `woken`.
    fn completed(
        &mut self,
        q: ChunkPos,
        status: ChunkStatus,
        output: Arc<P::Output>,
        woken: &mut Vec<ChunkPos>,
    ) {
        if self.plan.is_wide(status) {
            self.layers.set(q, status, output, woken);
        }
        self.notify_neighbours(q, status, woken);
        self.compact_around(q);
    }

    /// Unmet direct requirements of `status` at `q` that its holder counts itself.
    /// A neighbour that reached the requirement but dropped an output it covers counts as
    /// unmet too, and is pushed to `refills` with the requirement.
    fn count_missing(
        &self,
        q: ChunkPos,
        status: ChunkStatus,
        refills: &mut Vec<(ChunkPos, ChunkStatus)>,
    ) -> u32 {
        let r = self.plan.counted_radius(&self.table, status);
        let mut missing = 0;
        for z in q.z - r..=q.z + r {
            self.holders.row(z, q.x - r, q.x + r, |x, h| {
                let d = ChunkPos::new(x, z).distance(q);
                if let Some(need) = self.table.direct_at(status, d) {
                    let met = match h {
                        Some(h) if h.has_reached(need) => {
                            let whole = h.dropped_upto(need).is_none();
                            if !whole {
                                refills.push((ChunkPos::new(x, z), need));
                            }
                            whole
                        }
                        _ => false,
                    };
                    missing += (!met) as u32;
                }
            });
        }
        missing
    }

    /// Whether `status` at `q` waits for no ring, or its ring is complete.
    fn ring_done(&self, q: ChunkPos, status: ChunkStatus) -> bool {
        match self.plan.ring() {
            Some(ring) if self.plan.waits_for_ring(status) => {
                self.layers.ring_count(q) == ring.full_count()
            }
            _ => true,
        }
    }

    /// Bring `q`'s active flag, counter and ready-set entry up to date.
    fn refresh(&mut self, q: ChunkPos) {
        let (wants, active, next) = match self.holders.get(q) {
            Some(h) => (h.wants_next(), h.is_active(), h.next()),
            None => return,
        };
        let mut refills = Vec::new();
        let missing = match (wants, active, next) {
            (true, false, Some(n)) => Some(self.count_missing(q, n, &mut refills)),
            _ => None,
        };
        if !refills.is_empty() {
            self.want_refills(refills);
        }
        let ring_done = next.map_or(true, |n| self.ring_done(q, n));
        let h = match self.holders.get_mut(q) {
            Some(h) => h,
            None => return,
        };
        if let Some(m) = missing {
            h.activate(m);
        }
        if !wants {
            h.deactivate();
        }
        let key = if h.counted_requirements_met() && ring_done {
            Some(h.key(q, &self.focus))
        } else {
            None
        };
        if key != h.ready_key() {
            if let Some(old) = h.set_ready_key(key) {
                self.ready.remove(&ReadyEntry { key: old, pos: q });
            }
            if let Some(key) = key {
                self.ready.insert(ReadyEntry { key, pos: q });
            }
        }
    }

    /// Order ready tasks, within each priority, by squared distance to the nearest of
    /// `points` (chunk positions, typically the viewers' chunks), ties by position; an empty
    /// list restores the order by distance to the nearest request. The ready set is re-keyed
    /// at once, so a host calls this when a viewer crosses a chunk border, not every frame.
    /// Only the order changes, never an output. Owner thread.
    pub fn set_focus(&mut self, points: &[ChunkPos]) {
        if self.focus == points {
            return;
        }
        self.focus.clear();
        self.focus.extend_from_slice(points);
        let entries: Vec<ReadyEntry> = core::mem::take(&mut self.ready).into_iter().collect();
        for e in entries {
            if let Some(h) = self.holders.get_mut(e.pos) {
                let key = h.key(e.pos, &self.focus);
                h.set_ready_key(Some(key));
                self.ready.insert(ReadyEntry { key, pos: e.pos });
            }
        }
    }

    /// The focus points set by [`Scheduler::set_focus`].
    pub fn focus(&self) -> &[ChunkPos] {
        &self.focus
    }
}
