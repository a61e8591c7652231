# Headless test (godot/run-headless.sh): the world loads chunks around a viewer that moves,
# and a block query agrees with the world's palette. Exits 0 on success, 1 on failure.
extends SceneTree

var world
var viewer
var loaded := {}
var frames := 0

func _initialize() -> void:
	viewer = Node3D.new()
	root.add_child(viewer)
	world = ClassDB.instantiate("StratagenWorld")
	world.seed = 0
	world.view_distance = 4
	root.add_child(world)
	world.viewer = world.get_path_to(viewer)
	world.chunk_loaded.connect(func(cx, cz): loaded[Vector2i(cx, cz)] = true)

func _process(_delta: float) -> bool:
	frames += 1
	viewer.position = Vector3(min(frames, 600) * 0.2, 100.0, 0.0)
	if frames < 900:
		return false
	var ok := true
	for x in range(-2, 3):
		if not loaded.has(Vector2i(x + 7, 0)):
			print("FAIL: chunk ", x + 7, ",0 not loaded around the viewer")
			ok = false
	var id: int = world.block_id_at(120, 0, 3)
	var info: Dictionary = world.block_info(id)
	if id < 0 or info.get("name", "") != world.block_name_at(120, 0, 3):
		print("FAIL: block query ", id, " ", info)
		ok = false
	print("stratagen headless test: ", "ok" if ok else "FAILED", " (", loaded.size(), " chunks loaded)")
	quit(0 if ok else 1)
	return true
