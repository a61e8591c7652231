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

/// `node validate.mjs FILES...`, installing the validator with `npm ci` the first time; `None`
/// (the check skipped) on a machine without Node.js and npm, unless CI is set.
fn validate(test: &str, files: &[PathBuf]) -> Option<String> {
    let tool = common::root().join("tools/gltf-validator");
    let have = common::runs("node") && common::runs("npm");
    if !common::tool_present(
        test,
        "node and npm (the glTF validator)",
        have,
        "nodejs and npm",
    ) {
        return None;
    }
    // The tests of this file run on threads of one process: one installs while the others
    // wait, so none runs the validator from a half-extracted package.
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _installing = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
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
    Some(out)
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
        "--scatter",
    ]);
    let files = [culled.clone(), greedy.clone(), hm.clone()];
    if let Some(report) = validate("meshes_pass_the_khronos_validator", &files) {
        for line in report.lines().filter(|l| l.contains(" errors=")) {
            assert!(line.contains(" errors=0 warnings=0 "), "{line}");
        }
        assert_eq!(
            report.lines().filter(|l| l.contains(" errors=0 ")).count(),
            3
        );
    }

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
    // Six heightmap chunks, and the default world's props on them as instanced nodes.
    let hm_nodes = json_of(&hm)["nodes"].as_array().unwrap().clone();
    let named = |prefix: &str| {
        hm_nodes
            .iter()
            .filter(|n| n["name"].as_str().is_some_and(|s| s.starts_with(prefix)))
            .count()
    };
    assert_eq!(named("heightmap "), 6);
    assert!(named("grass ") + named("rocks ") + named("trees ") > 0);
}

/// The accessor `i` of a .glb as floats (tightly packed, little-endian).
fn floats_of(path: &Path, doc: &serde_json::Value, i: usize) -> Vec<f32> {
    let b = std::fs::read(path).unwrap();
    let n = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let bin = &b[20 + n + 8..];
    let a = &doc["accessors"][i];
    let v = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let (off, len) = (
        v["byteOffset"].as_u64().unwrap() as usize,
        v["byteLength"].as_u64().unwrap() as usize,
    );
    bin[off..off + len]
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn scatter_instances_pass_the_khronos_validator() {
    use stratagen_core::world::scatter::{is_ground, scatter_chunk};
    let dir = common::scratch("gltf-scatter");
    let out = dir.join("props.glb");
    let said = stratagen(&[
        "scatter",
        "--seed",
        "5",
        "--region",
        "-2,-2,3,3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let test = "scatter_instances_pass_the_khronos_validator";
    if let Some(report) = validate(test, std::slice::from_ref(&out)) {
        assert!(report.contains(" errors=0 warnings=0 "), "{report}");
    }

    // A node per layer and kind that has instances, each instanced; the instances are the
    // library's, at the chunk's place plus their position.
    let r = generate(
        WorldSettings {
            seed: 5,
            ..WorldSettings::default()
        },
        &rect(-2, -2, 3, 3),
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap();
    let g = &r.generator;
    let world = g.definition();
    let doc = json_of(&out);
    assert_eq!(doc["extensionsUsed"][0], "EXT_mesh_gpu_instancing");
    let nodes = doc["nodes"].as_array().unwrap();
    let mut checked = 0;
    for layer in &world.scatter {
        let mut per_kind = vec![Vec::new(); layer.kinds.len()];
        for z in -2..=3 {
            for x in -2..=3 {
                let full = r.chunks[&ChunkPos::new(x, z)].full().unwrap();
                let ground = |b| is_ground(&world.blocks, b);
                for i in scatter_chunk(5, &g.dims(), layer, full, ground) {
                    per_kind[usize::from(i.kind)].push([
                        ((x + 2) * 16) as f32 + i.position[0],
                        i.position[1],
                        ((z + 2) * 16) as f32 + i.position[2],
                    ]);
                }
            }
        }
        for (kind, want) in layer.kinds.iter().zip(&per_kind) {
            let name = format!("{} {}", layer.name, kind.name);
            assert!(
                said.contains(&format!("  {name} {}\n", want.len())),
                "{said}"
            );
            let node = nodes.iter().find(|n| n["name"] == name.as_str());
            let Some(node) = node else {
                assert!(
                    want.is_empty(),
                    "{name}: no node for {} instances",
                    want.len()
                );
                continue;
            };
            let attrs = &node["extensions"]["EXT_mesh_gpu_instancing"]["attributes"];
            let t = floats_of(&out, &doc, attrs["TRANSLATION"].as_u64().unwrap() as usize);
            let got: Vec<[f32; 3]> = t.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
            assert_eq!(&got, want, "{name}");
            let q = floats_of(&out, &doc, attrs["ROTATION"].as_u64().unwrap() as usize);
            for c in q.chunks(4) {
                let len = c.iter().map(|v| v * v).sum::<f32>().sqrt();
                assert!((len - 1.0).abs() < 1e-5, "{name}: rotation {c:?}");
            }
            checked += want.len();
        }
    }
    assert!(checked > 100, "{checked} instances");
}
