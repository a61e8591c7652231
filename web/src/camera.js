// Flying the camera: drag to look, WASD to move, Q/E down and up, shift faster; or an
// autopilot that flies a fixed path (the same flight every run, for tests and screenshots).

import * as THREE from 'three';

/** Blocks per second, and with shift held. */
const SPEED = 24;
const FAST = 96;
/** Radians per pixel dragged. */
const LOOK = 0.004;
/** The autopilot's speed in blocks per second and its turn in radians per second. */
const AUTOPILOT_SPEED = 14;
const AUTOPILOT_TURN = 0.12;
/** Pixels a press may move and still be a click. */
const CLICK_SLOP = 4;

export class Flight {
  constructor(camera, element, { x, y, z, yaw, pitch }) {
    this.camera = camera;
    this.yaw = yaw;
    this.pitch = pitch;
    this.keys = new Set();
    this.autopilot = false;
    camera.position.set(x, y, z);
    this.apply();
    let drag = null;
    element.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: 0 };
      element.setPointerCapture(e.pointerId);
    });
    element.addEventListener('pointermove', (e) => {
      if (drag === null) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      drag = { x: e.clientX, y: e.clientY, moved: drag.moved + Math.abs(dx) + Math.abs(dy) };
      this.yaw -= dx * LOOK;
      this.pitch = Math.max(-1.5, Math.min(1.5, this.pitch - dy * LOOK));
      this.apply();
    });
    element.addEventListener('pointerup', (e) => {
      const click = drag !== null && drag.moved <= CLICK_SLOP;
      drag = null;
      if (click) this.onClick?.(e);
    });
    addEventListener('keydown', (e) => { if (!(e.target instanceof HTMLInputElement)) this.keys.add(e.code); });
    addEventListener('keyup', (e) => this.keys.delete(e.code));
    addEventListener('blur', () => this.keys.clear());
  }

  apply() {
    this.camera.rotation.set(this.pitch, this.yaw, 0, 'YXZ');
    this.camera.updateMatrixWorld();
    this.changed = true;
  }

  /** Move by `dt` seconds of keys held (or of the autopilot); whether the view changed since the last step. */
  step(dt) {
    const forward = new THREE.Vector3(-Math.sin(this.yaw), 0, -Math.cos(this.yaw));
    const right = new THREE.Vector3(-forward.z, 0, forward.x);
    const move = new THREE.Vector3();
    if (this.autopilot) {
      this.yaw += AUTOPILOT_TURN * dt;
      move.addScaledVector(forward, AUTOPILOT_SPEED * dt);
    } else {
      const speed = (this.keys.has('ShiftLeft') || this.keys.has('ShiftRight') ? FAST : SPEED) * dt;
      if (this.keys.has('KeyW')) move.addScaledVector(forward, speed);
      if (this.keys.has('KeyS')) move.addScaledVector(forward, -speed);
      if (this.keys.has('KeyD')) move.addScaledVector(right, speed);
      if (this.keys.has('KeyA')) move.addScaledVector(right, -speed);
      if (this.keys.has('KeyE')) move.y += speed;
      if (this.keys.has('KeyQ')) move.y -= speed;
    }
    if (move.lengthSq() > 0) {
      this.camera.position.add(move);
      this.apply();
    }
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** The camera as the URL holds it. */
  state() {
    const p = this.camera.position;
    return { x: Math.round(p.x), y: Math.round(p.y), z: Math.round(p.z), yaw: Number(this.yaw.toFixed(2)), pitch: Number(this.pitch.toFixed(2)) };
  }
}
