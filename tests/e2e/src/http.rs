//! Minimal HTTP/1.1 over `std::net`: what the test servers need to read requests and
//! write (also slowly streamed) responses, and a tiny blocking JSON client for
//! WebDriver and the mock's admin API.
//!
//! Streamed responses use `Transfer-Encoding: chunked` framing by default, so a
//! connection cut mid-stream is visible to the client as an incomplete body (the
//! browser's `fetch` reader then fails). `Connection: close` framing is also
//! available: there a cut looks like an ordinary end of the body.

use std::fmt;
use std::io::{self, BufRead, BufReader, Cursor, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Largest body either side accepts: 10 MB.
pub const MAX_BODY: usize = 10 * 1024 * 1024;
/// Largest request line or header line accepted.
const MAX_LINE: usize = 16 * 1024;
/// Largest header block accepted.
const MAX_HEAD: usize = 64 * 1024;
/// How long [`request`] waits for connecting, sending and each read.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How often an idle server connection checks whether its server is stopping.
const IDLE_POLL: Duration = Duration::from_millis(200);
/// An idle keep-alive connection is closed after this long.
const IDLE_LIMIT: Duration = Duration::from_secs(30);
/// Once a request has started arriving, each read may take this long.
const REQUEST_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an HTTP exchange failed.
#[derive(Debug)]
pub enum HttpError {
    /// The socket failed.
    Io(io::Error),
    /// Connecting or reading took longer than allowed; says what was awaited.
    Timeout(String),
    /// The peer sent something this reader cannot take as HTTP/1.1.
    BadMessage(String),
    /// A body larger than [`MAX_BODY`]; carries the announced or reached size.
    TooLarge(usize),
    /// The connection ended before the message was complete.
    Incomplete(String),
    /// A URL this client cannot use (only `http://host[:port]/path`).
    BadUrl(String),
    /// The body was not JSON.
    Json(String),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Io(e) => write!(f, "socket error: {e}"),
            HttpError::Timeout(what) => write!(f, "timed out {what}"),
            HttpError::BadMessage(m) => write!(f, "malformed HTTP message: {m}"),
            HttpError::TooLarge(n) => {
                write!(f, "body of {n} bytes exceeds the limit of {MAX_BODY}")
            }
            HttpError::Incomplete(m) => write!(f, "connection closed early: {m}"),
            HttpError::BadUrl(u) => write!(f, "unsupported URL {u:?} (only http://host:port/path)"),
            HttpError::Json(m) => write!(f, "body is not JSON: {m}"),
        }
    }
}

impl std::error::Error for HttpError {}

impl From<io::Error> for HttpError {
    fn from(e: io::Error) -> Self {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => HttpError::Timeout("waiting for the peer".into()),
            io::ErrorKind::UnexpectedEof => HttpError::Incomplete(e.to_string()),
            _ => HttpError::Io(e),
        }
    }
}

/// True for the error kinds a socket timeout produces.
pub fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

/// Header fields in arrival order; names compare case-insensitively.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// The first value of a header, by case-insensitive name.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Whether a header is present.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// All fields, in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Whether a comma-separated header (Connection, Transfer-Encoding) holds a token.
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        self.0
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    }
}

/// A request as a server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, `OPTIONS`, ...
    pub method: String,
    /// The request target as sent: path and optional query.
    pub target: String,
    /// `HTTP/1.1` or `HTTP/1.0`.
    pub version: String,
    /// The header fields.
    pub headers: Headers,
    /// The body, de-chunked if it was chunked.
    pub body: Vec<u8>,
}

impl Request {
    /// The target's path, without query or fragment.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or(self.target.as_str())
    }

    /// The target's query string, if any.
    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    /// A header value by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }

    /// The body parsed as JSON; an empty body is `null`.
    pub fn json(&self) -> Result<Value, HttpError> {
        parse_json_body(&self.body)
    }

    /// Whether the client asked to close the connection after this exchange.
    pub fn wants_close(&self) -> bool {
        if self.version.eq_ignore_ascii_case("HTTP/1.0") {
            !self.headers.has_token("connection", "keep-alive")
        } else {
            self.headers.has_token("connection", "close")
        }
    }
}

