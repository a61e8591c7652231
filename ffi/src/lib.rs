//! C ABI for Stratagen.
