//! Chunk holders: one per chunk position, one output slot per status, plus the bookkeeping
//! the scheduler keeps per chunk. The fields are private: every change goes through a method
//! that keeps the holder's invariants (statuses complete in ladder order, at most one task in
//! flight, a failed holder runs nothing more, an in-place slot update only while no task
//! holds the snapshot, only a full holder lacks outputs below its status: the ones it
//! dropped, until a refill puts them back).

use alloc::sync::Arc;

use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::step_table::MAX_RADIUS;

/// The completed outputs of one chunk, shared read-only by every task that reads them.
#[derive(Debug)]
pub struct Slots<O> {
    out: [Option<Arc<O>>; ChunkStatus::COUNT],
}

// By hand: the outputs are shared, so a copy of the slots never needs `O: Clone`.
impl<O> Clone for Slots<O> {
    fn clone(&self) -> Self {
        Slots {
            out: self.out.clone(),
        }
    }
}

impl<O> Slots<O> {
    fn empty() -> Self {
        Slots {
            out: Default::default(),
        }
    }

    /// The output of `status`, if complete.
    pub fn get(&self, status: ChunkStatus) -> Option<&Arc<O>> {
        self.out[status.index()].as_ref()
    }
}

/// Number of request priorities.
pub(crate) const PRIORITIES: usize = 3;

/// Order of a ready task: priority first, then distance (field order is the sort order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ReadyKey {
    /// Priority index, 0 = immediate.
    pub priority: u8,
    /// Without focus points: Chebyshev distance to the nearest request of that priority.
    /// With focus points: squared distance in chunks to the nearest one.
    pub distance: u64,
}

/// The squared distance in chunks from `pos` to the nearest of `focus` (`None` if empty).
pub(crate) fn focus_distance(pos: ChunkPos, focus: &[ChunkPos]) -> Option<u64> {
    focus
        .iter()
        .map(|f| {
            let dx = (i64::from(pos.x) - i64::from(f.x)).unsigned_abs();
            let dz = (i64::from(pos.z) - i64::from(f.z)).unsigned_abs();
            dx.saturating_mul(dx).saturating_add(dz.saturating_mul(dz))
        })
        .min()
}

/// An entry of the ready set: ordered by key, then position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ReadyEntry {
    pub key: ReadyKey,
    pub pos: ChunkPos,
}

/// The per-chunk state.
pub(crate) struct Holder<O> {
    /// Distinguishes this holder from an earlier one at the same position, so a task taken
    /// before a release cannot land in a holder created after it.
    generation: u64,
    /// Statuses completed: 0 = none, 10 = full.
    done: u8,
    /// Snapshot of the completed outputs: filled in place while no task holds it, replaced
    /// (never changed under a reader) while one does.
    slots: Arc<Slots<O>>,
    /// Tickets needing this chunk at each level.
    need: [u32; ChunkStatus::COUNT],
    /// Tickets covering this chunk, per priority and distance.
    cover: [[u32; MAX_RADIUS + 1]; PRIORITIES],
    /// Unmet direct requirements of the next status (valid while `active`).
    missing: u32,
    /// Whether the next status is wanted and waiting (not in flight, not failed).
    active: bool,
    in_flight: bool,
    failed: bool,
    ready_key: Option<ReadyKey>,
}

