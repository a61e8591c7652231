//! The step table: which status each neighbour must have reached before a status
//! body may run, transcribed from Minecraft 1.21's `ChunkPyramid.GENERATION_PYRAMID`, with
//! `terrain` = noise + surface + carvers and one change: `initialize_light` declares its eight
//! neighbours at `features` (it merges their patches).
//!
//! Only the **direct** table is typed in. The **accumulated** table (what the whole
//! neighbourhood must have reached, transitively, before a status can run at the centre) is
//! derived from it in [`StepTable::new`].

use crate::engine::ladder::ChunkStatus;

/// Neighbours at Chebyshev distance `<= radius` must have reached `status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// Required status.
    pub status: ChunkStatus,
    /// Largest distance the requirement applies to.
    pub radius: u8,
}

const fn req(status: ChunkStatus, radius: u8) -> Requirement {
    Requirement { status, radius }
}

use ChunkStatus as S;

static DIRECT: [&[Requirement]; ChunkStatus::COUNT] = [
    &[],                                                           // empty
    &[req(S::Empty, 0)],                                           // structure_starts
    &[req(S::StructureStarts, 8)],                                 // structure_references
    &[req(S::StructureReferences, 0), req(S::StructureStarts, 8)], // biomes
    &[req(S::Biomes, 1), req(S::StructureStarts, 8)],              // terrain
    &[req(S::Terrain, 1), req(S::StructureStarts, 8)],             // features
    &[req(S::Features, 1)],                                        // initialize_light
    &[req(S::InitializeLight, 1)],                                 // light
    &[req(S::Light, 0), req(S::Biomes, 1)],                        // spawn
    &[req(S::Spawn, 0)],                                           // full
];

/// The direct dependencies of a status: requirements in decreasing status order, the first
/// always the parent status at distance 0.
pub fn direct(status: ChunkStatus) -> &'static [Requirement] {
    DIRECT[status.index()]
}

/// How far outside its own chunk a status body writes blocks: `Some(0)` for `terrain` (own
/// chunk only), `Some(1)` for `features` (the eight neighbours, through patches), `None` for
/// statuses that write no blocks.
pub fn write_radius(status: ChunkStatus) -> Option<u8> {
    match status {
        S::Terrain => Some(0),
        S::Features => Some(1),
        _ => None,
    }
}

/// Largest distance in either table.
pub const MAX_RADIUS: usize = 12;
/// Largest direct-dependency radius.
pub const MAX_DIRECT_RADIUS: usize = 8;

/// Per-distance lookups of the direct and the derived accumulated requirements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepTable {
    direct: [[Option<ChunkStatus>; MAX_RADIUS + 1]; ChunkStatus::COUNT],
    direct_radius: [u8; ChunkStatus::COUNT],
    acc: [[Option<ChunkStatus>; MAX_RADIUS + 1]; ChunkStatus::COUNT],
    acc_radius: [u8; ChunkStatus::COUNT],
}

fn max_opt(a: Option<ChunkStatus>, b: Option<ChunkStatus>) -> Option<ChunkStatus> {
    // `None` (no requirement) orders below every status.
    if a >= b {
        a
    } else {
        b
    }
}

impl Default for StepTable {
    fn default() -> Self {
        Self::new()
    }
}

impl StepTable {
    /// Build the table: expand the direct requirements per distance, then derive the
    /// accumulated ones.
    ///
    /// `acc(S)[k]` is the status a chunk at distance `k` must have before `S` can run at the
    /// centre: the direct requirement at `k`, merged (max) with, for every direct requirement
    /// `(X, r)`, the accumulated list of `X` shifted outward by `r` (a neighbour up to `r`
    /// away needs `X`, and so needs `acc(X)` around itself). Statuses are processed in ladder
    /// order, and every requirement names an earlier status, so `acc(X)` is always ready.
    pub fn new() -> Self {
        let mut t = StepTable {
            direct: [[None; MAX_RADIUS + 1]; ChunkStatus::COUNT],
            direct_radius: [0; ChunkStatus::COUNT],
            acc: [[None; MAX_RADIUS + 1]; ChunkStatus::COUNT],
            acc_radius: [0; ChunkStatus::COUNT],
        };
        for s in ChunkStatus::ALL {
            let si = s.index();
            for r in direct(s) {
                for d in 0..=r.radius as usize {
                    t.direct[si][d] = max_opt(t.direct[si][d], Some(r.status));
                }
                t.direct_radius[si] = core::cmp::max(t.direct_radius[si], r.radius);
            }
            let mut acc = t.direct[si];
            for r in direct(s) {
                let x = r.status.index();
                for (k, slot) in acc.iter_mut().enumerate() {
                    let from = k.saturating_sub(r.radius as usize);
                    *slot = max_opt(*slot, t.acc[x][from]);
                }
            }
            t.acc[si] = acc;
            t.acc_radius[si] = acc.iter().rposition(|a| a.is_some()).unwrap_or(0) as u8;
        }
        t
    }

