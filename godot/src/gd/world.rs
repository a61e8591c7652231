//! `StratagenWorld`: a `Node3D` that streams a Stratagen world around a viewer node. Chunk
//! tasks and meshes run on Godot's `WorkerThreadPool` ([`super::pool`]); this node, on the
//! main thread, finishes tasks, wraps finished meshes into `ArrayMesh`es and adds them to the
//! scene within a per-frame time budget. On leaving the tree it waits for every pool job.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use godot::classes::base_material_3d::{CullMode, Flags, Transparency};
use godot::classes::mesh::{ArrayType, PrimitiveType};
use godot::classes::{
    ArrayMesh, CollisionShape3D, ConcavePolygonShape3D, FileAccess, INode3D, Material,
    MeshInstance3D, Node3D, StandardMaterial3D, StaticBody3D,
};
use godot::prelude::*;
use stratagen_core::engine::{ChunkPos, Scheduler};
use stratagen_core::mesh::{Face, Mesh, MeshOptions, Mode};
use stratagen_core::world::block::Surface;
use stratagen_core::world::{
    chunk_digest, full_output, Definition, World, WorldGen, WorldSettings,
};

use super::pool::GodotPool;
use crate::bridge::{FrameBudget, StreamDriver};
use crate::meshes::{ChunkMesh, MeshQueue};
use crate::stream::StreamSettings;

/// Blocks along a chunk's x and z, as the node's integer block coordinates use it.
const SIDE: i32 = stratagen_core::world::CHUNK_SIDE as i32;
/// The same, in scene units (one block is one unit).
const SIDE_F: f32 = stratagen_core::world::CHUNK_SIDE as f32;
/// The largest `view_distance` the node accepts, in chunks.
const MAX_VIEW_DISTANCE: i32 = 32;
/// Chunk meshes built per pool job: enough to amortise a job, few enough that the nearest
/// chunks are not queued behind far ones.
const MESHES_PER_JOB: usize = 8;

/// The chunk that holds block column `(x, z)`.
fn chunk_of(x: i32, z: i32) -> ChunkPos {
    ChunkPos::new(x.div_euclid(SIDE), z.div_euclid(SIDE))
}

/// What runs while the node is in the tree.
struct Running {
    generator: WorldGen,
    driver: StreamDriver<World>,
    tasks: GodotPool,
    meshes: MeshQueue,
    mesh_pool: GodotPool,
    /// Meshes received and not yet added to the scene (the time budget ran out).
    waiting: Vec<(ChunkPos, ChunkMesh)>,
    nodes: BTreeMap<ChunkPos, Gd<MeshInstance3D>>,
}

/// A Stratagen world streamed around `viewer`.
#[derive(GodotClass)]
#[class(init, base = Node3D)]
pub struct StratagenWorld {
    /// World definition: a preset (`default`, `archipelago`, `caverns`) or a TOML/JSON
    /// definition file (`res://`, `user://` or a file system path).
    #[export]
    #[init(val = GString::from("default"))]
    world: GString,
    /// World seed.
    #[export]
    seed: i64,
    /// Lowest block y (a multiple of 16).
    #[export]
    #[init(val = -64)]
    min_y: i32,
    /// Height in blocks (a multiple of 16).
    #[export]
    #[init(val = 384)]
    height: i32,
    /// Sea level.
    #[export]
    #[init(val = 63)]
    sea_level: i32,
    /// Chunks kept loaded around the viewer (radius).
    #[export]
    #[init(val = 8)]
    view_distance: i32,
    /// Greedy meshes instead of one quad per face.
    #[export]
    greedy: bool,
    /// Material of the opaque surface (vertex colours, in linear light, carry the palette
    /// with grass tinted by biome, AO and light, as in the glTF export); a default one is
    /// made if empty.
    #[export]
    material: Option<Gd<Material>>,
    /// Main-thread milliseconds per frame for adding meshes to the scene.
    #[export]
    #[init(val = 4.0)]
    frame_budget_ms: f64,
    /// The node the world streams around (a camera or player); the origin if empty.
    #[export]
    viewer: NodePath,
    /// Give each chunk a static collision body made of its opaque triangles.
    #[export]
    collision: bool,
    running: Option<Running>,
    materials: Vec<Gd<Material>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for StratagenWorld {
    fn ready(&mut self) {
        if let Err(e) = self.start() {
            godot_error!("StratagenWorld: {e}");
        }
    }

    fn process(&mut self, _delta: f64) {
        if let Err(e) = self.frame() {
            godot_error!("StratagenWorld: {e}");
        }
    }

    fn exit_tree(&mut self) {
        self.stop();
    }
}

#[godot_api]
impl StratagenWorld {
    /// A chunk's mesh entered the scene.
    #[signal]
    fn chunk_loaded(cx: i32, cz: i32);
    /// A chunk left the scene.
    #[signal]
    fn chunk_unloaded(cx: i32, cz: i32);

