//! The committed header `include/stratagen.h` must equal what cbindgen generates from `ffi/`
//! now; and it must compile alone as C11 and as C++17 with warnings as errors.
mod common;

use std::process::Command;

fn generated() -> String {
    let root = common::root();
    let config = cbindgen::Config::from_file(root.join("ffi/cbindgen.toml"))
        .expect("read ffi/cbindgen.toml");
    let bindings = cbindgen::generate_with_config(root.join("ffi"), config)
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn committed_header_is_current() {
    let path = common::root().join("include/stratagen.h");
    let now = generated();
    if std::env::var_os("STRATAGEN_BLESS_HEADER").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == now,
        "include/stratagen.h is stale: regenerate with STRATAGEN_BLESS_HEADER=1 cargo test --test header"
    );
}

/// The header's version string is the workspace version (the ffi crate's constants are
/// checked against it in its own tests).
#[test]
fn header_version_is_the_workspace_version() {
    let header = std::fs::read_to_string(common::root().join("include/stratagen.h")).unwrap();
    let want = format!(
        "#define SG_VERSION_STRING \"{}\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(header.contains(&want), "{want}");
}

#[test]
fn header_compiles_alone_as_c11_and_cpp17() {
    let dir = common::scratch("header");
    let inc = common::root().join("include");
    let src_c = dir.join("only.c");
    std::fs::write(&src_c, "#include \"stratagen.h\"\nint main(void) { sg_world_def d = sg_world_def_default(); (void)d; return SG_RESULT_OK; }\n").unwrap();
    let src_cpp = dir.join("only.cpp");
    std::fs::write(&src_cpp, "#include \"stratagen.h\"\nint main() { sg_world_def d = sg_world_def_default(); (void)d; return SG_RESULT_OK; }\n").unwrap();
    for (cc, std, src) in [("cc", "-std=c11", &src_c), ("c++", "-std=c++17", &src_cpp)] {
        let o = Command::new(cc)
            .args([
                std,
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-fsyntax-only",
                "-I",
            ])
            .arg(&inc)
            .arg(src)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{cc} {std}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