fn parse_json_body(body: &[u8]) -> Result<Value, HttpError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(body).map_err(|e| {
        let shown = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
        HttpError::Json(format!("{e}; body starts with {shown:?}"))
    })
}

/// Reads one line ending in LF (CR stripped); `None` at a clean end of input.
fn read_line(r: &mut impl BufRead, limit: usize) -> Result<Option<String>, HttpError> {
    let mut buf = Vec::new();
    (&mut *r).take(limit as u64 + 1).read_until(b'\n', &mut buf)?;
    if buf.is_empty() {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') {
        if buf.len() > limit {
            return Err(HttpError::BadMessage(format!("line longer than {limit} bytes")));
        }
        return Err(HttpError::Incomplete("inside a line".into()));
    }
    buf.pop();
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    String::from_utf8(buf).map(Some).map_err(|_| HttpError::BadMessage("line is not UTF-8".into()))
}

fn read_headers(r: &mut impl BufRead) -> Result<Headers, HttpError> {
    let mut headers = Vec::new();
    let mut total = 0;
    loop {
        let line = read_line(r, MAX_LINE)?.ok_or_else(|| HttpError::Incomplete("inside the header block".into()))?;
        if line.is_empty() {
            return Ok(Headers(headers));
        }
        total += line.len();
        if total > MAX_HEAD {
            return Err(HttpError::BadMessage(format!("header block larger than {MAX_HEAD} bytes")));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| HttpError::BadMessage(format!("header line without colon: {line:?}")))?;
        let name = name.trim();
        if name.is_empty() || name.contains(' ') {
            return Err(HttpError::BadMessage(format!("bad header name {name:?}")));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
}

/// Reads a chunked body into `out`, keeping what arrived even when it fails.
fn read_chunked_into(r: &mut impl BufRead, out: &mut Vec<u8>, limit: usize) -> Result<(), HttpError> {
    loop {
        let line = read_line(r, MAX_LINE)?.ok_or_else(|| HttpError::Incomplete("before a chunk size".into()))?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| HttpError::BadMessage(format!("bad chunk size {line:?}")))?;
        if size == 0 {
            // Trailer fields, then the empty line; a missing final CRLF is tolerated.
            while let Some(trailer) = read_line(r, MAX_LINE)? {
                if trailer.is_empty() {
                    break;
                }
            }
            return Ok(());
        }
        if out.len() + size > limit {
            return Err(HttpError::TooLarge(out.len() + size));
        }
        let got = (&mut *r).take(size as u64).read_to_end(out)?;
        if got < size {
            return Err(HttpError::Incomplete(format!("chunk of {size} bytes ended after {got}")));
        }
        match read_line(r, 2)? {
            Some(l) if l.is_empty() => {}
            Some(_) => return Err(HttpError::BadMessage("chunk not followed by CRLF".into())),
            None => return Err(HttpError::Incomplete("after a chunk".into())),
        }
    }
}

/// Decodes a chunked body held in memory: the data that arrived and whether the
/// terminating zero-size chunk was seen (false for a stream cut mid-way).
pub fn decode_chunked(data: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let complete = read_chunked_into(&mut Cursor::new(data), &mut out, usize::MAX).is_ok();
    (out, complete)
}

fn content_length(headers: &Headers) -> Result<Option<usize>, HttpError> {
    match headers.get("content-length") {
        None => Ok(None),
        Some(v) => {
            v.trim().parse::<usize>().map(Some).map_err(|_| HttpError::BadMessage(format!("bad Content-Length {v:?}")))
        }
    }
}

/// Reads one request; `Ok(None)` when the peer closed before sending anything.
/// Bodies above [`MAX_BODY`] are refused with [`HttpError::TooLarge`] before being read.
pub fn read_request(r: &mut impl BufRead) -> Result<Option<Request>, HttpError> {
    let mut line = match read_line(r, MAX_LINE)? {
        None => return Ok(None),
        Some(l) => l,
    };
    // Tolerate stray empty lines between keep-alive requests (RFC 9112 2.2).
    while line.is_empty() {
        line = match read_line(r, MAX_LINE)? {
            None => return Ok(None),
            Some(l) => l,
        };
    }
    let mut parts = line.split_whitespace();
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if v.starts_with("HTTP/1.") => (m, t, v),
        _ => return Err(HttpError::BadMessage(format!("bad request line {line:?}"))),
    };
    let (method, target, version) = (method.to_string(), target.to_string(), version.to_string());
    let headers = read_headers(r)?;
    let body = if headers.has_token("transfer-encoding", "chunked") {
        let mut body = Vec::new();
        read_chunked_into(r, &mut body, MAX_BODY)?;
        body
    } else {
        match content_length(&headers)? {
            None | Some(0) => Vec::new(),
            Some(n) if n > MAX_BODY => return Err(HttpError::TooLarge(n)),
            Some(n) => {
                let mut body = vec![0; n];
                r.read_exact(&mut body)?;
                body
            }
        }
    };
    Ok(Some(Request { method, target, version, headers, body }))
}

