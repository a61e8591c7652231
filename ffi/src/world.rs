//! Worlds: create, destroy, request, release, and taking ready tasks.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Retention, Scheduler};
use stratagen_core::world::edit::EditLayer;
use stratagen_core::world::{World, WorldGen, WorldSettings};

use crate::boundary::{ffi, ffi_value, refused, try_def, try_out, try_slice_mut, versioned, Out};
use crate::enums::{from_wire, sg_priority, sg_retention, sg_status};
use crate::handles::{
    handle_id, next_id, owner_out, register_task, register_world, to_handle, unregister_world,
    with_owner, WorldCell, WorldState,
};
use crate::palette::CPalette;
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_task, sg_world, sg_world_def};

/// Default world settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_world_def_default() -> sg_world_def {
    ffi_value(refused(), || {
        let d = WorldSettings::default();
        sg_world_def {
            struct_size: std::mem::size_of::<sg_world_def>() as u32,
            min_y: d.min_y,
            seed: d.seed,
            height: d.height,
            sea_level: d.sea_level,
        }
    })
}

versioned!(sg_world_def);

/// Create a world; the calling thread becomes its owner. Writes `*out` on success.
/// Release it with `sg_world_destroy`. Any thread (becomes the owner).
///
/// # Safety
/// `def` must be NULL or point to a readable `sg_world_def` of at least `def->struct_size`
/// bytes; `out` must be NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn sg_world_create(
    def: *const sg_world_def,
    out: *mut *mut sg_world,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        // SAFETY: `def` is NULL or readable for `struct_size` bytes by this function's
        // contract.
        let d = unsafe { try_def(def) }?;
        create(d, crate::palette::builtin().clone(), out)
    })
}

/// Create a world of the definition behind `palette` with settings `d`; writes `out`.
pub(crate) fn create(
    d: &sg_world_def,
    palette: Arc<CPalette>,
    out: Out<'_, *mut sg_world>,
) -> FfiResult<()> {
    let settings = WorldSettings {
        seed: d.seed,
        min_y: d.min_y,
        height: d.height,
        sea_level: d.sea_level,
    };
    let generator = WorldGen::with_definition(settings, palette.world.clone())
        .map_err(|_| sg_result::InvalidArgument)?;
    // The scheduler carries the handle's id, so tickets and tasks of another world are
    // detected.
    let id = next_id();
    register_world(
        id,
        WorldCell {
            owner: std::thread::current().id(),
            state: Mutex::new(WorldState {
                sched: Scheduler::with_id(Arc::new(World::new(generator.clone())), id),
                edits: EditLayer::new(&generator),
                changed: BTreeSet::new(),
                generator,
                palette,
                tasks: BTreeSet::new(),
                pinned: Vec::new(),
            }),
        },
    );
    out.write(to_handle(id));
    Ok(())
}

/// Destroy a world. Its outstanding task handles become stale (a task already running on
/// another thread finishes safely; finishing it then returns `SG_RESULT_STALE_HANDLE`).
/// Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_destroy(world: *mut sg_world) -> sg_result {
    ffi(|| {
        let tasks = with_owner(world, |_, st| Ok(std::mem::take(&mut st.tasks)))?;
        unregister_world(handle_id(world), &tasks);
        Ok(())
    })
}

/// Ask for chunk (cx, cz) to reach `status` (an `sg_status`) with `priority` (an
/// `sg_priority`). Writes a ticket id to `*ticket`. Owner thread.
///
/// # Safety
/// `ticket` must be NULL or valid for a write of a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_request(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    status: u32,
    priority: u32,
    ticket: *mut u64,
) -> sg_result {
    ffi(|| {
        // SAFETY: `ticket` is NULL or writable by this function's contract.
        let ticket = unsafe { try_out(ticket) }?;
        owner_out(world, ticket, |_, st| {
            let s: ChunkStatus = from_wire::<sg_status, _>(status)?;
            let p: Priority = from_wire::<sg_priority, _>(priority)?;
            st.pinned.clear();
            Ok(st.sched.request(ChunkPos::new(cx, cz), s, p)?.id())
        })
    })
}

/// Drop a request; chunks nothing else needs are released. Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_release(world: *mut sg_world, ticket: u64) -> sg_result {
    ffi(|| {
        with_owner(world, |_, st| {
            st.pinned.clear();
            st.sched.release_id(ticket)?;
            st.forget_released();
            Ok(())
        })
    })
}

/// Choose which outputs resident chunks keep (an `sg_retention`; `SG_RETENTION_ALL_STATUSES`
/// by default) for chunks finishing from now on. Under `SG_RETENTION_FULL_CHUNKS`,
/// `sg_world_save_chunk` of a chunk that dropped its other outputs returns
/// `SG_RESULT_NOT_READY`. Owner thread.
#[no_mangle]
pub extern "C" fn sg_world_set_retention(world: *mut sg_world, retention: u32) -> sg_result {
    ffi(|| {
        with_owner(world, |_, st| {
            let r: Retention = from_wire::<sg_retention, _>(retention)?;
            st.sched.set_retention(r);
            Ok(())
        })
    })
}

/// Take up to `cap` ready tasks into `out[0..*count]`, best first. Each must be run
/// (`sg_task_run`, any thread) and then finished (`sg_world_finish_task`, owner thread).
/// Owner thread.
///
/// # Safety
/// `out` must be valid for writes of `cap` task pointers (it may be NULL when `cap` is 0);
/// `count` must be NULL or valid for a write of a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_take_tasks(
    world: *mut sg_world,
    out: *mut *mut sg_task,
    cap: usize,
    count: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `count` is NULL or writable by this function's contract.
        let count = unsafe { try_out(count) }?;
        let mut out = if cap == 0 {
            None
        } else {
            // SAFETY: `out` is NULL or valid for `cap` writes by this function's contract.
            Some(unsafe { try_slice_mut(out, cap) }?)
        };
        let n = with_owner(world, |wid, st| {
            st.pinned.clear();
            let tasks = st.sched.take_tasks(cap);
            let n = tasks.len();
            for (i, t) in tasks.into_iter().enumerate() {
                let (id, handle) = register_task(wid, t);
                st.tasks.insert(id);
                if let Some(out) = out.as_deref_mut() {
                    out[i] = handle;
                }
            }
            Ok(n)
        })?;
        count.write(n);
        Ok(())
    })
}
