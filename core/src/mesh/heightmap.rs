//! Heightmap meshes: a grid of `(res + 1)²` vertices over one chunk from the samples of
//! [`Noise::heightmap_apron`](crate::noise::Noise::heightmap_apron), with normals from
//! central differences that reach into the apron. Two neighbouring chunks compute their
//! shared edge from the same samples with the same expressions, so its vertices have the
//! same heights and normals, bit for bit (and x, z differ by exactly 16).
//!
//! Vertex `(i, j)` (`i, j` in `0..=res`) is at index `j * (res + 1) + i`, position
//! `(16 i / res, height_scale * h + height_offset, 16 j / res)` (chunk-local x, z), normal
//! `(-gx, 1, -gz) / |…|` with `g = height_scale / (2 · 16 / res) · (central difference)`, uv
//! `(i / res, j / res)`. Triangles: two per cell, counter-clockwise seen from above. Skirts
//! (optional) follow: for each edge in the order −z, +x, +z, −x, its `res + 1` vertices copied
//! `skirt_depth` lower with the same normals, and two triangles per edge segment facing out
//! of the chunk.

use alloc::vec::Vec;

use crate::mesh::volume::CHUNK_SIDE;
use crate::util::math::sqrtf;

/// Settings of a heightmap mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightmapMeshOptions {
    /// Samples per chunk side (1..=[`MAX_HEIGHTMAP_RES`]), as given to the sample fill.
    pub res: usize,
    /// Blocks per unit of sample value. Default 64.
    pub height_scale: f32,
    /// Height of sample value 0, in blocks. Default 64.
    pub height_offset: f32,
    /// Depth of the skirts below the edge, in blocks; 0 for none. Default 0.
    pub skirt_depth: f32,
}

impl Default for HeightmapMeshOptions {
    fn default() -> Self {
        HeightmapMeshOptions {
            res: 64,
            height_scale: 64.0,
            height_offset: 64.0,
            skirt_depth: 0.0,
        }
    }
}

/// Why a heightmap mesh could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeightmapMeshError {
    /// `res` outside 1..=4096.
    Resolution,
    /// Fewer than `(res + 3)²` samples.
    TooFewSamples,
    /// A sample or setting is NaN or infinite, or the skirt depth is negative.
    NotFinite,
}

impl core::fmt::Display for HeightmapMeshError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            HeightmapMeshError::Resolution => "res must be 1..=4096",
            HeightmapMeshError::TooFewSamples => "the samples need (res + 3)^2 values",
            HeightmapMeshError::NotFinite => {
                "a sample or setting is NaN or infinite, or the skirt depth is negative"
            }
        })
    }
}

/// A heightmap chunk's mesh (see the module documentation for the layout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeightmapMesh {
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit vertex normals.
    pub normals: Vec<[f32; 3]>,
    /// Vertex texture coordinates over the chunk, 0..=1.
    pub uvs: Vec<[f32; 2]>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl HeightmapMesh {
    /// XXH64 of the arrays in order, little-endian, counts first.
    pub fn digest(&self) -> u64 {
        let mut d = crate::util::digest::Digest::new();
        d.write_u64(self.positions.len() as u64);
        for (p, n) in self.positions.iter().zip(&self.normals) {
            d.write_f32_slice(p);
            d.write_f32_slice(n);
        }
        for uv in &self.uvs {
            d.write_f32_slice(uv);
        }
        d.write_u64(self.indices.len() as u64);
        for i in &self.indices {
            d.write_u32(*i);
        }
        d.finish()
    }
}

/// The finest heightmap mesh: samples per chunk side, as for the heightmap chunk it meshes.
pub use crate::noise::MAX_HEIGHTMAP_RES;

/// Build the mesh of one heightmap chunk from its apron samples. Any thread.
pub fn mesh_heightmap(
    samples: &[f32],
    o: &HeightmapMeshOptions,
) -> Result<HeightmapMesh, HeightmapMeshError> {
    check(samples, o)?;
    let res = o.res;
    let n = res + 1;
    let skirts = o.skirt_depth > 0.0;
    let vertices = n * n + if skirts { 4 * n } else { 0 };
    let mut m = HeightmapMesh {
        positions: Vec::with_capacity(vertices),
        normals: Vec::with_capacity(vertices),
        uvs: Vec::with_capacity(vertices),
        indices: Vec::with_capacity(6 * res * res + if skirts { 24 * res } else { 0 }),
    };
    write_grid(samples, o, &mut m);
    write_cells(res, &mut m);
    if skirts {
        write_skirts(res, o.skirt_depth, &mut m);
    }
    Ok(m)
}

/// Refuse a resolution outside `1..=MAX_HEIGHTMAP_RES`, too few samples, and non-finite
/// samples or settings.
fn check(samples: &[f32], o: &HeightmapMeshOptions) -> Result<(), HeightmapMeshError> {
    if !(1..=MAX_HEIGHTMAP_RES).contains(&o.res) {
        return Err(HeightmapMeshError::Resolution);
    }
    let side = o.res + 3;
    if samples.len() < side * side {
        return Err(HeightmapMeshError::TooFewSamples);
    }
    let settings = [o.height_scale, o.height_offset, o.skirt_depth];
    if samples[..side * side]
        .iter()
        .chain(&settings)
        .any(|v| !v.is_finite())
        || o.skirt_depth < 0.0
    {
        return Err(HeightmapMeshError::NotFinite);
    }
    Ok(())
}

