//! Turning visible faces into quads: the slice scan shared by both modes, one quad per face
//! ([`Mode::Culled`]) or greedy rectangles of equal keys ([`Mode::Greedy`]), and the crossed
//! quads of plants.
//!
//! Output order, per surface (the order of the global sequence filtered to the surface):
//! axis faces by [`Face::AXIS`], then slice along the normal axis ascending, then `v`, then
//! `u` (of the quad's first cell); then the plants, cell by cell (y, z, x), four quads each
//! in [`Face`] order.

use alloc::vec::Vec;

use crate::mesh::faces::{self, Face, FaceKey, CORNERS, FULL16};
use crate::mesh::scan::scan;
use crate::mesh::volume::Volume;
use crate::mesh::{Mesh, Mode, SurfaceMesh};
use crate::world::block::{BlockId, Shape};

/// One quad before it is written: its face, block, and per corner (in winding order)
/// position, uv, AO and light.
struct Quad {
    face: Face,
    block: u16,
    pos: [[f32; 3]; 4],
    uv: [[f32; 2]; 4],
    ao: [u8; 4],
    sky: [u8; 4],
    block_light: [u8; 4],
}

impl SurfaceMesh {
    fn reserve(&mut self, quads: usize) {
        self.positions.reserve(4 * quads);
        self.faces.reserve(4 * quads);
        self.ao.reserve(4 * quads);
        self.sky_light.reserve(4 * quads);
        self.block_light.reserve(4 * quads);
        self.uvs.reserve(4 * quads);
        self.quad_blocks.reserve(quads);
        self.indices.reserve(6 * quads);
    }

    fn push(&mut self, q: &Quad) {
        let first = self.positions.len() as u32;
        self.positions.extend_from_slice(&q.pos);
        self.faces.extend_from_slice(&[q.face as u8; 4]);
        self.ao.extend_from_slice(&q.ao);
        self.sky_light.extend_from_slice(&q.sky);
        self.block_light.extend_from_slice(&q.block_light);
        self.uvs.extend_from_slice(&q.uv);
        self.quad_blocks.push(q.block);
        self.indices.extend(split(&q.ao).iter().map(|t| first + t));
    }
}

/// A quad's two triangles (corner slots), given its corners' AO: split along the diagonal
/// whose ends are less occluded, so a dark corner does not bleed across the quad (0fps's
/// anisotropy fix).
#[inline(always)]
fn split(ao: &[u8]) -> [u32; 6] {
    if ao[0] + ao[2] > ao[1] + ao[3] {
        [1, 2, 3, 1, 3, 0]
    } else {
        [0, 1, 2, 0, 2, 3]
    }
}

/// A visible face found by the scan: its slice (`layer` along the normal axis), its cell
/// in the slice, its block's [`Surface`](crate::world::block::Surface) and its key.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) layer: u32,
    pub(crate) v: u32,
    /// Along an area's row: under 16 × [`MAX_AREA_WIDTH`](super::volume::MAX_AREA_WIDTH).
    pub(crate) u: u16,
    pub(crate) surface: u16,
    pub(crate) key: u64,
}

/// Mesh the volume's interior.
pub(crate) fn mesh(v: &Volume<'_>, mode: Mode) -> Mesh {
    let mut out = Mesh::default();
    // A typical chunk has a few hundred faces per direction: start there, grow if needed.
    let mut lists: [Vec<Entry>; 6] = Default::default();
    for l in lists.iter_mut() {
        l.reserve(LIST_START);
    }
    scan(v, &mut lists);
    let mut scratch = Scratch::default();
    // Reserve per surface for the faces that go to it (a quad each at most) and for its
    // plants' quads, once: growing a surface later copies each of its arrays.
    let (found, mut per_surface) = find_plants(v);
    // Counted branch-free in registers (an increment of an array slot per face waits for
    // the previous one through memory).
    for e in lists.iter().flatten() {
        let s = e.surface;
        per_surface[0] += usize::from(s == 0);
        per_surface[1] += usize::from(s == 1);
        per_surface[2] += usize::from(s == 2);
    }
    for (s, n) in out.surfaces.iter_mut().zip(per_surface) {
        s.reserve(n);
    }
    let [l0, l1, l2, l3, l4, l5] = &lists;
    faces_of::<0>(v, mode, l0, &mut scratch, &mut out);
    faces_of::<1>(v, mode, l1, &mut scratch, &mut out);
    faces_of::<2>(v, mode, l2, &mut scratch, &mut out);
    faces_of::<3>(v, mode, l3, &mut scratch, &mut out);
    faces_of::<4>(v, mode, l4, &mut scratch, &mut out);
    faces_of::<5>(v, mode, l5, &mut scratch, &mut out);
    write_plants(v, &found, &mut out);
    out
}

