//! Dev-only tooling for end-to-end tests and benchmarks.

pub mod slot_accuracy;
