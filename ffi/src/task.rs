//! Tasks: run a body on any thread, hand it back on the owner thread, or run inline.

use std::cell::RefCell;

use stratagen_core::engine::{BodyError, Finished, Task};
use stratagen_core::world::{ChunkData, World, WorldScratch};

use crate::boundary::{ffi, optional_out, try_out, write_optional};
use crate::handles::{lock, task_cell, try_handle, unregister_task, with_owner};
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_task, sg_world};

thread_local! {
    /// This thread's working memory for status bodies, reused by every task it runs: a C
    /// host's workers are long-lived threads, and the memory goes with the thread.
    static SCRATCH: RefCell<WorldScratch> = RefCell::new(WorldScratch::default());
}

/// Run `t` in this thread's scratch, or in fresh working memory while the thread's is not
/// available (the thread is exiting).
fn run_in_thread_scratch(t: &Task<World>) -> Result<ChunkData, BodyError> {
    SCRATCH
        .try_with(|s| match s.try_borrow_mut() {
            Ok(mut s) => t.run_in(&mut s),
            Err(_) => t.run(),
        })
        .unwrap_or_else(|_| t.run())
}

/// Run a task's status body. Any thread, many tasks at once; touches only the task.
/// `SG_RESULT_TASK_ALREADY_RUN` if it ran before. A body failure is reported by
/// `sg_world_finish_task`, not here.
#[no_mangle]
pub extern "C" fn sg_task_run(task: *mut sg_task) -> sg_result {
    ffi(|| {
        let cell = task_cell(task)?;
        let mut inner = lock(&cell.inner);
        if inner.result.is_some() {
            return Err(sg_result::TaskAlreadyRun);
        }
        let t = inner.task.as_mut().ok_or(sg_result::StaleHandle)?;
        let r = run_in_thread_scratch(t);
        // Free inputs on this (worker) thread, not on the owner at finish.
        t.drop_inputs();
        inner.result = Some(r);
        Ok(())
    })
}

/// The chunk and status a task generates. Any thread. Writes only non-NULL outputs.
///
/// # Safety
/// Each of `cx`, `cz`, `status` must be NULL or valid for a write of its type.
#[no_mangle]
pub unsafe extern "C" fn sg_task_info(
    task: *const sg_task,
    cx: *mut i32,
    cz: *mut i32,
    status: *mut u32,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or writable by this function's contract.
        let (cx, cz, status) =
            unsafe { (optional_out(cx), optional_out(cz), optional_out(status)) };
        let cell = task_cell(task)?;
        let inner = lock(&cell.inner);
        let t = inner.task.as_ref().ok_or(sg_result::StaleHandle)?;
        write_optional(cx, t.pos().x);
        write_optional(cz, t.pos().z);
        write_optional(status, t.status() as u32);
        Ok(())
    })
}

/// Hand a run task back; the handle is invalid afterwards (unless the result is
/// `SG_RESULT_TASK_NOT_RUN`, `SG_RESULT_FOREIGN_HANDLE` or `SG_RESULT_WRONG_THREAD`, which
/// leave it untouched). `SG_RESULT_TASK_FAILED` if the body failed. Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_finish_task(world: *mut sg_world, task: *mut sg_task) -> sg_result {
    ffi(|| finish_task(world, task))
}

fn finish_task(world: *mut sg_world, task: *mut sg_task) -> FfiResult<()> {
    let tid = try_handle(task)?;
    with_owner(world, |wid, st| {
        let cell = task_cell(task)?;
        if cell.world != wid {
            return Err(sg_result::ForeignHandle);
        }
        let (t, r) = {
            let mut inner = lock(&cell.inner);
            if inner.result.is_none() {
                return Err(sg_result::TaskNotRun);
            }
            match (inner.task.take(), inner.result.take()) {
                (Some(t), Some(r)) => (t, r),
                _ => return Err(sg_result::StaleHandle),
            }
        };
        unregister_task(tid);
        st.tasks.remove(&tid);
        st.pinned.clear();
        match st.sched.finish(t, r)? {
            Finished::Done | Finished::Dropped => Ok(()),
            Finished::Failed(_) => Err(sg_result::TaskFailed),
        }
    })
}

/// Run up to `max_tasks` tasks on the calling thread (take, run, finish); writes the number
/// run to `*ran` if not NULL. For hosts without threads. Owner thread.
///
/// # Safety
/// `ran` must be NULL or valid for a write of a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_run_inline(
    world: *mut sg_world,
    max_tasks: usize,
    ran: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `ran` is NULL or writable by this function's contract.
        let ran = unsafe { optional_out(ran) };
        let n = with_owner(world, |_, st| {
            st.pinned.clear();
            Ok(st.sched.run_inline(max_tasks))
        })?;
        write_optional(ran, n);
        Ok(())
    })
}

/// Counts of ready tasks and tasks in flight (taken, not finished). Owner thread.
///
/// # Safety
/// `ready` and `in_flight` must be NULL or valid for a write of a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_pending(
    world: *mut sg_world,
    ready: *mut usize,
    in_flight: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: both are NULL or writable by this function's contract.
        let (ready, in_flight) = unsafe { (try_out(ready)?, try_out(in_flight)?) };
        let (r, f) = with_owner(world, |_, st| {
            Ok((st.sched.ready_count(), st.sched.in_flight_count()))
        })?;
        ready.write(r);
        in_flight.write(f);
        Ok(())
    })
}