/// Initial capacity of each direction's face list.
const LIST_START: usize = 512;

/// Stable counting sort of `entries` into `sorted` by `bucket(entry)` (`< buckets`);
/// `start[b]` is left at the end of bucket `b` (the start of `b + 1`).
fn sort_into(
    entries: &[Entry],
    buckets: usize,
    bucket: impl Fn(&Entry) -> usize,
    sorted: &mut Vec<Entry>,
    start: &mut Vec<usize>,
) {
    start.clear();
    start.resize(buckets + 1, 0);
    for e in entries {
        start[bucket(e) + 1] += 1;
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    sorted.clear();
    let zero = Entry {
        layer: 0,
        v: 0,
        u: 0,
        surface: 0,
        key: 0,
    };
    sorted.resize(entries.len(), zero);
    for e in entries {
        let at = &mut start[bucket(e)];
        sorted[*at] = *e;
        *at += 1;
    }
}

/// Emit the faces of axis direction `F`, slice by slice.
fn faces_of<const F: usize>(
    v: &Volume<'_>,
    mode: Mode,
    entries: &[Entry],
    scratch: &mut Scratch,
    out: &mut Mesh,
) {
    let faces::FaceAxes {
        normal: a,
        u: ua,
        v: va,
        ..
    } = faces::AXES[F];
    let size = [v.sx, v.ny, v.sz];
    // The scan runs (y, z, x); a stable sort by slice puts every slice in (v, u) order (the
    // y faces' slices are the scan's layers: they are in order already).
    let layers = if a == 1 { 1 } else { size[a] };
    let layer = |e: &Entry| if a == 1 { 0 } else { e.layer as usize };
    let Scratch {
        grid,
        sorted,
        start,
    } = scratch;
    if mode == Mode::Culled {
        // Sorted by surface, then slice: each surface's faces in output order, one range.
        let bucket = |e: &Entry| e.surface as usize * layers + layer(e);
        sort_into(entries, 3 * layers, bucket, sorted, start);
        let mut from = 0;
        for (s, m) in out.surfaces.iter_mut().enumerate() {
            let to = start[(s + 1) * layers - 1];
            if to > from {
                write_culled::<F>(v, &sorted[from..to], m);
            }
            from = to;
        }
        return;
    }
    let entries = if a == 1 {
        entries
    } else {
        sort_into(entries, layers, layer, sorted, start);
        &sorted[..]
    };
    let (nu, nv) = (size[ua], size[va]);
    if grid.len() < nu * nv {
        grid.resize(nu * nv, 0);
    }
    let mut start = 0;
    while start < entries.len() {
        let l = entries[start].layer;
        let end = start + entries[start..].iter().take_while(|e| e.layer == l).count();
        let slice = Slice::<F> { v, l: l as usize };
        slice.emit_greedy(&entries[start..end], grid, nu, nv, out);
        start = end;
    }
}

/// Buffers [`faces_of`] reuses from one face direction to the next.
#[derive(Default)]
struct Scratch {
    /// Greedy: the slice grid (all zero between slices).
    grid: Vec<u64>,
    /// One direction's faces sorted ([`sort_into`]), and the buckets' ends.
    sorted: Vec<Entry>,
    start: Vec<usize>,
}

/// One slice of faces: a face direction and the block layer along its normal axis.
struct Slice<'v, 'a, const F: usize> {
    v: &'v Volume<'a>,
    l: usize,
}

impl<const F: usize> Slice<'_, '_, F> {
    const FACE: Face = Face::AXIS[F];

    /// Greedy rectangles over one slice's faces (in (v, u) order). The grid is all zero on
    /// entry and on exit: every cell written is cleared when its rectangle is emitted.
    fn emit_greedy(&self, group: &[Entry], grid: &mut [u64], nu: usize, nv: usize, out: &mut Mesh) {
        let faces::FaceAxes { normal: a, .. } = faces::AXES[F];
        for e in group {
            grid[e.v as usize * nu + e.u as usize] = e.key;
        }
        for e in group {
            let (u, vv) = (e.u as usize, e.v as usize);
            let k = grid[vv * nu + u];
            if k == 0 {
                continue; // already inside an emitted rectangle
            }
            let mut w = 1;
            while u + w < nu && grid[vv * nu + u + w] == k {
                w += 1;
            }
            // A side face of a lowered block cannot grow upwards: the quad would cover the
            // gap above it.
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
        }
    }

    /// The [`CORNERS`] index of each corner slot, in winding order ([`winding`]).
    const ORDER: [usize; 4] = winding(F);

    /// What the corners of the quad covering cells `u0..u0 + w`, `v0..v0 + h` share.
    #[inline(always)]
    fn frame(&self, u0: usize, v0: usize, w: usize, h: usize, k: FaceKey) -> Frame {
        let faces::FaceAxes {
            normal: a,
            v: va,
            positive,
            ..
        } = faces::AXES[F];
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
        Frame {
            u0,
            v0,
            w,
            h,
            hv,
            plane,
        }
    }

    /// Corner `slot` (winding order) of a quad: its position and uv.
    #[inline(always)]
    fn corner(&self, f: &Frame, slot: usize) -> ([f32; 3], [f32; 2]) {
        let faces::FaceAxes {
            normal: a,
            u: ua,
            v: va,
            ..
        } = faces::AXES[F];
        let c = Self::ORDER[slot];
        let (du, dv) = (CORNERS[c].0 as f32, CORNERS[c].1 as f32);
        let mut p = [0f32; 3];
        p[a] = f.plane;
        p[ua] = f.u0 as f32 + du * f.w as f32;
        p[va] = f.v0 as f32 + dv * f.hv;
        p[1] += self.v.min_y as f32;
        // UVs tile once per block; on side faces v runs down from the top edge.
        let uv = if va == 1 {
            [du * f.w as f32, (1.0 - dv) * f.hv]
        } else {
            [du * f.w as f32, dv * f.h as f32]
        };
        (p, uv)
    }

    /// Write the quad covering cells `u0..u0 + w`, `v0..v0 + h` of the slice.
    fn emit(&self, u0: usize, v0: usize, w: usize, h: usize, k: FaceKey, out: &mut Mesh) {
        let f = self.frame(u0, v0, w, h, k);
        let mut q = Quad {
            face: Self::FACE,
            block: k.block(),
            pos: [[0.0; 3]; 4],
            uv: [[0.0; 2]; 4],
            ao: [0; 4],
            sky: [0; 4],
            block_light: [0; 4],
        };
        for slot in 0..4 {
            let c = Self::ORDER[slot];
            (q.pos[slot], q.uv[slot]) = self.corner(&f, slot);
            q.ao[slot] = k.ao(c);
            q.sky[slot] = k.sky(c);
            q.block_light[slot] = k.block_light(c);
        }
        out.surface_mut(self.v.palette, k.block()).push(&q);
    }
}

/// The [`CORNERS`] index of each corner slot of axis face `f`, in winding order: faces whose
/// (u, v) axes turn clockwise seen from outside are wound backwards. (A free function: Rust
/// 1.63 refuses `Self::FACE` in a constant of `Slice`'s impl, which has two lifetimes.)
const fn winding(f: usize) -> [usize; 4] {
    match Face::AXIS[f] {
        Face::PosX | Face::PosY | Face::NegZ => [0, 3, 2, 1],
        _ => [0, 1, 2, 3],
    }
}

/// The corners' shared values of one quad ([`Slice::frame`]).
struct Frame {
    u0: usize,
    v0: usize,
    w: usize,
    h: usize,
    /// Extent along v in blocks.
    hv: f32,
    /// Position along the normal axis.
    plane: f32,
}

/// The culled faces of direction `F` of one surface (every face its own quad), in output
/// order, appended to its arrays: each array written at a time straight from the faces (the
/// same corners and values as [`Slice::emit`], without a [`Quad`] in between or a capacity
/// check per array and quad).
fn write_culled<const F: usize>(v: &Volume<'_>, faces: &[Entry], m: &mut SurfaceMesh) {
    let (first, n) = (m.positions.len(), faces.len());
    // Appended a face at a time into the reserved space (resizing first would zero the
    // arrays, a store loop as long as the writes).
    m.positions.reserve(4 * n);
    m.uvs.reserve(4 * n);
    for e in faces {
        let slice = Slice::<F> {
            v,
            l: e.layer as usize,
        };
        let f = slice.frame(e.u as usize, e.v as usize, 1, 1, FaceKey(e.key));
        let (mut pos, mut uv) = ([[0f32; 3]; 4], [[0f32; 2]; 4]);
        for slot in 0..4 {
            (pos[slot], uv[slot]) = slice.corner(&f, slot);
        }
        m.positions.extend_from_slice(&pos);
        m.uvs.extend_from_slice(&uv);
    }
    m.faces.resize(first + 4 * n, Face::AXIS[F] as u8);
    per_corner::<F>(&mut m.ao, faces, FaceKey::ao);
    per_corner::<F>(&mut m.sky_light, faces, FaceKey::sky);
    per_corner::<F>(&mut m.block_light, faces, FaceKey::block_light);
    m.quad_blocks
        .extend(faces.iter().map(|e| FaceKey(e.key).block()));
    let at = m.indices.len();
    m.indices.resize(at + 6 * n, 0);
    let quads = m.indices[at..]
        .chunks_exact_mut(6)
        .zip(m.ao[first..].chunks_exact(4));
    for (q, (tri, ao)) in quads.enumerate() {
        let base = (first + 4 * q) as u32;
        for (i, t) in tri.iter_mut().zip(split(ao)) {
            *i = base + t;
        }
    }
}

/// `of(key, corner)` of each face's corners, in winding order, appended to `out`.
#[inline(always)]
fn per_corner<const F: usize>(
    out: &mut Vec<u8>,
    faces: &[Entry],
    of: impl Fn(FaceKey, usize) -> u8,
) {
    let first = out.len();
    out.resize(first + 4 * faces.len(), 0);
    for (e, q) in faces.iter().zip(out[first..].chunks_exact_mut(4)) {
        for (slot, v) in q.iter_mut().enumerate() {
            *v = of(FaceKey(e.key), Slice::<F>::ORDER[slot]);
        }
    }
}

/// A plant found by [`find_plants`]: its padded x, its block's y and z, and its block.
type Plant = (usize, usize, usize, BlockId);

/// Every plant of the volume in output order (y, z, x), and the quads they add per surface
/// (found before anything is written, so that each surface is reserved once: growing it per
/// quad would copy every array once the faces had filled what was reserved).
fn find_plants(v: &Volume<'_>) -> (Vec<Plant>, [usize; 3]) {
    let zrows = v.sz + 2;
    let interior = v.interior();
    let mut found = Vec::new();
    let mut quads = [0usize; 3];
    for y in 0..v.ny {
        for z in 0..v.sz {
            let r = (y + 1) * zrows + z + 1;
            let mut drawn = v.rows.plants(r) & interior;
            while drawn != 0 {
                let px = drawn.trailing_zeros() as usize;
                drawn &= drawn - 1;
                let b = v.block(px, y + 1, z + 1);
                let p = v.palette.props(b);
                if p.shape == Shape::Cross {
                    found.push((px, y, z, b));
                    quads[p.surface as usize] += 4;
                }
            }
        }
    }
    (found, quads)
}

/// The crossed quads of every plant, lit by the plant's own cell, without occlusion.
fn write_plants(v: &Volume<'_>, found: &[Plant], out: &mut Mesh) {
    for &(px, y, z, b) in found {
        let x = px - 1;
        let (s, bl) = v.light(px, y + 1, z + 1);
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
                block_light: [bl; 4],
            };
            out.surface_mut(v.palette, b).push(&q);
        }
    }
}
