//! Which faces are visible, and their ambient occlusion and light: one `FaceKey` per
//! visible face, computed from the padded `Volume`.
//!
//! Visibility (per face of a block towards its neighbour `n`):
//! - cubes: hidden by an occluder (full opaque cube), and cutout or translucent cubes also by
//!   the same block (no faces inside a leaves canopy or an ice sheet);
//! - fluids: hidden by an occluder or the same fluid, except the lowered top face
//!   ([`block::FLUID_TOP`], when the block above is not the same fluid), always drawn;
//! - layers (snow): the top face is always drawn, the others hidden as for fluids.
//!
//! Ambient occlusion of a vertex (0fps's method, 0 = open, 3 = fully occluded) counts the
//! occluders among the three cells of the layer in front of the face that touch the vertex:
//! the two side cells and the corner cell; two sides make it 3 whatever the corner is.
//!
//! Light of a vertex is the rounded mean (half up) of the sky (and block) light of the front
//! cell and of those of the same three cells that are not occluders (the corner is skipped
//! too when both sides are occluders: light cannot get there). When the front cell is itself
//! an occluder (the lowered top of a fluid under a stone ceiling) the block's own cell stands
//! in for it.

use crate::mesh::volume::Volume;
#[cfg(test)]
use crate::mesh::window::packed;
use crate::world::block::{self, BlockId, BlockProps, Shape};
use crate::world::palette::Palette;

/// The six axis-aligned face directions and the four faces of a crossed plant, in output
/// order. The value is the `face` attribute of every vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Facing −x.
    NegX = 0,
    /// Facing +x.
    PosX = 1,
    /// Facing −y (down).
    NegY = 2,
    /// Facing +y (up).
    PosY = 3,
    /// Facing −z.
    NegZ = 4,
    /// Facing +z.
    PosZ = 5,
    /// The plant plane from (0, 0) to (1, 1) in (x, z), facing (+x, −z).
    CrossA = 6,
    /// The same plane, facing (−x, +z).
    CrossABack = 7,
    /// The plant plane from (1, 0) to (0, 1) in (x, z), facing (+x, +z).
    CrossB = 8,
    /// The same plane, facing (−x, −z).
    CrossBBack = 9,
}

/// 1/√2 rounded to `f32`.
const DIAGONAL: f32 = core::f32::consts::FRAC_1_SQRT_2;

impl Face {
    /// The six axis-aligned faces in output order.
    pub const AXIS: [Face; 6] = [
        Face::NegX,
        Face::PosX,
        Face::NegY,
        Face::PosY,
        Face::NegZ,
        Face::PosZ,
    ];

    /// The unit outward normal.
    pub fn normal(self) -> [f32; 3] {
        let d = DIAGONAL;
        match self {
            Face::NegX => [-1.0, 0.0, 0.0],
            Face::PosX => [1.0, 0.0, 0.0],
            Face::NegY => [0.0, -1.0, 0.0],
            Face::PosY => [0.0, 1.0, 0.0],
            Face::NegZ => [0.0, 0.0, -1.0],
            Face::PosZ => [0.0, 0.0, 1.0],
            Face::CrossA => [d, 0.0, -d],
            Face::CrossABack => [-d, 0.0, d],
            Face::CrossB => [d, 0.0, d],
            Face::CrossBBack => [-d, 0.0, -d],
        }
    }

    /// The face for a wire value (0..=9).
    pub fn from_index(i: u8) -> Option<Face> {
        match i {
            0..=5 => Some(Face::AXIS[i as usize]),
            6 => Some(Face::CrossA),
            7 => Some(Face::CrossABack),
            8 => Some(Face::CrossB),
            9 => Some(Face::CrossBBack),
            _ => None,
        }
    }
}

/// The axes of an axis face (0 x, 1 y, 2 z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FaceAxes {
    /// The axis the face is perpendicular to.
    pub normal: usize,
    /// The slice's first in-plane axis.
    pub u: usize,
    /// The slice's second in-plane axis.
    pub v: usize,
    /// Whether the face looks towards the positive direction of `normal`.
    pub positive: bool,
}

const fn axes(normal: usize, u: usize, v: usize, positive: bool) -> FaceAxes {
    FaceAxes {
        normal,
        u,
        v,
        positive,
    }
}

