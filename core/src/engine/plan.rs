//! The plan the scheduler follows, derived from the [`StepTable`] (never typed in): which
//! statuses are *wide* (kept in region layers), how far each status reads whole neighbours
//! (*near*), the *ring* requirement counted per position, and how far a completion notifies.

use crate::engine::ladder::ChunkStatus;
use crate::engine::step_table::{StepTable, MAX_DIRECT_RADIUS};

/// A requirement of the same wide status at every distance from a status's near radius out
/// to `radius`: counted per position by the layers instead of by each holder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring {
    /// The status every chunk in the ring must have reached.
    pub status: ChunkStatus,
    /// The ring's radius in chunks.
    pub radius: i32,
}

impl Ring {
    /// Chunks in a complete ring: `(2r + 1)²`.
    pub fn full_count(self) -> u32 {
        let side = (2 * self.radius + 1) as u32;
        side * side
    }
}

/// What each status declares at each distance, per status, up to its direct radius.
pub type Declared = [Option<ChunkStatus>; MAX_DIRECT_RADIUS + 1];

/// The scheduler's plan, derived from a step table by [`Plan::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Statuses `0..wide` are wide: some status reads them at distance 2 or more.
    wide: usize,
    /// Per status: the radius within which a task holds every neighbour's outputs; beyond
    /// it only wide statuses are declared and come from the layers.
    near: [u8; ChunkStatus::COUNT],
    /// The ring requirement, if some status has one.
    ring: Option<Ring>,
    /// Per status: whether its requirements beyond `near` are [`Plan::ring`].
    ring_of: [bool; ChunkStatus::COUNT],
    /// Per status X: the farthest distance at which some holder counts X, so a completion of
    /// X only notifies that far.
    notify_radius: [u8; ChunkStatus::COUNT],
    /// Per status X: the last status whose body may read X at distance 1 (`None`: no body
    /// reads X there).
    last_reader_at_one: [Option<ChunkStatus>; ChunkStatus::COUNT],
}

impl Plan {
    /// Derive the plan from `table`.
    pub fn new(table: &StepTable) -> Plan {
        let wide = wide_count(table);
        let near = near_radii(table, wide);
        let (ring, ring_of) = find_ring(table, &near);
        let mut plan = Plan {
            wide,
            near,
            ring,
            ring_of,
            notify_radius: [0; ChunkStatus::COUNT],
            last_reader_at_one: [None; ChunkStatus::COUNT],
        };
        // A declaration at distance 1 lets the body read every status up to it there.
        for reader in ChunkStatus::ALL {
            if let Some(x) = table.direct_at(reader, 1) {
                for read in ChunkStatus::ALL.iter().filter(|s| **s <= x) {
                    let last = &mut plan.last_reader_at_one[read.index()];
                    *last = core::cmp::max(*last, Some(reader));
                }
            }
        }
        for s in ChunkStatus::ALL {
            for d in 0..=table.direct_radius(s) {
                if let (Some(x), true) = (table.direct_at(s, d), plan.counted_at(s, d)) {
                    let r = &mut plan.notify_radius[x.index()];
                    *r = core::cmp::max(*r, d as u8);
                }
            }
        }
        plan
    }

    /// Number of wide statuses (they are the statuses `0..wide_count`).
    pub fn wide_count(&self) -> usize {
        self.wide
    }

    /// Whether `status` is kept in region layers.
    pub fn is_wide(&self, status: ChunkStatus) -> bool {
        status.index() < self.wide
    }

    /// The radius within which a task of `status` holds every neighbour's outputs.
    pub fn near(&self, status: ChunkStatus) -> i32 {
        i32::from(self.near[status.index()])
    }

    /// The ring requirement, if any.
    pub fn ring(&self) -> Option<Ring> {
        self.ring
    }

    /// Whether `status` waits for the ring (counted by the layers).
    pub fn waits_for_ring(&self, status: ChunkStatus) -> bool {
        self.ring_of[status.index()]
    }

    /// Whether a holder whose next status is `status` counts its requirement at distance `d`
    /// itself (a ring status counts only its near requirements; the ring is the layers').
    pub fn counted_at(&self, status: ChunkStatus, d: u32) -> bool {
        !self.waits_for_ring(status) || d <= u32::from(self.near[status.index()])
    }

    /// The radius a holder whose next status is `status` counts requirements within.
    pub fn counted_radius(&self, table: &StepTable, status: ChunkStatus) -> i32 {
        if self.waits_for_ring(status) {
            self.near(status)
        } else {
            table.direct_radius(status) as i32
        }
    }

