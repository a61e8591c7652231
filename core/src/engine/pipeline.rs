//! What the engine runs: the [`Pipeline`] trait (one body per status), the [`View`] a body
//! reads its declared inputs through, and [`BodyError`].

use alloc::sync::Arc;
use core::fmt;

use crate::engine::holder::Slots;
use crate::engine::ladder::{ChunkPos, ChunkStatus};
use crate::engine::layers::LayerWindow;
use crate::engine::plan::Declared;

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

/// The generation logic: one body per status, a pure function of the position and the view.
pub trait Pipeline: Send + Sync + 'static {
    /// What a status produces (typically an enum with one variant per status).
    type Output: Send + Sync + 'static;

    /// Working memory the bodies reuse from one task to the next (the region-sized arrays of
    /// terrain and light): a host keeps one per thread and passes it to [`Task::run_in`], so
    /// a thread that runs many tasks allocates and faults in those arrays once. What a body
    /// leaves in it never changes an output.
    ///
    /// [`Task::run_in`]: crate::engine::Task::run_in
    type Scratch: Default + Send + 'static;

    /// Run `status` at `pos`, reading inputs only through `view`, with `scratch` as working
    /// memory.
    fn run(
        &self,
        status: ChunkStatus,
        pos: ChunkPos,
        view: &View<'_, Self::Output>,
        scratch: &mut Self::Scratch,
    ) -> Result<Self::Output, BodyError>;

    /// Whether the output of `status` is working state: the finished output keeps what it
    /// needs of it, and nothing else reads it once no neighbour's body can. Under
    /// [`Retention::FullChunks`] the scheduler drops such outputs of a full chunk then.
    /// Only statuses that are not wide (read no farther than distance 1) can be dropped.
    /// None by default.
    ///
    /// [`Retention::FullChunks`]: crate::engine::Retention::FullChunks
    fn transient(&self, status: ChunkStatus) -> bool {
        let _ = status;
        false
    }
}

/// Read-only access to exactly the inputs a status declared: at distance `d` (Chebyshev), the
/// outputs of every status up to the direct requirement at `d`.
pub struct View<'a, O> {
    pub(crate) running: ChunkStatus,
    pub(crate) pos: ChunkPos,
    pub(crate) radius: i32,
    pub(crate) declared: &'a Declared,
    /// Every chunk within `near`, all statuses.
    pub(crate) near: i32,
    pub(crate) cells: &'a [Option<Arc<Slots<O>>>],
    /// Beyond `near`, only wide statuses are declared: read them from the region layers.
    pub(crate) layers: &'a LayerWindow<O>,
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