/// The axes of each axis face, in [`Face::AXIS`] order.
pub(crate) const AXES: [FaceAxes; 6] = [
    axes(0, 2, 1, false),
    axes(0, 2, 1, true),
    axes(1, 0, 2, false),
    axes(1, 0, 2, true),
    axes(2, 0, 1, false),
    axes(2, 0, 1, true),
];

/// The padded cell that axis face `F` of the cell at `c` looks at.
#[inline(always)]
pub(crate) fn towards<const F: usize>(c: [usize; 3]) -> [usize; 3] {
    let FaceAxes {
        normal: a,
        positive,
        ..
    } = AXES[F];
    let mut n = c;
    if positive {
        n[a] += 1;
    } else {
        n[a] -= 1;
    }
    n
}

/// Everything that distinguishes one visible face from another, packed so that greedy
/// merging compares one integer: bits 0..16 block id, 16..24 AO (2 bits per corner),
/// 24..40 sky light and 40..56 block light (4 bits per corner), 56..61 the height of the
/// block's top in sixteenths, bit 63 set (0 means "no face").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FaceKey(pub u64);

const PRESENT: u64 = 1 << 63;

impl FaceKey {
    /// The key from per-corner fields (the cell-by-cell reference builds keys this way).
    #[cfg(test)]
    pub fn new(
        block: BlockId,
        ao: [u8; 4],
        sky: [u8; 4],
        block_light: [u8; 4],
        top16: u8,
    ) -> FaceKey {
        let mut k = PRESENT | block as u64 | (top16 as u64) << 56;
        for c in 0..4 {
            k |= (ao[c] as u64) << (16 + 2 * c);
            k |= (sky[c] as u64) << (24 + 4 * c);
            k |= (block_light[c] as u64) << (40 + 4 * c);
        }
        FaceKey(k)
    }
    /// [`FaceKey::new`] from fields already packed: `ao` 2 bits per corner, `sky` and `block_light`
    /// 4 bits per corner (corner 0 lowest).
    #[inline(always)]
    pub fn from_packed(block: BlockId, ao: u8, sky: u64, block_light: u64, top16: u8) -> FaceKey {
        FaceKey(
            PRESENT
                | block as u64
                | (ao as u64) << 16
                | (sky & 0xffff) << 24
                | (block_light & 0xffff) << 40
                | (top16 as u64) << 56,
        )
    }
    pub fn block(self) -> BlockId {
        self.0 as u16
    }
    pub fn ao(self, c: usize) -> u8 {
        (self.0 >> (16 + 2 * c)) as u8 & 3
    }
    pub fn sky(self, c: usize) -> u8 {
        (self.0 >> (24 + 4 * c)) as u8 & 15
    }
    pub fn block_light(self, c: usize) -> u8 {
        (self.0 >> (40 + 4 * c)) as u8 & 15
    }
    pub fn top16(self) -> u8 {
        (self.0 >> 56) as u8 & 31
    }
}

/// Full height of a block in sixteenths.
pub(crate) const FULL16: u8 = 16;
const FLUID16: u8 = (block::FLUID_TOP * 16.0) as u8;
const LAYER16: u8 = (block::LAYER_TOP * 16.0) as u8;

/// Height of the top of block `b` (whose info is `p`) at padded `c`, in sixteenths.
#[inline]
pub(crate) fn top16(v: &Volume<'_>, c: [usize; 3], b: BlockId, p: &BlockProps) -> u8 {
    match p.shape {
        Shape::Layer => LAYER16,
        Shape::Fluid if v.block(c[0], c[1] + 1, c[2]) != b => FLUID16,
        _ => FULL16,
    }
}

/// Whether the face of block `b` at `i` towards its neighbour `n` is drawn.
#[inline]
pub(crate) fn visible(
    palette: &Palette,
    face: Face,
    b: BlockId,
    p: &BlockProps,
    n: BlockId,
    top: u8,
) -> bool {
    let pn = palette.props(n);
    match p.shape {
        Shape::None | Shape::Cross => false,
        Shape::Cube => !(pn.is_occluder() || (n == b && p.surface != block::Surface::Opaque)),
        Shape::Fluid | Shape::Layer => {
            (face == Face::PosY && top < FULL16) || !(pn.is_occluder() || n == b)
        }
    }
}

