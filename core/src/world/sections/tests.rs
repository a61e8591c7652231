use super::*;

/// A small deterministic generator (no dependency): xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Sections of every width: uniform, 2, 3, 4, 5, 16, 17, 256 and 257+ distinct values,
/// in runs and scattered, over a partial last section.
fn sample(len: usize) -> Vec<u16> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let distinct = [1usize, 2, 3, 4, 5, 16, 17, 256, 257, 4096];
    let mut v = Vec::with_capacity(len);
    for (s, chunk) in (0..len)
        .collect::<Vec<_>>()
        .chunks(SECTION_VOLUME)
        .enumerate()
    {
        let d = distinct[s % distinct.len()];
        let runs = s % 3 == 0 && d <= MAX_PALETTE;
        for &i in chunk {
            let k = if runs {
                (i / 37) % d
            } else {
                (rng.next() % d as u64) as usize
            };
            // Ids below 256 (found in the encoder's table) in every other pass over the
            // widths, arbitrary ids (found by search) in the others.
            v.push(if (s / distinct.len()) % 2 == 0 {
                (k as u16).wrapping_mul(7919) ^ (s as u16)
            } else {
                (k as u16 + s as u16) % 256 + (k as u16 / 256) * 256
            });
        }
    }
    v
}

#[test]
fn every_width_unpacks_the_same_both_ways() {
    // Random words decode through the shuffles (on a CPU with SSSE3) and one lookup per
    // entry alike, over whole rows and partial ones.
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let words: Vec<u64> = (0..SECTION_VOLUME / 16).map(|_| rng.next()).collect();
    let mut palette = [0u16; SMALL_PALETTE];
    for p in palette.iter_mut() {
        *p = rng.next() as u16;
    }
    for &n in &[1, 16, 21, 48, 63, 64, 65, 4096 - 11, 4096] {
        let (mut fast, mut portable) = (alloc::vec![0u16; n], alloc::vec![0u16; n]);
        unpack_small::<1>(&words, &palette, &mut fast);
        unpack::<1, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
        assert_eq!(fast, portable, "1 bit, {} entries", n);
        unpack_small::<2>(&words, &palette, &mut fast);
        unpack::<2, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
        assert_eq!(fast, portable, "2 bits, {} entries", n);
        unpack_small::<4>(&words, &palette, &mut fast);
        unpack::<4, SMALL_PALETTE>(&words, &palette, 0, &mut portable);
        assert_eq!(fast, portable, "4 bits, {} entries", n);
    }
    // Rows placed apart, every second row from 3 in reverse order.
    let (rows, place) = ((3, 2, 120), |i: usize| (119 - i) * 20);
    let section = |bits: u8| Section {
        bits,
        len: SECTION_VOLUME,
        palette: &palette,
        words: &words,
    };
    for &bits in &[1u8, 2, 4] {
        let (mut fast, mut portable) = (alloc::vec![0u16; 2400], alloc::vec![0u16; 2400]);
        section(bits).rows_mapped_to(rows, |v| v, &mut fast, place);
        match bits {
            1 => unpack_rows::<1>(&words, &palette, rows, &mut portable, place),
            2 => unpack_rows::<2>(&words, &palette, rows, &mut portable, place),
            _ => unpack_rows::<4>(&words, &palette, rows, &mut portable, place),
        }
        assert_eq!(fast, portable, "{} bits, placed rows", bits);
    }
}

