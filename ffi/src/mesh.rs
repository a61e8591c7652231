//! Chunk and heightmap meshes. A mesh source (`sg_world_mesh_source`, owner thread) shares a
//! full chunk and its eight neighbours out of the world; any thread may then build meshes
//! from it, concurrently (`sg_mesh_build`), and read them (`sg_mesh_counts`, `sg_mesh_copy`,
//! `sg_mesh_digest`) until `sg_mesh_destroy`. Sources and meshes are handles like worlds and
//! tasks: destroyed ones are detected, never dereferenced.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use stratagen_core::engine::ChunkPos;
use stratagen_core::mesh::heightmap::{mesh_heightmap, HeightmapMeshError, HeightmapMeshOptions};
use stratagen_core::mesh::{
    mesh_chunk, Mesh, MeshError, MeshOptions, MissingNeighbour, Mode, SurfaceMesh,
};
use stratagen_core::world::{ChunkData, Definition, Dims, Neighbourhood};

use crate::boundary::{
    copy_to, ffi, ffi_value, optional_out, refused, try_def, try_out, try_ref, try_slice,
    try_slice_mut, versioned, write_optional,
};
use crate::handles::try_handle;
use crate::handles::{lock, lookup, next_id, owner_out, to_handle};
use crate::palette::sg_surface;
use crate::result::{c_enum_from_u32, sg_result, FfiResult};

/// How faces become quads (`sg_mesh_def.mode`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_mesh_mode {
    /// One quad per visible block face.
    Culled = 0,
    /// Rectangles of coplanar faces with the same block, AO and light per corner.
    Greedy = 1,
}

/// What a missing neighbour chunk counts as (`sg_mesh_def.missing`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sg_missing_neighbour {
    /// Air with full sky light: border faces towards it are drawn.
    Emit = 0,
    /// Opaque without light: border faces towards it are culled.
    Cull = 1,
}

c_enum_from_u32!(sg_mesh_mode, sg_result::BadEnum, [Culled, Greedy]);
c_enum_from_u32!(sg_missing_neighbour, sg_result::BadEnum, [Emit, Cull]);
c_enum_from_u32!(
    sg_surface,
    sg_result::BadEnum,
    [Opaque, Cutout, Translucent]
);

impl From<sg_mesh_mode> for Mode {
    fn from(m: sg_mesh_mode) -> Mode {
        match m {
            sg_mesh_mode::Culled => Mode::Culled,
            sg_mesh_mode::Greedy => Mode::Greedy,
        }
    }
}

impl From<sg_missing_neighbour> for MissingNeighbour {
    fn from(m: sg_missing_neighbour) -> MissingNeighbour {
        match m {
            sg_missing_neighbour::Emit => MissingNeighbour::Emit,
            sg_missing_neighbour::Cull => MissingNeighbour::Cull,
        }
    }
}

/// Mesher settings. Initialise with `sg_mesh_def_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sg_mesh_def {
    /// `sizeof(sg_mesh_def)` as the caller compiled it (`sg_mesh_def_default` sets it). Read
    /// first and alone: a smaller size is refused with `SG_RESULT_BAD_STRUCT_SIZE` before any
    /// other byte is read; a larger one (a newer header) is accepted, and only this library's
    /// fields are read.
    pub struct_size: u32,
    /// An `sg_mesh_mode`. Default culled.
    pub mode: u32,
    /// An `sg_missing_neighbour`. Default emit.
    pub missing: u32,
}