/// `MEAN[n - 1][sum]`: the mean of `n` light levels summing to `sum`, rounded half up,
/// `(2 sum + n) / (2 n)` (a table: four divisions per vertex would cost a tenth of the
/// mesher).
/// Sums reach 4 × 15 = 60; the rows are 64 long so that an index masked with 63 needs no
/// bounds check.
pub(crate) const MEAN: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut n = 1;
    while n <= 4 {
        let mut sum = 0;
        while sum < 64 {
            t[n - 1][sum] = ((2 * sum + n) / (2 * n)) as u8;
            sum += 1;
        }
        n += 1;
    }
    t
};

/// The key of the visible axis face `F` of block `b` at padded coordinates `c`, cell by
/// cell as the module docs define it: the reference for the scan's row windows
/// ([`RowWindow`](super::window::RowWindow)), which must give the same key.
#[cfg(test)]
pub(crate) fn key_reference<const F: usize>(
    v: &Volume<'_>,
    c: [usize; 3],
    b: BlockId,
    top: u8,
) -> FaceKey {
    let front = towards::<F>(c);
    let FaceAxes { u: ua, v: va, .. } = AXES[F];
    // Occluders of the front layer's 3 × 3 (`[dv][du]`) and the light of the others.
    let mut occ = [[false; 3]; 3];
    let mut light = [[0u32; 3]; 3];
    for dv in 0..3 {
        for du in 0..3 {
            let mut p = front;
            p[ua] = p[ua] + du - 1;
            p[va] = p[va] + dv - 1;
            occ[dv][du] = v.occluder(p[0], p[1], p[2]);
            if !occ[dv][du] {
                light[dv][du] = u32::from(packed(v.light(p[0], p[1], p[2])));
            }
        }
    }
    let front = if occ[1][1] {
        u32::from(packed(v.light(c[0], c[1], c[2])))
    } else {
        light[1][1]
    };
    let mut ao = [0u8; 4];
    let mut sky = [0u8; 4];
    let mut block_light = [0u8; 4];
    for (k, (du, dv)) in CORNERS.iter().enumerate() {
        let (u, w) = (2 * *du as usize, 2 * *dv as usize);
        let (side_u, side_v, diagonal) = (occ[1][u], occ[w][1], occ[w][u]);
        ao[k] = if side_u && side_v {
            3
        } else {
            side_u as u8 + side_v as u8 + diagonal as u8
        };
        // The front cell and the non-occluders; the diagonal also not behind two sides.
        let mut cells = 1 + !side_u as u32 + !side_v as u32;
        let mut sum = front + light[1][u] + light[w][1];
        if !(diagonal || side_u && side_v) {
            cells += 1;
            sum += light[w][u];
        }
        let mean = |s: u32| ((2 * s + cells) / (2 * cells)) as u8;
        sky[k] = mean(sum & 0xff);
        block_light[k] = mean(sum >> 8);
    }
    FaceKey::new(b, ao, sky, block_light, top)
}

/// Per corner, indexed by its occluder bits (bit 0 the cell along u, bit 1 along v, bit 2
/// the diagonal): the AO (two sides make 3 whatever the corner), the number of cells whose
/// light is averaged (the front cell and the non-occluders; the diagonal is skipped too when
/// both sides are occluders), and a mask that keeps the diagonal's light only when it counts.
pub(crate) const CORNER: [(u8, u8, u32); 8] = {
    let mut t = [(0u8, 0u8, 0u32); 8];
    let mut i = 0;
    while i < 8 {
        let (ou, ov, oc) = (i & 1 != 0, i & 2 != 0, i & 4 != 0);
        let ao = if ou && ov {
            3
        } else {
            ou as u8 + ov as u8 + oc as u8
        };
        let corner = !(oc || ou && ov);
        let cells = 1 + !ou as u8 + !ov as u8 + corner as u8;
        t[i] = (ao, cells, if corner { u32::MAX } else { 0 });
        i += 1;
    }
    t
};

/// The corners of a face cell in (u, v) slice coordinates, in key order.
pub(crate) const CORNERS: [(u8, u8); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];
