//! The Python package `stratagen`: a thin PyO3 binding over the Rust crates. Noise fills,
//! chunks and meshes come back as numpy arrays (handed over without a copy where the data is
//! the binding's own, read-only views where a chunk shares it); every call that generates,
//! meshes or fills releases the GIL. Errors are exceptions derived from `stratagen.Error`
//! with the messages the command line prints.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use stratagen_core::world::WorldSettings;

mod arrays;
mod chunk;
mod definitions;
mod errors;
mod mesh;
mod noise;
mod scatter;
mod store;
mod world;

create_exception!(
    stratagen,
    Error,
    PyException,
    "Every error Stratagen raises derives from this class."
);
create_exception!(
    stratagen,
    ArgumentError,
    Error,
    "An argument out of its range or malformed: a coordinate, a count, a name."
);
create_exception!(
    stratagen,
    DefinitionError,
    Error,
    "A world definition that cannot be loaded; the message lists every problem with its line and column."
);
create_exception!(
    stratagen,
    WorldError,
    Error,
    "World settings that were refused (height range, sea level)."
);
create_exception!(
    stratagen,
    NoiseError,
    Error,
    "A noise definition or grid that was refused."
);
create_exception!(
    stratagen,
    GenerationError,
    Error,
    "Generation stopped: a status body failed or a chunk did not reach its status."
);
create_exception!(
    stratagen,
    StoreError,
    Error,
    "A chunk store or record was refused: another world, a newer format, damage, a full disk."
);
create_exception!(
    stratagen,
    ConflictError,
    StoreError,
    "A merge refused an input: both stores hold chunk (x, z) with different bytes (edits: False) or different edits of it (edits: True)."
);
create_exception!(
    stratagen,
    ForeignWorldError,
    StoreError,
    "A store of another world: its `field` (seed, min_y, height, sea_level, definition) is `stored`, not `wanted`."
);

/// The compiled module, `stratagen._stratagen`; `stratagen/__init__.py` re-exports it.
#[pymodule]
fn _stratagen(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("DefinitionError", py.get_type::<DefinitionError>())?;
    m.add("WorldError", py.get_type::<WorldError>())?;
    m.add("NoiseError", py.get_type::<NoiseError>())?;
    m.add("GenerationError", py.get_type::<GenerationError>())?;
    m.add("StoreError", py.get_type::<StoreError>())?;
    m.add("ConflictError", py.get_type::<ConflictError>())?;
    m.add("ForeignWorldError", py.get_type::<ForeignWorldError>())?;
    m.add("RangeError", errors::range_error_type(py)?)?;
    m.add("DEFAULT_TILE", stratagen_host::DEFAULT_TILE)?;
    let defaults = WorldSettings::default();
    m.add("DEFAULT_MIN_Y", defaults.min_y)?;
    m.add("DEFAULT_HEIGHT", defaults.height)?;
    m.add("DEFAULT_SEA_LEVEL", defaults.sea_level)?;
    m.add_class::<noise::Noise>()?;
    m.add_class::<world::World>()?;
    m.add_class::<chunk::Chunk>()?;
    m.add_class::<mesh::Mesh>()?;
    m.add_class::<store::Store>()?;
    m.add_function(wrap_pyfunction!(definitions::check, m)?)?;
    m.add_function(wrap_pyfunction!(definitions::presets, m)?)?;
    m.add_function(wrap_pyfunction!(definitions::print_preset, m)?)?;
    m.add_function(wrap_pyfunction!(definitions::definition_digest, m)?)?;
    m.add_function(wrap_pyfunction!(store::pregen, m)?)?;
    m.add_function(wrap_pyfunction!(store::merge, m)?)?;
    m.add_function(wrap_pyfunction!(store::tiles, m)?)?;
    m.add_function(wrap_pyfunction!(xxh64, m)?)?;
    m.add_function(wrap_pyfunction!(keep_freed_memory, m)?)?;
    Ok(())
}

/// XXH64 (seed 0) of `data`: the hash every Stratagen digest is made of, for checking arrays
/// against published digests (`xxh64(array.tobytes())`).
#[pyfunction]
fn xxh64(data: &[u8]) -> u64 {
    stratagen_core::util::digest::xxh64(data)
}

/// Keep freed memory in the process instead of returning it to the system after every
/// chunk (glibc; elsewhere nothing happens). A chunk allocates and frees a few MiB; with the
/// allocator's defaults, threads generating at once in one process fault those pages in
/// again and each runs about 30% slower. Call once, early, in a process that generates on
/// several threads; the process then keeps up to a few hundred MiB it freed.
#[pyfunction]
fn keep_freed_memory() {
    stratagen_host::allocator::keep_freed_memory();
}