/// The standard reason phrase of a status code.
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "Status",
    }
}

fn write_head(
    w: &mut impl Write,
    status: u16,
    headers: &[(String, String)],
    extra: &[(&str, String)],
) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status));
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    for (n, v) in extra {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    w.write_all(head.as_bytes())
}

/// A complete response with a known length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header fields; `Content-Length` is added when writing.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// An empty response with this status.
    pub fn new(status: u16) -> Self {
        Response { status, headers: Vec::new(), body: Vec::new() }
    }

    /// A JSON response.
    pub fn json(status: u16, value: &Value) -> Self {
        Response::new(status).header("Content-Type", "application/json").body(value.to_string())
    }

    /// A response with a body of the given content type.
    pub fn with_body(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Response::new(status).header("Content-Type", content_type).body(body)
    }

    /// The same response with one more header field.
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// The same response with this body.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Writes status line, headers, `Content-Length` and body, then flushes.
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        self.write_inner(w, true)
    }

    /// Writes what [`Response::write_to`] writes but the body (the answer to `HEAD`).
    pub fn write_head_to(&self, w: &mut impl Write) -> io::Result<()> {
        self.write_inner(w, false)
    }

    fn write_inner(&self, w: &mut impl Write, with_body: bool) -> io::Result<()> {
        let length = if self.status == 204 || self.status == 304 {
            Vec::new()
        } else {
            vec![("Content-Length", self.body.len().to_string())]
        };
        write_head(w, self.status, &self.headers, &length)?;
        if with_body && !length.is_empty() {
            w.write_all(&self.body)?;
        }
        w.flush()
    }
}

/// How a streamed body's end is marked on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Transfer-Encoding: chunked`: each write is one chunk; a cut is detectable.
    Chunked,
    /// `Connection: close`: the body ends when the socket closes; a cut looks like the end.
    Close,
}

/// Writes a response body piece by piece, flushing each piece, so that it can be
/// sent slowly or abandoned mid-way (drop it without [`StreamWriter::finish`]).
pub struct StreamWriter<W: Write> {
    inner: W,
    framing: Framing,
    body_bytes: usize,
}

impl<W: Write> StreamWriter<W> {
    /// Writes the status line and headers (plus the framing header) and flushes.
    pub fn start(mut inner: W, status: u16, headers: &[(String, String)], framing: Framing) -> io::Result<Self> {
        let framing_header = match framing {
            Framing::Chunked => ("Transfer-Encoding", "chunked".to_string()),
            Framing::Close => ("Connection", "close".to_string()),
        };
        write_head(&mut inner, status, headers, &[framing_header])?;
        inner.flush()?;
        Ok(StreamWriter { inner, framing, body_bytes: 0 })
    }

    /// Writes and flushes one piece of the body (empty pieces are skipped).
    pub fn write_chunk(&mut self, data: &[u8]) -> io::Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        match self.framing {
            Framing::Chunked => {
                let mut framed = format!("{:x}\r\n", data.len()).into_bytes();
                framed.extend_from_slice(data);
                framed.extend_from_slice(b"\r\n");
                self.inner.write_all(&framed)?;
            }
            Framing::Close => self.inner.write_all(data)?,
        }
        self.body_bytes += data.len();
        self.inner.flush()
    }

    /// Body bytes written so far (framing not counted).
    pub fn body_bytes(&self) -> usize {
        self.body_bytes
    }

    /// Ends the body properly (the zero chunk for chunked framing) and gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        if self.framing == Framing::Chunked {
            self.inner.write_all(b"0\r\n\r\n")?;
        }
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// Gives the writer back without ending the body, e.g. to cut the connection.
    pub fn abandon(self) -> W {
        self.inner
    }
}