/// The grid's `(res + 1)²` positions, normals and uvs.
fn write_grid(samples: &[f32], o: &HeightmapMeshOptions, m: &mut HeightmapMesh) {
    let res = o.res;
    let side = res + 3;
    let chunk_side = CHUNK_SIDE as f32;
    // Per grid line `i`: its horizontal position (exact at both ends, 0 and 16) and its
    // texture coordinate, computed once.
    let lines: Vec<(f32, f32)> = (0..=res)
        .map(|i| ((i * CHUNK_SIDE) as f32 / res as f32, i as f32 / res as f32))
        .collect();
    // Central differences over twice the sample spacing, in blocks: the height scale over
    // that span, one factor per mesh.
    let slope = o.height_scale / (2.0 * (chunk_side / res as f32));
    // Each array is written by one `extend` per grid row from an exact-size iterator (no
    // capacity check per vertex, and each loop does one job).
    for (j, &(zj, vj)) in lines.iter().enumerate() {
        // Apron rows j, j + 1 (this vertex row) and j + 2; apron column of vertex i is i + 1.
        let north = &samples[j * side + 1..(j + 1) * side];
        let row = &samples[(j + 1) * side..(j + 2) * side];
        let south = &samples[(j + 2) * side + 1..(j + 3) * side];
        m.positions.extend(
            lines
                .iter()
                .zip(&row[1..])
                .map(|(&(xi, _), &h)| [xi, o.height_scale * h + o.height_offset, zj]),
        );
        // `res + 1` windows of three samples: the vertex's west, own and east samples.
        m.normals.extend(
            row.windows(3)
                .zip(north.iter().zip(south))
                .map(|(w, (&nh, &sh))| {
                    let gx = slope * (w[2] - w[0]);
                    let gz = slope * (sh - nh);
                    let inv = 1.0 / sqrtf(gx * gx + 1.0 + gz * gz);
                    [-gx * inv, inv, -gz * inv]
                }),
        );
        m.uvs.extend(lines.iter().map(|&(_, ui)| [ui, vj]));
    }
}

/// The index of grid vertex `(i, j)` in a grid of `res` cells a side.
fn grid_vertex(res: usize, i: usize, j: usize) -> u32 {
    (j * (res + 1) + i) as u32
}

/// Two triangles per grid cell, counter-clockwise seen from above.
fn write_cells(res: usize, m: &mut HeightmapMesh) {
    let v = |i: usize, j: usize| grid_vertex(res, i, j);
    for j in 0..res {
        // One row of cells: sized once, then each cell's six indices written in place.
        let start = m.indices.len();
        m.indices.resize(start + 6 * res, 0);
        for (i, q) in m.indices[start..].chunks_exact_mut(6).enumerate() {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i, j + 1), v(i + 1, j + 1));
            q.copy_from_slice(&[a, d, b, a, c, d]);
        }
    }
}

