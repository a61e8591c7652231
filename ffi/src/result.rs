//! `sg_result` (one result enum with fixed numbers), its messages and the conversions from the
//! core's errors.

use std::os::raw::c_char;

use stratagen_core::engine::{RestoreError, SchedulerError};
use stratagen_core::noise::NoiseError;
use stratagen_core::world::edit::EditError;
use stratagen_store::RecordError;

use crate::boundary::ffi_value;

/// Major version.
pub const SG_VERSION_MAJOR: u32 = 0;
/// Minor version.
pub const SG_VERSION_MINOR: u32 = 3;
/// Patch version.
pub const SG_VERSION_PATCH: u32 = 0;

/// Result of every fallible call. Values are fixed and never renumbered.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_result {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL.
    NullArgument = 1,
    /// A value is invalid (NaN, out of its documented range, a bad definition).
    InvalidArgument = 2,
    /// An enum argument has no such value.
    BadEnum = 3,
    /// A chunk position outside |x|, |z| < 2^21, or a block y outside the world's height.
    OutOfRange = 4,
    /// The caller's buffer is too small; `needed` says how many elements are required.
    BufferTooSmall = 5,
    /// The handle was destroyed, finished or released.
    StaleHandle = 6,
    /// The handle belongs to another world.
    ForeignHandle = 7,
    /// An owner-thread function was called from another thread.
    WrongThread = 8,
    /// The chunk has not reached the status the call needs.
    NotReady = 9,
    /// `sg_world_finish_task` on a task that was never run.
    TaskNotRun = 10,
    /// `sg_task_run` on a task that already ran.
    TaskAlreadyRun = 11,
    /// The task's status body failed; the chunk stays below that status.
    TaskFailed = 12,
    /// A definition struct's `struct_size` is smaller than this version's.
    BadStructSize = 13,
    /// An internal error was caught before it crossed the boundary.
    InternalPanic = 14,
    /// No block or biome has that name.
    NotFound = 15,
    /// A chunk record is shorter (or longer) than its header says.
    RecordTruncated = 16,
    /// A chunk record's checksum does not match: the bytes were damaged.
    RecordChecksum = 17,
    /// A chunk record of a format version this library does not read.
    RecordVersion = 18,
    /// A chunk record of another world (seed, height range, sea level or definition).
    RecordForeignWorld = 19,
    /// Not a chunk record, or its data does not match its status.
    RecordMalformed = 20,
    /// The chunk is already resident at the record's status or higher.
    AlreadyResident = 21,
    /// A task of the chunk is in flight: finish it first.
    ChunkBusy = 22,
    /// A world definition has problems (the error buffer lists them with line:column).
    InvalidDefinition = 23,
    /// A block id that is not in the world's palette.
    UnknownBlock = 24,
}

impl sg_result {
    /// The message of this result: static, NUL-terminated.
    fn message(self) -> &'static [u8] {
        match self {
            sg_result::Ok => b"ok\0",
            sg_result::NullArgument => b"a required pointer argument is NULL\0",
            sg_result::InvalidArgument => b"invalid argument value\0",
            sg_result::BadEnum => b"enum argument out of range\0",
            sg_result::OutOfRange => {
                b"position outside the world: chunk |x|, |z| < 2^21, y within the height\0"
            }
            sg_result::BufferTooSmall => b"buffer too small (see the needed count)\0",
            sg_result::StaleHandle => b"stale handle: destroyed, finished or released\0",
            sg_result::ForeignHandle => b"handle belongs to another world\0",
            sg_result::WrongThread => b"owner-thread function called from another thread\0",
            sg_result::NotReady => b"chunk has not reached the required status\0",
            sg_result::TaskNotRun => b"task finished before it was run\0",
            sg_result::TaskAlreadyRun => b"task already ran\0",
            sg_result::TaskFailed => b"task body failed\0",
            sg_result::BadStructSize => b"struct_size smaller than this library's struct\0",
            sg_result::InternalPanic => b"internal error caught at the C boundary\0",
            sg_result::NotFound => b"no block or biome has that name\0",
            sg_result::RecordTruncated => {
                b"chunk record truncated or longer than its header says\0"
            }
            sg_result::RecordChecksum => b"chunk record damaged: checksum mismatch\0",
            sg_result::RecordVersion => b"chunk record format version not supported\0",
            sg_result::RecordForeignWorld => {
                b"chunk record of another world (seed, height range, sea level or definition)\0"
            }
            sg_result::RecordMalformed => {
                b"not a chunk record, or its data does not match its status\0"
            }
            sg_result::AlreadyResident => {
                b"chunk already resident at the record's status or higher\0"
            }
            sg_result::ChunkBusy => b"a task of the chunk is in flight; finish it first\0",
            sg_result::InvalidDefinition => {
                b"the world definition has problems (see the error buffer)\0"
            }
            sg_result::UnknownBlock => b"block id not in the world's palette\0",
        }
    }
}

/// Every C enum converts from its `uint32_t` wire value through `TryFrom<u32>` generated
/// here from the one list of its variants; an unknown value is `bad` (for most enums
/// `SG_RESULT_BAD_ENUM`). `VARIANTS` lists them for the tests.
macro_rules! c_enum_from_u32 {
    ($name:ident, $bad:expr, [$($v:ident),* $(,)?]) => {
        impl $name {
            /// Every variant, in declaration order (for the tests).
            #[cfg(test)]
            pub(crate) const VARIANTS: &'static [$name] = &[$($name::$v),*];
        }
        impl TryFrom<u32> for $name {
            type Error = sg_result;
            fn try_from(x: u32) -> Result<Self, sg_result> {
                $(
                    if x == $name::$v as u32 {
                        return Ok($name::$v);
                    }
                )*
                Err($bad)
            }
        }
    };
}
pub(crate) use c_enum_from_u32;

