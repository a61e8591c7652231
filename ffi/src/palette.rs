//! The palette: every block's and biome's name, properties and colour, by id or by name.
//! `sg_block_*` and `sg_biome_*` read the built-in (`default`) world's tables: static data,
//! any thread, no world needed.

use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::sync::{Arc, OnceLock};

use stratagen_core::world::block::{BlockProps, Shape, Surface};
use stratagen_core::world::definition::BiomeDef;
use stratagen_core::world::Definition;

use crate::boundary::{ffi, ffi_value, try_cstr, try_out, Out};
use crate::result::{sg_result, FfiResult};

/// How a block is drawn (`sg_block_info.shape`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_block_shape {
    /// Not drawn (air).
    None = 0,
    /// A unit cube.
    Cube = 1,
    /// Two crossed quads (plants, torches), drawn from both sides.
    Cross = 2,
    /// A fluid: a cube whose top is lowered to 14/16 unless the same fluid lies above.
    Fluid = 3,
    /// A thin layer on the floor, 2/16 high (snow).
    Layer = 4,
}

/// The mesh surface a block's faces go to (`sg_block_info.surface`, `sg_mesh_counts`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_surface {
    /// Drawn without blending or alpha test.
    Opaque = 0,
    /// Alpha-tested (leaves, plants).
    Cutout = 1,
    /// Alpha-blended (water, ice), drawn after the others.
    Translucent = 2,
}

/// `sg_block_info.flags`: blocks motion.
pub const SG_BLOCK_SOLID: u32 = 1;
/// `sg_block_info.flags`: a full opaque cube that stops light (hides neighbours' faces).
pub const SG_BLOCK_OPAQUE: u32 = 2;
/// `sg_block_info.flags`: a fluid.
pub const SG_BLOCK_FLUID: u32 = 4;
/// `sg_block_info.flags`: alpha-tested (leaves, plants).
pub const SG_BLOCK_CUTOUT: u32 = 8;
/// `sg_block_info.flags`: alpha-blended (water, ice).
pub const SG_BLOCK_TRANSPARENT: u32 = 16;
/// `sg_block_info.flags`: emits light (`emission` > 0).
pub const SG_BLOCK_EMISSIVE: u32 = 32;
/// `sg_block_info.flags`: features may overwrite it.
pub const SG_BLOCK_REPLACEABLE: u32 = 64;
/// `sg_block_info.flags`: a leaves block.
pub const SG_BLOCK_LEAVES: u32 = 128;

/// One block of the palette.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_block_info {
    /// Lower-case name, static and NUL-terminated (`"oak_leaves"`).
    pub name: *const c_char,
    /// `SG_BLOCK_*` flags.
    pub flags: u32,
    /// An `sg_block_shape`.
    pub shape: u32,
    /// An `sg_surface`.
    pub surface: u32,
    /// Emitted block light, 0..=15.
    pub emission: u8,
    /// Light lost passing through, 0..=15.
    pub opacity: u8,
    /// sRGB colour and alpha (255 opaque): the map colour and the vertex colour of exports.
    pub rgba: [u8; 4],
}

/// One biome of the palette.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_biome_info {
    /// Lower-case name, static and NUL-terminated (`"plains"`).
    pub name: *const c_char,
    /// sRGB map colour.
    pub rgb: [u8; 3],
    /// Snow and ice form here (0 or 1).
    pub cold: u8,
}

/// A world's tables with every name as a C string (names are `[a-z0-9_]+`, so never hold a
/// NUL).
pub(crate) struct CPalette {
    pub world: Arc<Definition>,
    pub block_names: Vec<CString>,
    pub biome_names: Vec<CString>,
    pub scatter: crate::scatter::ScatterNames,
}

impl CPalette {
    pub fn new(world: Arc<Definition>) -> CPalette {
        let c = |s: &str| CString::new(s).unwrap_or_default();
        CPalette {
            block_names: world.blocks.iter().map(|(n, _)| c(n)).collect(),
            biome_names: world.biomes.iter().map(|b| c(&b.name)).collect(),
            scatter: crate::scatter::ScatterNames::new(&world),
            world,
        }
    }

    /// The `sg_block_info` of block `id`.
    pub fn block(&self, id: u32) -> FfiResult<sg_block_info> {
        let p = u16::try_from(id)
            .ok()
            .and_then(|id| self.world.blocks.get(id))
            .ok_or(sg_result::InvalidArgument)?;
        Ok(block_info(self.block_names[id as usize].as_ptr(), p))
    }

