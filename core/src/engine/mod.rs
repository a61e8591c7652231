//! The generic generation engine: the status ladder, the step table and the plan derived from
//! it, holders, region layers, tasks and the host-driven scheduler. Generic over a
//! [`Pipeline`]: it knows nothing of blocks. Depends on [`crate::util`] only.

pub mod ladder;
pub mod rect;
pub mod step_table;

#[cfg(feature = "alloc")]
mod chunk_map;
#[cfg(feature = "alloc")]
mod holder;
#[cfg(feature = "alloc")]
mod layers;
#[cfg(feature = "alloc")]
pub mod pipeline;
#[cfg(feature = "alloc")]
pub mod plan;
#[cfg(feature = "alloc")]
pub mod scheduler;
#[cfg(feature = "alloc")]
pub mod task;

pub use ladder::{ChunkPos, ChunkStatus};
pub use rect::{ChunkRect, RectError};
pub use step_table::StepTable;

#[cfg(feature = "alloc")]
pub use holder::Slots;
#[cfg(feature = "alloc")]
pub use layers::LayerWindow;
#[cfg(feature = "alloc")]
pub use pipeline::{BodyError, Pipeline, View};
#[cfg(feature = "alloc")]
pub use scheduler::{
    Priority, RestoreError, Restored, Retention, Scheduler, SchedulerError, SchedulerStats,
};
#[cfg(feature = "alloc")]
pub use task::{Finished, Task, Ticket};
