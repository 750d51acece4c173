//! A static file server for a built `dist/` (or a test page), on 127.0.0.1.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::http::{After, Request, Response, Server};

/// Serves the files under one directory until dropped.
pub struct StaticServer {
    server: Server,
    root: PathBuf,
    hold: Option<Hold>,
}

/// Holds back some answers of a `StaticServer` (`start_holding`) until released: a network
/// that is slow for one kind of file. Dropping the server releases them.
#[derive(Clone)]
pub struct Hold(Arc<(Mutex<bool>, Condvar)>);

impl Hold {
    /// Lets every held request, and every later one, be answered.
    pub fn release(&self) {
        let (released, wake) = &*self.0;
        *released.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
    }

    /// Holds back the matching requests again, from the next one on.
    pub fn engage(&self) {
        *self.0 .0.lock().unwrap_or_else(|e| e.into_inner()) = false;
    }

    /// Waits until released; a test that never releases is not kept waiting past a minute.
    fn wait(&self) {
        let (released, wake) = &*self.0;
        let guard = released.lock().unwrap_or_else(|e| e.into_inner());
        let _ = wake.wait_timeout_while(guard, Duration::from_secs(60), |released| !*released);
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        if let Some(hold) = &self.hold {
            hold.release();
        }
    }
}

impl StaticServer {
    /// Serves `dir` on a free port of 127.0.0.1.
    pub fn start(dir: &Path) -> io::Result<StaticServer> {
        StaticServer::start_on(dir, 0)
    }

    /// Serves `dir` on 127.0.0.1:`port` (0 picks a free port).
    pub fn start_on(dir: &Path, port: u16) -> io::Result<StaticServer> {
        StaticServer::serve(dir, port, None, None)
    }

    /// Serves `dir` on a free port, with `content_type` for every file whose path ends with
    /// `suffix`: a host that does not know a kind of file (say, `.wasm` as
    /// `application/octet-stream`).
    pub fn start_retyped(dir: &Path, suffix: &str, content_type: &'static str) -> io::Result<StaticServer> {
        StaticServer::serve(dir, 0, None, Some((suffix.to_string(), content_type)))
    }

    /// Serves `dir` on a free port, answering a request whose path ends with `suffix` (say
    /// `.wasm`) only once the returned `Hold` is released.
    pub fn start_holding(dir: &Path, suffix: &str) -> io::Result<(StaticServer, Hold)> {
        let hold = Hold(Arc::new((Mutex::new(false), Condvar::new())));
        let server = StaticServer::serve(dir, 0, Some((suffix.to_string(), hold.clone())), None)?;
        Ok((server, hold))
    }

    fn serve(
        dir: &Path,
        port: u16,
        held: Option<(String, Hold)>,
        retyped: Option<(String, &'static str)>,
    ) -> io::Result<StaticServer> {
        let root =
            dir.canonicalize().map_err(|e| io::Error::new(e.kind(), format!("cannot serve {}: {e}", dir.display())))?;
        if !root.is_dir() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a directory", root.display())));
        }
        let shared_root = Arc::new(root.clone());
        let hold = held.as_ref().map(|(_, hold)| hold.clone());
        let server = Server::start(port, "static", move |req, conn| {
            if let Some((suffix, hold)) = &held {
                if req.path().ends_with(suffix.as_str()) {
                    hold.wait();
                }
            }
            let response = answer(&shared_root, &req, retyped.as_ref().map(|(s, t)| (s.as_str(), *t)));
            if req.method == "HEAD" {
                response.write_head_to(conn.stream())?;
            } else {
                response.write_to(conn.stream())?;
            }
            Ok(After::KeepAlive)
        })?;
        Ok(StaticServer { server, root, hold })
    }

    /// The base URL, ending in `/`: `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.server.port())
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// The served directory (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }
}

