use super::rows::{copy_row, copy_row_portable};
use super::*;
use crate::util::random::JavaRandom;
use alloc::vec;

/// The section-wise packing equals packing the dense levels two to a byte, low nibble
/// first, a lone last level in a byte of its own: uniform and mixed sections, even and
/// odd lengths.
#[test]
fn nibble_runs_pack_the_dense_levels() {
    let mut rng = JavaRandom::new(3);
    for case in 0..40 {
        let n = SECTION_VOLUME * (1 + rng.next_int_bounded(3) as usize)
            + rng.next_int_bounded(SECTION_VOLUME as i32) as usize;
        let levels: Vec<u16> = (0..n)
            .map(|i| match (i / SECTION_VOLUME + case) % 3 {
                0 => 15,
                1 => 0,
                _ => rng.next_int_bounded(16) as u16,
            })
            .collect();
        let plain: Vec<u8> = levels
            .chunks(2)
            .map(|p| p[0] as u8 | p.get(1).map_or(0, |&v| v as u8) << 4)
            .collect();
        let mut packed = Vec::new();
        for_each_nibble_run(&Sections::from_dense(&levels), |b| {
            packed.extend_from_slice(b)
        });
        assert_eq!(packed, plain, "case {}", case);
    }
}

/// A region of no chunks (the tests fill its arrays themselves), lit up to `top`.
fn empty_region(min_y: i32, height: u32, top: i32) -> Region<'static> {
    let dims = Dims {
        min_y,
        height,
        sea_level: min_y,
    };
    Region {
        dims,
        top,
        chunks: Neighbourhood::from_array([None; 9]),
    }
}

/// One column stepped down from the top by the rules alone: (first block's layer,
/// lowest lit layer, levels from the bottom), `ny` for none.
fn column_by_rule(opacity: &[u8], col: usize, ny: usize) -> (usize, usize, Vec<u8>) {
    let (mut first, mut lit, mut level) = (ny, ny, 15u8);
    let mut levels = vec![0; ny];
    for y in (0..ny).rev() {
        let o = opacity[y * W * W + col];
        if o > 0 && first == ny {
            first = y;
        }
        level = if o >= 15 { 0 } else { level.saturating_sub(o) };
        if level == 0 {
            break;
        }
        levels[y] = level;
        lit = y;
    }
    (first, lit, levels)
}

/// Whole-layer and one-column-at-a-time stepping together give every column what the
/// rules give it alone: regions where all, some or few columns stay open deep down (so
/// the switch between the two falls at different layers, or never), with filtering
/// blocks (opacity 1..=3) and solid ones.
#[test]
fn sky_columns_follow_the_rules_per_column() {
    let r = empty_region(-64, 128, 40);
    let ny = r.ny();
    let mut rng = JavaRandom::new(11);
    let mut s = LightScratch::default();
    for case in 0..12 {
        // Out of 64 columns, this many are shafts: open down to the bottom but for a few
        // filtering blocks in the lowest third (met after most other columns closed),
        // which close some of them on the way.
        let shafts = [0, 1, 8, 64][case % 4];
        s.opacity.clear();
        s.opacity.resize(W * W * ny, 0);
        for col in 0..W * W {
            let shaft = (rng.next_int_bounded(64) as usize) < shafts;
            let ground = rng.next_int_bounded(ny as i32) as usize;
            for y in 0..ny {
                s.opacity[y * W * W + col] = match rng.next_int_bounded(8) {
                    0 if shaft && y < ny / 3 => 1,
                    _ if shaft => 0,
                    0 => rng.next_int_bounded(4) as u8,
                    _ if y < ground => 15,
                    _ => 0,
                };
            }
        }
        sky_columns(&r, &mut s);
        for col in 0..W * W {
            let (first, lit, levels) = column_by_rule(&s.opacity, col, ny);
            assert_eq!(
                usize::from(s.first_block[col]),
                first,
                "case {case} col {col}"
            );
            assert_eq!(usize::from(s.lit_bottom[col]), lit, "case {case} col {col}");
            for (y, &l) in levels.iter().enumerate() {
                assert_eq!(s.sky[y * W * W + col], l, "case {case} col {col} y {y}");
            }
        }
    }
}

