//! What the scheduler reports instead of panicking: misuse ([`SchedulerError`]) and refused
//! stored outputs ([`RestoreError`]), and where restored outputs went ([`Restored`]).

use core::fmt;

use crate::engine::ladder::{ChunkPos, ChunkStatus};

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

/// Why [`Scheduler::restore_outputs`](crate::engine::Scheduler::restore_outputs) refused
/// stored outputs. Nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// A position outside `|x|, |z| < 2^21` chunks.
    OutOfRange(ChunkPos),
    /// No outputs were given, or more than there are statuses.
    BadOutputs,
    /// The chunk already has (or already has waiting) the loaded status or a higher one.
    AlreadyResident {
        /// The status it has.
        has: ChunkStatus,
    },
    /// A task of the chunk is in flight: finish it first.
    InFlight,
    /// The chunk's last task failed; it takes nothing more.
    Failed,
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::OutOfRange(p) => write!(
                f,
                "chunk ({}, {}) is outside the supported range |x|, |z| < 2^21",
                p.x, p.z
            ),
            RestoreError::BadOutputs => write!(f, "no outputs, or more outputs than statuses"),
            RestoreError::AlreadyResident { has } => {
                write!(f, "the chunk is already resident at status {}", has.name())
            }
            RestoreError::InFlight => {
                write!(f, "a task of the chunk is in flight; finish it first")
            }
            RestoreError::Failed => write!(f, "the chunk's last task failed"),
        }
    }
}

/// Where [`Scheduler::restore_outputs`](crate::engine::Scheduler::restore_outputs) put
/// stored outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restored {
    /// Into the chunk's resident holder: its status rose to the loaded one.
    Resident,
    /// Kept until a request makes the chunk resident (no request covers it now).
    Pending,
}
