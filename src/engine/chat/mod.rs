//! Chat mode (seed 001): an assistant in a bounded tool loop that asks the user when unsure
//! and before anything dangerous. The tools and their checks live here; the mode's loop plugs
//! them into the conversation core.

pub mod tools;