/// Sky seeds are, in index order, the cells lit above level 1 below two layers over the
/// highest first block of the column and its four neighbours that would raise a
/// horizontal neighbour by one flood step, from the rules applied cell by cell: columns
/// of random first blocks and lit ranges, random levels and opacities.
#[test]
fn sky_seeds_follow_the_rule_cell_by_cell() {
    let r = empty_region(0, 64, 63);
    let ny = r.ny();
    let mut rng = JavaRandom::new(17);
    let mut s = LightScratch::default();
    for case in 0..8 {
        s.first_block = (0..W * W)
            .map(|_| rng.next_int_bounded(ny as i32 + 1) as u16)
            .collect();
        s.lit_bottom = s
            .first_block
            .iter()
            .map(|&f| f.saturating_sub(rng.next_int_bounded(3) as u16))
            .collect();
        s.sky = vec![0; W * W * ny];
        for col in 0..W * W {
            for y in usize::from(s.lit_bottom[col])..ny {
                s.sky[y * W * W + col] = 1 + rng.next_int_bounded(15) as u8;
            }
        }
        s.opacity = (0..W * W * ny)
            .map(|_| match rng.next_int_bounded(4) {
                0 => 15,
                1 => rng.next_int_bounded(16) as u8,
                _ => 0,
            })
            .collect();
        let fb = |x: i32, z: i32| -> usize {
            if (0..W as i32).contains(&x) && (0..W as i32).contains(&z) {
                usize::from(s.first_block[z as usize * W + x as usize])
            } else {
                0
            }
        };
        let sides = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        let mut expected = Vec::new();
        for y in 0..ny {
            for z in 0..W as i32 {
                for x in 0..W as i32 {
                    let highest = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
                        .iter()
                        .map(|&(dx, dz)| fb(x + dx, z + dz))
                        .max()
                        .unwrap_or(0);
                    let cell = y * W * W + z as usize * W + x as usize;
                    let l = s.sky[cell];
                    let lifts = sides.iter().any(|&(dx, dz)| {
                        let (nx, nz) = (x + dx, z + dz);
                        if !(0..W as i32).contains(&nx) || !(0..W as i32).contains(&nz) {
                            return false;
                        }
                        let n = y * W * W + nz as usize * W + nx as usize;
                        let o = s.opacity[n];
                        o < 15 && l.saturating_sub(1 + o) > s.sky[n]
                    });
                    if y < core::cmp::min(ny, highest + 2) && l > 1 && lifts {
                        expected.push(cell as u32);
                    }
                }
            }
        }
        sky_seeds(&r, &mut s);
        assert!(!s.queue.is_empty(), "case {case}");
        assert_eq!(s.queue, expected, "case {case}");
    }
}

/// Flooding from the sky seeds gives the light that flooding from every lit cell gives
/// (the fixpoint itself), over terrain with overhangs, water and filtering blocks.
#[test]
fn sky_seeds_reach_the_fixpoint_of_every_lit_cell() {
    let r = empty_region(0, 48, 47);
    let ny = r.ny();
    let mut rng = JavaRandom::new(23);
    let mut s = LightScratch::default();
    for case in 0..6 {
        s.opacity.clear();
        s.opacity.resize(W * W * ny, 0);
        for col in 0..W * W {
            let ground = 8 + rng.next_int_bounded(16) as usize;
            let water = if case % 2 == 0 { 28 } else { 0 };
            for y in 0..ny {
                s.opacity[y * W * W + col] = match rng.next_int_bounded(16) {
                    // Overhangs and floating filters: sky reaches under them sideways.
                    0 if y > ground => 15,
                    1 if y > ground => 1 + rng.next_int_bounded(3) as u8,
                    _ if y < ground => 15,
                    _ if y < water => 1,
                    _ => 0,
                };
            }
        }
        sky_columns(&r, &mut s);
        let columns = s.sky.clone();
        sky_seeds(&r, &mut s);
        let seeds = s.queue.len();
        flood(&r, &mut s.sky, &s.opacity, &mut s.queue);
        let mut every: Vec<u32> = (0..columns.len() as u32)
            .filter(|&c| columns[c as usize] > 0)
            .collect();
        let mut fixpoint = columns.clone();
        flood(&r, &mut fixpoint, &s.opacity, &mut every);
        assert!(
            seeds > 0 && fixpoint != columns,
            "case {case}: light spreads sideways"
        );
        assert!(s.sky == fixpoint, "case {case}");
    }
}

/// A row's opacity bytes are its properties' low bytes, and it has an emitter exactly
/// when one property has a high byte.
#[test]
fn copy_row_takes_low_bytes_and_sees_any_high_byte() {
    let mut rng = JavaRandom::new(5);
    for case in 0..200 {
        let src: Vec<u16> = (0..ROW)
            .map(|_| match (case % 3, rng.next_int_bounded(16)) {
                (0, _) => rng.next_int_bounded(16) as u16,
                (1, 0) => rng.next_int_bounded(1 << 16) as u16,
                _ => rng.next_int_bounded(256) as u16,
            })
            .collect();
        let low: Vec<u8> = src.iter().map(|&p| (p & 0xFF) as u8).collect();
        let high = src.iter().any(|&p| p > 0xFF);
        for copy in [copy_row, copy_row_portable] {
            let mut dst = [0xAA; ROW];
            let emits = copy(&mut dst, &src);
            assert_eq!(dst.to_vec(), low, "case {case}");
            assert_eq!(emits, high, "case {case}");
        }
    }
}