/// Where `sg_mesh_copy` writes one surface's arrays. Any array pointer may be NULL to skip
/// it. Per vertex: `positions` (3 floats: x, z chunk-local 0..=16, y world), `faces` (0..=5
/// for -x, +x, -y, +y, -z, +z; 6..=9 the plant planes), `ao` (0 open ..= 3 occluded),
/// `sky_light` and `block_light` (0..=15), `uvs` (2 floats, in blocks: sample with
/// wrapping). Per quad (every 4 vertices): `quad_blocks`. `indices`: 6 per quad, two
/// counter-clockwise triangles.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_mesh_buffers {
    /// 3 × vertex_capacity floats.
    pub positions: *mut f32,
    /// vertex_capacity bytes.
    pub faces: *mut u8,
    /// vertex_capacity bytes.
    pub ao: *mut u8,
    /// vertex_capacity bytes.
    pub sky_light: *mut u8,
    /// vertex_capacity bytes.
    pub block_light: *mut u8,
    /// 2 × vertex_capacity floats.
    pub uvs: *mut f32,
    /// vertex_capacity / 4 block ids.
    pub quad_blocks: *mut u16,
    /// Vertices the arrays above hold.
    pub vertex_capacity: usize,
    /// index_capacity indices.
    pub indices: *mut u32,
    /// Indices `indices` holds.
    pub index_capacity: usize,
}

/// Heightmap mesh settings. Initialise with `sg_heightmap_mesh_def_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sg_heightmap_mesh_def {
    /// `sizeof(sg_heightmap_mesh_def)` as the caller compiled it (`sg_heightmap_mesh_def_default` sets it). Read
    /// first and alone: a smaller size is refused with `SG_RESULT_BAD_STRUCT_SIZE` before any
    /// other byte is read; a larger one (a newer header) is accepted, and only this library's
    /// fields are read.
    pub struct_size: u32,
    /// Samples per chunk side, 1..=4096 (the samples hold (res + 3)^2 values). Default 64.
    pub res: u32,
    /// Blocks per unit of sample value. Default 64.
    pub height_scale: f32,
    /// Height of sample value 0, in blocks. Default 64.
    pub height_offset: f32,
    /// Depth of the edge skirts in blocks, 0 for none. Default 0.
    pub skirt_depth: f32,
}

/// Where `sg_heightmap_mesh` writes: any array may be NULL to skip it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_heightmap_mesh_buffers {
    /// 3 × vertex_capacity floats.
    pub positions: *mut f32,
    /// 3 × vertex_capacity floats (unit normals).
    pub normals: *mut f32,
    /// 2 × vertex_capacity floats (0..=1 over the chunk).
    pub uvs: *mut f32,
    /// Vertices the arrays above hold.
    pub vertex_capacity: usize,
    /// index_capacity indices.
    pub indices: *mut u32,
    /// Indices `indices` holds.
    pub index_capacity: usize,
}

/// An opaque mesh source handle: a full chunk and its neighbours, shared.
pub struct sg_mesh_source {
    _private: [u8; 0],
}

/// An opaque mesh handle.
pub struct sg_mesh {
    _private: [u8; 0],
}

/// A mesh source: the chunks (`None`: not full when the source was made) and the height.
struct Source {
    dims: Dims,
    /// The world's blocks (faces are culled and sorted by their properties).
    palette: Arc<Definition>,
    chunks: [Option<Arc<ChunkData>>; 9],
}

static SOURCES: Mutex<BTreeMap<u64, Arc<Source>>> = Mutex::new(BTreeMap::new());
static MESHES: Mutex<BTreeMap<u64, Arc<Mesh>>> = Mutex::new(BTreeMap::new());

fn destroy<H, T>(reg: &Mutex<BTreeMap<u64, Arc<T>>>, h: *const H) -> FfiResult<()> {
    let id = try_handle(h)?;
    lock(reg)
        .remove(&id)
        .map(drop)
        .ok_or(sg_result::StaleHandle)
}

impl From<MeshError> for sg_result {
    fn from(e: MeshError) -> sg_result {
        match e {
            MeshError::MissingChunk => sg_result::NotReady,
            MeshError::HeightMismatch | MeshError::BadArea => sg_result::InvalidArgument,
        }
    }
}

