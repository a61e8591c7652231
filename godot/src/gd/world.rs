//! `StratagenWorld`: a `Node3D` that streams a Stratagen world around its viewer nodes.
//! Generation, relighting after edits, meshes and collision faces run on Godot's
//! `WorkerThreadPool` ([`super::pool`]) through the engine-free [`Streaming`] core; this
//! node, on the main thread, only wraps finished meshes into `ArrayMesh`es and collision
//! shapes and adds them to the scene within a per-frame time budget. On leaving the tree it
//! waits for every pool job.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use godot::classes::{
    FileAccess, INode3D, Material, Mesh, MeshInstance3D, Node3D, ProjectSettings,
};
use godot::prelude::*;
use stratagen_core::engine::ChunkPos;
use stratagen_core::mesh::{MeshOptions, Mode};
use stratagen_core::world::{chunk_digest, Definition, Heightmap, WorldGen, WorldSettings};

use super::pool::GodotPool;
use crate::feed::ChunkMesh;
use crate::stream::{StreamSettings, Viewer};
use crate::streaming::Streaming;
use scene::{set_collision, to_array_mesh};

mod scene;

/// Blocks along a chunk's x and z, as the node's integer block coordinates use it.
const SIDE: i32 = stratagen_core::world::CHUNK_SIDE as i32;
/// The same, in scene units (one block is one unit).
const SIDE_F: f32 = stratagen_core::world::CHUNK_SIDE as f32;
/// The largest `view_distance` the node accepts, in chunks.
const MAX_VIEW_DISTANCE: i32 = 32;
/// Metadata a viewer node may carry to override the world's `view_distance`, in chunks.
const VIEW_DISTANCE_META: &str = "stratagen_view_distance";

/// The chunk that holds block column `(x, z)`.
fn chunk_of(x: i32, z: i32) -> ChunkPos {
    ChunkPos::new(x.div_euclid(SIDE), z.div_euclid(SIDE))
}

/// What runs while the node is in the tree.
struct Running {
    core: Streaming,
    pool: GodotPool,
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
    #[init(val = WorldSettings::default().min_y)]
    min_y: i32,
    /// Height in blocks (a multiple of 16).
    #[export]
    #[init(val = i32::try_from(WorldSettings::default().height).unwrap_or(i32::MAX))]
    height: i32,
    /// Sea level.
    #[export]
    #[init(val = WorldSettings::default().sea_level)]
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
    /// The node the world streams around (a camera or player); the origin if empty and no
    /// other viewer is named.
    #[export]
    viewer: NodePath,
    /// More viewers (other players, a minimap camera): the union of their discs stays
    /// loaded, and work goes to the chunks nearest any of them. A viewer node with the
    /// metadata `stratagen_view_distance` uses it instead of `view_distance`.
    #[export]
    viewers: Array<NodePath>,
    /// Worker loops on the `WorkerThreadPool`; 0: one per processor but one (the main
    /// thread's), at least one.
    #[export]
    worker_threads: i32,
    /// Give each chunk a static collision body made of its opaque triangles.
    #[export]
    collision: bool,
    /// Draw the world definition's scatter layers (trees, rocks, grass) as one
    /// `MultiMeshInstance3D` per chunk, layer and kind.
    #[export]
    #[init(val = true)]
    scatter: bool,
    /// The mesh of each scatter kind, keyed `"layer/kind"` (or `"layer"` for every kind of a
    /// layer); a kind without one is drawn as a marker prism one block wide and two high.
    #[export]
    scatter_meshes: VarDictionary,
    running: Option<Running>,
    materials: Vec<Gd<Material>>,
    /// The marker drawn for scatter kinds without a mesh.
    marker: Option<Gd<Mesh>>,
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

    /// The block id at a world position as edited, or -1 where no finished chunk is loaded.
    #[func]
    fn get_block_at(&self, x: i32, y: i32, z: i32) -> i32 {
        self.running
            .as_ref()
            .and_then(|r| r.core.block(x, y, z).ok())
            .map_or(-1, i32::from)
    }

    /// Put block `id` at a world position; its chunk and the neighbours whose faces or light
    /// change are remeshed on the workers. False (and an error printed) for a position
    /// outside the world or an unknown block.
    #[func]
    fn set_block_at(&mut self, x: i32, y: i32, z: i32, id: i32) -> bool {
        let Some(r) = self.running.as_mut() else {
            return false;
        };
        let Ok(block) = u16::try_from(id) else {
            godot_error!("StratagenWorld.set_block_at: unknown block {id}");
            return false;
        };
        match r.core.set_block(x, y, z, block) {
            Ok(()) => true,
            Err(e) => {
                godot_error!("StratagenWorld.set_block_at: {e}");
                false
            }
        }
    }

