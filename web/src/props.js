// What a scatter kind looks like in the world view: a few plain shapes per kind, each drawn
// as one InstancedMesh per chunk with the kind's instance matrices (position, yaw, scale and
// up from the library). Shapes stand on their origin, one unit a block.

import * as THREE from 'three';

const TRUNK = 0x6b4f32;
const LEAVES = 0x2f6b3a;
const NEEDLES = 0x24533a;
const STONE = 0x8d8a84;
const GRASS = 0x5d8f3a;
const PETALS = 0xe0c040;

const trunk = (height, radius) => new THREE.CylinderGeometry(radius * 0.8, radius, height, 6).translate(0, height / 2, 0);

/** The parts ({ geometry, colour }) of scatter kind `name`; unknown kinds are small stones. */
export function propParts(name) {
  switch (name) {
    case 'broadleaf':
      return [{ geometry: trunk(3, 0.4), colour: TRUNK }, { geometry: new THREE.IcosahedronGeometry(2.4, 1).translate(0, 4.6, 0), colour: LEAVES }];
    case 'conifer':
      return [{ geometry: trunk(2, 0.35), colour: TRUNK }, { geometry: new THREE.ConeGeometry(1.9, 6, 8).translate(0, 5, 0), colour: NEEDLES }];
    case 'dead':
      return [{ geometry: trunk(4, 0.3), colour: TRUNK }];
    case 'boulder':
      return [{ geometry: new THREE.IcosahedronGeometry(1.3, 0).translate(0, 0.6, 0), colour: STONE }];
    case 'tuft':
      return [{ geometry: new THREE.ConeGeometry(0.2, 0.7, 4).translate(0, 0.35, 0), colour: GRASS }];
    case 'flower':
      return [{ geometry: new THREE.ConeGeometry(0.15, 0.6, 4).translate(0, 0.3, 0), colour: PETALS }];
    default:
      return [{ geometry: new THREE.IcosahedronGeometry(0.4, 0).translate(0, 0.2, 0), colour: STONE }];
  }
}