/// A response as the client received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientResponse {
    /// The status code.
    pub status: u16,
    /// The header fields.
    pub headers: Headers,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl ClientResponse {
    /// The body parsed as JSON; an empty body is `null`.
    pub fn json(&self) -> Result<Value, HttpError> {
        parse_json_body(&self.body)
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header value by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }
}

/// Reads one response; `head_request` says the body is absent whatever the headers say.
pub fn read_response(r: &mut impl BufRead, head_request: bool) -> Result<ClientResponse, HttpError> {
    let line = read_line(r, MAX_LINE)?.ok_or_else(|| HttpError::Incomplete("no response at all".into()))?;
    let mut parts = line.splitn(3, ' ');
    let status = match (parts.next(), parts.next()) {
        (Some(v), Some(code)) if v.starts_with("HTTP/1.") => {
            code.parse::<u16>().map_err(|_| HttpError::BadMessage(format!("bad status line {line:?}")))?
        }
        _ => return Err(HttpError::BadMessage(format!("bad status line {line:?}"))),
    };
    let headers = read_headers(r)?;
    let body = if head_request || status == 204 || status == 304 || (100..200).contains(&status) {
        Vec::new()
    } else if headers.has_token("transfer-encoding", "chunked") {
        let mut body = Vec::new();
        read_chunked_into(r, &mut body, MAX_BODY)?;
        body
    } else if let Some(n) = content_length(&headers)? {
        if n > MAX_BODY {
            return Err(HttpError::TooLarge(n));
        }
        let mut body = vec![0; n];
        r.read_exact(&mut body)?;
        body
    } else {
        let mut body = Vec::new();
        (&mut *r).take(MAX_BODY as u64 + 1).read_to_end(&mut body)?;
        if body.len() > MAX_BODY {
            return Err(HttpError::TooLarge(body.len()));
        }
        body
    };
    Ok(ClientResponse { status, headers, body })
}

/// The parts of an `http://` URL this client needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    /// Host name or address, without brackets.
    pub host: String,
    /// Port, 80 when absent.
    pub port: u16,
    /// Path and query, starting with `/`.
    pub target: String,
}

impl HttpUrl {
    /// Splits `http://host[:port][/path][?query]`; other schemes are refused.
    pub fn parse(url: &str) -> Result<HttpUrl, HttpError> {
        let bad = || HttpError::BadUrl(url.to_string());
        let rest = url.strip_prefix("http://").ok_or_else(bad)?;
        let (authority, target) = match rest.find(['/', '?']) {
            Some(i) if rest[i..].starts_with('/') => (&rest[..i], rest[i..].to_string()),
            Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
            None => (rest, "/".to_string()),
        };
        let target = target.split('#').next().unwrap_or("/").to_string();
        if authority.is_empty() || authority.contains('@') {
            return Err(bad());
        }
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (h, after) = v6.split_once(']').ok_or_else(bad)?;
            let port = match after.strip_prefix(':') {
                Some(p) => p.parse().map_err(|_| bad())?,
                None if after.is_empty() => 80,
                None => return Err(bad()),
            };
            (h.to_string(), port)
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), p.parse().map_err(|_| bad())?),
                None => (authority.to_string(), 80),
            }
        };
        Ok(HttpUrl { host, port, target })
    }

    /// The `Host` header value.
    pub fn host_header(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// Sends one request on a fresh connection (closed afterwards) and reads the whole response.
/// `timeout` bounds connecting and every single read and write.
pub fn send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    timeout: Duration,
) -> Result<ClientResponse, HttpError> {
    let parsed = HttpUrl::parse(url)?;
    let addrs: Vec<SocketAddr> = (parsed.host.as_str(), parsed.port)
        .to_socket_addrs()
        .map_err(|_| HttpError::BadUrl(url.to_string()))?
        .collect();
    let mut last_err = None;
    let mut stream = None;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last_err = Some(e),
        }
    }
    let mut stream = match (stream, last_err) {
        (Some(s), _) => s,
        (None, Some(e)) if is_timeout(&e) => return Err(HttpError::Timeout(format!("connecting to {url}"))),
        (None, Some(e)) => return Err(HttpError::Io(e)),
        (None, None) => return Err(HttpError::BadUrl(url.to_string())),
    };
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.set_nodelay(true)?;

    let mut head =
        format!("{method} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", parsed.target, parsed.host_header());
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!("Content-Length: {}\r\n", b.len()));
    } else if matches!(method, "POST" | "PUT" | "PATCH") {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    if let Some(b) = body {
        out.extend_from_slice(b);
    }
    stream.write_all(&out).map_err(|e| with_context(e, method, url))?;
    stream.flush()?;
    let mut reader = BufReader::new(stream);
    read_response(&mut reader, method.eq_ignore_ascii_case("HEAD")).map_err(|e| match e {
        HttpError::Timeout(_) => HttpError::Timeout(format!("after {timeout:?} waiting for {method} {url}")),
        other => other,
    })
}

