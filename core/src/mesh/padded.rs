//! The meshed area's blocks and light decoded once into dense padded arrays: the area's
//! cells and a one-cell apron from the chunks around it, every padded row `sx + 2` cells
//! long (`(py * (sz + 2) + pz) * (sx + 2) + px`). Every later read is one index, whatever
//! chunk or section the cell lies in.
//!
//! Chunks are paletted per section, so the arrays are built one section's layers (a slab) at
//! a time: a slab where every chunk holds one value is a fill; otherwise each chunk's part of
//! it is decoded in place — a meshed chunk's rows, the ring's edge columns and rows — with no
//! copy between.

use alloc::vec::Vec;

use crate::world::chunk::FullChunk;
use crate::world::dims::CHUNK_SIDE;
use crate::world::sections::{Section, ROW, SECTION_ROWS, SECTION_SIDE, SECTION_VOLUME};

/// Light as the padded array holds it: sky light in the low byte, block light in the high
/// one (as [`crate::mesh::window::packed`]).
#[inline(always)]
pub(crate) fn packed_of(sky: u16, block: u16) -> u16 {
    (sky & 15) | (block & 15) << 8
}

/// One section of one chunk as a channel of the padded arrays: its blocks, or its light.
trait ChannelSection: Copy {
    /// The value of every cell, if the section holds one.
    fn uniform(&self) -> Option<u16>;
    /// `n` rows `first`, `first + step`, … into `out`, row `i` at `out[place(i)..][..16]`.
    fn rows_to(
        &self,
        rows: (usize, usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    );
    /// Cell `x` of the first `rows` rows into `out`, row `r`'s at `out[place(r)]`.
    fn column_to(
        &self,
        x_rows: (usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    );
}

impl ChannelSection for Section<'_> {
    #[inline(always)]
    fn uniform(&self) -> Option<u16> {
        Section::uniform(self)
    }
    #[inline(always)]
    fn rows_to(
        &self,
        rows: (usize, usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    ) {
        self.rows_mapped_to(rows, |v| v, out, place)
    }
    #[inline(always)]
    fn column_to(
        &self,
        x_rows: (usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    ) {
        self.column_mapped_to(x_rows, |v| v, out, place)
    }
}

/// A section's sky and block light, read as [`packed_of`] light.
#[derive(Clone, Copy)]
struct LightSection<'a> {
    sky: Section<'a>,
    block: Section<'a>,
}

impl ChannelSection for LightSection<'_> {
    #[inline(always)]
    fn uniform(&self) -> Option<u16> {
        Some(packed_of(self.sky.uniform()?, self.block.uniform()?))
    }
    fn rows_to(
        &self,
        rows: (usize, usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    ) {
        // With one block light level (nearly always), it is mapped into the sky light's
        // palette: no second pass.
        if let Some(b) = self.block.uniform() {
            self.sky
                .rows_mapped_to(rows, |s| packed_of(s, b), out, place);
            return;
        }
        self.sky.rows_mapped_to(rows, |s| s, out, place);
        let mut block = [0u16; SECTION_VOLUME];
        let block = &mut block[..rows.2 * ROW];
        self.block.rows_into(rows.0, rows.1, block);
        for (i, b) in block.chunks_exact(ROW).enumerate() {
            let at = place(i);
            for (o, &b) in out[at..at + ROW].iter_mut().zip(b) {
                *o = packed_of(*o, b);
            }
        }
    }
    fn column_to(
        &self,
        x_rows: (usize, usize),
        out: &mut [u16],
        place: impl Fn(usize) -> usize + Copy,
    ) {
        if let Some(b) = self.block.uniform() {
            self.sky
                .column_mapped_to(x_rows, |s| packed_of(s, b), out, place);
            return;
        }
        self.sky.column_mapped_to(x_rows, |s| s, out, place);
        let mut block = [0u16; SECTION_ROWS];
        self.block.column(x_rows.0, &mut block);
        for (r, &b) in block[..x_rows.1].iter().enumerate() {
            let o = &mut out[place(r)];
            *o = packed_of(*o, b);
        }
    }
}

/// The shape of the padded arrays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Cells per padded row: `sx + 2`.
    pub xrow: usize,
    /// Padded rows per layer: `sz + 2`.
    pub zrows: usize,
    /// Padded layers held (from the one below the world).
    pub layers: usize,
}

impl Shape {
    /// The index of padded `(px, py, pz)`.
    #[inline(always)]
    pub fn index(&self, px: usize, py: usize, pz: usize) -> usize {
        (py * self.zrows + pz) * self.xrow + px
    }
    /// Cells in one padded layer.
    #[inline(always)]
    pub fn layer_cells(&self) -> usize {
        self.zrows * self.xrow
    }
    /// Cells held.
    pub fn cells(&self) -> usize {
        self.layers * self.layer_cells()
    }
}

/// Where one chunk of the area's ring grid lands along one axis: padded `p0..p0 + n` from
/// local `l0` (16 cells of a meshed chunk, one edge cell of a ring chunk).
#[derive(Clone, Copy)]
struct Span {
    p0: usize,
    l0: usize,
    n: usize,
}

/// The span of ring-grid chunk `c` (0 and `chunks - 1` are the ring) along an axis of
/// `chunks` ring-grid chunks.
fn span(c: usize, chunks: usize) -> Span {
    if c == 0 {
        Span {
            p0: 0,
            l0: CHUNK_SIDE - 1,
            n: 1,
        }
    } else if c == chunks - 1 {
        Span {
            p0: (chunks - 2) * CHUNK_SIDE + 1,
            l0: 0,
            n: 1,
        }
    } else {
        Span {
            p0: (c - 1) * CHUNK_SIDE + 1,
            l0: 0,
            n: CHUNK_SIDE,
        }
    }
}

/// The chunks of the area as [`crate::mesh::ChunkArea`] lists them (`cw` per row of the
/// ring grid), with what the padded arrays hold of them.
pub(crate) struct Source<'s, 'a> {
    /// The ring grid's chunks (`None`: missing).
    pub chunks: &'s [Option<&'a FullChunk>],
    /// Chunks per ring-grid row.
    pub cw: usize,
    /// The arrays' shape.
    pub shape: Shape,
}