impl<O> Holder<O> {
    pub fn new(generation: u64) -> Self {
        Holder {
            generation,
            done: 0,
            slots: Arc::new(Slots::empty()),
            need: [0; ChunkStatus::COUNT],
            cover: [[0; MAX_RADIUS + 1]; PRIORITIES],
            missing: 0,
            active: false,
            in_flight: false,
            failed: false,
            ready_key: None,
        }
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The completed outputs (shared).
    pub fn slots(&self) -> &Arc<Slots<O>> {
        &self.slots
    }

    /// The highest status some ticket needs here.
    pub fn need_level(&self) -> Option<ChunkStatus> {
        self.need
            .iter()
            .rposition(|&n| n > 0)
            .and_then(ChunkStatus::from_index)
    }

    /// The next status to run, if any remains.
    pub fn next(&self) -> Option<ChunkStatus> {
        ChunkStatus::from_index(self.done as usize)
    }

    /// The highest completed status.
    pub fn status(&self) -> Option<ChunkStatus> {
        (self.done as usize)
            .checked_sub(1)
            .and_then(ChunkStatus::from_index)
    }

    pub fn has_reached(&self, s: ChunkStatus) -> bool {
        self.done as usize > s.index()
    }

    /// Whether the next status should run.
    pub fn wants_next(&self) -> bool {
        match self.next() {
            Some(n) => !self.in_flight && !self.failed && self.need_level() >= Some(n),
            None => false,
        }
    }

    /// The order this holder's task (at `pos`) would take in the ready set: its best
    /// priority, then the squared distance to the nearest of `focus`, or, without focus
    /// points, the distance to the nearest request of that priority.
    pub fn key(&self, pos: ChunkPos, focus: &[ChunkPos]) -> ReadyKey {
        for (p, dists) in self.cover.iter().enumerate() {
            if let Some(d) = dists.iter().position(|&c| c > 0) {
                let distance = match focus_distance(pos, focus) {
                    Some(f) => f,
                    None => d as u64,
                };
                return ReadyKey {
                    priority: p as u8,
                    distance,
                };
            }
        }
        ReadyKey {
            priority: PRIORITIES as u8,
            distance: 0,
        }
    }

    pub fn unneeded(&self) -> bool {
        self.need.iter().all(|&n| n == 0)
    }

    /// A ticket of `priority` at distance `d` needs this chunk at `level`.
    pub fn add_ticket(&mut self, level: ChunkStatus, priority: usize, d: u32) {
        self.need[level.index()] += 1;
        self.cover[priority][d as usize] += 1;
    }

    /// Undo [`Holder::add_ticket`] (the same arguments).
    pub fn remove_ticket(&mut self, level: ChunkStatus, priority: usize, d: u32) {
        self.need[level.index()] -= 1;
        self.cover[priority][d as usize] -= 1;
    }

    /// Whether the next status waits with its own requirements counted.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Start waiting for the next status with `missing` unmet requirements.
    pub fn activate(&mut self, missing: u32) {
        self.active = true;
        self.missing = missing;
    }

    /// Stop waiting (nothing wants the next status any more).
    pub fn deactivate(&mut self) {
        self.active = false;
    }

    /// Waiting, with every counted requirement met.
    pub fn counted_requirements_met(&self) -> bool {
        self.active && self.missing == 0
    }

    /// One counted requirement was met; true if that was the last.
    pub fn requirement_met(&mut self) -> bool {
        self.missing = self.missing.saturating_sub(1);
        self.missing == 0
    }

    /// The key under which this holder sits in the ready set.
    pub fn ready_key(&self) -> Option<ReadyKey> {
        self.ready_key
    }

    /// Record the ready-set key; returns the previous one.
    pub fn set_ready_key(&mut self, key: Option<ReadyKey>) -> Option<ReadyKey> {
        core::mem::replace(&mut self.ready_key, key)
    }

    /// Hand out the next status as a task: it leaves the ready set and is in flight. Returns
    /// the status, or `None` if the ladder is complete.
    pub fn start_task(&mut self) -> Option<ChunkStatus> {
        let s = self.next()?;
        self.ready_key = None;
        self.active = false;
        self.in_flight = true;
        Some(s)
    }

    /// The task in flight failed: this holder runs nothing more.
    pub fn fail(&mut self) {
        self.in_flight = false;
        self.failed = true;
    }

    /// Take stored outputs: `outputs[i]` is the output of status `i`; the statuses this
    /// holder has not reached yet are filled from them (the ones it has are equal by
    /// determinism and kept). The holder must have no task in flight and no failure. Its
    /// next status changes, so its counted requirements are dropped for a recount.
    pub fn restore(&mut self, outputs: &[Arc<O>]) {
        debug_assert!(
            !self.in_flight && !self.failed,
            "restore into a busy holder"
        );
        let from = self.done as usize;
        for (slot, o) in self.slots_mut().iter_mut().zip(outputs).skip(from) {
            *slot = Some(o.clone());
        }
        self.done = core::cmp::max(self.done, outputs.len() as u8);
        self.active = false;
    }

    /// Whether a task of this holder is in flight.
    pub fn in_flight(&self) -> bool {
        self.in_flight
    }

    /// Whether this holder's last task failed.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The task in flight produced `output` for `status` (which must be the next status).
    pub fn complete(&mut self, status: ChunkStatus, output: Arc<O>) {
        debug_assert_eq!(
            self.next(),
            Some(status),
            "statuses complete in ladder order"
        );
        self.in_flight = false;
        self.slots_mut()[status.index()] = Some(output);
        self.done = status.index() as u8 + 1;
    }

    /// Whether this holder is full and has dropped some outputs ([`Holder::drop_outputs`]).
    pub fn is_compact(&self) -> bool {
        self.next().is_none() && self.slots.out.iter().any(|s| s.is_none())
    }

    /// Drop the outputs of the statuses `drop` picks; the holder must be full, and stays so
    /// (its finished output is kept).
    pub fn drop_outputs(&mut self, drop: impl Fn(ChunkStatus) -> bool) {
        debug_assert!(self.next().is_none(), "only a full holder drops outputs");
        for (s, slot) in ChunkStatus::ALL.iter().zip(self.slots_mut().iter_mut()) {
            if drop(*s) {
                *slot = None;
            }
        }
    }

    /// The lowest status up to `upto` whose output this holder dropped, if any.
    pub fn dropped_upto(&self, upto: ChunkStatus) -> Option<ChunkStatus> {
        ChunkStatus::ALL
            .iter()
            .take(core::cmp::min(upto.index() + 1, self.done as usize))
            .find(|s| self.slots.out[s.index()].is_none())
            .copied()
    }

    /// Hand out the refill of a dropped output: at most one task in flight.
    pub fn start_refill(&mut self) {
        self.in_flight = true;
    }

    /// The refill in flight produced `output` for `status`, a status this holder dropped.
    pub fn complete_refill(&mut self, status: ChunkStatus, output: Arc<O>) {
        debug_assert!(self.has_reached(status), "a refill is of a status reached");
        self.in_flight = false;
        self.slots_mut()[status.index()] = Some(output);
    }

    /// The output slots, to change. Tasks still running may hold the current snapshot:
    /// replace it then, never change it. When no task does, change it in place (no copy of
    /// the other outputs).
    fn slots_mut(&mut self) -> &mut [Option<Arc<O>>; ChunkStatus::COUNT] {
        &mut Arc::make_mut(&mut self.slots).out
    }
}
