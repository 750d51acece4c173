//! The static server over real sockets: files, types, errors and shutdown.

use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use deliberate_e2e::http::{send, HttpError};
use deliberate_e2e::static_server::StaticServer;
use deliberate_e2e::tempdir::TempDir;

fn site() -> TempDir {
    let dir = TempDir::new("static-site").unwrap();
    fs::write(dir.path().join("secret.txt"), "outside the root").unwrap();
    let dist = dir.path().join("dist");
    fs::create_dir(&dist).unwrap();
    fs::write(dist.join("index.html"), "<!doctype html><p>home 계획</p>").unwrap();
    fs::write(dist.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    fs::write(dist.join("app.js"), "export const x = 1;").unwrap();
    dir
}

fn get(url: &str) -> deliberate_e2e::http::ClientResponse {
    send("GET", url, &[], None, Duration::from_secs(5)).unwrap()
}

#[test]
fn root_serves_index_html_with_no_store() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    assert!(server.url().starts_with("http://127.0.0.1:"));
    let resp = get(&server.url());
    assert_eq!(resp.status, 200);
    assert_eq!(resp.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(resp.header("cache-control"), Some("no-store"));
    assert!(resp.text().contains("home 계획"));
}

#[test]
fn wasm_and_js_get_their_mime_types() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    let wasm = get(&format!("{}app_bg.wasm", server.url()));
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(wasm.body, b"\0asm\x01\0\0\0");
    let js = get(&format!("{}app.js?v=1", server.url()));
    assert_eq!(js.header("content-type"), Some("text/javascript; charset=utf-8"));
}

#[test]
fn missing_files_are_404_and_other_methods_405() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    assert_eq!(get(&format!("{}nope.js", server.url())).status, 404);
    let post = send("POST", &server.url(), &[], Some(b"x"), Duration::from_secs(5)).unwrap();
    assert_eq!(post.status, 405);
    let head = send("HEAD", &server.url(), &[], None, Duration::from_secs(5)).unwrap();
    assert_eq!((head.status, head.body.len()), (200, 0));
}

#[test]
fn raw_traversal_requests_do_not_leave_the_root() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    for target in ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2Fsecret.txt"] {
        let mut s = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(s, "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 404"), "{target}: {out}");
        assert!(!out.contains("outside the root"), "{target}");
    }
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    let mut s = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(s, "GET /app.js HTTP/1.1\r\nHost: x\r\n\r\nGET /app.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
}

#[test]
fn dropping_the_server_stops_listening() {
    let dir = site();
    let server = StaticServer::start(&dir.path().join("dist")).unwrap();
    let url = server.url();
    drop(server);
    let err = send("GET", &url, &[], None, Duration::from_secs(2)).unwrap_err();
    assert!(matches!(err, HttpError::Io(_) | HttpError::Incomplete(_)), "{err}");
}

#[test]
fn starting_on_a_missing_directory_fails_with_its_name() {
    let err = StaticServer::start(std::path::Path::new("/nonexistent/dist")).err().unwrap();
    assert!(err.to_string().contains("/nonexistent/dist"), "{err}");
}
