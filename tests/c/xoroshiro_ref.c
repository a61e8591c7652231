/* Reference algorithms, transcribed from their authors' public-domain C code:
 *   xoroshiro128plusplus.c (David Blackman and Sebastiano Vigna, 2019): next()
 *   splitmix64.c (Sebastiano Vigna, 2015): next()
 * used by tests/random_reference.rs to cross-check the Rust implementations. */
#include <stdint.h>

static inline uint64_t rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Writes n outputs of xoroshiro128++ started from state s[2] (which it advances). */
void ref_xoroshiro128pp(uint64_t s[2], uint64_t *out, int n) {
    for (int i = 0; i < n; i++) {
        const uint64_t s0 = s[0];
        uint64_t s1 = s[1];
        const uint64_t result = rotl(s0 + s1, 17) + s0;
        s1 ^= s0;
        s[0] = rotl(s0, 49) ^ s1 ^ (s1 << 21);
        s[1] = rotl(s1, 28);
        out[i] = result;
    }
}

/* Writes n outputs of splitmix64 started from state x. */
void ref_splitmix64(uint64_t x, uint64_t *out, int n) {
    for (int i = 0; i < n; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        out[i] = z ^ (z >> 31);
    }
}
