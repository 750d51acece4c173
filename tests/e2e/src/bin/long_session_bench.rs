//! Only the long-conversation figures of `./dev bench` (issue 11), for working on them:
//! `DELIBERATE_DIST=$PWD/dist cargo run -p deliberate-e2e --bin long_session_bench`.

fn main() {
    println!("{}", deliberate_e2e::long_session::report());
}
