//! Which outputs a resident chunk keeps ([`Retention`]): under [`Retention::FullChunks`] a
//! full chunk drops its transient outputs once no neighbour's body can read them, and gets
//! them back (a *refill*: the status body run again over the same inputs, so the same bytes)
//! if a neighbour generated later needs them.

use alloc::collections::btree_map::Entry;
use alloc::vec::Vec;

use super::Scheduler;
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::pipeline::Pipeline;

/// Which outputs a resident chunk keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Retention {
    /// Every status's output while the chunk is resident: any resident chunk can be saved as
    /// a chunk record.
    #[default]
    AllStatuses = 0,
    /// A full chunk drops its transient outputs ([`Pipeline::transient`]) once each of its
    /// eight neighbours has passed the last status that reads them; its finished output
    /// stays. A neighbour generated later (after a release) that needs them waits while
    /// they are generated again, to the same bytes. A compact chunk cannot be saved as a
    /// chunk record (the record holds every status).
    FullChunks = 1,
}

impl<P: Pipeline> Scheduler<P> {
    /// Which outputs full chunks keep from now on ([`Retention::AllStatuses`] by default).
    /// Chunks already compact stay so. Owner thread.
    pub fn set_retention(&mut self, retention: Retention) {
        self.retention = retention;
    }

    /// The retention set by [`Scheduler::set_retention`].
    pub fn retention(&self) -> Retention {
        self.retention
    }

    /// Under [`Retention::FullChunks`], drop the transient outputs of the full chunks around
    /// `q` (which just completed a status) whose neighbours have all passed every status that
    /// reads them.
    pub(super) fn compact_around(&mut self, q: ChunkPos) {
        let after = match self.drop_after {
            Some(a) if self.retention == Retention::FullChunks => a,
            _ => return,
        };
        let droppable = self.droppable;
        for z in q.z - 1..=q.z + 1 {
            for x in q.x - 1..=q.x + 1 {
                let p = ChunkPos::new(x, z);
                let holds_some = self.holders.get(p).map_or(false, |h| {
                    h.next().is_none()
                        && !h.in_flight()
                        && ChunkStatus::ALL
                            .iter()
                            .any(|s| droppable[s.index()] && h.slots().get(*s).is_some())
                });
                if holds_some && !self.refills.contains_key(&p) && self.neighbours_reached(p, after)
                {
                    if let Some(h) = self.holders.get_mut(p) {
                        h.drop_outputs(|s| droppable[s.index()]);
                    }
                }
            }
        }
    }

    /// Whether all eight neighbours of `p` are resident and have reached `status`.
    fn neighbours_reached(&self, p: ChunkPos, status: ChunkStatus) -> bool {
        let mut all = true;
        for z in p.z - 1..=p.z + 1 {
            self.holders.row(z, p.x - 1, p.x + 1, |_, h| {
                all &= h.map_or(false, |h| h.has_reached(status));
            });
        }
        all
    }

    /// Chunks (with the highest status a neighbour reads) whose dropped outputs are wanted.
    pub(super) fn want_refills(&mut self, wanted: Vec<(ChunkPos, ChunkStatus)>) -> bool {
        let mut grew = false;
        for (p, upto) in wanted {
            match self.refills.entry(p) {
                Entry::Vacant(e) => {
                    e.insert(upto);
                    grew = true;
                }
                Entry::Occupied(mut e) if *e.get() < upto => {
                    e.insert(upto);
                    grew = true;
                }
                Entry::Occupied(_) => {}
            }
        }
        grew
    }

    /// Queue every wanted refill whose inputs are there; a refill that waits for another
    /// chunk's dropped output wants that one too. Refills only read statuses below their own,
    /// so the wants end. Every call that completes a status or wants a refill ends with it
    /// (request, release, finish, restore), so a wanted refill never waits for an unrelated
    /// call.
    pub(super) fn pump_refills(&mut self) {
        loop {
            let mut more = Vec::new();
            let wanted: Vec<(ChunkPos, ChunkStatus)> =
                self.refills.iter().map(|(p, s)| (*p, *s)).collect();
            for (p, upto) in wanted {
                let next = match self.holders.get(p) {
                    Some(h) if h.failed() => continue,
                    Some(h) => h.dropped_upto(upto).map(|s| (s, h.in_flight())),
                    None => None,
                };
                let (status, busy) = match next {
                    Some(n) => n,
                    None => {
                        self.refills.remove(&p);
                        continue;
                    }
                };
                if busy || self.refills_ready.contains(&(p, status)) {
                    continue;
                }
                if self.refill_inputs_ready(p, status, &mut more) {
                    self.refills_ready.push_back((p, status));
                }
            }
            if !self.want_refills(more) {
                break;
            }
        }
    }

    /// Whether the refill of `status` at `p` can run: every neighbour it counts has reached
    /// what `status` requires at its distance and holds those outputs (a compact one that
    /// dropped them is pushed to `more`), and the ring is complete if `status` waits for it.
    /// The chunk's own outputs below `status` are there: it is the lowest one dropped.
    fn refill_inputs_ready(
        &self,
        p: ChunkPos,
        status: ChunkStatus,
        more: &mut Vec<(ChunkPos, ChunkStatus)>,
    ) -> bool {
        self.count_missing(p, status, more) == 0 && self.ring_done(p, status)
    }

    /// A refill at `p` completed: the waiting neighbours count their requirements again,
    /// and the next refills are queued.
    pub(super) fn refilled(&mut self, p: ChunkPos) {
        self.stats.refilled += 1;
        let mut waiting = Vec::new();
        for z in p.z - 1..=p.z + 1 {
            self.holders.row_mut(z, p.x - 1, p.x + 1, |x, h| {
                if h.is_active() {
                    h.deactivate();
                    waiting.push(ChunkPos::new(x, z));
                }
            });
        }
        for q in waiting {
            self.refresh(q);
        }
        self.pump_refills();
    }
}