    /// The block id at a world position, or -1 where no finished chunk is loaded (the same
    /// as `get_block_at`).
    #[func]
    fn block_id_at(&self, x: i32, y: i32, z: i32) -> i32 {
        self.get_block_at(x, y, z)
    }

    /// The block name at a world position, or "" where no finished chunk is loaded.
    #[func]
    fn block_name_at(&self, x: i32, y: i32, z: i32) -> GString {
        match (&self.running, self.get_block_at(x, y, z)) {
            (Some(r), id) if id >= 0 => {
                let world = r.core.generator().definition();
                GString::from(world.blocks.name(id as u16).unwrap_or(""))
            }
            _ => GString::new(),
        }
    }

    /// Save the edits to a SQLite store (`user://`, `res://` or a file system path; created
    /// if missing, refused if it belongs to another world). The number of edited chunks
    /// saved, or -1 (an error printed).
    #[func]
    fn save(&self, path: GString) -> i64 {
        let Some(r) = &self.running else {
            return -1;
        };
        match r.core.save(&global_path(&path)) {
            Ok(n) => n as i64,
            Err(e) => {
                godot_error!("StratagenWorld.save: {e}");
                -1
            }
        }
    }

    /// Load the edits of a SQLite store saved for this world, after those already made.
    /// The number of edited chunks loaded, or -1 (an error printed).
    #[func]
    fn load(&mut self, path: GString) -> i64 {
        let Some(r) = self.running.as_mut() else {
            return -1;
        };
        match r.core.load(&global_path(&path)) {
            Ok(n) => n as i64,
            Err(e) => {
                godot_error!("StratagenWorld.load: {e}");
                -1
            }
        }
    }

    /// The biome name of a column (a pure function of the seed: no chunk needed).
    #[func]
    fn biome_at(&self, x: i32, z: i32) -> GString {
        match &self.running {
            Some(r) => {
                let g = r.core.generator();
                let id = g.biome_at(x, z) as usize;
                GString::from(
                    g.definition()
                        .biomes
                        .get(id)
                        .map_or("", |b| b.name.as_str()),
                )
            }
            None => GString::new(),
        }
    }

    /// Surface height (y + 1 of the top non-air block) of a loaded column as edited, or
    /// `min_y`.
    #[func]
    fn surface_height_at(&self, x: i32, z: i32) -> i32 {
        let Some(r) = &self.running else {
            return self.min_y;
        };
        let column = (z.rem_euclid(SIDE) * SIDE + x.rem_euclid(SIDE)) as usize;
        r.core
            .full(chunk_of(x, z))
            .ok()
            .and_then(|d| {
                d.full()
                    .map(|f| f.heightmaps()[Heightmap::WorldSurface][column])
            })
            .unwrap_or(self.min_y)
    }

    /// The digest of a loaded chunk as generated (as `stratagen digest` prints it), or 0.
    #[func]
    fn chunk_digest(&self, cx: i32, cz: i32) -> i64 {
        let Some(r) = &self.running else {
            return 0;
        };
        r.core
            .read(|sched, _| {
                sched.output(
                    ChunkPos::new(cx, cz),
                    stratagen_core::engine::ChunkStatus::Full,
                )
            })
            .filter(|d| d.full().is_some())
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
        let options = MeshOptions {
            mode: if self.greedy {
                Mode::Greedy
            } else {
                Mode::Culled
            },
            ..MeshOptions::default()
        };
        self.materials = self.make_materials();
        let threads = match usize::try_from(self.worker_threads) {
            Ok(n) if n > 0 => n,
            _ => {
                std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
            }
        };
        self.running = Some(Running {
            core: Streaming::with_props(generator, settings, options, threads, self.scatter),
            pool: GodotPool::default(),
            waiting: Vec::new(),
            nodes: BTreeMap::new(),
        });
        Ok(())
    }

    /// The running world's definition, or the built-in one before the node enters the tree.
    fn world_definition(&self) -> Arc<Definition> {
        match &self.running {
            Some(r) => r.core.generator().definition_arc().clone(),
            None => Arc::new(Definition::builtin()),
        }
    }