    /// The `sg_biome_info` of biome `id`.
    pub fn biome(&self, id: u32) -> FfiResult<sg_biome_info> {
        let b = self
            .world
            .biomes
            .get(id as usize)
            .ok_or(sg_result::InvalidArgument)?;
        Ok(biome_info(self.biome_names[id as usize].as_ptr(), b))
    }

    /// The id of `name` among the blocks (`which` 0) or biomes (1).
    pub fn find(&self, which: usize, name: &CStr, id: Out<'_, u32>) -> FfiResult<()> {
        let names = if which == 0 {
            &self.block_names
        } else {
            &self.biome_names
        };
        let i = names
            .iter()
            .position(|n| n.as_c_str() == name)
            .ok_or(sg_result::NotFound)?;
        id.write(i as u32);
        Ok(())
    }
}

fn block_info(name: *const c_char, p: &BlockProps) -> sg_block_info {
    let flag = |on: bool, f: u32| if on { f } else { 0 };
    sg_block_info {
        name,
        flags: flag(p.solid, SG_BLOCK_SOLID)
            | flag(p.is_occluder(), SG_BLOCK_OPAQUE)
            | flag(p.liquid, SG_BLOCK_FLUID)
            | flag(p.surface == Surface::Cutout, SG_BLOCK_CUTOUT)
            | flag(p.surface == Surface::Translucent, SG_BLOCK_TRANSPARENT)
            | flag(p.emission > 0, SG_BLOCK_EMISSIVE)
            | flag(p.replaceable, SG_BLOCK_REPLACEABLE)
            | flag(p.leaves, SG_BLOCK_LEAVES),
        shape: sg_block_shape::from(p.shape) as u32,
        surface: sg_surface::from(p.surface) as u32,
        emission: p.emission,
        opacity: p.opacity,
        rgba: p.colour,
    }
}

fn biome_info(name: *const c_char, b: &BiomeDef) -> sg_biome_info {
    sg_biome_info {
        name,
        rgb: b.colour,
        cold: u8::from(b.snow.is_some() || b.ice.is_some()),
    }
}

/// The built-in world's tables, made once and shared by every world of the built-in
/// definition.
pub(crate) fn builtin() -> &'static Arc<CPalette> {
    static BUILTIN: OnceLock<Arc<CPalette>> = OnceLock::new();
    BUILTIN.get_or_init(|| Arc::new(CPalette::new(Arc::new(Definition::builtin()))))
}

/// Number of block ids of the built-in world (ids are `0..sg_block_count()`). Any thread.
/// Deprecated: `sg_world_block_count` gives the same for any world.
#[no_mangle]
#[deprecated(note = "use sg_world_block_count")]
pub extern "C" fn sg_block_count() -> u32 {
    ffi_value(0, || builtin().world.blocks.len() as u32)
}

/// The palette entry of block `id` into `*out`; `SG_RESULT_INVALID_ARGUMENT` for an id
/// outside `0..sg_block_count()`. Any thread.
///
/// # Safety
/// `out` must be NULL or valid for a write of an `sg_block_info`.
#[no_mangle]
#[deprecated(note = "use sg_world_block_info")]
pub unsafe extern "C" fn sg_block_get_info(id: u32, out: *mut sg_block_info) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        out.write(builtin().block(id)?);
        Ok(())
    })
}

/// The id of the block named `name` (exact, lower case) into `*id`; `SG_RESULT_NOT_FOUND`
/// if there is none. Any thread.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `id` NULL or valid for a write of a `uint32_t`.
#[no_mangle]
#[deprecated(note = "use sg_world_block_by_name")]
pub unsafe extern "C" fn sg_block_by_name(name: *const c_char, id: *mut u32) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or NUL-terminated, `id` NULL or writable, by this function's
        // contract.
        let (name, id) = unsafe { (try_cstr(name)?, try_out(id)?) };
        builtin().find(0, name, id)
    })
}

/// Number of biome ids of the built-in world (ids are `0..sg_biome_count()`). Any thread.
/// Deprecated: `sg_world_biome_count` gives the same for any world.
#[no_mangle]
#[deprecated(note = "use sg_world_biome_count")]
pub extern "C" fn sg_biome_count() -> u32 {
    ffi_value(0, || builtin().world.biomes.len() as u32)
}