/// The file `req` asks for; `retyped`: a path suffix and the Content-Type to send for it.
fn answer(root: &Path, req: &Request, retyped: Option<(&str, &'static str)>) -> Response {
    if req.method != "GET" && req.method != "HEAD" {
        return plain(405, "only GET and HEAD are served").header("Allow", "GET, HEAD");
    }
    let Some(path) = resolve(root, req.path()) else {
        return plain(404, "not found");
    };
    match fs::read(&path) {
        Ok(bytes) => {
            let kind = match retyped {
                Some((suffix, kind)) if req.path().ends_with(suffix) => kind,
                _ => mime_type(&path),
            };
            Response::with_body(200, kind, bytes).header("Cache-Control", "no-store")
        }
        Err(_) => plain(404, "not found"),
    }
}

fn plain(status: u16, text: &str) -> Response {
    Response::with_body(status, "text/plain; charset=utf-8", text).header("Cache-Control", "no-store")
}

/// The Content-Type served for a file, by extension.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json" | "map") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Maps a URL path to a file under `root`: percent-decoded, `/` and directories to their
/// `index.html`; `None` for `..` segments, backslashes, NUL, escapes from `root`
/// (also through symlinks) and missing files.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path)?;
    if !decoded.starts_with('/') || decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    let mut path = root.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            s => path.push(s),
        }
    }
    if path.is_dir() {
        path.push("index.html");
    }
    let real = path.canonicalize().ok()?;
    let real_root = root.canonicalize().ok()?;
    (real.starts_with(&real_root) && real.is_file()).then_some(real)
}

/// Decodes `%XX` escapes; `None` for a broken escape or a result that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tempdir::TempDir;

    #[test]
    fn mime_types_by_extension() {
        let cases = [
            ("index.html", "text/html; charset=utf-8"),
            ("app-1a2b.js", "text/javascript; charset=utf-8"),
            ("snippet.mjs", "text/javascript; charset=utf-8"),
            ("app_bg.wasm", "application/wasm"),
            ("style.CSS", "text/css; charset=utf-8"),
            ("icon.svg", "image/svg+xml"),
            ("data.json", "application/json"),
            ("site.webmanifest", "application/manifest+json"),
            ("logo.png", "image/png"),
            ("favicon.ico", "image/x-icon"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("archive.bin", "application/octet-stream"),
            ("no_extension", "application/octet-stream"),
        ];
        for (name, mime) in cases {
            assert_eq!(mime_type(Path::new(name)), mime, "{name}");
        }
    }

    #[test]
    fn paths_resolve_inside_root_and_traversal_is_rejected() {
        let dir = TempDir::new("static-resolve").unwrap();
        fs::write(dir.path().join("e2e-outside.txt"), "secret").unwrap();
        let root = dir.path().join("dist");
        fs::create_dir(&root).unwrap();
        let root = root.canonicalize().unwrap();
        fs::write(root.join("index.html"), "<p>home</p>").unwrap();
        fs::create_dir(root.join("sub")).unwrap();
        fs::write(root.join("sub/index.html"), "sub").unwrap();
        fs::write(root.join("sub/a b.js"), "js").unwrap();

        let found = [
            ("/", "index.html"),
            ("/index.html", "index.html"),
            ("/sub/", "sub/index.html"),
            ("/sub", "sub/index.html"),
            ("/sub/a%20b.js", "sub/a b.js"),
            ("//sub/./a%20b.js", "sub/a b.js"),
        ];
        for (url, rel) in found {
            assert_eq!(resolve(&root, url), Some(root.join(rel)), "{url}");
        }
        let rejected = [
            "/../e2e-outside.txt",
            "/sub/../../e2e-outside.txt",
            "/%2e%2e/e2e-outside.txt",
            "/sub/%2E%2E/%2E%2E/e2e-outside.txt",
            "/..%2fe2e-outside.txt",
            "/sub\\..\\..\\e2e-outside.txt",
            "/%00",
            "/%zz",
            "/missing.js",
            "relative.html",
        ];
        for url in rejected {
            assert_eq!(resolve(&root, url), None, "{url}");
        }
    }
}
