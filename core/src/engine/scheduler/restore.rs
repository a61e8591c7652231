//! Restoring stored outputs (a chunk record's statuses) into a scheduler, so generation
//! continues where it stopped.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{RestoreError, Restored, Scheduler};
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::pipeline::Pipeline;

impl<P: Pipeline> Scheduler<P> {
    /// Take stored outputs of the chunk at `pos` (`outputs[i]` is the output of status `i`,
    /// from `empty` up to the stored status), so generation continues from there. Owner
    /// thread.
    ///
    /// If a request covers the chunk, its holder takes the statuses it has not reached yet
    /// (those it has are equal by determinism) and its neighbours see them at once. If none
    /// does, the outputs wait until a request makes the chunk resident ([`Restored::Pending`];
    /// [`Scheduler::pending_count`] counts them, [`Scheduler::forget_pending`] drops one).
    /// Refused, changing nothing: a position out of range, no outputs, a chunk that already
    /// has the stored status or a higher one, a task of the chunk in flight, a failed chunk.
    ///
    /// The outputs are trusted to be this pipeline's for this position (a store checks the
    /// world identity and the data before it gets here).
    pub fn restore_outputs(
        &mut self,
        pos: ChunkPos,
        outputs: Vec<Arc<P::Output>>,
    ) -> Result<Restored, RestoreError> {
        if !pos.is_valid() {
            return Err(RestoreError::OutOfRange(pos));
        }
        let top = match outputs
            .len()
            .checked_sub(1)
            .and_then(ChunkStatus::from_index)
        {
            Some(s) => s,
            None => return Err(RestoreError::BadOutputs),
        };
        let h = match self.holders.get_mut(pos) {
            Some(h) => h,
            None => {
                if let Some(has) = self
                    .pending
                    .get(&pos)
                    .and_then(|o| ChunkStatus::from_index(o.len() - 1))
                    .filter(|&has| has >= top)
                {
                    return Err(RestoreError::AlreadyResident { has });
                }
                self.pending.insert(pos, outputs);
                return Ok(Restored::Pending);
            }
        };
        if let Some(has) = h.status().filter(|&has| has >= top) {
            return Err(RestoreError::AlreadyResident { has });
        }
        if h.in_flight() {
            return Err(RestoreError::InFlight);
        }
        if h.failed() {
            return Err(RestoreError::Failed);
        }
        let from = h.next().map_or(ChunkStatus::COUNT, |n| n.index());
        h.restore(&outputs);
        let mut woken = Vec::new();
        self.settle(pos, from, &outputs, &mut woken);
        for q in woken {
            self.refresh(q);
        }
        self.refresh(pos);
        self.pump_refills();
        Ok(Restored::Resident)
    }

    /// Stored outputs waiting for a request (see [`Scheduler::restore_outputs`]).
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// Drop the stored outputs waiting at `pos`; true if there were some.
    pub fn forget_pending(&mut self, pos: ChunkPos) -> bool {
        self.pending.remove(&pos).is_some()
    }
}
