//! World definitions from Python: a preset name, a file path or a document's text, checked
//! with every problem's path, line and column.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use stratagen_core::world::Definition;
use stratagen_worldfile::{parse_bytes, preset, print, Format, Problems, PRESETS};

use crate::errors::argument;
use crate::DefinitionError;

/// Where a definition comes from.
enum Source {
    Preset(&'static str),
    File(std::path::PathBuf),
    Text,
}

/// A preset name, else an existing file, else the text of a document.
fn source(spec: &str) -> Source {
    if let Some(text) = preset(spec) {
        return Source::Preset(text);
    }
    let path = std::path::Path::new(spec);
    if !spec.contains('\n') && path.is_file() {
        return Source::File(path.to_path_buf());
    }
    Source::Text
}

/// The bytes of the document `spec` names and the name its problems are reported under (a
/// file is read as bytes: one that is not UTF-8 is a problem with a position).
fn document_of(spec: &str) -> PyResult<(Vec<u8>, String)> {
    match source(spec) {
        Source::Preset(text) => Ok((text.as_bytes().to_vec(), spec.to_string())),
        Source::File(path) => std::fs::read(&path)
            .map(|t| (t, spec.to_string()))
            .map_err(|e| DefinitionError::new_err(format!("{spec}: {e}"))),
        Source::Text => {
            if !spec.contains('\n') && !spec.contains('=') && !spec.contains('{') {
                return Err(DefinitionError::new_err(format!(
                    "{spec}: not a preset ({}) and not a readable file",
                    PRESETS.join(", ")
                )));
            }
            Ok((spec.as_bytes().to_vec(), "definition".to_string()))
        }
    }
}

/// The definition `spec` names, parsed and checked, or a `DefinitionError` listing every
/// problem as `stratagen world check` does.
pub fn resolve(spec: &str) -> PyResult<Definition> {
    let (bytes, name) = document_of(spec)?;
    parse_bytes(&bytes).map_err(|p| DefinitionError::new_err(format!("{name}:\n{p}")))
}

fn problem_list<'py>(py: Python<'py>, problems: &Problems) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for p in &problems.list {
        let d = PyDict::new(py);
        d.set_item("path", &p.path)?;
        d.set_item("line", p.at.map(|a| a.line))?;
        d.set_item("column", p.at.map(|a| a.column))?;
        d.set_item("message", &p.message)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Every problem of a definition (a preset name, a file path or a document's text), each a
/// dict with `path`, `line`, `column` and `message`; an empty list if it is valid.
#[pyfunction]
pub fn check<'py>(py: Python<'py>, text_or_path: &str) -> PyResult<Bound<'py, PyList>> {
    let (bytes, _) = document_of(text_or_path)?;
    match py.detach(|| parse_bytes(&bytes)) {
        Ok(_) => Ok(PyList::empty(py)),
        Err(p) => problem_list(py, &p),
    }
}

/// The names of the built-in presets.
#[pyfunction]
pub fn presets() -> Vec<&'static str> {
    PRESETS.to_vec()
}

/// A preset (or any definition) as a full document: every value, no `base`; TOML unless
/// `json`.
#[pyfunction]
#[pyo3(signature = (name, *, json = false))]
pub fn print_preset(name: &str, json: bool) -> PyResult<String> {
    if preset(name).is_none() {
        return Err(argument(format!(
            "{name}: not a preset ({})",
            PRESETS.join(", ")
        )));
    }
    let d = resolve(name)?;
    Ok(print(&d, if json { Format::Json } else { Format::Toml }))
}

/// The digest of a definition (a preset name, a file path or a document's text): the same
/// digest means the same world for every seed.
#[pyfunction]
pub fn definition_digest(text_or_path: &str) -> PyResult<u64> {
    Ok(resolve(text_or_path)?.digest())
}
