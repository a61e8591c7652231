//! What a host does with an instance: a transform matrix for instanced rendering, and the
//! digest of a chunk's instances that `stratagen scatter` prints.

use crate::engine::ChunkPos;
use crate::util::digest::Digest;

use super::Instance;

impl Instance {
    /// The instance's world transform as a 4 × 4 matrix, column-major (the order of glTF,
    /// WebGPU, GLSL and three.js's `Matrix4.elements`): its uniform scale, then its
    /// [`rotation`](Instance::rotation), then the translation to chunk `chunk`'s corner plus
    /// its position. Exact for any block coordinate below 2^24.
    pub fn matrix(&self, chunk: ChunkPos) -> [f32; 16] {
        let [x, y, z, w] = self.rotation();
        let s = self.scale;
        // The rotation matrix of a unit quaternion, row r column c as m[r][c].
        let m = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - z * w),
                2.0 * (x * z + y * w),
            ],
            [
                2.0 * (x * y + z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - x * w),
            ],
            [
                2.0 * (x * z - y * w),
                2.0 * (y * z + x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        let t = [
            chunk.block_x() as f32 + self.position[0],
            self.position[1],
            chunk.block_z() as f32 + self.position[2],
        ];
        [
            m[0][0] * s,
            m[1][0] * s,
            m[2][0] * s,
            0.0,
            m[0][1] * s,
            m[1][1] * s,
            m[2][1] * s,
            0.0,
            m[0][2] * s,
            m[1][2] * s,
            m[2][2] * s,
            0.0,
            t[0],
            t[1],
            t[2],
            1.0,
        ]
    }
}

/// Add a chunk's instances of one layer to `d`: the count, then every field's bits in
/// order. Over every layer of a region, chunk by chunk, this is the scatter digest.
pub fn instances_digest(d: &mut Digest, v: &[Instance]) {
    d.write_u64(v.len() as u64);
    for i in v {
        d.write_u16(i.kind);
        d.write_f32_slice(&i.position);
        d.write_f32(i.yaw);
        d.write_f32(i.scale);
        d.write_f32_slice(&i.up);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: &[f32; 16], v: [f32; 3], w: f32) -> [f32; 3] {
        [0, 1, 2].map(|r| m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * w)
    }

    fn near(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    /// The matrix takes the model's origin to the instance's place, its up axis to the
    /// instance's up direction times its scale, and keeps right angles and lengths.
    #[test]
    fn the_matrix_places_scales_and_tilts_the_model() {
        let tilted = libm::sqrtf(0.5);
        for (yaw, up) in [
            (0.0, [0.0, 1.0, 0.0]),
            (1.3, [0.0, 1.0, 0.0]),
            (4.0, [tilted, tilted, 0.0]),
        ] {
            let i = Instance {
                kind: 0,
                position: [3.5, 70.0, 12.25],
                yaw,
                scale: 1.5,
                up,
            };
            let m = i.matrix(ChunkPos::new(-2, 5));
            assert_eq!(apply(&m, [0.0; 3], 1.0), [-32.0 + 3.5, 70.0, 80.0 + 12.25]);
            assert!(
                near(apply(&m, [0.0, 1.0, 0.0], 0.0), up.map(|u| u * 1.5)),
                "{yaw} {up:?}"
            );
            let a = apply(&m, [1.0, 0.0, 0.0], 0.0);
            let b = apply(&m, [0.0, 0.0, 1.0], 0.0);
            let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
            let len = libm::sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
            assert!(dot.abs() < 1e-5 && (len - 1.5).abs() < 1e-5);
            assert_eq!([m[3], m[7], m[11], m[15]], [0.0, 0.0, 0.0, 1.0]);
        }
        // The yaw turns the model about the up axis: +x goes to (cos, 0, -sin).
        let i = Instance {
            kind: 0,
            position: [0.0; 3],
            yaw: 0.5,
            scale: 1.0,
            up: [0.0, 1.0, 0.0],
        };
        let x = apply(&i.matrix(ChunkPos::new(0, 0)), [1.0, 0.0, 0.0], 0.0);
        assert!(near(x, [libm::cosf(0.5), 0.0, -libm::sinf(0.5)]), "{x:?}");
    }
}