/// The padded layers of one channel: the layer below the world, the chunks' layers
/// decoded, and the layers above them, up to the [`Shape`]'s.
pub(crate) struct Layers {
    /// Chunk layers decoded (padded `1..=decoded`).
    pub decoded: usize,
    /// A missing chunk's cells.
    pub missing: u16,
    /// The layer below the world (padded 0).
    pub below: u16,
    /// The layers above the decoded ones.
    pub above: u16,
}

impl<'a> Source<'_, 'a> {
    /// The padded blocks.
    pub fn blocks(&self, layers: &Layers) -> Vec<u16> {
        self.build(layers, |c, s| c.blocks().section(s))
    }

    /// The padded [`packed_of`] light.
    pub fn light(&self, layers: &Layers) -> Vec<u16> {
        self.build(layers, |c, s| {
            let light = c.light();
            LightSection {
                sky: light.sky.section(s),
                block: light.block.section(s),
            }
        })
    }

    /// The padded array, built in order, one section's layers (a slab) at a time. Where
    /// every chunk holds one and the same value in a slab (the light underground and in the
    /// open air, nearly everywhere), the slab is one fill; otherwise each chunk's part is
    /// decoded straight into it ([`Cells::fill_section`]).
    fn build<V: ChannelSection>(
        &self,
        layers: &Layers,
        view: impl Fn(&'a FullChunk, usize) -> V,
    ) -> Vec<u16> {
        let (shape, missing) = (self.shape, layers.missing);
        let layer = shape.layer_cells();
        let cd = self.chunks.len() / self.cw;
        let cells: Vec<Cells> = (0..self.chunks.len())
            .map(|i| Cells {
                shape,
                x: span(i % self.cw, self.cw),
                z: span(i / self.cw, cd),
            })
            .collect();
        let mut out = Vec::with_capacity(shape.cells());
        out.resize(layer, layers.below);
        // What a corner chunk's rows decode to before their one cell goes into the array.
        let mut scratch = [0u16; SECTION_ROWS];
        let mut sections: Vec<Option<V>> = Vec::with_capacity(self.chunks.len());
        for s in 0..(layers.decoded + SECTION_SIDE - 1) / SECTION_SIDE {
            let n = core::cmp::min(SECTION_SIDE, layers.decoded - s * SECTION_SIDE);
            sections.clear();
            sections.extend(self.chunks.iter().map(|c| c.map(|c| view(c, s))));
            let value = |sec: &Option<V>| sec.as_ref().map_or(Some(missing), V::uniform);
            let first = value(&sections[0]);
            let start = out.len();
            if first.is_some() && sections.iter().all(|sec| value(sec) == first) {
                out.resize(start + n * layer, first.unwrap_or(missing));
                continue;
            }
            // The chunks tile every layer, so each cell of the slab is written below.
            out.resize(start + n * layer, 0);
            let slab = &mut out[start..];
            for (cell, sec) in cells.iter().zip(&sections) {
                match sec {
                    Some(sec) => cell.fill_section(n, sec, slab, &mut scratch),
                    None => cell.fill_layers(n, missing, slab),
                }
            }
        }
        out.resize(shape.cells(), layers.above);
        out
    }
}

