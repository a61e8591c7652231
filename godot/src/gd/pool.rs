//! [`TaskPool`] on Godot's `WorkerThreadPool`: one native group task per job, one element per
//! job element; several groups may run at once. The interface's native group task takes a plain C function and a pointer, so
//! worker threads run Rust without any Godot object or callable (no `experimental-threads`).

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use godot::classes::WorkerThreadPool;
use godot::obj::Singleton;
use godot::prelude::*;

use crate::bridge::{Job, TaskPool};

/// The job in flight: kept alive (and its address stable) until Godot reports the group done.
struct InFlight {
    group: i64,
    /// Boxed so the pointer handed to Godot points at a stable `Arc<dyn Job>`.
    job: Box<Arc<dyn Job>>,
}

/// A pool on `WorkerThreadPool`. Main thread only.
#[derive(Default)]
pub struct GodotPool {
    in_flight: Vec<InFlight>,
}

/// Runs element `index` of the job behind `userdata`, on a Godot worker thread.
///
/// # Safety
/// `userdata` is the `Box<Arc<dyn Job>>` of an [`InFlight`], alive until the group completes.
unsafe extern "C" fn run_element(userdata: *mut c_void, index: u32) {
    // SAFETY: the main thread keeps the box alive until Godot reports the group complete, and
    // only reads it; `Job` is `Sync`.
    let job = unsafe { &*(userdata as *const Arc<dyn Job>) };
    // A panic must not unwind into Godot's thread; the element's result stays empty and the
    // scheduler sees the task as failed when it is finished.
    let _ = catch_unwind(AssertUnwindSafe(|| job.run(index as usize)));
}

impl TaskPool for GodotPool {
    fn spawn(&mut self, job: Arc<dyn Job>) {
        // A group of no elements has no task to mark it complete: never hand one to Godot.
        if job.is_empty() {
            return;
        }
        // Jobs are a few worker loops, far below i32::MAX elements.
        let elements = i32::try_from(job.len()).unwrap_or(i32::MAX);
        let job = Box::new(job);
        let userdata = &*job as *const Arc<dyn Job> as *mut c_void;
        let pool = WorkerThreadPool::singleton();
        let description = GString::from("stratagen");
        let add = godot::sys::interface_fn!(worker_thread_pool_add_native_group_task);
        // SAFETY: `pool` is the live singleton; `run_element` matches the interface's group
        // task signature; `userdata` stays valid until the group completes (kept in
        // `in_flight` and only dropped after `wait_for_group_task_completion`); -1 tasks lets
        // Godot use all its workers; high priority (1), because Godot caps low-priority
        // tasks at a fraction of its threads and a job here is a few worker loops that the
        // node sizes itself; `description` outlives the call.
        let group = unsafe {
            add(
                pool.obj_sys(),
                Some(run_element),
                userdata,
                elements,
                -1,
                1,
                description.string_sys() as godot::sys::GDExtensionConstStringPtr,
            )
        };
        self.in_flight.push(InFlight { group, job });
    }

    fn reap(&mut self) {
        let mut pool = WorkerThreadPool::singleton();
        let (done, running): (Vec<InFlight>, Vec<InFlight>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|f| pool.is_group_task_completed(f.group));
        self.in_flight = running;
        // A completed group must still be waited for once, so Godot frees it.
        for f in done {
            pool.wait_for_group_task_completion(f.group);
        }
    }

    fn wait_all(&mut self) {
        let mut pool = WorkerThreadPool::singleton();
        for f in self.in_flight.drain(..) {
            pool.wait_for_group_task_completion(f.group);
            drop(f.job);
        }
    }
}

impl Drop for GodotPool {
    fn drop(&mut self) {
        self.wait_all();
    }
}