    /// The block id at a world position, or -1 where no finished chunk is loaded.
    #[func]
    fn block_id_at(&self, x: i32, y: i32, z: i32) -> i32 {
        self.block_at(x, y, z).map_or(-1, i32::from)
    }

    /// The block name at a world position, or "" where no finished chunk is loaded.
    #[func]
    fn block_name_at(&self, x: i32, y: i32, z: i32) -> GString {
        match (&self.running, self.block_at(x, y, z)) {
            (Some(r), Some(b)) => {
                GString::from(r.generator.definition().blocks.name(b).unwrap_or(""))
            }
            _ => GString::new(),
        }
    }

    /// The biome name of a column (a pure function of the seed: no chunk needed).
    #[func]
    fn biome_at(&self, x: i32, z: i32) -> GString {
        match &self.running {
            Some(r) => {
                let world = r.generator.definition();
                let id = r.generator.biome_at(x, z) as usize;
                GString::from(world.biomes.get(id).map_or("", |b| b.name.as_str()))
            }
            None => GString::new(),
        }
    }

    /// Surface height (y + 1 of the top non-air block) of a loaded column, or `min_y`.
    #[func]
    fn surface_height_at(&self, x: i32, z: i32) -> i32 {
        let Some(r) = &self.running else {
            return self.min_y;
        };
        let p = chunk_of(x, z);
        full_output(r.driver.scheduler(), p)
            .and_then(|d| {
                d.full().map(|f| {
                    f.heightmaps()[stratagen_core::world::Heightmap::WorldSurface]
                        [(z.rem_euclid(SIDE) * SIDE + x.rem_euclid(SIDE)) as usize]
                })
            })
            .unwrap_or(self.min_y)
    }

    /// The digest of a loaded chunk (as `stratagen digest` prints it), or 0.
    #[func]
    fn chunk_digest(&self, cx: i32, cz: i32) -> i64 {
        self.running
            .as_ref()
            .and_then(|r| full_output(r.driver.scheduler(), ChunkPos::new(cx, cz)))
            .map_or(0, |d| chunk_digest(&d) as i64)
    }

    /// The palette entry of block `id`: name, solid, opaque, fluid, emission, colour; empty
    /// for an unknown id.
    #[func]
    fn block_info(&self, id: i32) -> VarDictionary {
        let mut d = VarDictionary::new();
        let world = self.world_definition();
        let id = u16::try_from(id).ok();
        if let Some((name, p)) =
            id.and_then(|id| Some((world.blocks.name(id)?, world.blocks.get(id)?)))
        {
            d.set("name", name);
            d.set("solid", p.solid);
            d.set("opaque", p.is_occluder());
            d.set("fluid", p.liquid);
            d.set("emission", i64::from(p.emission));
            let c = p.colour;
            d.set("color", Color::from_rgba8(c[0], c[1], c[2], c[3]));
        }
        d
    }
}

impl StratagenWorld {
    fn block_at(&self, x: i32, y: i32, z: i32) -> Option<u16> {
        let r = self.running.as_ref()?;
        let dims = r.generator.dims();
        if y < dims.min_y || y > dims.max_y() {
            return None;
        }
        let d = full_output(r.driver.scheduler(), chunk_of(x, z))?;
        let f = d.full()?;
        Some(f.blocks()[dims.index(x.rem_euclid(SIDE) as usize, y, z.rem_euclid(SIDE) as usize)])
    }

    /// The definition named by `world`: a preset, or a file read through Godot (so `res://`
    /// paths work in exported games). Main thread.
    fn load_definition(&self) -> Result<Definition, String> {
        let spec = self.world.to_string();
        let bytes = match stratagen_worldfile::preset(&spec) {
            Some(t) => t.as_bytes().to_vec(),
            None if FileAccess::file_exists(&self.world) => {
                FileAccess::get_file_as_bytes(&self.world).to_vec()
            }
            None => {
                return Err(format!(
                    "world {spec:?}: not a preset ({}) and not a readable file",
                    stratagen_worldfile::PRESETS.join(", ")
                ))
            }
        };
        stratagen_worldfile::parse_bytes(&bytes).map_err(|p| format!("world {spec}:\n{p}"))
    }

    fn start(&mut self) -> Result<(), String> {
        let def = WorldSettings {
            seed: self.seed,
            min_y: self.min_y,
            height: u32::try_from(self.height).map_err(|_| "height must be positive")?,
            sea_level: self.sea_level,
        };
        let generator = WorldGen::with_definition(def, Arc::new(self.load_definition()?))
            .map_err(|e| e.to_string())?;
        let settings = StreamSettings {
            view_distance: u32::try_from(self.view_distance.clamp(1, MAX_VIEW_DISTANCE))
                .unwrap_or(1),
            ..StreamSettings::default()
        };
        let driver = StreamDriver::new(
            Scheduler::new(Arc::new(World::new(generator.clone()))),
            settings,
            FrameBudget::default(),
        );
        let options = MeshOptions {
            mode: if self.greedy {
                Mode::Greedy
            } else {
                Mode::Culled
            },
            ..MeshOptions::default()
        };
        self.materials = self.make_materials();
        self.running = Some(Running {
            generator,
            driver,
            tasks: GodotPool::default(),
            meshes: MeshQueue::new(options, MESHES_PER_JOB),
            mesh_pool: GodotPool::default(),
            waiting: Vec::new(),
            nodes: BTreeMap::new(),
        });
        Ok(())
    }

