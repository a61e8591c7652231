//! Turning visible faces into quads: the slice scan shared by both modes, one quad per face
//! ([`Mode::Culled`]) or greedy rectangles of equal keys ([`Mode::Greedy`]), and the crossed
//! quads of plants.
//!
//! Output order, per surface (the order of the global sequence filtered to the surface):
//! axis faces by [`Face::AXIS`], then slice along the normal axis ascending, then `v`, then
//! `u` (of the quad's first cell); then the plants, cell by cell (y, z, x), four quads each
//! in [`Face`] order.

use alloc::vec::Vec;

use crate::world::block::{self, Shape};
use crate::world::mesh::faces::{self, Face, FaceKey, CORNERS, FULL16};
use crate::world::mesh::volume::Volume;
use crate::world::mesh::{Mesh, Mode, SurfaceMesh};

/// One quad before it is written: its face, block, and per corner (in winding order)
/// position, uv, AO and light.
struct Quad {
    face: Face,
    block: u16,
    pos: [[f32; 3]; 4],
    uv: [[f32; 2]; 4],
    ao: [u8; 4],
    sky: [u8; 4],
    blk: [u8; 4],
}

impl SurfaceMesh {
    fn push(&mut self, q: &Quad) {
        let first = self.positions.len() as u32;
        for c in 0..4 {
            self.positions.push(q.pos[c]);
            self.faces.push(q.face as u8);
            self.ao.push(q.ao[c]);
            self.sky_light.push(q.sky[c]);
            self.block_light.push(q.blk[c]);
            self.uvs.push(q.uv[c]);
        }
        self.quad_blocks.push(q.block);
        // Split along the diagonal whose ends are less occluded, so a dark corner does not
        // bleed across the quad (0fps's anisotropy fix).
        let tri: [u32; 6] = if q.ao[0] + q.ao[2] > q.ao[1] + q.ao[3] {
            [1, 2, 3, 1, 3, 0]
        } else {
            [0, 1, 2, 0, 2, 3]
        };
        self.indices.extend(tri.iter().map(|t| first + t));
    }
}

/// Mesh the volume's interior.
pub(crate) fn mesh(v: &Volume<'_>, mode: Mode) -> Mesh {
    let mut out = Mesh::default();
    let size = [v.sx, v.ny, v.sz];
    let stride = [1, v.layer, v.row];
    let mut grid: Vec<u64> = Vec::new();
    for face in Face::AXIS {
        let (a, ua, va, positive) = face.axes();
        let (nu, nv) = (size[ua], size[va]);
        grid.clear();
        grid.resize(nu * nv, 0);
        for l in 0..size[a] {
            let mut any = false;
            for vv in 0..nv {
                for u in 0..nu {
                    let mut c = [0isize; 3];
                    c[a] = l as isize;
                    c[ua] = u as isize;
                    c[va] = vv as isize;
                    let i = v.index(c[0], c[1], c[2]);
                    let b = v.blocks[i];
                    let p = block::props(b);
                    let cell = &mut grid[vv * nu + u];
                    *cell = 0;
                    if p.shape == Shape::None || p.shape == Shape::Cross {
                        continue;
                    }
                    let front = if positive {
                        i + stride[a]
                    } else {
                        i - stride[a]
                    };
                    let top = faces::top16(v, i, b, p);
                    if faces::visible(face, b, p, v.blocks[front], top) {
                        *cell = faces::key(v, i, front, stride[ua], stride[va], b, top).0;
                        any = true;
                    }
                }
            }
            if any {
                let slice = Slice { v, face, l };
                match mode {
                    Mode::Culled => slice.emit_each(&grid, nu, nv, &mut out),
                    Mode::Greedy => slice.emit_greedy(&mut grid, nu, nv, &mut out),
                }
            }
        }
    }
    plants(v, &mut out);
    out
}

/// One slice of faces: a face direction and the block layer along its normal axis.
struct Slice<'v, 'a> {
    v: &'v Volume<'a>,
    face: Face,
    l: usize,
}

impl Slice<'_, '_> {
    fn emit_each(&self, grid: &[u64], nu: usize, nv: usize, out: &mut Mesh) {
        for vv in 0..nv {
            for u in 0..nu {
                let k = grid[vv * nu + u];
                if k != 0 {
                    self.emit(u, vv, 1, 1, FaceKey(k), out);
                }
            }
        }
    }

