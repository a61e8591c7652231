//! The toolkit every other layer uses: the one math backend, random sources and positional
//! seeding, and the digest. Depends on nothing else in the crate.

pub mod digest;
pub mod math;
pub mod random;