    /// The status a neighbour at distance `d` must have reached before `status` runs at the
    /// centre, by the direct table (`None`: no requirement).
    pub fn direct_at(&self, status: ChunkStatus, d: u32) -> Option<ChunkStatus> {
        self.direct[status.index()]
            .get(d as usize)
            .copied()
            .flatten()
    }

    /// Radius of the direct requirements of `status`.
    pub fn direct_radius(&self, status: ChunkStatus) -> u32 {
        u32::from(self.direct_radius[status.index()])
    }

    /// The status a chunk at distance `d` must have reached, transitively, before `status`
    /// can run at the centre.
    pub fn accumulated_at(&self, status: ChunkStatus, d: u32) -> Option<ChunkStatus> {
        self.acc[status.index()].get(d as usize).copied().flatten()
    }

    /// Radius of the accumulated requirements of `status`.
    pub fn accumulated_radius(&self, status: ChunkStatus) -> u32 {
        u32::from(self.acc_radius[status.index()])
    }

    /// The largest distance at which running `target` needs a chunk at `layer` or above
    /// (`None` if it never does).
    pub fn layer_radius(&self, target: ChunkStatus, layer: ChunkStatus) -> Option<u32> {
        self.acc[target.index()]
            .iter()
            .rposition(|a| *a >= Some(layer))
            .map(|d| d as u32)
    }

    /// The status a ticket for `target` at distance 0 needs chunk at distance `d` to reach:
    /// `target` itself at the centre, the accumulated requirement elsewhere.
    pub fn ticket_level(&self, target: ChunkStatus, d: u32) -> Option<ChunkStatus> {
        if d == 0 {
            Some(target)
        } else {
            self.accumulated_at(target, d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_radii_match_the_design() {
        let t = StepTable::new();
        assert_eq!(t.accumulated_radius(S::Full), 12);
        assert_eq!(t.accumulated_radius(S::Features), 10);
        assert_eq!(t.accumulated_radius(S::Light), 12);
        let layer = |l| t.layer_radius(S::Full, l);
        assert_eq!(layer(S::StructureStarts), Some(12));
        assert_eq!(layer(S::Biomes), Some(4));
        assert_eq!(layer(S::Terrain), Some(3));
        assert_eq!(layer(S::Features), Some(2));
        assert_eq!(layer(S::InitializeLight), Some(1));
        assert_eq!(layer(S::Light), Some(0));
        assert_eq!(layer(S::Full), None);
    }

    #[test]
    fn direct_table_shape() {
        let t = StepTable::new();
        for s in ChunkStatus::ALL {
            // The first requirement is always the parent at distance 0.
            assert_eq!(t.direct_at(s, 0), s.parent(), "{:?}", s);
            // Requirements never grow with distance.
            for d in 1..=MAX_RADIUS as u32 {
                assert!(t.direct_at(s, d) <= t.direct_at(s, d - 1));
                assert!(t.accumulated_at(s, d) <= t.accumulated_at(s, d - 1));
            }
            // Requirements only name earlier statuses.
            for r in direct(s) {
                assert!(r.status < s);
            }
        }
        assert_eq!(t.direct_at(S::InitializeLight, 1), Some(S::Features));
        assert_eq!(t.direct_radius(S::StructureReferences), 8);
        assert_eq!(write_radius(S::Features), Some(1));
    }

    /// Ticket levels are closed: if a ticket needs chunk q at level L, every status S <= L at
    /// q has its direct requirements met by what the same ticket needs of q's neighbours. So
    /// scheduling by ticket levels never waits on a chunk nobody asked for.
    #[test]
    fn ticket_levels_are_closed() {
        let t = StepTable::new();
        for target in ChunkStatus::ALL {
            for k in 0..=MAX_RADIUS as u32 {
                let level = match t.ticket_level(target, k) {
                    Some(l) => l,
                    None => continue,
                };
                for s in ChunkStatus::ALL.iter().filter(|s| **s <= level) {
                    for d in 0..=t.direct_radius(*s) {
                        // The farthest neighbour at distance d from q is k + d from the ticket;
                        // the nearest is |k - d|; the requirement must hold for both.
                        for dist in [k + d, k.abs_diff(d)] {
                            assert!(
                                t.ticket_level(target, dist) >= t.direct_at(*s, d),
                                "{:?} at {} needs {:?}, {:?} needs {:?} at {}",
                                target,
                                k,
                                level,
                                s,
                                t.direct_at(*s, d),
                                d
                            );
                        }
                    }
                }
            }
        }
    }
}