fn with_context(e: io::Error, method: &str, url: &str) -> HttpError {
    if is_timeout(&e) {
        HttpError::Timeout(format!("sending {method} {url}"))
    } else {
        HttpError::Io(e)
    }
}

/// Sends a JSON request (or none) and returns the status with the body parsed as JSON
/// (`null` when empty); waits at most [`DEFAULT_TIMEOUT`] per step.
pub fn request(method: &str, url: &str, body: Option<&Value>) -> Result<(u16, Value), HttpError> {
    request_with_timeout(method, url, body, DEFAULT_TIMEOUT)
}

/// [`request`] with another timeout.
pub fn request_with_timeout(
    method: &str,
    url: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<(u16, Value), HttpError> {
    let encoded = body.map(|b| b.to_string().into_bytes());
    let mut headers = vec![("Accept", "application/json")];
    if encoded.is_some() {
        headers.push(("Content-Type", "application/json; charset=utf-8"));
    }
    let response = send(method, url, &headers, encoded.as_deref(), timeout)?;
    Ok((response.status, response.json()?))
}

/// What a server connection does after a handler answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Wait for the next request on the same connection.
    KeepAlive,
    /// Close the connection.
    Close,
}

/// The server side of one accepted connection, handed to request handlers.
pub struct Connection {
    stream: TcpStream,
    stop: Arc<AtomicBool>,
}

impl Connection {
    /// The socket, to write a response to.
    pub fn stream(&mut self) -> &mut TcpStream {
        &mut self.stream
    }

    /// Whether the server is shutting down (long handlers should give up).
    pub fn is_stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Sleeps, waking early when the server stops; false if it did.
    pub fn pause(&self, duration: Duration) -> bool {
        let deadline = Instant::now() + duration;
        loop {
            if self.is_stopping() {
                return false;
            }
            let now = Instant::now();
            if now >= deadline {
                return true;
            }
            thread::sleep((deadline - now).min(Duration::from_millis(20)));
        }
    }

