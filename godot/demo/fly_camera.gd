# A fly camera: WASD to move, Q/E down/up, right mouse button to look around, Shift for speed.
extends Camera3D

@export var speed := 24.0
@export var sensitivity := 0.003

var _yaw := 0.0
var _pitch := -0.5

func _ready() -> void:
	rotation = Vector3(_pitch, _yaw, 0.0)

func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventMouseMotion and Input.is_mouse_button_pressed(MOUSE_BUTTON_RIGHT):
		_yaw -= event.relative.x * sensitivity
		_pitch = clamp(_pitch - event.relative.y * sensitivity, -1.5, 1.5)
		rotation = Vector3(_pitch, _yaw, 0.0)

func _process(delta: float) -> void:
	var dir := Vector3.ZERO
	if Input.is_key_pressed(KEY_W): dir -= transform.basis.z
	if Input.is_key_pressed(KEY_S): dir += transform.basis.z
	if Input.is_key_pressed(KEY_A): dir -= transform.basis.x
	if Input.is_key_pressed(KEY_D): dir += transform.basis.x
	if Input.is_key_pressed(KEY_E): dir += Vector3.UP
	if Input.is_key_pressed(KEY_Q): dir -= Vector3.UP
	var s := speed * (4.0 if Input.is_key_pressed(KEY_SHIFT) else 1.0)
	if dir != Vector3.ZERO:
		position += dir.normalized() * s * delta
