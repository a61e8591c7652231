//! Scatter: the world definition's `[[scatter]]` layers (props for instanced rendering) and
//! each layer's instances in a finished chunk. An instance is a kind (a model the host
//! chooses), a position relative to the chunk's corner, a yaw, a scale and an up direction;
//! the set is seamless across chunks and does not depend on which chunks were generated or
//! in what order. Owner thread.

use std::ffi::CString;
use std::os::raw::c_char;

use stratagen_core::world::scatter::{is_ground, scatter_chunk, Instance};

use crate::boundary::{copy_out, ffi, out_buf, try_out};
use crate::handles::{owner_out, with_owner};
use crate::result::sg_result;
use crate::types::sg_world;

/// One scatter layer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_scatter_layer_info {
    /// The layer's name (valid until the world is destroyed).
    pub name: *const c_char,
    /// No two instances of the layer closer than this, in blocks.
    pub radius: f64,
    /// Kinds the layer's instances choose from (`sg_world_scatter_kind_name`).
    pub kind_count: u32,
}

/// One instance of a scatter layer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct sg_scatter_instance {
    /// The kind, an index below the layer's `kind_count`.
    pub kind: u32,
    /// Position relative to the chunk's corner block (x, z in `[0, 16)`), y the top of the
    /// ground block it stands on (world y), in blocks.
    pub position: [f32; 3],
    /// Rotation about the up direction, radians in `[0, 2π)`.
    pub yaw: f32,
    /// Uniform scale.
    pub scale: f32,
    /// The up direction: `(0, 1, 0)`, or the ground's normal for layers aligned to it.
    pub up: [f32; 3],
}

impl From<&Instance> for sg_scatter_instance {
    fn from(i: &Instance) -> sg_scatter_instance {
        sg_scatter_instance {
            kind: u32::from(i.kind),
            position: i.position,
            yaw: i.yaw,
            scale: i.scale,
            up: i.up,
        }
    }
}

/// The C names of a definition's layers and their kinds.
pub(crate) struct ScatterNames {
    pub layers: Vec<(CString, Vec<CString>)>,
}

impl ScatterNames {
    pub fn new(world: &stratagen_core::world::Definition) -> ScatterNames {
        let c = |s: &str| CString::new(s).unwrap_or_default();
        ScatterNames {
            layers: world
                .scatter
                .iter()
                .map(|l| (c(&l.name), l.kinds.iter().map(|k| c(&k.name)).collect()))
                .collect(),
        }
    }
}

/// Number of the world's scatter layers into `*count`. Owner thread.
///
/// # Safety
/// `count` must be NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_scatter_layer_count(
    world: *mut sg_world,
    count: *mut u32,
) -> sg_result {
    ffi(|| {
        // SAFETY: `count` is NULL or writable by this function's contract.
        let count = unsafe { try_out(count) }?;
        owner_out(world, count, |_, st| {
            Ok(st.palette.world.scatter.len() as u32)
        })
    })
}

/// Scatter layer `layer` into `*out`; `SG_RESULT_INVALID_ARGUMENT` for a layer outside
/// `0..count`. Owner thread.
///
/// # Safety
/// `out` must be NULL or valid for a write of an `sg_scatter_layer_info`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_scatter_layer_info(
    world: *mut sg_world,
    layer: u32,
    out: *mut sg_scatter_layer_info,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        owner_out(world, out, |_, st| {
            let i = layer as usize;
            let (l, names) = st
                .palette
                .world
                .scatter
                .get(i)
                .zip(st.palette.scatter.layers.get(i))
                .ok_or(sg_result::InvalidArgument)?;
            Ok(sg_scatter_layer_info {
                name: names.0.as_ptr(),
                radius: l.radius,
                kind_count: l.kinds.len() as u32,
            })
        })
    })
}

/// The name of kind `kind` of layer `layer` into `*name` (valid until the world is
/// destroyed); `SG_RESULT_INVALID_ARGUMENT` for a layer or kind out of range. Owner thread.
///
/// # Safety
/// `name` must be NULL or valid for a write of a `const char *`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_scatter_kind_name(
    world: *mut sg_world,
    layer: u32,
    kind: u32,
    name: *mut *const c_char,
) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or writable by this function's contract.
        let name = unsafe { try_out(name) }?;
        owner_out(world, name, |_, st| {
            st.palette
                .scatter
                .layers
                .get(layer as usize)
                .and_then(|(_, kinds)| kinds.get(kind as usize))
                .map(|k| k.as_ptr())
                .ok_or(sg_result::InvalidArgument)
        })
    })
}

/// The instances of scatter layer `layer` in the finished chunk (cx, cz), as its edits
/// leave it, into `buf`, in a fixed order. `*needed` (optional) always receives the count; a
/// smaller `cap` gives `SG_RESULT_BUFFER_TOO_SMALL` (a chunk with none succeeds with 0, `buf`
/// may then be NULL). `SG_RESULT_NOT_READY` below `full`, `SG_RESULT_OUT_OF_RANGE` outside
/// the world, `SG_RESULT_INVALID_ARGUMENT` for a layer outside `0..count`. Owner thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` elements; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_scatter(
    world: *mut sg_world,
    layer: u32,
    cx: i32,
    cz: i32,
    buf: *mut sg_scatter_instance,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        let list = with_owner(world, |_, st| {
            let def = st.palette.world.clone();
            let l = def
                .scatter
                .get(layer as usize)
                .ok_or(sg_result::InvalidArgument)?;
            let data = st.full(cx, cz)?;
            let full = data.full().ok_or(sg_result::NotReady)?;
            let ground = |b| is_ground(&def.blocks, b);
            let seed = st.generator.settings().seed;
            let v = scatter_chunk(seed, &st.generator.dims(), l, full, ground);
            Ok(v.iter().map(sg_scatter_instance::from).collect::<Vec<_>>())
        })?;
        if list.is_empty() {
            // No instance is an answer, not a missing buffer.
            return copy_out(&list, buf).or_else(|e| match e {
                sg_result::NullArgument => Ok(()),
                other => Err(other),
            });
        }
        copy_out(&list, buf)
    })
}
