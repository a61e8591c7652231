//! What the owner thread may ask a scheduler: a chunk's status and outputs, what is resident,
//! whether a ticket is ready, failures, counts and statistics.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{Scheduler, SchedulerError, SchedulerStats};
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::pipeline::{BodyError, Pipeline};
use crate::engine::task::Ticket;

impl<P: Pipeline> Scheduler<P> {
    /// The highest completed status of `pos` (`None` if it has no holder or nothing is done).
    pub fn status(&self, pos: ChunkPos) -> Option<ChunkStatus> {
        self.holders.get(pos).and_then(|h| h.status())
    }

    /// The frozen output of `status` at `pos`, shared.
    pub fn output(&self, pos: ChunkPos, status: ChunkStatus) -> Option<Arc<P::Output>> {
        self.holders
            .get(pos)
            .and_then(|h| h.slots().get(status).cloned())
    }

    /// The positions of every resident holder that has completed at least one status (what
    /// a host saves before shutting down), in a fixed order. Owner thread.
    pub fn resident(&self) -> Vec<ChunkPos> {
        let mut v = self.holders.positions();
        v.retain(|&p| self.status(p).is_some());
        v
    }

    /// Every completed output of `pos`, index = status, from `empty` up to its status: what a
    /// chunk record stores. Empty if it has no holder, nothing is done, or it is compact
    /// ([`Scheduler::is_compact`]).
    pub fn outputs(&self, pos: ChunkPos) -> Vec<Arc<P::Output>> {
        let h = match self.holders.get(pos) {
            Some(h) if !h.is_compact() => h,
            _ => return Vec::new(),
        };
        ChunkStatus::ALL
            .iter()
            .map_while(|&s| h.slots().get(s).cloned())
            .collect()
    }

    /// Whether the chunk at `pos` is full and has dropped its transient outputs
    /// ([`Retention::FullChunks`]): its finished output is there, its record cannot be made.
    ///
    /// [`Retention::FullChunks`]: super::Retention::FullChunks
    pub fn is_compact(&self, pos: ChunkPos) -> bool {
        self.holders.get(pos).map_or(false, |h| h.is_compact())
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
        self.ready.len() + self.refills_ready.len()
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
        self.ready.is_empty() && self.refills_ready.is_empty() && self.in_flight.is_empty()
    }

    /// Counters.
    pub fn stats(&self) -> SchedulerStats {
        self.stats
    }
}
