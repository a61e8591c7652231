//! World definition documents: a document that JavaScript parsed from TOML, handed over as a
//! tree with each value's line:column (the encoding in `worldfile/src/tree.rs`), checked by
//! the same code as every other host's documents and turned into the canonical bytes a world
//! is made from.

use stratagen_worldfile::{parse_tree, Problems};

use crate::boundary::{bytes, fail, in_slice, out_slice, OK};

/// Check the document tree at `doc` standing on the named preset trees at `bases` (a
/// document's `base = "name"`). On success the bytes result is the definition's canonical
/// bytes (what `new World({ world: bytes })` takes) and its digest goes to `digest`. When the
/// document has problems the call fails with every problem in the message, and the bytes
/// result lists them for the caller to show beside the text: a `u32` count, a `u32` count of
/// problems not listed, then per problem a `u32` line and column (0 0: no place), and the
/// path and the message, each a `u32` byte length and UTF-8.
///
/// # Safety
/// `doc` and `bases` must be readable for `doc_len` and `bases_len` bytes; `digest` writable
/// for one `u64`.
#[no_mangle]
pub unsafe extern "C" fn sg_definition_compile(
    doc: *const u8,
    doc_len: usize,
    bases: *const u8,
    bases_len: usize,
    digest: *mut u64,
) -> u32 {
    // SAFETY: the caller's promise, checked for null and alignment inside.
    let args = unsafe {
        in_slice(doc, doc_len, "document").and_then(|d| {
            let b = in_slice(bases, bases_len, "bases")?;
            Ok((d, b, out_slice(digest, 1, "digest")?))
        })
    };
    let (doc, bases, digest) = match args {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    match parse_tree(doc, bases) {
        Ok(def) => {
            digest[0] = def.digest();
            bytes(def.to_bytes());
            OK
        }
        Err(problems) => {
            bytes(problem_list(&problems));
            fail(format!("the definition has problems:\n{problems}"))
        }
    }
}

/// The problems as the bytes [`sg_definition_compile`] describes.
fn problem_list(problems: &Problems) -> Vec<u8> {
    fn u32_of(out: &mut Vec<u8>, n: usize) {
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
    fn text(out: &mut Vec<u8>, s: &str) {
        u32_of(out, s.len());
        out.extend_from_slice(s.as_bytes());
    }
    let mut out = Vec::new();
    u32_of(&mut out, problems.list.len());
    u32_of(&mut out, problems.more);
    for p in &problems.list {
        let (line, column) = p.at.map_or((0, 0), |at| (at.line, at.column));
        u32_of(&mut out, line);
        u32_of(&mut out, column);
        text(&mut out, &p.path);
        text(&mut out, &p.message);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{sg_bytes_len, sg_bytes_ptr, sg_error_len, sg_error_ptr, FAILED};
    use stratagen_core::world::Definition;
    use stratagen_worldfile::{parse, preset, preset_trees, toml_tree, PRESETS};

    /// The status, digest, bytes result and error message of compiling `doc` on `bases`.
    fn compile(doc: &[u8], bases: &[u8]) -> (u32, u64, Vec<u8>, String) {
        let mut digest = 0u64;
        // SAFETY: both slices and the digest are live for the call.
        let status = unsafe {
            sg_definition_compile(
                doc.as_ptr(),
                doc.len(),
                bases.as_ptr(),
                bases.len(),
                &mut digest,
            )
        };
        // SAFETY: the results stay valid until the next call on this thread.
        let (out, error) = unsafe {
            (
                std::slice::from_raw_parts(sg_bytes_ptr(), sg_bytes_len()).to_vec(),
                std::slice::from_raw_parts(sg_error_ptr(), sg_error_len()).to_vec(),
            )
        };
        (status, digest, out, String::from_utf8(error).unwrap())
    }

    #[test]
    fn documents_compile_to_the_bytes_their_text_parses_to() {
        let bases = preset_trees();
        let docs = PRESETS
            .iter()
            .map(|n| preset(n).unwrap().to_string())
            .chain(
                PRESETS
                    .iter()
                    .map(|n| format!("base = \"{n}\"\nname = \"t\"\n")),
            );
        for doc in docs {
            let expected = parse(&doc).unwrap();
            let (status, digest, out, error) = compile(&toml_tree(&doc).unwrap(), &bases);
            assert_eq!(status, OK, "{error}");
            assert_eq!(digest, expected.digest());
            assert_eq!(Definition::from_bytes(&out), Ok(expected));
        }
        // The default preset is the built-in world.
        let (_, digest, _, _) = compile(&toml_tree(preset("default").unwrap()).unwrap(), &bases);
        assert_eq!(digest, Definition::builtin().digest());
    }

    #[test]
    fn problems_come_back_with_their_places() {
        let doc = "base = \"caverns\"\nname = 3\n[terrain]\nsea_levell = 3\n";
        let expected = parse(doc).unwrap_err();
        let (status, _, list, error) = compile(&toml_tree(doc).unwrap(), &preset_trees());
        assert_eq!(status, FAILED);
        assert_eq!(error, format!("the definition has problems:\n{expected}"));
        let u32_at = |at: usize| u32::from_le_bytes(list[at..at + 4].try_into().unwrap());
        assert_eq!(u32_at(0) as usize, expected.list.len());
        assert_eq!(u32_at(4), 0);
        let (mut at, mut seen) = (8, Vec::new());
        for _ in 0..u32_at(0) {
            let (line, column) = (u32_at(at), u32_at(at + 4));
            let path_len = u32_at(at + 8) as usize;
            let path = std::str::from_utf8(&list[at + 12..at + 12 + path_len]).unwrap();
            at += 12 + path_len;
            let message_len = u32_at(at) as usize;
            let message = std::str::from_utf8(&list[at + 4..at + 4 + message_len]).unwrap();
            at += 4 + message_len;
            seen.push(format!("{line}:{column}: {path}: {message}"));
        }
        assert_eq!(at, list.len());
        assert_eq!(seen.join("\n"), expected.to_string());
    }

    #[test]
    fn damaged_trees_and_bad_buffers_are_refused() {
        let mut digest = 0u64;
        // SAFETY: a null document is refused before any access.
        let status = unsafe {
            sg_definition_compile(std::ptr::null(), 4, [0u8; 4].as_ptr(), 4, &mut digest)
        };
        assert_eq!(status, FAILED);
        let (status, _, _, error) = compile(&[5, 0, 0], &0u32.to_le_bytes());
        assert_eq!(status, FAILED);
        assert!(error.contains("document tree"), "{error}");
        // A base that the list does not hold is a problem of the document.
        let doc = toml_tree("base = \"caverns\"\n").unwrap();
        let (status, _, _, error) = compile(&doc, &0u32.to_le_bytes());
        assert_eq!(status, FAILED);
        assert!(error.contains("caverns"), "{error}");
        assert_eq!(digest, 0);
    }
}
