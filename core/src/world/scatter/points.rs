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

    /// The candidates closer than `radius` to `c` with a higher priority.
    fn rivals(&self, c: &Candidate) -> Vec<Candidate> {
        let r2 = self.radius * self.radius;
        let mut out = Vec::new();
        for nz in c.cell.1 - REACH..=c.cell.1 + REACH {
            for nx in c.cell.0 - REACH..=c.cell.0 + REACH {
                if (nx, nz) == c.cell {
                    continue;
                }
                let q = self.candidate(nx, nz);
                let d2 = (q.x - c.x) * (q.x - c.x) + (q.z - c.z) * (q.z - c.z);
                if d2 < r2 && q.rank() > c.rank() {
                    out.push(q);
                }
            }
        }
        out
    }

    /// Whether the candidate of `cell` is in the set; `memo` keeps the answers found on the
    /// way (share it between calls over one area).
    pub fn contains(&self, cell: (i64, i64), memo: &mut BTreeMap<(i64, i64), bool>) -> bool {
        if let Some(&known) = memo.get(&cell) {
            return known;
        }
        // Depth-first over rising priorities, with an explicit stack: a frame is a candidate
        // and its rivals still to decide.
        let root = self.candidate(cell.0, cell.1);
        let mut stack: Vec<(Candidate, Vec<Candidate>)> = Vec::new();
        stack.push((root, self.rivals(&root)));
        while let Some((c, rivals)) = stack.last_mut() {
            let c = *c;
            // A rival already in the set excludes `c`; undecided rivals are decided first.
            let mut excluded = false;
            let mut next = None;
            while let Some(q) = rivals.last() {
                match memo.get(&q.cell) {
                    Some(true) => {
                        excluded = true;
                        break;
                    }
                    Some(false) => {
                        rivals.pop();
                    }
                    None => {
                        next = Some(*q);
                        break;
                    }
                }
            }
            if excluded || next.is_none() {
                memo.insert(c.cell, !excluded);
                stack.pop();
                continue;
            }
            if let Some(q) = next {
                let rivals = self.rivals(&q);
                stack.push((q, rivals));
            }
        }
        memo.get(&cell).copied().unwrap_or(false)
    }

    /// The points of the set inside the block box `[x0, x1) × [z0, z1)` (a point belongs to
    /// the block column it lies in), in cell order (rows of z, then x).
    pub fn points_in(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<Candidate> {
        let mut memo = BTreeMap::new();
        let c0x = floor_i64(f64::from(x0) / self.cell) - 1;
        let c1x = floor_i64(f64::from(x1) / self.cell) + 1;
        let c0z = floor_i64(f64::from(z0) / self.cell) - 1;
        let c1z = floor_i64(f64::from(z1) / self.cell) + 1;
        let mut out = Vec::new();
        for cz in c0z..=c1z {
            for cx in c0x..=c1x {
                let c = self.candidate(cx, cz);
                let (bx, bz) = (floor_i64(c.x), floor_i64(c.z));
                let inside = bx >= i64::from(x0)
                    && bx < i64::from(x1)
                    && bz >= i64::from(z0)
                    && bz < i64::from(z1);
                if inside && self.contains((cx, cz), &mut memo) {
                    out.push(c);
                }
            }
        }
        out
    }
}