impl From<HeightmapMeshError> for sg_result {
    fn from(e: HeightmapMeshError) -> sg_result {
        match e {
            HeightmapMeshError::TooFewSamples => sg_result::BufferTooSmall,
            HeightmapMeshError::Resolution | HeightmapMeshError::NotFinite => {
                sg_result::InvalidArgument
            }
        }
    }
}

/// Default mesher settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_mesh_def_default() -> sg_mesh_def {
    ffi_value(refused(), || sg_mesh_def {
        struct_size: std::mem::size_of::<sg_mesh_def>() as u32,
        mode: sg_mesh_mode::Culled as u32,
        missing: sg_missing_neighbour::Emit as u32,
    })
}

versioned!(sg_mesh_def);
versioned!(sg_heightmap_mesh_def);

/// Share full chunk (cx, cz) and those of its eight neighbours that are full into a new mesh
/// source `*source` (cheap: no block is copied, the chunks stay alive while the source
/// does). `SG_RESULT_NOT_READY` if chunk (cx, cz) is not full. Owner thread.
///
/// # Safety
/// `source` must be NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn sg_world_mesh_source(
    world: *mut crate::types::sg_world,
    cx: i32,
    cz: i32,
    source: *mut *mut sg_mesh_source,
) -> sg_result {
    ffi(|| {
        // SAFETY: `source` is NULL or writable by this function's contract.
        let source = unsafe { try_out(source) }?;
        owner_out(world, source, |_, st| {
            st.full(cx, cz)?;
            let id = next_id();
            let src = Source {
                dims: st.generator.dims(),
                palette: st.generator.definition_arc().clone(),
                chunks: st
                    .edits
                    .full_neighbourhood(&st.sched, ChunkPos::new(cx, cz)),
            };
            lock(&SOURCES).insert(id, Arc::new(src));
            Ok(to_handle(id))
        })
    })
}

/// Destroy a mesh source (meshes built from it stay valid). Any thread.
#[no_mangle]
pub extern "C" fn sg_mesh_source_destroy(source: *mut sg_mesh_source) -> sg_result {
    ffi(|| destroy(&SOURCES, source))
}

/// Mesh the source's centre chunk into a new mesh `*mesh`. Any thread, concurrently with
/// other builds and with the world's owner thread.
///
/// # Safety
/// `def` must be NULL or point to a readable `sg_mesh_def` of `def->struct_size` bytes;
/// `mesh` NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_build(
    source: *const sg_mesh_source,
    def: *const sg_mesh_def,
    mesh: *mut *mut sg_mesh,
) -> sg_result {
    ffi(|| {
        // SAFETY: `def` is NULL or readable for `struct_size` bytes by this function's
        // contract.
        let d = unsafe { try_def(def) }?;
        let options = MeshOptions {
            mode: sg_mesh_mode::try_from(d.mode)?.into(),
            missing: sg_missing_neighbour::try_from(d.missing)?.into(),
        };
        // SAFETY: `mesh` is NULL or writable by this function's contract.
        let out = unsafe { try_out(mesh) }?;
        let src = lookup(&SOURCES, source)?;
        let chunks = Neighbourhood::from_array(
            src.chunks
                .each_ref()
                .map(|c| c.as_deref().and_then(ChunkData::full)),
        );
        let m = mesh_chunk(&chunks, src.dims, &src.palette.blocks, &options)?;
        let id = next_id();
        lock(&MESHES).insert(id, Arc::new(m));
        out.write(to_handle(id));
        Ok(())
    })
}

/// The mesh behind `mesh` and the surface `surface`.
fn surface_of(mesh: *const sg_mesh, surface: u32) -> FfiResult<(Arc<Mesh>, usize)> {
    let s = sg_surface::try_from(surface)? as usize;
    Ok((lookup(&MESHES, mesh)?, s))
}

