//! Finished chunk meshes as scene nodes: `ArrayMesh` surfaces with their materials,
//! collision bodies, and scatter props as `MultiMeshInstance3D`s. Main thread only; the
//! arrays they copy were built on the pool.

use godot::classes::base_material_3d::{CullMode, Flags, Transparency};
use godot::classes::mesh::{ArrayType, PrimitiveType};
use godot::classes::multi_mesh::TransformFormat;
use godot::classes::{
    ArrayMesh, CollisionShape3D, ConcavePolygonShape3D, Material, Mesh, MeshInstance3D, MultiMesh,
    MultiMeshInstance3D, PrismMesh, StandardMaterial3D, StaticBody3D,
};
use godot::prelude::*;
use stratagen_core::mesh::Face;
use stratagen_core::world::block::Surface;

use super::StratagenWorld;
use crate::feed::ChunkMesh;

impl StratagenWorld {
    /// One material per surface: the exported one (or a vertex-colour default) for opaque,
    /// alpha-scissor double-sided for cutout, alpha-blended for translucent.
    pub(super) fn make_materials(&self) -> Vec<Gd<Material>> {
        let make = |transparency: Transparency, cull: CullMode| {
            let mut m = StandardMaterial3D::new_gd();
            m.set_flag(Flags::ALBEDO_FROM_VERTEX_COLOR, true);
            // The colours are linear (`mesh::colour`): no sRGB conversion.
            m.set_flag(Flags::SRGB_VERTEX_COLOR, false);
            m.set_transparency(transparency);
            m.set_cull_mode(cull);
            m.upcast::<Material>()
        };
        let opaque = self
            .material
            .clone()
            .unwrap_or_else(|| make(Transparency::DISABLED, CullMode::BACK));
        vec![
            opaque,
            make(Transparency::ALPHA_SCISSOR, CullMode::DISABLED),
            make(Transparency::ALPHA, CullMode::BACK),
        ]
    }

    /// Replace the scatter props under a chunk's mesh node: one `MultiMeshInstance3D` per
    /// layer and kind, its instances placed relative to the chunk's corner.
    pub(super) fn set_props(&mut self, node: &mut Gd<MeshInstance3D>, mesh: &ChunkMesh) {
        for mut child in node.get_children().iter_shared() {
            if child.is_class("MultiMeshInstance3D") {
                node.remove_child(&child);
                child.queue_free();
            }
        }
        let world = self.world_definition();
        for set in &mesh.props {
            let Some(layer) = world.scatter.get(usize::from(set.layer)) else {
                continue;
            };
            let kind = layer
                .kinds
                .get(usize::from(set.kind))
                .map_or("", |k| k.name.as_str());
            let (model, lift) = match self.prop_mesh(&layer.name, kind) {
                Some(m) => (m, 0.0),
                // The prism stands centred on its origin: lift it by half its height.
                None => (self.marker_mesh(), PROP_MARKER_HALF_HEIGHT),
            };
            let mut mm = MultiMesh::new_gd();
            mm.set_transform_format(TransformFormat::TRANSFORM_3D);
            mm.set_mesh(&model);
            mm.set_instance_count(i32::try_from(set.instances.len()).unwrap_or(i32::MAX));
            for (k, (p, q, s)) in set.instances.iter().enumerate() {
                let basis = Basis::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]))
                    .scaled(Vector3::splat(*s));
                let origin = Vector3::new(p[0], p[1], p[2]) + basis.col_b() * lift;
                mm.set_instance_transform(k as i32, Transform3D::new(basis, origin));
            }
            let mut instance = MultiMeshInstance3D::new_alloc();
            instance.set_multimesh(&mm);
            instance.set_name(&format!("{} {}", layer.name, kind));
            node.add_child(&instance);
        }
    }

    /// The mesh `scatter_meshes` names for a kind, if any.
    fn prop_mesh(&self, layer: &str, kind: &str) -> Option<Gd<Mesh>> {
        [format!("{layer}/{kind}"), layer.to_string()]
            .iter()
            .find_map(|key| self.scatter_meshes.get(key.as_str()))
            .and_then(|v| v.try_to::<Gd<Mesh>>().ok())
    }

    /// The shared marker prism, made on first use.
    fn marker_mesh(&mut self) -> Gd<Mesh> {
        if let Some(m) = &self.marker {
            return m.clone();
        }
        let mut prism = PrismMesh::new_gd();
        prism.set_size(Vector3::new(1.0, 2.0 * PROP_MARKER_HALF_HEIGHT, 1.0));
        let m = prism.upcast::<Mesh>();
        self.marker = Some(m.clone());
        m
    }
}