/// The palette entry of biome `id` into `*out`; `SG_RESULT_INVALID_ARGUMENT` for an id
/// outside `0..sg_biome_count()`. Any thread.
///
/// # Safety
/// `out` must be NULL or valid for a write of an `sg_biome_info`.
#[no_mangle]
#[deprecated(note = "use sg_world_biome_info")]
pub unsafe extern "C" fn sg_biome_get_info(id: u32, out: *mut sg_biome_info) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        out.write(builtin().biome(id)?);
        Ok(())
    })
}

/// The id of the biome named `name` into `*id`; `SG_RESULT_NOT_FOUND` if there is none.
/// Any thread.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `id` NULL or valid for a write of a `uint32_t`.
#[no_mangle]
#[deprecated(note = "use sg_world_biome_by_name")]
pub unsafe extern "C" fn sg_biome_by_name(name: *const c_char, id: *mut u32) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or NUL-terminated, `id` NULL or writable, by this function's
        // contract.
        let (name, id) = unsafe { (try_cstr(name)?, try_out(id)?) };
        builtin().find(1, name, id)
    })
}

impl From<Shape> for sg_block_shape {
    fn from(s: Shape) -> sg_block_shape {
        match s {
            Shape::None => sg_block_shape::None,
            Shape::Cube => sg_block_shape::Cube,
            Shape::Cross => sg_block_shape::Cross,
            Shape::Fluid => sg_block_shape::Fluid,
            Shape::Layer => sg_block_shape::Layer,
        }
    }
}

impl From<Surface> for sg_surface {
    fn from(s: Surface) -> sg_surface {
        match s {
            Surface::Opaque => sg_surface::Opaque,
            Surface::Cutout => sg_surface::Cutout,
            Surface::Translucent => sg_surface::Translucent,
        }
    }
}

#[cfg(test)]
// The deprecated built-in calls keep working: these tests call them on purpose.
#[allow(deprecated)]
mod tests {
    use super::*;

    /// Every block and biome round-trips id -> info -> name -> id; the values are the
    /// core's; unknown ids and names are errors and write nothing.
    #[test]
    fn palette_round_trips() {
        for id in 0..sg_block_count() {
            let mut info = std::mem::MaybeUninit::<sg_block_info>::uninit();
            // SAFETY: a valid out pointer.
            let r = unsafe { sg_block_get_info(id, info.as_mut_ptr()) };
            assert_eq!(r, sg_result::Ok);
            // SAFETY: written on OK.
            let info = unsafe { info.assume_init() };
            let world = Definition::builtin();
            let core = world.blocks.get(id as u16).unwrap();
            // SAFETY: the name is static and NUL-terminated.
            let name = unsafe { CStr::from_ptr(info.name) };
            assert_eq!(Some(name.to_str().unwrap()), world.blocks.name(id as u16));
            assert_eq!(info.rgba, core.colour);
            let mut back = u32::MAX;
            // SAFETY: a NUL-terminated name and a valid out pointer.
            let r = unsafe { sg_block_by_name(info.name, &mut back) };
            assert_eq!((r, back), (sg_result::Ok, id));
        }
        for id in 0..sg_biome_count() {
            let mut info = std::mem::MaybeUninit::<sg_biome_info>::uninit();
            // SAFETY: a valid out pointer.
            let r = unsafe { sg_biome_get_info(id, info.as_mut_ptr()) };
            assert_eq!(r, sg_result::Ok);
            // SAFETY: written on OK.
            let info = unsafe { info.assume_init() };
            let mut back = u32::MAX;
            // SAFETY: a NUL-terminated name and a valid out pointer.
            let r = unsafe { sg_biome_by_name(info.name, &mut back) };
            assert_eq!((r, back), (sg_result::Ok, id));
        }
        let mut id = 7u32;
        let bad = CString::new("unobtainium").unwrap();
        // SAFETY: valid pointers.
        let r = unsafe { sg_block_by_name(bad.as_ptr(), &mut id) };
        assert_eq!(
            (r, id),
            (sg_result::NotFound, 7),
            "nothing written on error"
        );
        // SAFETY: NULL is allowed and reported.
        let r = unsafe { sg_block_get_info(0, std::ptr::null_mut()) };
        assert_eq!(r, sg_result::NullArgument);
        let mut info = std::mem::MaybeUninit::<sg_block_info>::uninit();
        for unknown in [sg_block_count(), u32::MAX] {
            // SAFETY: a valid out pointer.
            let r = unsafe { sg_block_get_info(unknown, info.as_mut_ptr()) };
            assert_eq!(r, sg_result::InvalidArgument);
        }
    }
}