    /// One material per surface: the exported one (or a vertex-colour default) for opaque,
    /// alpha-scissor double-sided for cutout, alpha-blended for translucent.
    fn make_materials(&self) -> Vec<Gd<Material>> {
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

    /// The running world's definition, or the built-in one before the node enters the tree.
    fn world_definition(&self) -> Arc<Definition> {
        match &self.running {
            Some(r) => r.generator.definition_arc().clone(),
            None => Arc::new(Definition::builtin()),
        }
    }

    fn viewer_chunk(&self) -> ChunkPos {
        let node = if self.viewer.is_empty() {
            None
        } else {
            self.base().get_node_or_null(&self.viewer)
        };
        match node.and_then(|n| n.try_cast::<Node3D>().ok()) {
            Some(n) => {
                let p = n.get_global_position();
                ChunkPos::new((p.x / SIDE_F).floor() as i32, (p.z / SIDE_F).floor() as i32)
            }
            None => ChunkPos::new(0, 0),
        }
    }

    fn frame(&mut self) -> Result<(), String> {
        let viewer = self.viewer_chunk();
        let started = Instant::now();
        let Some(r) = self.running.as_mut() else {
            return Ok(());
        };
        let report = r
            .driver
            .frame(viewer, &mut r.tasks)
            .map_err(|e| format!("{e:?}"))?;
        let dims = r.generator.dims();
        let loaded = r.driver.loaded().clone();
        let built = r.meshes.frame(
            r.driver.scheduler(),
            dims,
            &loaded,
            &report,
            viewer,
            &mut r.mesh_pool,
        );
        r.waiting.extend(built);
        let mut unloaded = Vec::new();
        for p in &report.unloaded {
            if let Some(mut n) = r.nodes.remove(p) {
                n.queue_free();
                unloaded.push(*p);
            }
            r.waiting.retain(|(q, _)| q != p);
        }
        // Wrap meshes into the scene until the budget is spent (at least one per frame).
        let mut added = Vec::new();
        let mut waiting = std::mem::take(&mut r.waiting);
        let budget = self.frame_budget_ms.max(0.0) / 1000.0;
        let mut rest = Vec::new();
        for (p, mesh) in waiting.drain(..) {
            if !added.is_empty() && started.elapsed().as_secs_f64() > budget {
                rest.push((p, mesh));
                continue;
            }
            let faces = self.collision.then(|| collision_faces(&mesh.mesh));
            added.push((p, to_array_mesh(&mesh, &self.materials), faces));
        }
        if let Some(r) = self.running.as_mut() {
            r.waiting = rest;
        }
        for (p, mesh, faces) in added {
            let fresh = self
                .running
                .as_ref()
                .is_none_or(|r| !r.nodes.contains_key(&p));
            let mut node = match self.running.as_mut().and_then(|r| r.nodes.remove(&p)) {
                Some(n) => n,
                None => {
                    let mut n = MeshInstance3D::new_alloc();
                    n.set_position(Vector3::new(p.x as f32 * SIDE_F, 0.0, p.z as f32 * SIDE_F));
                    self.base_mut().add_child(&n);
                    n
                }
            };
            node.set_mesh(&mesh);
            if let Some(faces) = &faces {
                set_collision(&mut node, faces);
            }
            if let Some(r) = self.running.as_mut() {
                r.nodes.insert(p, node);
            }
            if fresh {
                self.signals().chunk_loaded().emit(p.x, p.z);
            }
        }
        for p in unloaded {
            self.signals().chunk_unloaded().emit(p.x, p.z);
        }
        Ok(())
    }

    /// Wait for every pool job, release every chunk, drop the meshes.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.meshes.shut_down(&mut r.mesh_pool);
            if let Err(e) = r.driver.shut_down(&mut r.tasks) {
                godot_error!("StratagenWorld: {e:?}");
            }
            for (_, mut n) in r.nodes {
                n.queue_free();
            }
        }
    }
}

/// The opaque surface's triangles as a collision face list (wound as Godot's front faces).
fn collision_faces(mesh: &Mesh) -> PackedVector3Array {
    let s = mesh.surface(Surface::Opaque);
    s.indices
        .chunks(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .map(|i| {
            let p = s.positions[i as usize];
            Vector3::new(p[0], p[1], p[2])
        })
        .collect()
}

/// Replace the collision body under a chunk's mesh node with one made of `faces` (none if
/// there are no faces).
fn set_collision(node: &mut Gd<MeshInstance3D>, faces: &PackedVector3Array) {
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
fn to_array_mesh(chunk: &ChunkMesh, materials: &[Gd<Material>]) -> Gd<ArrayMesh> {
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
