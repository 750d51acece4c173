//! Dev-only tooling for end-to-end tests and benchmarks.
