//! A seamless, maximal Poisson-disk point set on the plane: a pure function of (seed, salt,
//! radius) and the position asked about, the same whichever chunk asks and in whatever order.
//!
//! Candidates: one per square cell of side `radius / √2`, at a hashed position inside its
//! cell, with a hashed priority (ties broken by cell). The set is the greedy maximal
//! independent set of the candidates in priority order: a candidate is in the set when no
//! candidate closer than `radius` with a higher priority is in the set. So
//!
//! - no two points of the set are closer than `radius` (the lower of the two would have been
//!   excluded by the higher);
//! - the set is maximal: a candidate outside it has a set point closer than `radius`, and
//!   every point of the plane is within `radius` of its cell's candidate, so every disc of
//!   radius `2 · radius` holds a point;
//! - whether a candidate is in the set depends only on higher-priority candidates within
//!   `radius`, recursively: a chain of strictly rising priorities, short in practice and
//!   followed to its end, so no neighbour output and no generation order is involved.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::util::math::floor_i64;
use crate::util::random::mix_stafford13;

/// A candidate: its position in blocks and its priority (with its cell, a total order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Cell column and row.
    pub cell: (i64, i64),
    /// Position in blocks.
    pub x: f64,
    /// Position in blocks.
    pub z: f64,
    /// Priority: higher wins.
    pub priority: u64,
}

impl Candidate {
    /// The order of priorities: priority, then cell (so no two candidates tie).
    fn rank(&self) -> (u64, i64, i64) {
        (self.priority, self.cell.0, self.cell.1)
    }
}

/// The candidates of one point set.
#[derive(Clone, Copy, Debug)]
pub struct PoissonDisk {
    seed: i64,
    salt: i64,
    radius: f64,
    cell: f64,
}

/// Cells searched around a candidate's cell for candidates closer than `radius`: a cell is
/// `radius / √2` wide and candidates sit anywhere inside their cells.
const REACH: i64 = 2;

impl PoissonDisk {
    /// The point set of minimum distance `radius` blocks (finite and positive) for `salt`
    /// (one per layer) in the world of `seed`.
    pub fn new(seed: i64, salt: i64, radius: f64) -> PoissonDisk {
        PoissonDisk {
            seed,
            salt,
            radius,
            cell: radius / core::f64::consts::SQRT_2,
        }
    }

