//! A glTF 2.0 binary (`.glb`) writer for meshes: one node per chunk, one primitive per
//! surface, vertex colours, three materials (opaque, alpha-tested cutout drawn from both
//! sides, alpha-blended water), and instanced nodes (`EXT_mesh_gpu_instancing`: one mesh
//! drawn at many translations, rotations and scales). The JSON part is built with
//! `serde_json`; the binary chunk holds every array, 4-byte aligned.

use serde_json::{json, Value};

/// glTF component types.
const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_INT: u32 = 5125;
/// Buffer view targets.
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The materials every file carries, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// Opaque surface.
    Opaque = 0,
    /// Alpha-tested (leaves, plants), double-sided.
    Cutout = 1,
    /// Alpha-blended (water, ice).
    Translucent = 2,
    /// Heightmap terrain.
    Terrain = 3,
}

/// One primitive's vertex data.
pub struct Primitive {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// sRGB colours with alpha (optional: empty for none).
    pub colours: Vec<[u8; 4]>,
    /// Texture coordinates (optional: empty for none).
    pub uvs: Vec<[f32; 2]>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// Material.
    pub material: Material,
}

/// A `.glb` under construction.
#[derive(Default)]
pub struct Glb {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    meshes: Vec<Value>,
    nodes: Vec<Value>,
    /// Whether a node uses `EXT_mesh_gpu_instancing`.
    instancing: bool,
}

/// One instance of an instanced node: where, turned how, how large.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InstanceTransform {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation, a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Scale per axis.
    pub scale: [f32; 3],
}

