//! Deterministic random sources and the positional seeding scheme (determinism rule 4).
//!
//! - [`JavaRandom`]: `java.util.Random`'s 48-bit LCG, bit for bit (multiplier `0x5DEECE66D`,
//!   increment 11, seed scrambled with the multiplier).
//! - [`Xoroshiro128PlusPlus`]: Blackman and Vigna's xoroshiro128++ with the 64 → 128-bit seed
//!   upgrade used by Minecraft (`RandomSupport.upgradeSeedTo128bit`: golden-ratio offsets and
//!   Stafford's "mix13" finaliser).
//! - The seeding scheme of Minecraft's `WorldgenRandom`: decoration, feature, large-feature and
//!   salted-region seeds, and the position hash `Mth.getSeed` for per-block randoms.
//!
//! Every draw in the world is reseeded from (world seed, position, fixed index) with these, so a
//! value never depends on what was drawn before it elsewhere.

const JAVA_MULT: u64 = 0x5_DEEC_E66D;
const JAVA_ADD: u64 = 0xB;
const JAVA_MASK: u64 = (1 << 48) - 1;

/// `java.util.Random`: a 48-bit linear congruential generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaRandom {
    seed: u64,
}

impl JavaRandom {
    /// `new Random(seed)`: the seed is scrambled with the multiplier, as Java does.
    pub fn new(seed: i64) -> Self {
        JavaRandom {
            seed: (seed as u64 ^ JAVA_MULT) & JAVA_MASK,
        }
    }

    /// `setSeed(seed)`: same scrambling as [`JavaRandom::new`].
    pub fn set_seed(&mut self, seed: i64) {
        self.seed = (seed as u64 ^ JAVA_MULT) & JAVA_MASK;
    }

    /// `next(bits)`: the top `bits` (1..=32) of the advanced 48-bit state.
    #[inline]
    pub fn next_bits(&mut self, bits: u32) -> i32 {
        self.seed = self.seed.wrapping_mul(JAVA_MULT).wrapping_add(JAVA_ADD) & JAVA_MASK;
        (self.seed >> (48 - bits)) as i32
    }

    /// `nextInt()`: 32 uniformly random bits.
    pub fn next_int(&mut self) -> i32 {
        self.next_bits(32)
    }

