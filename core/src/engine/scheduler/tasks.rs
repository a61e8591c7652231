//! Handing tasks out and taking their results back: the owner thread's side of a run
//! (`take_tasks`, `finish`, `run_inline`) and the bookkeeping each result sets off.

use super::*;

impl<P: Pipeline> Scheduler<P> {
    /// Hand out up to `max` ready tasks, best first. Owner thread. Every task returned must
    /// come back through [`Scheduler::finish`].
    pub fn take_tasks(&mut self, max: usize) -> Vec<Task<P>> {
        let mut out = Vec::new();
        while out.len() < max {
            let (q, status) = match self.refills_ready.pop_front() {
                Some(r) => r,
                None => break,
            };
            let generation = match self.holders.get_mut(q) {
                Some(h) if !h.in_flight() && h.dropped_upto(status) == Some(status) => {
                    h.start_refill();
                    h.generation()
                }
                _ => continue,
            };
            out.push(self.hand_out(q, status, generation, true));
        }
        while out.len() < max {
            let entry = match self.ready.iter().next() {
                Some(e) => *e,
                None => break,
            };
            self.ready.remove(&entry);
            let q = entry.pos;
            let (status, generation) = match self.holders.get_mut(q) {
                Some(h) => match h.start_task() {
                    Some(s) => (s, h.generation()),
                    None => continue,
                },
                None => continue,
            };
            out.push(self.hand_out(q, status, generation, false));
        }
        out
    }

    /// Record the task in flight and build it.
    fn hand_out(
        &mut self,
        q: ChunkPos,
        status: ChunkStatus,
        generation: u64,
        refill: bool,
    ) -> Task<P> {
        let id = self.next_task;
        self.next_task += 1;
        self.in_flight.insert(
            id,
            InFlight {
                pos: q,
                status,
                generation,
                refill,
            },
        );
        self.make_task(id, q, status)
    }

    /// The task running `status` at `q`: shared references to every neighbour's outputs
    /// within the near radius, and the region layers beyond it.
    fn make_task(&self, id: u64, q: ChunkPos, status: ChunkStatus) -> Task<P> {
        let r = self.table.direct_radius(status) as i32;
        let near = self.plan.near(status);
        let mut cells = Vec::with_capacity(((2 * near + 1) * (2 * near + 1)) as usize);
        for z in q.z - near..=q.z + near {
            self.holders.row(z, q.x - near, q.x + near, |_, h| {
                cells.push(h.map(|h| h.slots().clone()))
            });
        }
        let layers = if r > near {
            self.layers.window(q, r)
        } else {
            LayerWindow::empty()
        };
        Task {
            world: self.id,
            id,
            pos: q,
            status,
            pipeline: self.pipeline.clone(),
            declared: plan::declared(&self.table, status),
            radius: r,
            near,
            cells,
            layers,
        }
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
        let InFlight {
            pos: q,
            status,
            generation,
            refill,
        } = self
            .in_flight
            .remove(&task.id)
            .ok_or(SchedulerError::UnknownTask)?;
        drop(task);
        let h = match self.holders.get_mut(q) {
            Some(h) if h.generation() == generation => h,
            _ => {
                self.stats.dropped += 1;
                return Ok(Finished::Dropped);
            }
        };
        let output = match result {
            Ok(o) => Arc::new(o),
            Err(e) => {
                h.fail();
                self.stats.failed += 1;
                self.failures.insert(q, (status, e));
                self.refresh(q);
                return Ok(Finished::Failed(e));
            }
        };
        if refill {
            h.complete_refill(status, output);
            self.refilled(q);
            return Ok(Finished::Done);
        }
        h.complete(status, output.clone());
        self.stats.done[status.index()] += 1;
        let mut woken = Vec::new();
        self.completed(q, status, output, &mut woken);
        for p in woken {
            self.refresh(p);
        }
        self.refresh(q);
        self.pump_refills();
        Ok(Finished::Done)
    }

    /// Neighbours whose next status counts exactly `status` at their distance from `q` are
    /// one requirement closer; those that reach zero are pushed to `woken`.
    pub(super) fn notify_neighbours(
        &mut self,
        q: ChunkPos,
        status: ChunkStatus,
        woken: &mut Vec<ChunkPos>,
    ) {
        let r = self.plan.notify_radius(status);
        let (table, plan) = (&self.table, &self.plan);
        for z in q.z - r..=q.z + r {
            self.holders.row_mut(z, q.x - r, q.x + r, |x, n| {
                let d = ChunkPos::new(x, z).distance(q);
                let counts =
                    |s: ChunkStatus| table.direct_at(s, d) == Some(status) && plan.counted_at(s, d);
                if n.is_active() && d > 0 && n.next().map_or(false, counts) && n.requirement_met() {
                    woken.push(ChunkPos::new(x, z));
                }
            });
        }
    }

    /// Run up to `max_tasks` tasks on the calling thread (take, run, finish), for hosts without
    /// threads. Returns how many ran. Owner thread.
    pub fn run_inline(&mut self, max_tasks: usize) -> usize {
        let mut scratch = P::Scratch::default();
        let mut ran = 0;
        while ran < max_tasks {
            let tasks = self.take_tasks(1);
            if tasks.is_empty() {
                break;
            }
            for t in tasks {
                let r = t.run_in(&mut scratch);
                // The task came from this scheduler and is finished once: cannot fail.
                let _ = self.finish(t, r);
                ran += 1;
            }
        }
        ran
    }
}