/// The cells one chunk covers in the padded arrays.
struct Cells {
    shape: Shape,
    x: Span,
    z: Span,
}

impl Cells {
    /// Fill the covered cells of a slab's first `layers` layers with `v`. Most of a
    /// volume is uniform sections, so the fills take each shape with fixed-size stores:
    /// rows of 16 for a meshed chunk and a north or south neighbour, a column for a west or
    /// east one, a cell for a corner.
    fn fill_layers(&self, layers: usize, v: u16, dst: &mut [u16]) {
        let (x, z, shape) = (self.x, self.z, self.shape);
        let row = [v; CHUNK_SIDE];
        for y in 0..layers {
            let at = shape.index(x.p0, y, z.p0);
            let cells = &mut dst[at..at + (z.n - 1) * shape.xrow + x.n];
            match (x.n, z.n) {
                (CHUNK_SIDE, _) => {
                    for r in cells.chunks_mut(shape.xrow) {
                        r[..CHUNK_SIDE].copy_from_slice(&row);
                    }
                }
                _ => {
                    for c in cells.iter_mut().step_by(shape.xrow) {
                        *c = v;
                    }
                }
            }
        }
    }

    /// Decode the covered cells of a slab's first `layers` layers (one section's) from the
    /// chunk's section `sec`: a uniform section is a fill, an edge column one column read, a
    /// meshed chunk's or a north or south neighbour's rows are decoded in place.
    fn fill_section<V: ChannelSection>(
        &self,
        layers: usize,
        sec: &V,
        dst: &mut [u16],
        scratch: &mut [u16; SECTION_ROWS],
    ) {
        let (x, z, shape) = (self.x, self.z, self.shape);
        if let Some(v) = sec.uniform() {
            self.fill_layers(layers, v, dst);
            return;
        }
        // Row `r` of the section's layers (layer `r / 16`, z `r % 16`) at the chunk's x.
        let row_place = |r: usize| shape.index(x.p0, r / SECTION_SIDE, z.p0 + r % SECTION_SIDE);
        match (x.n, z.n) {
            (1, CHUNK_SIDE) => {
                // A west or east neighbour: one column of every row.
                sec.column_to((x.l0, layers * SECTION_SIDE), dst, row_place);
            }
            (CHUNK_SIDE, CHUNK_SIDE) => {
                // A meshed chunk: every row of the section's layers.
                sec.rows_to((0, 1, layers * SECTION_SIDE), dst, row_place);
            }
            (CHUNK_SIDE, 1) => {
                // A north or south neighbour: its edge row of every layer.
                let place = |y: usize| shape.index(x.p0, y, z.p0);
                sec.rows_to((z.l0, SECTION_SIDE, layers), dst, place);
            }
            _ => {
                // A corner: the one cell of its edge row in every layer.
                let rows = &mut scratch[..layers * ROW];
                sec.rows_to((z.l0, SECTION_SIDE, layers), rows, |y| y * ROW);
                for (row, y) in rows.chunks_exact(ROW).zip(0..layers) {
                    dst[shape.index(x.p0, y, z.p0)] = row[x.l0];
                }
            }
        }
    }
}
