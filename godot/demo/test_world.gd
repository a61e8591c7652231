# Headless test (godot/run-headless.sh): the world loads chunks around a viewer that moves and
# around a second viewer far away, with scatter props; a block query agrees with the world's
# palette; blocks set
# through the node read back, survive save() and load() into a second world node, and bad
# edits are refused; a single-precision StratagenNoise gives Godot shader code. Exits 0 on
# success, 1 on failure.
extends SceneTree

const STORE := "user://stratagen_test_edits.sqlite"

var world
var viewer
var far_viewer
var loaded := {}
var frames := 0
var ok := true

func fail(what: String) -> void:
	print("FAIL: ", what)
	ok = false

func _initialize() -> void:
	viewer = Node3D.new()
	root.add_child(viewer)
	far_viewer = Node3D.new()
	far_viewer.position = Vector3(40 * 16 + 8, 100.0, 8)
	far_viewer.set_meta("stratagen_view_distance", 2)
	root.add_child(far_viewer)
	world = ClassDB.instantiate("StratagenWorld")
	world.seed = 0
	world.view_distance = 4
	world.worker_threads = 2
	world.collision = true
	root.add_child(world)
	world.viewer = world.get_path_to(viewer)
	var more: Array[NodePath] = [world.get_path_to(far_viewer)]
	world.viewers = more
	world.chunk_loaded.connect(func(cx, cz): loaded[Vector2i(cx, cz)] = true)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(STORE))

func _process(_delta: float) -> bool:
	frames += 1
	viewer.position = Vector3(min(frames, 600) * 0.2, 100.0, 0.0)
	if frames < 900:
		return false
	for x in range(-2, 3):
		if not loaded.has(Vector2i(x + 7, 0)):
			fail("chunk %d,0 not loaded around the viewer" % (x + 7))
	for x in range(39, 42):
		if not loaded.has(Vector2i(x, 0)):
			fail("chunk %d,0 not loaded around the far viewer" % x)
	var id: int = world.block_id_at(120, 0, 3)
	var info: Dictionary = world.block_info(id)
	if id < 0 or info.get("name", "") != world.block_name_at(120, 0, 3):
		fail("block query %d %s" % [id, info])
	var props := world.find_children("*", "MultiMeshInstance3D", true, false)
	if props.is_empty():
		fail("no scatter props were placed")
	check_edits()
	check_shader()
	print("stratagen headless test: ", "ok" if ok else "FAILED", " (", loaded.size(), " chunks loaded)")
	quit(0 if ok else 1)
	return true

func check_edits() -> void:
	var stone := -1
	for i in range(64):
		if world.block_info(i).get("name", "") == "stone":
			stone = i
	# Dig a shaft and raise a pillar beside the viewer.
	for y in range(40, 80):
		if not world.set_block_at(120, y, 3, 0):
			fail("set_block_at air at y %d" % y)
		world.set_block_at(122, y + 60, 3, stone)
	if world.get_block_at(120, 50, 3) != 0 or world.get_block_at(122, 130, 3) != stone:
		fail("edited blocks do not read back")
	if world.set_block_at(120, 100000, 3, stone) or world.set_block_at(120, 50, 3, 65535):
		fail("an edit outside the world or of an unknown block was taken")
	if world.save(STORE) != 1:
		fail("save did not write one edited chunk")
	var second = ClassDB.instantiate("StratagenWorld")
	second.seed = 0
	second.view_distance = 2
	root.add_child(second)
	if second.load(STORE) != 1:
		fail("load did not read one edited chunk")
	for y in range(40, 80):
		if second.get_block_at(120, y, 3) != 0 or second.get_block_at(122, y + 60, 3) != stone:
			fail("loaded world differs at y %d" % y)
			break
	var other = ClassDB.instantiate("StratagenWorld")
	other.seed = 1
	root.add_child(other)
	if other.load(STORE) != -1:
		fail("a store of another world was loaded")

func check_shader() -> void:
	var noise = ClassDB.instantiate("StratagenNoise")
	noise.precision = 1
	var code: String = noise.get_shader_code()
	if not code.contains("float sg_noise_2d(vec2 p)"):
		fail("no shader code for a single-precision noise")
	if not noise.get_shader_code_3d().contains("float sg_noise_3d(vec3 p)"):
		fail("no 3D shader code for a single-precision noise")
	# A material the engine parses (its errors are printed) with the noise displacing a plane.
	var shader := Shader.new()
	shader.code = "shader_type spatial;\n" + code + \
		"\nvoid vertex() { VERTEX.y += sg_noise_2d(VERTEX.xz) * 8.0; }\n"
	var material := ShaderMaterial.new()
	material.shader = shader
	noise.precision = 0
	if noise.get_shader_code() != "":
		fail("a double-precision noise gave shader code")