/// Each edge copied `depth` down, with the edge's normals and uvs, joined to it by quads
/// that face outwards.
fn write_skirts(res: usize, depth: f32, m: &mut HeightmapMesh) {
    let v = |i: usize, j: usize| grid_vertex(res, i, j);
    // Each edge as the grid vertices walked so that (top k, top k+1, bottom) turns
    // outwards: −z walks +x, +x walks +z, +z walks −x, −x walks −z.
    let edges: [&dyn Fn(usize) -> u32; 4] =
        [&|k| v(k, 0), &|k| v(res, k), &|k| v(res - k, res), &|k| {
            v(0, res - k)
        }];
    for edge in edges.iter() {
        let first = m.positions.len() as u32;
        for k in 0..=res {
            let t = edge(k) as usize;
            let [x, y, z] = m.positions[t];
            m.positions.push([x, y - depth, z]);
            m.normals.push(m.normals[t]);
            m.uvs.push(m.uvs[t]);
        }
        for k in 0..res as u32 {
            let (t0, t1) = (edge(k as usize), edge(k as usize + 1));
            let (b0, b1) = (first + k, first + k + 1);
            m.indices.extend_from_slice(&[t0, t1, b1, t0, b1, b0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::{Noise, NoiseDef};
    use alloc::vec;

    fn noise() -> Noise {
        NoiseDef {
            seed: 11,
            octaves: 5,
            frequency: 1.0 / 90.0,
            ..NoiseDef::default()
        }
        .build()
        .unwrap()
    }

    fn apron(n: &Noise, cx: i32, cz: i32, res: usize) -> Vec<f32> {
        let mut v = vec![0f32; (res + 3) * (res + 3)];
        n.heightmap_apron(cx, cz, res, &mut v).unwrap();
        v
    }

    #[test]
    fn apron_samples_are_the_neighbours_own_samples() {
        let n = noise();
        for res in [1usize, 3, 5, 16, 64] {
            let a = apron(&n, -2, 7, res);
            let side = res + 3;
            for dz in -1..=1i32 {
                for dx in -1..=1i32 {
                    let mut own = vec![0f32; res * res];
                    n.heightmap_chunk(-2 + dx, 7 + dz, res, &mut own).unwrap();
                    for j in -1..=res as i32 + 1 {
                        for i in -1..=res as i32 + 1 {
                            // Sample (i, j) of the apron belongs to chunk offset
                            // (floor(i / res), floor(j / res)).
                            let (ox, lx) = (i.div_euclid(res as i32), i.rem_euclid(res as i32));
                            let (oz, lz) = (j.div_euclid(res as i32), j.rem_euclid(res as i32));
                            if (ox, oz) != (dx, dz) {
                                continue;
                            }
                            let got = a[(j + 1) as usize * side + (i + 1) as usize];
                            let want = own[lz as usize * res + lx as usize];
                            assert_eq!(got.to_bits(), want.to_bits(), "res {res} ({i}, {j})");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_share_edges_bit_for_bit() {
        let n = noise();
        for res in [3usize, 16, 64] {
            let o = HeightmapMeshOptions {
                res,
                skirt_depth: 4.0,
                ..HeightmapMeshOptions::default()
            };
            let a = mesh_heightmap(&apron(&n, 4, -3, res), &o).unwrap();
            let east = mesh_heightmap(&apron(&n, 5, -3, res), &o).unwrap();
            let south = mesh_heightmap(&apron(&n, 4, -2, res), &o).unwrap();
            let v = |i: usize, j: usize| j * (res + 1) + i;
            let bits = |p: [f32; 3]| p.map(f32::to_bits);
            for k in 0..=res {
                // a's east edge (x = 16) is east's west edge (x = 0).
                let (pa, pe) = (a.positions[v(res, k)], east.positions[v(0, k)]);
                assert_eq!(pa[0], 16.0);
                assert_eq!(pe[0], 0.0);
                assert_eq!(bits([0.0, pa[1], pa[2]]), bits([0.0, pe[1], pe[2]]));
                assert_eq!(bits(a.normals[v(res, k)]), bits(east.normals[v(0, k)]));
                let (pa, ps) = (a.positions[v(k, res)], south.positions[v(k, 0)]);
                assert_eq!(bits([pa[0], pa[1], 0.0]), bits([ps[0], ps[1], 0.0]));
                assert_eq!((pa[2], ps[2]), (16.0, 0.0));
                assert_eq!(bits(a.normals[v(k, res)]), bits(south.normals[v(k, 0)]));
            }
        }
    }

    #[test]
    fn triangles_face_up_and_skirts_face_out() {
        let n = noise();
        let res = 8;
        let o = HeightmapMeshOptions {
            res,
            skirt_depth: 8.0,
            ..HeightmapMeshOptions::default()
        };
        let m = mesh_heightmap(&apron(&n, 0, 0, res), &o).unwrap();
        assert_eq!(m.positions.len(), 81 + 4 * 9);
        assert_eq!(m.indices.len(), 6 * 64 + 4 * 6 * 8);
        for (t, tri) in m.indices.chunks(3).enumerate() {
            let p = |k: usize| m.positions[tri[k] as usize];
            let (a, b, c) = (p(0), p(1), p(2));
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let nrm = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            if t < 2 * 64 {
                assert!(nrm[1] > 0.0, "grid triangle {t} faces down");
            } else {
                // Outwards from the chunk centre (8, 8).
                let mid = [
                    (a[0] + b[0] + c[0]) / 3.0 - 8.0,
                    (a[2] + b[2] + c[2]) / 3.0 - 8.0,
                ];
                assert!(
                    nrm[0] * mid[0] + nrm[2] * mid[1] > 0.0,
                    "skirt triangle {t}"
                );
            }
        }
        for nv in &m.normals {
            let l = nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2];
            assert!((l - 1.0).abs() < 1e-5 && nv[1] > 0.0);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let o = HeightmapMeshOptions {
            res: 4,
            ..HeightmapMeshOptions::default()
        };
        let mut s = vec![0f32; 49];
        assert_eq!(
            mesh_heightmap(&s[..48], &o),
            Err(HeightmapMeshError::TooFewSamples)
        );
        s[10] = f32::NAN;
        assert_eq!(mesh_heightmap(&s, &o), Err(HeightmapMeshError::NotFinite));
        s[10] = 0.0;
        let neg = HeightmapMeshOptions {
            skirt_depth: -1.0,
            ..o
        };
        assert_eq!(mesh_heightmap(&s, &neg), Err(HeightmapMeshError::NotFinite));
        let zero = HeightmapMeshOptions { res: 0, ..o };
        assert_eq!(
            mesh_heightmap(&s, &zero),
            Err(HeightmapMeshError::Resolution)
        );
        assert!(mesh_heightmap(&s, &o).is_ok());
    }
}
