//! Serves a directory (a built `dist/`) on 127.0.0.1 until killed:
//! `cargo run -p deliberate-e2e --bin serve_dist -- [DIR] [PORT]` (defaults: dist 8000).

use std::path::PathBuf;
use std::process::ExitCode;

use deliberate_e2e::static_server::StaticServer;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "dist".into()));
    let port = match args.next().map(|p| p.parse::<u16>()) {
        None => 8000,
        Some(Ok(p)) => p,
        Some(Err(_)) => {
            eprintln!("usage: serve_dist [DIR] [PORT]  (PORT is a number, 0 for any free port)");
            return ExitCode::from(2);
        }
    };
    let server = match StaticServer::start_on(&dir, port) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("serve_dist: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("Serving {} at {}", server.root().display(), server.url());
    println!("Press Ctrl+C to stop.");
    loop {
        std::thread::park();
    }
}