    /// The last status whose body may read `status` of a neighbour at distance 1: once every
    /// neighbour has reached it, no body reads `status` of that chunk any more. A status that
    /// is not wide is read no farther than distance 1.
    pub fn last_reader_at_one(&self, status: ChunkStatus) -> Option<ChunkStatus> {
        self.last_reader_at_one[status.index()]
    }

    /// How far a completion of `status` must notify waiting holders.
    pub fn notify_radius(&self, status: ChunkStatus) -> i32 {
        i32::from(self.notify_radius[status.index()])
    }
}

/// Wide statuses: those some status reads at distance 2 or more, with everything before them
/// (a declaration covers lower statuses too).
fn wide_count(table: &StepTable) -> usize {
    let mut wide = 0;
    for s in ChunkStatus::ALL {
        for d in 2..=table.direct_radius(s) {
            if let Some(x) = table.direct_at(s, d) {
                wide = core::cmp::max(wide, x.index() + 1);
            }
        }
    }
    wide
}

/// Per status: the farthest distance at which it declares a status that is not wide.
fn near_radii(table: &StepTable, wide: usize) -> [u8; ChunkStatus::COUNT] {
    let mut near = [0u8; ChunkStatus::COUNT];
    for s in ChunkStatus::ALL {
        for d in 0..=table.direct_radius(s) {
            if table.direct_at(s, d).map_or(false, |x| x.index() >= wide) {
                near[s.index()] = d as u8;
            }
        }
    }
    near
}

/// The ring: the first (wide status, radius) that some status requires at every distance
/// beyond its near radius. Statuses with another shape keep plain counters.
fn find_ring(
    table: &StepTable,
    near: &[u8; ChunkStatus::COUNT],
) -> (Option<Ring>, [bool; ChunkStatus::COUNT]) {
    let mut ring = None;
    let mut ring_of = [false; ChunkStatus::COUNT];
    for s in ChunkStatus::ALL {
        let (n, r) = (u32::from(near[s.index()]), table.direct_radius(s));
        let x = match table.direct_at(s, r) {
            Some(x) if r > n => x,
            _ => continue,
        };
        if (n + 1..=r).all(|d| table.direct_at(s, d) == Some(x)) {
            let this = Ring {
                status: x,
                radius: r as i32,
            };
            if *ring.get_or_insert(this) == this {
                ring_of[s.index()] = true;
            }
        }
    }
    (ring, ring_of)
}

/// The statuses `status` declares at each distance up to its direct radius.
pub fn declared(table: &StepTable, status: ChunkStatus) -> Declared {
    let mut declared = [None; MAX_DIRECT_RADIUS + 1];
    let r = table.direct_radius(status) as usize;
    for (d, slot) in declared.iter_mut().enumerate().take(r + 1) {
        *slot = table.direct_at(status, d as u32);
    }
    declared
}

#[cfg(test)]
mod tests {
    use super::*;
    use ChunkStatus as S;

    /// The plan of the built-in table, worked out by hand from the direct step table: `empty` and
    /// `structure_starts` are read at radius 8, so they are wide; the eight-chunk
    /// `structure_starts` requirement of references, biomes, terrain and features is the ring.
    #[test]
    fn plan_of_the_design_table() {
        let plan = Plan::new(&StepTable::new());
        assert_eq!(plan.wide_count(), 2);
        assert!(plan.is_wide(S::StructureStarts) && !plan.is_wide(S::StructureReferences));
        assert_eq!(
            plan.ring(),
            Some(Ring {
                status: S::StructureStarts,
                radius: 8
            })
        );
        let waits: [bool; 10] = ChunkStatus::ALL.map(|s| plan.waits_for_ring(s));
        let expect = [
            false, false, true, true, true, true, false, false, false, false,
        ];
        assert_eq!(waits, expect);
        let near: [i32; 10] = ChunkStatus::ALL.map(|s| plan.near(s));
        assert_eq!(near, [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]);
        // A completion notifies as far as some holder counts it: biomes (terrain, spawn),
        // terrain, features and initialize_light at distance 1; the rest only at 0, and
        // structure_starts beyond 0 only through the ring.
        let notify: [i32; 10] = ChunkStatus::ALL.map(|s| plan.notify_radius(s));
        assert_eq!(notify, [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]);
        // At distance 1: terrain declares biomes, features terrain, initialize_light features,
        // light initialize_light, spawn biomes; a declaration covers every lower status.
        let last: [Option<S>; 10] = ChunkStatus::ALL.map(|s| plan.last_reader_at_one(s));
        let (light, spawn) = (Some(S::Light), Some(S::Spawn));
        let expect = [
            spawn, spawn, spawn, spawn, light, light, light, None, None, None,
        ];
        assert_eq!(last, expect);
        assert_eq!(
            Ring {
                status: S::Empty,
                radius: 8
            }
            .full_count(),
            289
        );
    }
}
