//! Tickets (handles on requests) and tasks (one (chunk, status) body with shared references
//! to its frozen inputs, runnable on any thread).

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::engine::holder::Slots;
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::layers::LayerWindow;
use crate::engine::pipeline::{BodyError, Pipeline, View};
use crate::engine::plan::Declared;

/// A handle on a request. Release it when the chunk is no longer needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket {
    pub(crate) world: u64,
    pub(crate) id: u64,
}

impl Ticket {
    /// The ticket's number within its scheduler.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// One (chunk, status) body to run, with shared references to its frozen inputs.
pub struct Task<P: Pipeline> {
    pub(crate) world: u64,
    pub(crate) id: u64,
    pub(crate) pos: ChunkPos,
    pub(crate) status: ChunkStatus,
    pub(crate) pipeline: Arc<P>,
    pub(crate) declared: Declared,
    pub(crate) radius: i32,
    pub(crate) near: i32,
    pub(crate) cells: Vec<Option<Arc<Slots<P::Output>>>>,
    pub(crate) layers: LayerWindow<P::Output>,
}

impl<P: Pipeline> Task<P> {
    /// Run the body with working memory of its own. Any thread; touches nothing but the
    /// task's own inputs. A host that runs many tasks on a thread keeps a scratch there and
    /// calls [`Task::run_in`].
    pub fn run(&self) -> Result<P::Output, BodyError> {
        self.run_in(&mut P::Scratch::default())
    }

    /// Run the body with `scratch` (this thread's, reused from task to task) as working
    /// memory: the same output as [`Task::run`]. Any thread; touches nothing but the task's
    /// own inputs and `scratch`.
    pub fn run_in(&self, scratch: &mut P::Scratch) -> Result<P::Output, BodyError> {
        let view = View {
            running: self.status,
            pos: self.pos,
            radius: self.radius,
            declared: &self.declared,
            near: self.near,
            cells: &self.cells,
            layers: &self.layers,
        };
        self.pipeline.run(self.status, self.pos, &view, scratch)
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
    /// The body failed; the chunk stays below the task's status (see
    /// [`Scheduler::failure`](crate::engine::Scheduler::failure)).
    Failed(BodyError),
}