c_enum_from_u32!(
    sg_result,
    sg_result::InvalidArgument,
    [
        Ok,
        NullArgument,
        InvalidArgument,
        BadEnum,
        OutOfRange,
        BufferTooSmall,
        StaleHandle,
        ForeignHandle,
        WrongThread,
        NotReady,
        TaskNotRun,
        TaskAlreadyRun,
        TaskFailed,
        BadStructSize,
        InternalPanic,
        NotFound,
        RecordTruncated,
        RecordChecksum,
        RecordVersion,
        RecordForeignWorld,
        RecordMalformed,
        AlreadyResident,
        ChunkBusy,
        InvalidDefinition,
    ]
);

/// What every inner function returns: a value, or the result code to hand back.
pub(crate) type FfiResult<T> = Result<T, sg_result>;

impl From<SchedulerError> for sg_result {
    fn from(e: SchedulerError) -> sg_result {
        match e {
            SchedulerError::OutOfRange(_) => sg_result::OutOfRange,
            SchedulerError::UnknownTicket | SchedulerError::UnknownTask => sg_result::StaleHandle,
            SchedulerError::ForeignTicket | SchedulerError::ForeignTask => sg_result::ForeignHandle,
        }
    }
}

impl From<EditError> for sg_result {
    fn from(e: EditError) -> sg_result {
        match e {
            EditError::OutOfRange { .. } => sg_result::OutOfRange,
            EditError::UnknownBlock(_) => sg_result::UnknownBlock,
            EditError::NotReady(_) => sg_result::NotReady,
        }
    }
}

impl From<RecordError> for sg_result {
    fn from(e: RecordError) -> sg_result {
        match e {
            RecordError::Truncated { .. } | RecordError::TrailingBytes { .. } => {
                sg_result::RecordTruncated
            }
            RecordError::Checksum { .. } => sg_result::RecordChecksum,
            RecordError::UnsupportedVersion { .. } => sg_result::RecordVersion,
            RecordError::ForeignWorld { .. } => sg_result::RecordForeignWorld,
            RecordError::NotARecord(_)
            | RecordError::BadStatus(_)
            | RecordError::Compression(_)
            | RecordError::Body(_)
            | RecordError::EditBody(_)
            | RecordError::Misplaced { .. } => sg_result::RecordMalformed,
            RecordError::OutOfRange { .. } | RecordError::Restore(RestoreError::OutOfRange(_)) => {
                sg_result::OutOfRange
            }
            RecordError::Restore(RestoreError::AlreadyResident { .. }) => {
                sg_result::AlreadyResident
            }
            RecordError::Restore(RestoreError::InFlight) => sg_result::ChunkBusy,
            RecordError::Restore(RestoreError::Failed) => sg_result::TaskFailed,
            RecordError::Restore(RestoreError::BadOutputs) => sg_result::RecordMalformed,
            RecordError::NotResident { .. } | RecordError::Compact { .. } => sg_result::NotReady,
        }
    }
}

impl From<NoiseError> for sg_result {
    fn from(e: NoiseError) -> sg_result {
        match e {
            NoiseError::BufferTooSmall { .. } => sg_result::BufferTooSmall,
            _ => sg_result::InvalidArgument,
        }
    }
}

/// The library version as `(major << 16) | (minor << 8) | patch`. Any thread.
#[no_mangle]
pub extern "C" fn sg_version() -> u32 {
    ffi_value(0, || {
        (SG_VERSION_MAJOR << 16) | (SG_VERSION_MINOR << 8) | SG_VERSION_PATCH
    })
}

/// A static, NUL-terminated English message for a result code (never NULL; unknown codes
/// get "unknown result code"). Any thread.
#[no_mangle]
pub extern "C" fn sg_result_message(code: u32) -> *const c_char {
    ffi_value(UNKNOWN_RESULT.as_ptr(), || {
        let s = sg_result::try_from(code).map_or(UNKNOWN_RESULT, sg_result::message);
        s.as_ptr()
    })
    .cast::<c_char>()
}

/// The message of a code that is not an `sg_result`.
const UNKNOWN_RESULT: &[u8] = b"unknown result code\0";

#[cfg(test)]
mod tests {
    use super::*;

    /// The C version constants are the crate's version, as Cargo knows it.
    #[test]
    fn version_constants_are_the_crate_version() {
        let c = format!("{SG_VERSION_MAJOR}.{SG_VERSION_MINOR}.{SG_VERSION_PATCH}");
        assert_eq!(c, env!("CARGO_PKG_VERSION"));
        assert_eq!(sg_version(), 0x0300);
    }

    /// Every code has its own message, ends in one NUL, and round-trips through `u32`;
    /// one past the last is unknown.
    #[test]
    fn codes_and_messages() {
        let mut seen = std::collections::BTreeSet::new();
        for (k, &r) in sg_result::VARIANTS.iter().enumerate() {
            assert_eq!(r as u32, k as u32, "codes are 0..n in order");
            assert_eq!(sg_result::try_from(k as u32), Ok(r));
            let m = r.message();
            assert_eq!(m.iter().filter(|&&b| b == 0).count(), 1);
            assert_eq!(m.last(), Some(&0));
            assert!(seen.insert(m), "duplicate message for {r:?}");
        }
        let past = sg_result::VARIANTS.len() as u32;
        assert!(sg_result::try_from(past).is_err());
        // SAFETY: sg_result_message returns a static NUL-terminated string.
        let unknown = unsafe { std::ffi::CStr::from_ptr(sg_result_message(past)) };
        assert_eq!(unknown.to_str().unwrap(), "unknown result code");
    }
}