    /// The minimum distance.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The candidate of cell `(cx, cz)`.
    pub fn candidate(&self, cx: i64, cz: i64) -> Candidate {
        let h = mix_stafford13(
            (self.seed ^ self.salt.wrapping_mul(0x9E37_79B9)) as u64
                ^ (cx as u64).wrapping_mul(0x9E37_79B1_85EB_CA87)
                ^ (cz as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
        );
        // 24-bit fractions: exact in f64, and the same on every machine.
        let fx = ((h >> 40) & 0xFF_FFFF) as f64 / 16_777_216.0;
        let fz = ((h >> 16) & 0xFF_FFFF) as f64 / 16_777_216.0;
        Candidate {
            cell: (cx, cz),
            x: (cx as f64 + fx) * self.cell,
            z: (cz as f64 + fz) * self.cell,
            priority: mix_stafford13(h),
        }
    }

    /// Whether the candidate of `cell` is in the set; `memo` keeps the answers found on the
    /// way (share it between calls over one area).
    pub fn contains(&self, cell: (i64, i64), memo: &mut BTreeMap<(i64, i64), bool>) -> bool {
        let mut area = Area::over_map(self, core::mem::take(memo));
        let known = area.decide(self.candidate(cell.0, cell.1));
        *memo = area.far;
        known
    }

    /// The points of the set inside the block box `[x0, x1) × [z0, z1)` (a point belongs to
    /// the block column it lies in), in cell order (rows of z, then x).
    pub fn points_in(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<Candidate> {
        let c0x = floor_i64(f64::from(x0) / self.cell) - 1;
        let c1x = floor_i64(f64::from(x1) / self.cell) + 1;
        let c0z = floor_i64(f64::from(z0) / self.cell) - 1;
        let c1z = floor_i64(f64::from(z1) / self.cell) + 1;
        let mut area = Area::new(self, (c0x, c0z), (c1x, c1z), AREA_MARGIN);
        let mut out = Vec::new();
        for cz in c0z..=c1z {
            for cx in c0x..=c1x {
                let c = area.candidate((cx, cz));
                let (bx, bz) = (floor_i64(c.x), floor_i64(c.z));
                let inside = bx >= i64::from(x0)
                    && bx < i64::from(x1)
                    && bz >= i64::from(z0)
                    && bz < i64::from(z1);
                if inside && area.decide(c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// Cells of margin around the cells a [`PoissonDisk::points_in`] box asks about, kept in the
/// [`Area`]'s arrays: a rising-priority chain steps at most [`REACH`] cells at a time and is
/// rarely longer than a few steps; cells beyond fall back to a map.
const AREA_MARGIN: i64 = 4;

/// A cell of an [`Area`] whose candidate is computed.
const CACHED: u8 = 1;
/// A cell of an [`Area`] whose membership is decided.
const DECIDED: u8 = 2;
/// A decided cell of an [`Area`] whose candidate is in the set.
const IN_SET: u8 = 4;

/// What one [`PoissonDisk::points_in`] or [`PoissonDisk::contains`] call knows: candidates
/// and answers of the cells around a box in flat arrays (cells farther out, or every cell for
/// `contains`, in a map), and the depth-first walk's frames and rivals in two stacks reused
/// from one decision to the next.
struct Area<'d> {
    disk: &'d PoissonDisk,
    /// The first cell of the arrays, and their width and depth in cells.
    origin: (i64, i64),
    width: i64,
    depth: i64,
    candidates: Vec<Candidate>,
    flags: Vec<u8>,
    far: BTreeMap<(i64, i64), bool>,
    /// The open frames of the walk: a candidate and where its rivals start in `rivals`.
    frames: Vec<(Candidate, usize)>,
    /// The rivals of every open frame, each frame's at the end when it is on top.
    rivals: Vec<Candidate>,
}

impl<'d> Area<'d> {
    /// The cells `first..=last` (column, row) and `margin` cells around them in arrays.
    fn new(disk: &'d PoissonDisk, first: (i64, i64), last: (i64, i64), margin: i64) -> Area<'d> {
        let origin = (first.0 - margin, first.1 - margin);
        let width = last.0 - first.0 + 1 + 2 * margin;
        let depth = last.1 - first.1 + 1 + 2 * margin;
        let n = (width * depth) as usize;
        let blank = Candidate {
            cell: (0, 0),
            x: 0.0,
            z: 0.0,
            priority: 0,
        };
        Area {
            disk,
            origin,
            width,
            depth,
            candidates: vec![blank; n],
            flags: vec![0; n],
            far: BTreeMap::new(),
            frames: Vec::new(),
            rivals: Vec::new(),
        }
    }

    /// No arrays: every answer lives in `far`.
    fn over_map(disk: &'d PoissonDisk, far: BTreeMap<(i64, i64), bool>) -> Area<'d> {
        Area {
            far,
            ..Area::new(disk, (0, 0), (-1, -1), 0)
        }
    }

    fn slot(&self, cell: (i64, i64)) -> Option<usize> {
        let (dx, dz) = (cell.0 - self.origin.0, cell.1 - self.origin.1);
        if (0..self.width).contains(&dx) && (0..self.depth).contains(&dz) {
            Some((dz * self.width + dx) as usize)
        } else {
            None
        }
    }

    fn candidate(&mut self, cell: (i64, i64)) -> Candidate {
        match self.slot(cell) {
            Some(i) if self.flags[i] & CACHED != 0 => self.candidates[i],
            Some(i) => {
                let c = self.disk.candidate(cell.0, cell.1);
                self.candidates[i] = c;
                self.flags[i] |= CACHED;
                c
            }
            None => self.disk.candidate(cell.0, cell.1),
        }
    }

    fn known(&self, cell: (i64, i64)) -> Option<bool> {
        match self.slot(cell) {
            Some(i) if self.flags[i] & DECIDED != 0 => Some(self.flags[i] & IN_SET != 0),
            Some(_) => None,
            None => self.far.get(&cell).copied(),
        }
    }

    fn record(&mut self, cell: (i64, i64), in_set: bool) {
        match self.slot(cell) {
            Some(i) => self.flags[i] |= DECIDED | if in_set { IN_SET } else { 0 },
            None => {
                self.far.insert(cell, in_set);
            }
        }
    }

    /// Push the candidates closer than `radius` to `c` with a higher priority.
    fn push_rivals(&mut self, c: &Candidate) {
        let r2 = self.disk.radius * self.disk.radius;
        let corners = (
            self.slot((c.cell.0 - REACH, c.cell.1 - REACH)),
            self.slot((c.cell.0 + REACH, c.cell.1 + REACH)),
        );
        if let (Some(first), Some(_)) = corners {
            // The whole neighbourhood lies in the arrays (nearly always): walk its slots
            // directly, in the same order as the cells below.
            let width = self.width as usize;
            let side = (2 * REACH + 1) as usize;
            for dz in 0..side {
                for dx in 0..side {
                    if dz == side / 2 && dx == side / 2 {
                        continue;
                    }
                    let i = first + dz * width + dx;
                    let q = if self.flags[i] & CACHED != 0 {
                        self.candidates[i]
                    } else {
                        let cell = (c.cell.0 - REACH + dx as i64, c.cell.1 - REACH + dz as i64);
                        let q = self.disk.candidate(cell.0, cell.1);
                        self.candidates[i] = q;
                        self.flags[i] |= CACHED;
                        q
                    };
                    let d2 = (q.x - c.x) * (q.x - c.x) + (q.z - c.z) * (q.z - c.z);
                    if d2 < r2 && q.rank() > c.rank() {
                        self.rivals.push(q);
                    }
                }
            }
            return;
        }
        for nz in c.cell.1 - REACH..=c.cell.1 + REACH {
            for nx in c.cell.0 - REACH..=c.cell.0 + REACH {
                if (nx, nz) == c.cell {
                    continue;
                }
                let q = self.candidate((nx, nz));
                let d2 = (q.x - c.x) * (q.x - c.x) + (q.z - c.z) * (q.z - c.z);
                if d2 < r2 && q.rank() > c.rank() {
                    self.rivals.push(q);
                }
            }
        }
    }

    /// Whether `root` is in the set: depth-first over rising priorities, with explicit
    /// stacks (a frame is a candidate and its rivals still to decide).
    fn decide(&mut self, root: Candidate) -> bool {
        if let Some(known) = self.known(root.cell) {
            return known;
        }
        self.frames.push((root, self.rivals.len()));
        self.push_rivals(&root);
        while let Some(&(c, start)) = self.frames.last() {
            // A rival already in the set excludes `c`; undecided rivals are decided first.
            let mut excluded = false;
            let mut next = None;
            while self.rivals.len() > start {
                let q = self.rivals[self.rivals.len() - 1];
                match self.known(q.cell) {
                    Some(true) => {
                        excluded = true;
                        break;
                    }
                    Some(false) => {
                        self.rivals.pop();
                    }
                    None => {
                        next = Some(q);
                        break;
                    }
                }
            }
            match next {
                Some(q) if !excluded => {
                    self.frames.push((q, self.rivals.len()));
                    self.push_rivals(&q);
                }
                _ => {
                    self.record(c.cell, !excluded);
                    self.rivals.truncate(start);
                    self.frames.pop();
                }
            }
        }
        self.known(root.cell).unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members among the cells `first..=last`, decided one by one by
    /// [`PoissonDisk::contains`] with one shared map (every answer in the map), and by an
    /// [`Area`] with `margin` (answers in its arrays, the map only past them).
    fn both(disk: &PoissonDisk, first: (i64, i64), last: (i64, i64), margin: i64) {
        let mut memo = BTreeMap::new();
        let mut area = Area::new(disk, first, last, margin);
        for cz in first.1..=last.1 {
            for cx in first.0..=last.0 {
                let c = area.candidate((cx, cz));
                assert_eq!(c, disk.candidate(cx, cz));
                assert_eq!(
                    area.decide(c),
                    disk.contains((cx, cz), &mut memo),
                    "cell ({cx}, {cz}) radius {} margin {margin}",
                    disk.radius()
                );
            }
        }
    }

    /// Answers kept in the arrays decide every cell as answers kept in the map do, whether the
    /// chains stay inside the arrays (the margin `points_in` uses), leave them at once (no
    /// margin: most look-ups go to the far map) or mix the two.
    #[test]
    fn area_decides_as_the_reference() {
        for (seed, radius) in [(0, 1.5), (7, 4.0), (-3, 7.0), (12345, 13.0), (1, 0.75)] {
            let disk = PoissonDisk::new(seed, 11, radius);
            for first in [(0, 0), (-9, 4), (1 << 40, -(1 << 40))] {
                let last = (first.0 + 19, first.1 + 13);
                for margin in [AREA_MARGIN, 0, 1] {
                    both(&disk, first, last, margin);
                }
            }
        }
    }
}