    /// The viewers: `viewer` and `viewers`, each at its chunk with its view distance; the
    /// origin if none is found.
    fn viewers(&self) -> Vec<Viewer> {
        let distance = |n: &Gd<Node3D>| {
            let own = n
                .get_meta_ex(VIEW_DISTANCE_META)
                .default(&self.view_distance.to_variant())
                .done();
            u32::try_from(
                own.try_to::<i32>()
                    .unwrap_or(self.view_distance)
                    .clamp(1, MAX_VIEW_DISTANCE),
            )
            .unwrap_or(1)
        };
        let mut out = Vec::new();
        let paths = std::iter::once(self.viewer.clone()).chain(self.viewers.iter_shared());
        for path in paths.filter(|p| !p.is_empty()) {
            let node = self.base().get_node_or_null(&path);
            if let Some(n) = node.and_then(|n| n.try_cast::<Node3D>().ok()) {
                let p = n.get_global_position();
                out.push(Viewer {
                    chunk: ChunkPos::new(
                        (p.x / SIDE_F).floor() as i32,
                        (p.z / SIDE_F).floor() as i32,
                    ),
                    view_distance: distance(&n),
                });
            }
        }
        if out.is_empty() {
            out.push(Viewer {
                chunk: ChunkPos::new(0, 0),
                view_distance: u32::try_from(self.view_distance.clamp(1, MAX_VIEW_DISTANCE))
                    .unwrap_or(1),
            });
        }
        out
    }

    /// One frame: the core follows the viewers and hands over built meshes; released chunks
    /// leave the scene; meshes enter it until the time budget is spent.
    fn frame(&mut self) -> Result<(), String> {
        let started = Instant::now();
        let viewers = self.viewers();
        let Some(r) = self.running.as_mut() else {
            return Ok(());
        };
        let frame = r
            .core
            .frame(&viewers, &mut r.pool)
            .map_err(|e| e.to_string())?;
        r.waiting.extend(frame.meshes);
        let unloaded = self.drop_unloaded(&frame.unloaded);
        self.apply_meshes(started);
        for p in unloaded {
            self.signals().chunk_unloaded().emit(p.x, p.z);
        }
        Ok(())
    }

    /// Free the scene nodes of released chunks and forget their waiting meshes; the chunks
    /// that had a node.
    fn drop_unloaded(&mut self, released: &[ChunkPos]) -> Vec<ChunkPos> {
        let Some(r) = self.running.as_mut() else {
            return Vec::new();
        };
        let mut unloaded = Vec::new();
        for p in released {
            if let Some(mut n) = r.nodes.remove(p) {
                n.queue_free();
                unloaded.push(*p);
            }
            r.waiting.retain(|(q, _)| q != p);
        }
        unloaded
    }

    /// Wrap waiting meshes (nearest first) into the scene until `frame_budget_ms` since
    /// `started` is spent, at least one per frame; the rest wait for the next frame.
    fn apply_meshes(&mut self, started: Instant) {
        let budget = self.frame_budget_ms.max(0.0) / 1000.0;
        let mut applied = 0;
        loop {
            if applied > 0 && started.elapsed().as_secs_f64() > budget {
                break;
            }
            let Some((p, mesh)) = self
                .running
                .as_mut()
                .and_then(|r| (!r.waiting.is_empty()).then(|| r.waiting.remove(0)))
            else {
                break;
            };
            applied += 1;
            let array_mesh = to_array_mesh(&mesh, &self.materials);
            let existing = self.running.as_mut().and_then(|r| r.nodes.remove(&p));
            let fresh = existing.is_none();
            let mut node = existing.unwrap_or_else(|| {
                let mut n = MeshInstance3D::new_alloc();
                n.set_position(Vector3::new(p.x as f32 * SIDE_F, 0.0, p.z as f32 * SIDE_F));
                self.base_mut().add_child(&n);
                n
            });
            node.set_mesh(&array_mesh);
            self.set_props(&mut node, &mesh);
            if self.collision {
                let faces: PackedVector3Array = mesh
                    .collision
                    .iter()
                    .map(|c| Vector3::new(c[0], c[1], c[2]))
                    .collect();
                set_collision(&mut node, &faces);
            }
            if let Some(r) = self.running.as_mut() {
                r.nodes.insert(p, node);
            }
            if fresh {
                self.signals().chunk_loaded().emit(p.x, p.z);
            }
        }
    }

    /// Wait for every pool job, release every chunk, drop the meshes.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            if let Err(e) = r.core.shut_down(&mut r.pool) {
                godot_error!("StratagenWorld: {e}");
            }
            for (_, mut n) in r.nodes {
                n.queue_free();
            }
        }
    }
}

/// A Godot path (`user://`, `res://`) as a file system path.
fn global_path(path: &GString) -> PathBuf {
    PathBuf::from(
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string(),
    )
}
