//! Stratagen core: deterministic noise, fractals, heightmaps and the chunk status ladder.
//!
//! Everything here is a pure function of its arguments (the determinism rules in
//! ARCHITECTURE.md): no fused multiply-add, transcendentals from `libm` through [`math`](util::math), no
//! global state, integer hashing with explicit wrapping arithmetic. The same inputs give the same bits on every CPU and in every build.
#![no_std]
// `unsafe` only in `noise::simd` and `noise::single`'s x86 module (AVX2 and AVX-512
// intrinsics behind a CPU check) and `mesh::lanes` (SSE2 intrinsics where the target has
// SSE2); each block says why it is sound.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(missing_docs)]
// Index loops over parallel per-octave arrays read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

// Determinism rule 8: x87 arithmetic (32-bit x86 without SSE2) keeps excess precision and gives
// different bits. Refuse to build rather than silently break the parity promise.
#[cfg(all(target_arch = "x86", not(target_feature = "sse2")))]
compile_error!(
    "stratagen-core needs IEEE binary64 arithmetic: build 32-bit x86 with SSE2 \
     (for example -C target-cpu=pentium4); x87 floating point gives different bits"
);

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod util;

pub mod noise;

pub mod engine;

#[cfg(feature = "alloc")]
pub mod world;

#[cfg(feature = "alloc")]
pub mod mesh;