#[test]
fn every_width_reads_back_what_was_stored() {
    for &len in &[0, 16, 4096, 4096 * 23 + 256 * 5, 4096 * 24, 4096 * 40] {
        let dense = sample(len);
        let s = Sections::from_dense(&dense);
        assert_eq!(s.len(), len);
        let direct = s.heads.iter().filter(|h| h.bits == DIRECT_BITS).count();
        assert!(
            len < 4096 * 9 || direct > 0,
            "the sample has direct sections"
        );
        assert_eq!(s.to_vec(), dense, "decode, len {}", len);
        for n in [0, len / 3, core::cmp::min(len, len / 2 + 5)] {
            let mut prefix = alloc::vec![0u16; n];
            s.decode_prefix_into(&mut prefix);
            assert_eq!(prefix, dense[..n], "prefix {} of {}", n, len);
        }
        let mut buf = [0u16; SECTION_VOLUME];
        for (k, want) in dense.chunks(SECTION_VOLUME).enumerate() {
            let got = s.section_mapped_into(k, |v| v ^ 0x5A5A, &mut buf);
            assert!(
                got.iter().zip(want).all(|(&g, &w)| g == w ^ 0x5A5A),
                "mapped {}",
                k
            );
        }
        for (i, &v) in dense.iter().enumerate() {
            assert_eq!(s.value(i), v, "value {} of {}", i, len);
            assert_eq!(s.get(i), Some(v));
            assert_eq!(s[i], v);
        }
        let mut row = [0u16; ROW];
        for i in (0..len / ROW).map(|r| r * ROW) {
            s.row(i, &mut row);
            assert_eq!(&row[..], &dense[i..i + ROW], "row {} of {}", i, len);
        }
        assert_eq!(s.section_count(), (len + 4095) / 4096);
        for (k, want) in dense.chunks(SECTION_VOLUME).enumerate() {
            let sec = s.section(k);
            assert_eq!(sec.len(), want.len());
            for (j, &v) in want.iter().enumerate() {
                assert_eq!(sec.value(j), v, "section {} entry {}", k, j);
            }
            for r in (0..want.len() / ROW).map(|r| r * ROW) {
                sec.row(r, &mut row);
                assert_eq!(&row[..], &want[r..r + ROW]);
            }
        }
    }
}

#[test]
fn rows_and_columns_read_back_in_every_width() {
    // Per width, every third row one value (each palette index in turn), the others
    // mixed, one of them differing only in its last entry.
    for &d in &[1usize, 2, 3, 5, 17, 300] {
        let dense: Vec<u16> = (0..SECTION_VOLUME)
            .map(|i| {
                let (r, j) = (i / ROW, i % ROW);
                let v = if r % 3 == 0 {
                    r / 3 % d
                } else if r % 3 == 1 {
                    (r + usize::from(j == ROW - 1)) % d
                } else {
                    (r + j) % d
                };
                1000 + v as u16
            })
            .collect();
        let s = Sections::from_dense(&dense);
        let sec = s.section(0);
        let mut column = [0u16; SECTION_ROWS];
        for x in 0..ROW {
            sec.column(x, &mut column);
            for (r, &v) in column.iter().enumerate() {
                assert_eq!(v, dense[r * ROW + x], "{} values, column {}", d, x);
            }
            // The first 200 rows mapped and placed in reverse, the rest left as it was.
            let mut placed = [0xdead_u16; SECTION_ROWS];
            sec.column_mapped_to((x, 200), |v| v ^ 0x5a5a, &mut placed, |r| 255 - r);
            for (r, &v) in placed.iter().rev().enumerate() {
                let want = if r < 200 {
                    dense[r * ROW + x] ^ 0x5a5a
                } else {
                    0xdead
                };
                assert_eq!(v, want, "{} values, placed column {}, row {}", d, x, r);
            }
        }
        for (r, row) in dense.chunks(ROW).enumerate() {
            let want = if row.iter().all(|&v| v == row[0]) {
                Some(row[0])
            } else {
                None
            };
            assert_eq!(sec.uniform_row(r * ROW), want, "{} values, row {}", d, r);
        }
        // The same row of every layer, and runs of consecutive rows.
        for &(first, step, n) in &[(0, 16, 16), (15, 16, 16), (7, 16, 3), (5, 1, 40)] {
            let mut rows = alloc::vec![0u16; n * ROW];
            sec.rows_into(first, step, &mut rows);
            for (i, row) in rows.chunks(ROW).enumerate() {
                let at = (first + i * step) * ROW;
                assert_eq!(
                    row,
                    &dense[at..at + ROW],
                    "{} values, rows from {}",
                    d,
                    first
                );
            }
            // Mapped and placed in reverse order 24 entries apart, the 8 between rows
            // left as they were.
            const GAP: u16 = 0xdead;
            let stride = ROW + 8;
            let mut placed = alloc::vec![GAP; n * stride];
            let place = |i: usize| (n - 1 - i) * stride + 8;
            sec.rows_mapped_to((first, step, n), |v| v ^ 0x5a5a, &mut placed, place);
            for i in 0..n {
                let at = (first + i * step) * ROW;
                let want: Vec<u16> = dense[at..at + ROW].iter().map(|v| v ^ 0x5a5a).collect();
                let p = place(i);
                assert_eq!(
                    &placed[p..p + ROW],
                    &want[..],
                    "{} values, placed row {}",
                    d,
                    i
                );
                assert!(placed[p - 8..p].iter().all(|&g| g == GAP), "{} values", d);
            }
        }
    }
}