/// Vertex and index counts of one surface (`sg_surface`) of a mesh (either pointer may be
/// NULL). Any thread.
///
/// # Safety
/// `vertex_count` and `index_count` must each be NULL or valid for a write of a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_counts(
    mesh: *const sg_mesh,
    surface: u32,
    vertex_count: *mut usize,
    index_count: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each is NULL or writable by this function's contract.
        let (vertex_count, index_count) =
            unsafe { (optional_out(vertex_count), optional_out(index_count)) };
        let (m, s) = surface_of(mesh, surface)?;
        let sm = &m.surfaces[s];
        write_optional(vertex_count, sm.vertex_count());
        write_optional(index_count, sm.indices.len());
        Ok(())
    })
}

/// Copy one surface of a mesh into the caller's arrays. `SG_RESULT_BUFFER_TOO_SMALL` (nothing
/// written) if `vertex_capacity` or `index_capacity` is below the counts of
/// `sg_mesh_counts`. Any thread.
///
/// # Safety
/// `buffers` must be NULL or readable; each non-NULL array in it valid for writes of its
/// documented length at the given capacities.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_copy(
    mesh: *const sg_mesh,
    surface: u32,
    buffers: *const sg_mesh_buffers,
) -> sg_result {
    ffi(|| {
        let (m, s) = surface_of(mesh, surface)?;
        // SAFETY: `buffers` is NULL or readable by this function's contract.
        let b = unsafe { try_ref(buffers) }?;
        let sm: &SurfaceMesh = &m.surfaces[s];
        if b.vertex_capacity < sm.vertex_count() || b.index_capacity < sm.indices.len() {
            return Err(sg_result::BufferTooSmall);
        }
        // SAFETY: each array is NULL or valid for its documented length at capacities that
        // were just checked to cover the counts.
        unsafe {
            copy_to(sm.positions.as_flattened(), b.positions);
            copy_to(&sm.faces, b.faces);
            copy_to(&sm.ao, b.ao);
            copy_to(&sm.sky_light, b.sky_light);
            copy_to(&sm.block_light, b.block_light);
            copy_to(sm.uvs.as_flattened(), b.uvs);
            copy_to(&sm.quad_blocks, b.quad_blocks);
            copy_to(&sm.indices, b.indices);
        }
        Ok(())
    })
}

/// The mesh's digest (XXH64 over every array of every surface, as the Rust
/// `Mesh::digest`). Any thread.
///
/// # Safety
/// `digest` must be NULL or valid for a write of a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_digest(mesh: *const sg_mesh, digest: *mut u64) -> sg_result {
    ffi(|| {
        // SAFETY: `digest` is NULL or writable by this function's contract.
        let out = unsafe { try_out(digest) }?;
        out.write(lookup(&MESHES, mesh)?.digest());
        Ok(())
    })
}

/// Destroy a mesh. Any thread.
#[no_mangle]
pub extern "C" fn sg_mesh_destroy(mesh: *mut sg_mesh) -> sg_result {
    ffi(|| destroy(&MESHES, mesh))
}

/// Default heightmap mesh settings (struct_size filled in). Any thread.
#[no_mangle]
pub extern "C" fn sg_heightmap_mesh_def_default() -> sg_heightmap_mesh_def {
    ffi_value(refused(), || {
        let d = HeightmapMeshOptions::default();
        sg_heightmap_mesh_def {
            struct_size: std::mem::size_of::<sg_heightmap_mesh_def>() as u32,
            res: d.res as u32,
            height_scale: d.height_scale,
            height_offset: d.height_offset,
            skirt_depth: d.skirt_depth,
        }
    })
}

/// Fill a heightmap chunk with a one-sample apron: `(res + 3)^2` samples, sample (i, j) for
/// i, j in -1..=res + 1 at index (j + 1) * (res + 3) + (i + 1), each equal bit for bit to the
/// sample `sg_heightmap_fill` gives the chunk it lies in. Any thread.
///
/// # Safety
/// `def` must be NULL or readable; `out` NULL or valid for writes of `cap` floats.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_fill_apron(
    def: *const crate::types::sg_noise_def,
    cx: i32,
    cz: i32,
    res: u32,
    out: *mut f32,
    cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `def` is NULL or readable for `struct_size` bytes by this function's
        // contract.
        let n = crate::noise::noise_of(unsafe { try_def(def) }?)?;
        // SAFETY: `out` is NULL or valid for `cap` writes by this function's contract.
        let buf = unsafe { try_slice_mut(out, cap) }?;
        Ok(n.heightmap_apron(cx, cz, res as usize, buf)?)
    })
}