impl Glb {
    /// Append bytes as a buffer view (4-byte aligned); its index. Instance attributes have
    /// no target (they are not vertex data).
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut view = json!({
            "buffer": 0,
            "byteOffset": self.bin.len(),
            "byteLength": bytes.len(),
        });
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.views.push(view);
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    /// An accessor over a new view; its index.
    fn accessor(&mut self, bytes: &[u8], target: Option<u32>, fields: Value) -> usize {
        let view = self.view(bytes, target);
        let mut a = json!({ "bufferView": view });
        if let (Value::Object(a), Value::Object(f)) = (&mut a, fields) {
            a.extend(f);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// Add a node named `name` at `translation` with a mesh of `primitives` (empty ones
    /// are skipped; a node without any primitive gets no mesh).
    pub fn node(&mut self, name: &str, translation: [f32; 3], primitives: &[Primitive]) {
        let mut prims = Vec::new();
        for p in primitives.iter().filter(|p| !p.indices.is_empty()) {
            prims.push(self.primitive(p));
        }
        let mut node = json!({ "name": name, "translation": translation });
        if !prims.is_empty() {
            self.meshes
                .push(json!({ "name": name, "primitives": prims }));
            node["mesh"] = json!(self.meshes.len() - 1);
        }
        self.nodes.push(node);
    }

    /// Add a node named `name` drawing a mesh of `primitives` once per instance
    /// (`EXT_mesh_gpu_instancing`); nothing if there is no instance or no primitive.
    pub fn instanced_node(
        &mut self,
        name: &str,
        primitives: &[Primitive],
        instances: &[InstanceTransform],
    ) {
        if instances.is_empty() || primitives.iter().all(|p| p.indices.is_empty()) {
            return;
        }
        let mut prims = Vec::new();
        for p in primitives.iter().filter(|p| !p.indices.is_empty()) {
            prims.push(self.primitive(p));
        }
        self.meshes
            .push(json!({ "name": name, "primitives": prims }));
        let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let n = instances.len();
        let t: Vec<f32> = instances.iter().flat_map(|i| i.translation).collect();
        let r: Vec<f32> = instances.iter().flat_map(|i| i.rotation).collect();
        let s: Vec<f32> = instances.iter().flat_map(|i| i.scale).collect();
        let t = self.accessor(
            &floats(&t),
            None,
            json!({ "componentType": FLOAT, "count": n, "type": "VEC3" }),
        );
        let r = self.accessor(
            &floats(&r),
            None,
            json!({ "componentType": FLOAT, "count": n, "type": "VEC4" }),
        );
        let s = self.accessor(
            &floats(&s),
            None,
            json!({ "componentType": FLOAT, "count": n, "type": "VEC3" }),
        );
        self.nodes.push(json!({
            "name": name,
            "mesh": self.meshes.len() - 1,
            "extensions": { "EXT_mesh_gpu_instancing": {
                "attributes": { "TRANSLATION": t, "ROTATION": r, "SCALE": s }
            } },
        }));
        self.instancing = true;
    }

    fn primitive(&mut self, p: &Primitive) -> Value {
        let n = p.positions.len();
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for v in &p.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let pos = self.accessor(
            &floats(p.positions.as_flattened()),
            Some(ARRAY_BUFFER),
            json!({ "componentType": FLOAT, "count": n, "type": "VEC3", "min": lo, "max": hi }),
        );
        let nrm = self.accessor(
            &floats(p.normals.as_flattened()),
            Some(ARRAY_BUFFER),
            json!({ "componentType": FLOAT, "count": n, "type": "VEC3" }),
        );
        let mut attributes = json!({ "POSITION": pos, "NORMAL": nrm });
        if !p.colours.is_empty() {
            let c = self.accessor(
                p.colours.as_flattened(),
                Some(ARRAY_BUFFER),
                json!({ "componentType": UNSIGNED_BYTE, "normalized": true, "count": n, "type": "VEC4" }),
            );
            attributes["COLOR_0"] = json!(c);
        }
        if !p.uvs.is_empty() {
            let t = self.accessor(
                &floats(p.uvs.as_flattened()),
                Some(ARRAY_BUFFER),
                json!({ "componentType": FLOAT, "count": n, "type": "VEC2" }),
            );
            attributes["TEXCOORD_0"] = json!(t);
        }
        let idx: Vec<u8> = p.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let ind = self.accessor(
            &idx,
            Some(ELEMENT_ARRAY_BUFFER),
            json!({ "componentType": UNSIGNED_INT, "count": p.indices.len(), "type": "SCALAR" }),
        );
        json!({
            "attributes": attributes,
            "indices": ind,
            "material": p.material as u32,
            "mode": 4,
        })
    }

    /// The file's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let pbr = |alpha: f32| json!({ "baseColorFactor": [1.0, 1.0, 1.0, alpha], "metallicFactor": 0.0, "roughnessFactor": 1.0 });
        let mut doc = json!({
            "asset": { "version": "2.0", "generator": concat!("stratagen ", env!("CARGO_PKG_VERSION")) },
            "scene": 0,
            "scenes": [{ "nodes": (0..self.nodes.len()).collect::<Vec<_>>() }],
            "nodes": self.nodes,
            "meshes": self.meshes,
            "materials": [
                { "name": "opaque", "pbrMetallicRoughness": pbr(1.0) },
                { "name": "cutout", "pbrMetallicRoughness": pbr(1.0), "alphaMode": "MASK", "alphaCutoff": 0.5, "doubleSided": true },
                { "name": "translucent", "pbrMetallicRoughness": pbr(1.0), "alphaMode": "BLEND" },
                { "name": "terrain", "pbrMetallicRoughness": pbr(1.0) },
            ],
            "accessors": self.accessors,
            "bufferViews": self.views,
            "buffers": [{ "byteLength": self.bin.len() }],
        });
        if self.instancing {
            doc["extensionsUsed"] = json!(["EXT_mesh_gpu_instancing"]);
        }
        let mut text = serde_json::to_vec(&doc).unwrap_or_default();
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let total = 12 + 8 + text.len() + 8 + self.bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&self.bin);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The container is well formed: header length, chunk types, JSON parses, every view
    /// lies inside the binary chunk, accessor counts match their views.
    #[test]
    fn container_is_well_formed() {
        let mut g = Glb::default();
        let quad = Primitive {
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]],
            normals: vec![[0.0, 1.0, 0.0]; 3],
            colours: vec![[255, 0, 0, 255]; 3],
            uvs: vec![],
            indices: vec![0, 2, 1],
            material: Material::Opaque,
        };
        g.node("a", [16.0, 0.0, 0.0], &[quad]);
        g.node("empty", [0.0; 3], &[]);
        let b = g.finish();
        assert_eq!(&b[0..4], b"glTF");
        assert_eq!(
            u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize,
            b.len()
        );
        let jl = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        assert_eq!(&b[16..20], b"JSON");
        let doc: Value = serde_json::from_slice(&b[20..20 + jl]).unwrap();
        let bl = u32::from_le_bytes(b[20 + jl..24 + jl].try_into().unwrap()) as usize;
        assert_eq!(&b[24 + jl..28 + jl], b"BIN\0");
        assert_eq!(28 + jl + bl, b.len());
        for v in doc["bufferViews"].as_array().unwrap() {
            let end = v["byteOffset"].as_u64().unwrap() + v["byteLength"].as_u64().unwrap();
            assert!(end as usize <= bl);
            assert_eq!(v["byteOffset"].as_u64().unwrap() % 4, 0);
        }
        assert_eq!(doc["nodes"].as_array().unwrap().len(), 2);
        assert!(doc["nodes"][1].get("mesh").is_none());
        assert_eq!(doc["accessors"][0]["max"], json!([1.0, 0.0, 1.0]));
    }
}