#[test]
fn widths_follow_the_palette_size() {
    let dense = sample(4096 * 10);
    let s = Sections::from_dense(&dense);
    let bits: Vec<u8> = s.heads.iter().map(|h| h.bits).collect();
    assert_eq!(bits, [0, 1, 2, 2, 4, 4, 8, 8, 16, 16]);
}

#[test]
fn uniform_sections_cost_one_shared_entry() {
    let mut dense = alloc::vec![1u16; 4096 * 12];
    dense.extend(core::iter::repeat(0).take(4096 * 12));
    let s = Sections::from_dense(&dense);
    assert_eq!(s.palettes, [1, 0]);
    assert!(s.words.is_empty());
    assert_eq!(s, Sections::from_dense(&dense), "encoding is deterministic");
    assert_eq!(s.uniform(0), Some(1));
    assert_eq!(s.uniform(23), Some(0));
    assert_eq!(s.uniform(24), None);
    let f = Sections::filled(4096 * 24, 0);
    assert_eq!(f.to_vec(), alloc::vec![0u16; 4096 * 24]);
}

#[test]
fn a_value_first_seen_after_uniform_rows_gets_its_own_index() {
    // Rows of one value, then rows that start with another: both keep their values, for
    // ids the encoder finds in its table and ids it searches for.
    for base in [5u16, 5000] {
        let dense: Vec<u16> = (0..4096)
            .map(|i| {
                if i < 256 || i % 2 == 1 {
                    base
                } else {
                    base + 4
                }
            })
            .collect();
        assert_eq!(
            Sections::from_dense(&dense).to_vec(),
            dense,
            "ids from {}",
            base
        );
    }
}

#[test]
fn heap_bytes_count_heads_palettes_and_words() {
    // A uniform section (one palette entry) and one of two alternating values (a palette
    // of two, one bit per entry: 64 words).
    let mut dense = alloc::vec![7u16; 4096];
    dense.extend((0..4096).map(|i| 1 + (i % 2) as u16));
    let s = Sections::from_dense(&dense);
    let head = core::mem::size_of::<Head>();
    // Palettes: 7, then 1 and 2 padded to 16 entries.
    assert_eq!(s.heap_bytes(), 2 * head + 17 * 2 + 64 * 8);
}

#[test]
fn packed_sections_are_a_fraction_of_dense() {
    // Two values in a section: 1 bit each, 512 bytes instead of 8 KiB.
    let dense: Vec<u16> = (0..4096).map(|i| (i % 2) as u16 * 5).collect();
    let s = Sections::from_dense(&dense);
    assert_eq!(s.words.len() * 8, 512);
    assert_eq!(s.to_vec(), dense);
}

#[test]
#[should_panic(expected = "out of range")]
fn reads_past_the_end_panic_like_a_slice() {
    let s = Sections::from_dense(&[1, 2, 3]);
    assert_eq!(s.get(3), None);
    s.value(3);
}