/// Mesh a heightmap chunk from its apron samples (`sg_heightmap_fill_apron`) straight into
/// the caller's arrays (`buffers`): `(res + 1)^2` vertices (plus `4 (res + 1)` with skirts) of
/// `positions` and `normals` (3 floats each) and `uvs` (2 floats), `6 res^2` indices (plus
/// `24 res`). The counts go to `*vertex_count` and `*index_count` (optional) first, so a
/// call with zero capacities asks the size (`SG_RESULT_BUFFER_TOO_SMALL`, nothing written).
/// Vertex (i, j) is at index j * (res + 1) + i; a shared edge of two neighbouring chunks has
/// the same heights and normals bit for bit. Any thread.
///
/// # Safety
/// `samples` must be NULL or readable for `sample_count` floats; `def` and `buffers` NULL or
/// readable; each non-NULL array in `buffers` valid for writes of its length at the given
/// capacities; `vertex_count` and `index_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_mesh(
    samples: *const f32,
    sample_count: usize,
    def: *const sg_heightmap_mesh_def,
    buffers: *const sg_heightmap_mesh_buffers,
    vertex_count: *mut usize,
    index_count: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: each pointer is NULL or valid as this function's contract states.
        let (s, d, b) = unsafe {
            (
                try_slice(samples, sample_count)?,
                try_def(def)?,
                try_ref(buffers)?,
            )
        };
        // SAFETY: each is NULL or writable by this function's contract.
        let (vertex_count, index_count) =
            unsafe { (optional_out(vertex_count), optional_out(index_count)) };
        let o = HeightmapMeshOptions {
            res: d.res as usize,
            height_scale: d.height_scale,
            height_offset: d.height_offset,
            skirt_depth: d.skirt_depth,
        };
        let m = mesh_heightmap(s, &o)?;
        write_optional(vertex_count, m.positions.len());
        write_optional(index_count, m.indices.len());
        if b.vertex_capacity < m.positions.len() || b.index_capacity < m.indices.len() {
            return Err(sg_result::BufferTooSmall);
        }
        // SAFETY: each array is NULL or valid for its length at capacities just checked.
        unsafe {
            copy_to(m.positions.as_flattened(), b.positions);
            copy_to(m.normals.as_flattened(), b.normals);
            copy_to(m.uvs.as_flattened(), b.uvs);
            copy_to(&m.indices, b.indices);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use stratagen_core::world::block::Surface;

    /// Every wire value converts to the core value with the same number; one past the last
    /// is `SG_RESULT_BAD_ENUM`.
    #[test]
    fn wire_values_match_the_core() {
        for &m in sg_mesh_mode::VARIANTS {
            assert_eq!(Mode::from(m) as u32, m as u32);
            assert_eq!(sg_mesh_mode::try_from(m as u32), Ok(m));
        }
        assert_eq!(sg_mesh_mode::try_from(2), Err(sg_result::BadEnum));
        for &m in sg_missing_neighbour::VARIANTS {
            assert_eq!(MissingNeighbour::from(m) as u32, m as u32);
        }
        assert_eq!(sg_missing_neighbour::try_from(2), Err(sg_result::BadEnum));
        for (&c, s) in sg_surface::VARIANTS.iter().zip([
            Surface::Opaque,
            Surface::Cutout,
            Surface::Translucent,
        ]) {
            assert_eq!(sg_surface::from(s), c);
            assert_eq!(s as u32, c as u32);
        }
        assert_eq!(sg_surface::try_from(3), Err(sg_result::BadEnum));
    }
}