/// Half the height of the marker prism drawn for scatter kinds without a mesh, in blocks.
const PROP_MARKER_HALF_HEIGHT: f32 = 1.0;

/// Replace the collision body under a chunk's mesh node with one made of `faces` (none if
/// there are no faces).
pub(super) fn set_collision(node: &mut Gd<MeshInstance3D>, faces: &PackedVector3Array) {
    for mut child in node.get_children().iter_shared() {
        if child.is_class("StaticBody3D") {
            node.remove_child(&child);
            child.queue_free();
        }
    }
    if faces.is_empty() {
        return;
    }
    let mut shape = ConcavePolygonShape3D::new_gd();
    shape.set_faces(faces);
    let mut collider = CollisionShape3D::new_alloc();
    collider.set_shape(&shape);
    let mut body = StaticBody3D::new_alloc();
    body.add_child(&collider);
    node.add_child(&body);
}

/// A chunk mesh as an `ArrayMesh`: one surface per non-empty mesh surface, with vertex
/// colours (built on the pool: palette colour, tinted by biome, × AO × light, linear),
/// normals, UVs in blocks, and the triangles re-wound clockwise (Godot's front faces).
pub(super) fn to_array_mesh(chunk: &ChunkMesh, materials: &[Gd<Material>]) -> Gd<ArrayMesh> {
    let mesh = &chunk.mesh;
    let mut out = ArrayMesh::new_gd();
    for (k, s) in [Surface::Opaque, Surface::Cutout, Surface::Translucent]
        .into_iter()
        .enumerate()
    {
        let sm = mesh.surface(s);
        if sm.indices.is_empty() {
            continue;
        }
        let vertices: PackedVector3Array = sm
            .positions
            .iter()
            .map(|p| Vector3::new(p[0], p[1], p[2]))
            .collect();
        let normals: PackedVector3Array = sm
            .faces
            .iter()
            .map(|&f| {
                let n = Face::from_index(f).map_or([0.0, 1.0, 0.0], Face::normal);
                Vector3::new(n[0], n[1], n[2])
            })
            .collect();
        let colours: PackedColorArray = chunk.colours[s as usize]
            .iter()
            .map(|c| Color::from_rgba(c[0], c[1], c[2], c[3]))
            .collect();
        let uvs: PackedVector2Array = sm.uvs.iter().map(|t| Vector2::new(t[0], t[1])).collect();
        let indices: PackedInt32Array = sm
            .indices
            .chunks(3)
            .flat_map(|t| [t[0] as i32, t[2] as i32, t[1] as i32])
            .collect();
        let mut arrays = VarArray::new();
        arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
        arrays.set(ArrayType::VERTEX.ord() as usize, &vertices.to_variant());
        arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
        arrays.set(ArrayType::COLOR.ord() as usize, &colours.to_variant());
        arrays.set(ArrayType::TEX_UV.ord() as usize, &uvs.to_variant());
        arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
        out.add_surface_from_arrays(PrimitiveType::TRIANGLES, &arrays);
        let surface = out.get_surface_count() - 1;
        if let Some(m) = materials.get(k) {
            out.surface_set_material(surface, m);
        }
    }
    out
}