    /// Closes both directions of the socket at once (no more bytes either way).
    pub fn cut(&mut self) {
        let _ = self.stream.flush();
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

type Handler = dyn Fn(Request, &mut Connection) -> io::Result<After> + Send + Sync;

/// A thread-per-connection HTTP/1.1 server on 127.0.0.1 that stops when dropped.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0 picks a free port) and serves every connection on its
    /// own thread with `handler`, which writes the response itself.
    pub fn start<H>(port: u16, name: &str, handler: H) -> io::Result<Server>
    where
        H: Fn(Request, &mut Connection) -> io::Result<After> + Send + Sync + 'static,
    {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let accept_stop = stop.clone();
        let conn_name = format!("{name}-conn");
        let accept_thread = thread::Builder::new().name(format!("{name}-accept")).spawn(move || {
            for stream in listener.incoming() {
                if accept_stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let stop = accept_stop.clone();
                let handler = handler.clone();
                let _ = thread::Builder::new()
                    .name(conn_name.clone())
                    .spawn(move || serve_connection(stream, stop, &*handler));
            }
        })?;
        Ok(Server { addr, stop, accept_thread: Some(accept_thread) })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.accept_thread.take() {
            let _ = t.join();
        }
    }
}

fn serve_connection(stream: TcpStream, stop: Arc<AtomicBool>, handler: &Handler) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut conn = Connection { stream, stop };
    let mut idle_since = Instant::now();
    loop {
        // Wait for the first byte of the next request in short slices, so that an idle
        // keep-alive connection notices a stopping server.
        let _ = conn.stream.set_read_timeout(Some(IDLE_POLL));
        match reader.fill_buf() {
            Ok([]) => return,
            Ok(_) => {}
            Err(e) if is_timeout(&e) => {
                if conn.is_stopping() || idle_since.elapsed() > IDLE_LIMIT {
                    return;
                }
                continue;
            }
            Err(_) => return,
        }
        let _ = conn.stream.set_read_timeout(Some(REQUEST_READ_TIMEOUT));
        let request = match read_request(&mut reader) {
            Ok(Some(r)) => r,
            Ok(None) => return,
            Err(HttpError::TooLarge(n)) => {
                let _ = Response::with_body(
                    413,
                    "text/plain; charset=utf-8",
                    format!("request body of {n} bytes exceeds {MAX_BODY}"),
                )
                .header("Connection", "close")
                .header("Access-Control-Allow-Origin", "*")
                .write_to(&mut conn.stream);
                return;
            }
            Err(HttpError::BadMessage(m)) => {
                let _ = Response::with_body(400, "text/plain; charset=utf-8", m)
                    .header("Connection", "close")
                    .write_to(&mut conn.stream);
                return;
            }
            Err(_) => return,
        };
        let close_wanted = request.wants_close();
        match handler(request, &mut conn) {
            Ok(After::KeepAlive) if !close_wanted && !conn.is_stopping() => {
                idle_since = Instant::now();
            }
            _ => {
                let _ = conn.stream.flush();
                let _ = conn.stream.shutdown(Shutdown::Both);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Result<Option<Request>, HttpError> {
        read_request(&mut Cursor::new(raw.as_bytes().to_vec()))
    }

    #[test]
    fn request_line_headers_and_body_are_read() {
        let req = parse(
            "POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: a\r\nContent-TYPE: application/json\r\ncontent-length: 7\r\n\r\n{\"a\":1}",
        )
        .unwrap()
        .unwrap();
        assert_eq!(req.method, "POST");
        assert_eq!(req.path(), "/v1/chat/completions");
        assert_eq!(req.query(), Some("x=1"));
        assert_eq!(req.header("content-type"), Some("application/json"));
        assert_eq!(req.header("CONTENT-LENGTH"), Some("7"));
        assert_eq!(req.json().unwrap()["a"], 1);
        assert!(!req.wants_close());
    }

    #[test]
    fn header_names_are_case_insensitive_and_values_trimmed() {
        let req =
            parse("GET / HTTP/1.1\r\nX-Api-Key:   k1  \r\nConnection: keep-alive, Close\r\n\r\n").unwrap().unwrap();
        assert_eq!(req.header("x-api-key"), Some("k1"));
        assert!(req.wants_close());
    }

    #[test]
    fn http_1_0_closes_unless_keep_alive() {
        let req = parse("GET / HTTP/1.0\r\n\r\n").unwrap().unwrap();
        assert!(req.wants_close());
    }

    #[test]
    fn chunked_request_body_is_decoded() {
        let req = parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(req.body, b"abcde");
    }

    #[test]
    fn empty_input_is_no_request() {
        assert!(parse("").unwrap().is_none());
    }

    #[test]
    fn body_over_ten_megabytes_is_refused_before_reading() {
        let raw = format!("POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n", MAX_BODY + 1);
        assert!(matches!(parse(&raw), Err(HttpError::TooLarge(n)) if n == MAX_BODY + 1));
    }

    #[test]
    fn malformed_requests_are_rejected() {
        let cases = [
            "GARBAGE\r\n\r\n",
            "GET / SPDY/3\r\n\r\n",
            "GET / HTTP/1.1\r\nNoColonHere\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        ];
        for raw in cases {
            assert!(matches!(parse(raw), Err(HttpError::BadMessage(_))), "{raw:?} should be a bad message");
        }
    }

    #[test]
    fn truncated_body_is_incomplete() {
        let r = parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
        assert!(matches!(r, Err(HttpError::Incomplete(_))), "{r:?}");
    }

    #[test]
    fn chunked_response_is_decoded_by_the_client_reader() {
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n\
                   4\r\n{\"ok\r\n6\r\n\":true\r\n1\r\n}\r\n0\r\nX-Trailer: 1\r\n\r\n";
        let resp = read_response(&mut Cursor::new(raw.as_bytes()), false).unwrap();
        assert_eq!(resp.status, 200);
        assert_eq!(resp.json().unwrap(), serde_json::json!({"ok": true}));
    }

    #[test]
    fn chunked_multibyte_text_split_across_chunks_is_reassembled() {
        let text = "계획 plan";
        let bytes = text.as_bytes();
        let mut raw = b"HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n".to_vec();
        for piece in bytes.chunks(2) {
            raw.extend_from_slice(format!("{:X}\r\n", piece.len()).as_bytes());
            raw.extend_from_slice(piece);
            raw.extend_from_slice(b"\r\n");
        }
        raw.extend_from_slice(b"0\r\n\r\n");
        let resp = read_response(&mut Cursor::new(raw), false).unwrap();
        assert_eq!(resp.text(), text);
    }

    #[test]
    fn content_length_and_read_to_end_responses_are_read() {
        let raw = "HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}extra";
        let resp = read_response(&mut Cursor::new(raw.as_bytes()), false).unwrap();
        assert_eq!((resp.status, resp.body.as_slice()), (404, &b"{}"[..]));
        let raw = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end";
        let resp = read_response(&mut Cursor::new(raw.as_bytes()), false).unwrap();
        assert_eq!(resp.text(), "until the end");
    }

    #[test]
    fn cut_chunked_body_keeps_what_arrived_and_is_incomplete() {
        let (data, complete) = decode_chunked(b"5\r\nhello\r\n5\r\nwor");
        assert_eq!((data.as_slice(), complete), (&b"hellowor"[..], false));
        let (data, complete) = decode_chunked(b"5\r\nhello\r\n0\r\n\r\n");
        assert_eq!((data.as_slice(), complete), (&b"hello"[..], true));
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel";
        let r = read_response(&mut Cursor::new(raw.as_bytes()), false);
        assert!(matches!(r, Err(HttpError::Incomplete(_))), "{r:?}");
    }

    #[test]
    fn urls_are_split_into_host_port_and_target() {
        let cases = [
            ("http://127.0.0.1:9515/session/1/url", ("127.0.0.1", 9515, "/session/1/url")),
            ("http://localhost", ("localhost", 80, "/")),
            ("http://127.0.0.1:80?q=1", ("127.0.0.1", 80, "/?q=1")),
            ("http://[::1]:8080/x#frag", ("::1", 8080, "/x")),
        ];
        for (url, (host, port, target)) in cases {
            let u = HttpUrl::parse(url).unwrap();
            assert_eq!((u.host.as_str(), u.port, u.target.as_str()), (host, port, target), "{url}");
        }
        for bad in ["https://x/", "ftp://x", "http://", "http://h:notaport/"] {
            assert!(HttpUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn stream_writer_frames_chunks_and_ends_with_zero_chunk() {
        let mut w = StreamWriter::start(Vec::new(), 200, &[], Framing::Chunked).unwrap();
        w.write_chunk(b"data: 1\n\n").unwrap();
        w.write_chunk(b"").unwrap();
        w.write_chunk("한".as_bytes()).unwrap();
        assert_eq!(w.body_bytes(), 12);
        let out = w.finish().unwrap();
        let resp = read_response(&mut Cursor::new(out), false).unwrap();
        assert_eq!(resp.text(), "data: 1\n\n한");
    }

    #[test]
    fn response_writer_adds_content_length() {
        let mut out = Vec::new();
        Response::json(201, &serde_json::json!({"a": "b"})).header("X-Test", "1").write_to(&mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.starts_with("HTTP/1.1 201 Created\r\n"), "{text}");
        let resp = read_response(&mut Cursor::new(out), false).unwrap();
        assert_eq!(resp.header("content-length"), Some("9"));
        assert_eq!(resp.header("x-test"), Some("1"));
    }
}