    fn emit_greedy(&self, grid: &mut [u64], nu: usize, nv: usize, out: &mut Mesh) {
        let (a, _, _, _) = self.face.axes();
        for vv in 0..nv {
            let mut u = 0;
            while u < nu {
                let k = grid[vv * nu + u];
                if k == 0 {
                    u += 1;
                    continue;
                }
                let mut w = 1;
                while u + w < nu && grid[vv * nu + u + w] == k {
                    w += 1;
                }
                // A side face of a lowered block cannot grow upwards: the quad would cover
                // the gap above it.
                let grows_in_v = a == 1 || FaceKey(k).top16() == FULL16;
                let mut h = 1;
                while grows_in_v
                    && vv + h < nv
                    && grid[(vv + h) * nu + u..(vv + h) * nu + u + w]
                        .iter()
                        .all(|&c| c == k)
                {
                    h += 1;
                }
                for r in vv..vv + h {
                    grid[r * nu + u..r * nu + u + w].fill(0);
                }
                self.emit(u, vv, w, h, FaceKey(k), out);
                u += w;
            }
        }
    }

    /// Write the quad covering cells `u0..u0 + w`, `v0..v0 + h` of the slice.
    fn emit(&self, u0: usize, v0: usize, w: usize, h: usize, k: FaceKey, out: &mut Mesh) {
        let (a, ua, va, positive) = self.face.axes();
        let top = k.top16() as f32 / 16.0;
        // Extent along v in blocks: a side face of a lowered block is only `top` high.
        let hv = if va == 1 && k.top16() < FULL16 {
            top
        } else {
            h as f32
        };
        let plane = self.l as f32
            + match (a, positive) {
                (1, true) => top,
                (_, true) => 1.0,
                _ => 0.0,
            };
        // Faces whose (u, v) axes turn clockwise seen from outside are wound backwards.
        let order: [usize; 4] = match self.face {
            Face::PosX | Face::PosY | Face::NegZ => [0, 3, 2, 1],
            _ => [0, 1, 2, 3],
        };
        let mut q = Quad {
            face: self.face,
            block: k.block(),
            pos: [[0.0; 3]; 4],
            uv: [[0.0; 2]; 4],
            ao: [0; 4],
            sky: [0; 4],
            blk: [0; 4],
        };
        for (slot, &c) in order.iter().enumerate() {
            let (du, dv) = (CORNERS[c].0 as f32, CORNERS[c].1 as f32);
            let mut p = [0f32; 3];
            p[a] = plane;
            p[ua] = u0 as f32 + du * w as f32;
            p[va] = v0 as f32 + dv * hv;
            p[1] += self.v.min_y as f32;
            q.pos[slot] = p;
            // UVs tile once per block; on side faces v runs down from the top edge.
            q.uv[slot] = if va == 1 {
                [du * w as f32, (1.0 - dv) * hv]
            } else {
                [du * w as f32, dv * h as f32]
            };
            q.ao[slot] = k.ao(c);
            q.sky[slot] = k.sky(c);
            q.blk[slot] = k.blk(c);
        }
        out.surface_mut(k.block()).push(&q);
    }
}

/// The crossed quads of every plant, lit by the plant's own cell, without occlusion.
fn plants(v: &Volume<'_>, out: &mut Mesh) {
    for y in 0..v.ny {
        for z in 0..v.sz {
            for x in 0..v.sx {
                let i = v.index(x as isize, y as isize, z as isize);
                let b = v.blocks[i];
                if block::props(b).shape != Shape::Cross {
                    continue;
                }
                let (s, bl) = v.light(i);
                let (x0, z0) = (x as f32, z as f32);
                let (y0, y1) = ((v.min_y + y as i32) as f32, (v.min_y + y as i32 + 1) as f32);
                // Plane A from (x0, z0) to (x0 + 1, z0 + 1); plane B from (x0 + 1, z0) to
                // (x0, z0 + 1). Listed wound towards the back face; the front reverses.
                let a = [
                    [x0, y0, z0],
                    [x0 + 1.0, y0, z0 + 1.0],
                    [x0 + 1.0, y1, z0 + 1.0],
                    [x0, y1, z0],
                ];
                let bq = [
                    [x0 + 1.0, y0, z0],
                    [x0, y0, z0 + 1.0],
                    [x0, y1, z0 + 1.0],
                    [x0 + 1.0, y1, z0],
                ];
                let uv = [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]];
                for (face, pts) in [
                    (Face::CrossA, a),
                    (Face::CrossABack, a),
                    (Face::CrossB, bq),
                    (Face::CrossBBack, bq),
                ] {
                    let front = matches!(face, Face::CrossA | Face::CrossB);
                    let ord = if front { [0, 3, 2, 1] } else { [0, 1, 2, 3] };
                    let q = Quad {
                        face,
                        block: b,
                        pos: ord.map(|o| pts[o]),
                        uv: ord.map(|o| uv[o]),
                        ao: [0; 4],
                        sky: [s; 4],
                        blk: [bl; 4],
                    };
                    out.surface_mut(b).push(&q);
                }
            }
        }
    }
}