    /// `nextInt(bound)`: uniform in `0..bound`, with Java's rejection loop. Java throws for
    /// `bound <= 0`; here such a bound returns 0 without drawing.
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        if bound & bound.wrapping_neg() == bound {
            // Power of two: take the high bits.
            return ((i64::from(bound) * i64::from(self.next_bits(31))) >> 31) as i32;
        }
        loop {
            let bits = self.next_bits(31);
            let val = bits % bound;
            // Java rejects when `bits - val + (bound - 1)` overflows an int.
            if bits.wrapping_sub(val).wrapping_add(bound - 1) >= 0 {
                return val;
            }
        }
    }

    /// `nextLong()`: two 32-bit draws, the first as the high half (with Java's sign carry).
    pub fn next_long(&mut self) -> i64 {
        let hi = i64::from(self.next_bits(32));
        let lo = i64::from(self.next_bits(32));
        (hi << 32).wrapping_add(lo)
    }

    /// `nextBoolean()`.
    pub fn next_bool(&mut self) -> bool {
        self.next_bits(1) != 0
    }

    /// `nextFloat()`: 24 bits scaled into `[0, 1)`.
    pub fn next_float(&mut self) -> f32 {
        self.next_bits(24) as f32 / (1u32 << 24) as f32
    }

    /// `nextFloat()` widened to `f64`, computed without `f32` arithmetic. The value is exactly
    /// `f64::from(next_float())` (a 24-bit fraction is exact in both), but staying in `f64`
    /// keeps code generators from forming "multiply two widened floats" instructions, which
    /// qemu 7.2 mis-emulates on s390x (found by the cross-architecture parity run).
    pub fn next_float_f64(&mut self) -> f64 {
        f64::from(self.next_bits(24)) * (1.0 / (1u32 << 24) as f64)
    }

    /// `nextDouble()`: 53 bits (26 + 27) scaled into `[0, 1)`.
    pub fn next_double(&mut self) -> f64 {
        let hi = i64::from(self.next_bits(26));
        let lo = i64::from(self.next_bits(27));
        ((hi << 27) + lo) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Stafford's variant 13 of the SplitMix64 finaliser.
#[inline]
pub fn mix_stafford13(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoroshiro128++ (Blackman and Vigna, 2019).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xoroshiro128PlusPlus {
    lo: u64,
    hi: u64,
}

const GOLDEN_RATIO_64: u64 = 0x9E37_79B9_7F4A_7C15;
const SILVER_RATIO_64: u64 = 0x6A09_E667_F3BC_C909;

impl Xoroshiro128PlusPlus {
    /// From the raw 128-bit state `(s[0], s[1])`. An all-zero state, which would only ever
    /// produce zeros, is replaced by the upgrade of seed 0, as Minecraft does.
    pub fn from_state(lo: u64, hi: u64) -> Self {
        if lo | hi == 0 {
            return Self::from_seed(0);
        }
        Xoroshiro128PlusPlus { lo, hi }
    }

    /// From a 64-bit seed, upgraded to 128 bits (`RandomSupport.upgradeSeedTo128bit`).
    pub fn from_seed(seed: i64) -> Self {
        let lo = seed as u64 ^ SILVER_RATIO_64;
        let hi = lo.wrapping_add(GOLDEN_RATIO_64);
        Xoroshiro128PlusPlus {
            lo: mix_stafford13(lo),
            hi: mix_stafford13(hi),
        }
    }

    /// The current state `(s[0], s[1])`.
    pub fn state(&self) -> (u64, u64) {
        (self.lo, self.hi)
    }

    /// The next 64 bits (the reference `next()`).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s0 = self.lo;
        let mut s1 = self.hi;
        let result = s0.wrapping_add(s1).rotate_left(17).wrapping_add(s0);
        s1 ^= s0;
        self.lo = s0.rotate_left(49) ^ s1 ^ (s1 << 21);
        self.hi = s1.rotate_left(28);
        result
    }

    /// `nextLong()`.
    pub fn next_long(&mut self) -> i64 {
        self.next_u64() as i64
    }

    /// `nextInt()`: the low 32 bits of the next 64.
    pub fn next_int(&mut self) -> i32 {
        self.next_u64() as i32
    }

    /// The top `bits` (1..=64) of the next 64.
    #[inline]
    pub fn next_bits(&mut self, bits: u32) -> u64 {
        self.next_u64() >> (64 - bits)
    }

    /// `nextInt(bound)`: uniform in `0..bound` by Lemire's multiply-and-reject method (as in
    /// Minecraft's `XoroshiroRandomSource`). A `bound <= 0` returns 0 without drawing.
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        let b = bound as u64;
        let mut m = u64::from(self.next_int() as u32) * b;
        let mut low = m & 0xFFFF_FFFF;
        if low < b {
            let threshold = (b.wrapping_neg() & 0xFFFF_FFFF) % b;
            while low < threshold {
                m = u64::from(self.next_int() as u32) * b;
                low = m & 0xFFFF_FFFF;
            }
        }
        (m >> 32) as i32
    }

    /// `nextBoolean()`: the lowest bit of the next 64.
    pub fn next_bool(&mut self) -> bool {
        self.next_u64() & 1 != 0
    }

    /// `nextFloat()`: 24 bits scaled into `[0, 1)`.
    pub fn next_float(&mut self) -> f32 {
        self.next_bits(24) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// `nextDouble()`: 53 bits scaled into `[0, 1)`.
    pub fn next_double(&mut self) -> f64 {
        self.next_bits(53) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// `Mth.getSeed(x, y, z)`: Minecraft's position hash, used to seed per-block randoms.
/// (`x * 3129871` is an `int` product in Java, so it wraps at 32 bits.)
pub fn position_hash(x: i32, y: i32, z: i32) -> i64 {
    let mut l = i64::from(x.wrapping_mul(3_129_871))
        ^ i64::from(z).wrapping_mul(116_129_781)
        ^ i64::from(y);
    l = l
        .wrapping_mul(l)
        .wrapping_mul(42_317_861)
        .wrapping_add(l.wrapping_mul(11));
    l >> 16
}

/// `WorldgenRandom.setDecorationSeed(worldSeed, blockX, blockZ)`: the seed that decorates the
/// chunk whose minimum corner is `(block_x, block_z)`.
pub fn decoration_seed(world_seed: i64, block_x: i32, block_z: i32) -> i64 {
    let mut r = JavaRandom::new(world_seed);
    let a = r.next_long() | 1;
    let b = r.next_long() | 1;
    (i64::from(block_x).wrapping_mul(a)).wrapping_add(i64::from(block_z).wrapping_mul(b))
        ^ world_seed
}

/// `WorldgenRandom.setFeatureSeed(decorationSeed, index, step)`: the seed of one feature
/// (global sorted `index`) in one decoration `step`.
pub fn feature_seed(decoration_seed: i64, index: i32, step: i32) -> i64 {
    decoration_seed
        .wrapping_add(i64::from(index))
        .wrapping_add(10_000i64.wrapping_mul(i64::from(step)))
}

/// `WorldgenRandom.setLargeFeatureSeed(worldSeed, chunkX, chunkZ)`: the seed of large features
/// (carvers, structure layouts) started in a chunk.
pub fn large_feature_seed(world_seed: i64, chunk_x: i32, chunk_z: i32) -> i64 {
    let mut r = JavaRandom::new(world_seed);
    let a = r.next_long();
    let b = r.next_long();
    i64::from(chunk_x).wrapping_mul(a) ^ i64::from(chunk_z).wrapping_mul(b) ^ world_seed
}

/// `WorldgenRandom.setLargeFeatureWithSalt(worldSeed, regionX, regionZ, salt)`: the seed of a
/// structure placement grid cell.
pub fn region_seed(world_seed: i64, region_x: i32, region_z: i32, salt: i32) -> i64 {
    i64::from(region_x)
        .wrapping_mul(341_873_128_712)
        .wrapping_add(i64::from(region_z).wrapping_mul(132_897_987_541))
        .wrapping_add(world_seed)
        .wrapping_add(i64::from(salt))
}

/// A factory of per-position xoroshiro128++ randoms (Minecraft's
/// `XoroshiroPositionalRandomFactory.at(x, y, z)`): the state is the factory's, with the low
/// half xored with [`position_hash`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionalRandomFactory {
    lo: u64,
    hi: u64,
}

impl PositionalRandomFactory {
    /// A factory from a 64-bit seed (upgraded to 128 bits, then forked once as Minecraft's
    /// `forkPositional` does: two draws become the factory state).
    pub fn new(seed: i64) -> Self {
        let mut r = Xoroshiro128PlusPlus::from_seed(seed);
        let lo = r.next_u64();
        let hi = r.next_u64();
        PositionalRandomFactory { lo, hi }
    }

    /// The random for block position `(x, y, z)`.
    pub fn at(&self, x: i32, y: i32, z: i32) -> Xoroshiro128PlusPlus {
        Xoroshiro128PlusPlus::from_state(position_hash(x, y, z) as u64 ^ self.lo, self.hi)
    }

    /// The random for a named purpose: the state xored with the XXH64 of the name's bytes
    /// (a stable substitute for Minecraft's MD5 of the name).
    pub fn from_name(&self, name: &str) -> Xoroshiro128PlusPlus {
        let h = crate::util::digest::xxh64(name.as_bytes());
        Xoroshiro128PlusPlus::from_state(self.lo ^ h, self.hi ^ mix_stafford13(h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values below come from OpenJDK 17's java.util.Random (a Java program with the
    // same calls), and from the authors' reference C code for xoroshiro128++ and splitmix64
    // (tests/c/xoroshiro_ref.c, also cross-checked live in tests/random_reference.rs).

    #[test]
    fn java_next_int() {
        let mut r = JavaRandom::new(42);
        assert_eq!(r.next_int(), -1_170_105_035);
        assert_eq!(r.next_int(), 234_785_527);
        assert_eq!(r.next_int(), -1_360_544_799);
    }

    #[test]
    fn java_next_int_bounded() {
        let mut r = JavaRandom::new(-123_456_789);
        let bounds = [
            1,
            2,
            3,
            7,
            10,
            16,
            100,
            1000,
            1 << 30,
            (1 << 30) + 1,
            i32::MAX,
        ];
        let want = [
            0,
            1,
            1,
            3,
            9,
            6,
            26,
            277,
            47_545_399,
            722_141_591,
            972_104_936,
        ];
        for (b, w) in bounds.iter().zip(want.iter()) {
            assert_eq!(r.next_int_bounded(*b), *w, "bound {b}");
        }
    }

    #[test]
    fn java_long_float_double_bool() {
        let mut r = JavaRandom::new(0);
        assert_eq!(r.next_long(), -4_962_768_465_676_381_896);
        assert_eq!(r.next_long(), 4_437_113_781_045_784_766);
        let mut r = JavaRandom::new(1);
        assert_eq!(r.next_float().to_bits(), 0x3f3b_1ad5);
        assert_eq!(r.next_float().to_bits(), 0x3dcd_c4e0);
        let mut r = JavaRandom::new(1);
        let mut w = JavaRandom::new(1);
        for _ in 0..1000 {
            assert_eq!(
                f64::from(r.next_float()).to_bits(),
                w.next_float_f64().to_bits()
            );
        }
        let mut r = JavaRandom::new(1);
        assert_eq!(r.next_double().to_bits(), 0x3fe7_635a_a8cd_c4e6);
        assert_eq!(r.next_double().to_bits(), 0x3fda_3ec3_9684_df98);
        let mut r = JavaRandom::new(7);
        let b: [bool; 4] = [r.next_bool(), r.next_bool(), r.next_bool(), r.next_bool()];
        assert_eq!(b, [true, true, true, false]);
        let mut r = JavaRandom::new(5);
        r.next_int();
        r.set_seed(42);
        assert_eq!(r.next_int(), -1_170_105_035);
    }

    #[test]
    fn xoroshiro_reference_outputs() {
        let mut r = Xoroshiro128PlusPlus::from_state(1, 2);
        let want = [
            0x0000_0000_0006_0001,
            0x0002_60C0_0066_0007,
            0x180A_CC04_7186_06D3,
            0x9E22_6D35_036F_C4C7,
        ];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
    }

    #[test]
    fn stafford13_is_splitmix64_finaliser() {
        // splitmix64 from state 0 outputs mix13(k * golden) for k = 1, 2, 3.
        let want = [
            0xE220_A839_7B1D_CDAF,
            0x6E78_9E6A_A1B9_65F4,
            0x06C4_5D18_8009_454F,
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(
                mix_stafford13(GOLDEN_RATIO_64.wrapping_mul(k as u64 + 1)),
                *w
            );
        }
    }

    #[test]
    fn xoroshiro_seed_upgrade() {
        let mut r = Xoroshiro128PlusPlus::from_seed(0);
        assert_eq!(r.next_long(), 3_038_984_756_725_240_190);
        assert_eq!(r.next_long(), -3_694_039_286_755_638_414);
        assert_eq!(r.next_u64(), 0x404E_64B8_26F4_B9F4);
        assert_eq!(r.next_u64(), 0x1DFB_E5A8_4FB8_F31B);
        // The all-zero state is replaced, never left to output zeros forever.
        assert_eq!(
            Xoroshiro128PlusPlus::from_state(0, 0),
            Xoroshiro128PlusPlus::from_seed(0)
        );
    }

    #[test]
    fn xoroshiro_bounded_is_in_range_and_uniform_enough() {
        let mut r = Xoroshiro128PlusPlus::from_seed(99);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let v = r.next_int_bounded(7);
            assert!((0..7).contains(&v));
            counts[v as usize] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
        for bound in [1, 2, 1 << 30, i32::MAX] {
            for _ in 0..1000 {
                assert!((0..bound).contains(&r.next_int_bounded(bound)));
            }
        }
        assert_eq!(r.next_int_bounded(0), 0);
        assert_eq!(r.next_int_bounded(-5), 0);
        for _ in 0..1000 {
            let f = r.next_float();
            let d = r.next_double();
            assert!((0.0..1.0).contains(&f) && (0.0..1.0).contains(&d));
        }
    }

    #[test]
    fn worldgen_seeds_match_java() {
        assert_eq!(decoration_seed(12345, 160, -320), 6_098_185_111_525_037_913);
        assert_eq!(
            decoration_seed(-1, -16, 2_147_483_632),
            4_157_610_601_036_785_183
        );
        assert_eq!(
            large_feature_seed(12345, 10, -20),
            -3_952_611_198_510_324_365
        );
        assert_eq!(
            large_feature_seed(i64::MIN, -2_097_152, 2_097_151),
            -4_207_770_106_970_337_470
        );
        assert_eq!(position_hash(1, 2, 3), -33_674_130_277_896);
        assert_eq!(
            position_hash(-30_000_000, 64, 30_000_000),
            -35_216_720_112_214
        );
        assert_eq!(position_hash(0, 0, 0), 0);
        assert_eq!(
            position_hash(i32::MAX, i32::MIN, 12345),
            -119_635_804_080_489
        );
        assert_eq!(feature_seed(100, 3, 2), 20_103);
    }

    #[test]
    fn neighbouring_positions_get_different_seeds() {
        // Property: over a block of positions, every seed is distinct from its neighbours'.
        for ws in [0i64, 1, -7, 0x1234_5678_9ABC_DEF0] {
            for cx in -20..20 {
                for cz in -20..20 {
                    let s = large_feature_seed(ws, cx, cz);
                    assert_ne!(s, large_feature_seed(ws, cx + 1, cz));
                    assert_ne!(s, large_feature_seed(ws, cx, cz + 1));
                    let d = decoration_seed(ws, cx * 16, cz * 16);
                    assert_ne!(d, decoration_seed(ws, cx * 16 + 16, cz * 16));
                    assert_ne!(d, decoration_seed(ws, cx * 16, cz * 16 + 16));
                    assert_ne!(feature_seed(d, 0, 0), feature_seed(d, 1, 0));
                    assert_ne!(feature_seed(d, 0, 0), feature_seed(d, 0, 1));
                    assert_ne!(region_seed(ws, cx, cz, 7), region_seed(ws, cx + 1, cz, 7));
                    assert_ne!(region_seed(ws, cx, cz, 7), region_seed(ws, cx, cz + 1, 7));
                }
            }
        }
        let f = PositionalRandomFactory::new(5);
        for x in -30..30 {
            for y in -64..-60 {
                let a = f.at(x, y, 3).next_u64();
                assert_ne!(a, f.at(x + 1, y, 3).next_u64());
                assert_ne!(a, f.at(x, y + 1, 3).next_u64());
                assert_ne!(a, f.at(x, y, 4).next_u64());
            }
        }
    }

    /// A random seeded from a worldgen seed draws what `java.util.Random` draws (known
    /// answers from OpenJDK 17: `new Random(seed).nextInt(1000)` eight times, `nextLong()`),
    /// and `set_seed` on a used random restarts that sequence.
    #[test]
    fn reseeding_repeats_the_sequence() {
        let d = decoration_seed(77, -48, 1024);
        assert_eq!(d, -3_864_757_398_458_694_563);
        let mut r = JavaRandom::new(d);
        let drawn: [i32; 8] = core::array::from_fn(|_| r.next_int_bounded(1000));
        assert_eq!(drawn, [437, 615, 509, 982, 313, 779, 639, 850]);
        let f = feature_seed(d, 3, 7);
        assert_eq!(f, -3_864_757_398_458_624_560);
        assert_eq!(JavaRandom::new(f).next_long(), 6_913_865_796_904_398_621);
        // Reseeding a random that has drawn (and so moved on) gives the fresh sequence again.
        r.set_seed(d);
        let again: [i32; 8] = core::array::from_fn(|_| r.next_int_bounded(1000));
        assert_eq!(again, drawn);
        assert_eq!(large_feature_seed(42, -7, 12), -2_672_748_939_667_623_179);
        assert_eq!(region_seed(123, -2, 5, 10_387_319), -19_245_932_277);
        // The positional factory is Minecraft's `forkPositional`: two draws of the seeded
        // random are its state, and a position xors its hash into the low half (the seeding
        // and the hash have known-answer tests above).
        let mut seeded = Xoroshiro128PlusPlus::from_seed(-9);
        let (lo, hi) = (seeded.next_u64(), seeded.next_u64());
        let f = PositionalRandomFactory::new(-9);
        let want = Xoroshiro128PlusPlus::from_state(position_hash(5, 6, 7) as u64 ^ lo, hi);
        assert_eq!(f.at(5, 6, 7).state(), want.state());
        assert_ne!(
            f.from_name("ore").next_u64(),
            f.from_name("tree").next_u64()
        );
    }
}
