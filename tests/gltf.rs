//! The glTF binaries `stratagen mesh` and `stratagen heightmap --mesh` write pass the Khronos
//! glTF validator (npm `gltf-validator`, run with Node from `tools/gltf-validator`) with no
//! error and no warning, and carry what the command says: a node per chunk, the region's
//! mesh digest equal to the library's.
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use stratagen_cli::{generate, rect};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::{mesh_chunk, MeshOptions, Mode};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::{Neighbourhood, WorldSettings};

fn stratagen(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_stratagen"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `node validate.mjs FILES...`, installing the validator with `npm ci` the first time.
fn validate(files: &[PathBuf]) -> String {
    let tool = common::root().join("tools/gltf-validator");
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.map(|o| o.status.success()).unwrap_or(false),
        "Node.js is required for the glTF validator (the CI script installs it)"
    );
    if !tool.join("node_modules/gltf-validator").exists() {
        let o = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&tool)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "npm ci: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let o = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .args(files)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "validator: {out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The JSON chunk of a .glb.
fn json_of(path: &Path) -> serde_json::Value {
    let b = std::fs::read(path).unwrap();
    let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&b[20..20 + n]).unwrap()
}

#[test]
fn meshes_pass_the_khronos_validator() {
    let dir = common::scratch("gltf");
    let culled = dir.join("culled.glb");
    let greedy = dir.join("greedy.glb");
    let hm = dir.join("heightmap.glb");
    let region = "3,-2,5,-1";
    let said = stratagen(&[
        "mesh",
        "--seed",
        "3",
        "--region",
        region,
        "--out",
        culled.to_str().unwrap(),
    ]);
    stratagen(&[
        "mesh",
        "--seed",
        "3",
        "--region",
        region,
        "--greedy",
        "--out",
        greedy.to_str().unwrap(),
    ]);
    stratagen(&[
        "heightmap",
        "--seed",
        "3",
        "--res",
        "16",
        "--region",
        "0,0,2,1",
        "--skirt",
        "2",
        "--mesh",
        hm.to_str().unwrap(),
    ]);
    let report = validate(&[culled.clone(), greedy.clone(), hm.clone()]);
    for line in report.lines().filter(|l| l.contains(" errors=")) {
        assert!(line.contains(" errors=0 warnings=0 "), "{line}");
    }
    assert_eq!(
        report.lines().filter(|l| l.contains(" errors=0 ")).count(),
        3
    );

    // A node per chunk, named by position; the printed digest is the library's.
    let doc = json_of(&culled);
    assert_eq!(doc["nodes"].as_array().unwrap().len(), 6);
    assert_eq!(doc["nodes"][0]["name"], "chunk 3,-2");
    let r = generate(
        WorldSettings {
            seed: 3,
            ..WorldSettings::default()
        },
        &rect(3, -2, 5, -1),
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap();
    let full = |x: i32, z: i32| r.chunks.get(&ChunkPos::new(x, z)).and_then(|d| d.full());
    let mut d = Digest::new();
    for z in -2..=-1 {
        for x in 3..=5 {
            let n = Neighbourhood::from_fn(|dx, dz| full(x + dx, z + dz));
            let o = MeshOptions {
                mode: Mode::Culled,
                ..MeshOptions::default()
            };
            d.write_u64(
                mesh_chunk(&n, r.generator.dims(), &r.generator.definition().blocks, &o)
                    .unwrap()
                    .digest(),
            );
        }
    }
    assert!(
        said.contains(&format!("mesh digest {:016x}", d.finish())),
        "{said}"
    );
    assert_eq!(json_of(&hm)["nodes"].as_array().unwrap().len(), 6);
}
