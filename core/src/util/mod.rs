//! The toolkit every other layer uses: the one math backend, random sources and positional
//! seeding, the digest, and little-endian reading. Depends on nothing else in the crate.

pub mod bytes;
pub mod digest;
pub mod math;
pub mod random;
