//! The mock LLM server: OpenAI chat completions and Anthropic messages (whole and
//! streamed), CORS for direct browser calls, default answers by the app's role line,
//! and an admin API under `/__mock/` to script answers, inject faults, change pacing
//! and read back what was asked.
//!
//! Order of decisions for a model request: body parse (400) → key and header checks
//! (401/400) → request validation (400) → the next matching fault → the next matching
//! scripted reply, else the default reply. Latency applies before the first byte of
//! every answer at `/v1/*`, errors included.

pub mod replies;
pub mod wire;

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::http::{After, Connection, Framing, Request, Response, Server, StreamWriter};
pub use replies::{default_reply, request_echo, role_of};
use wire::{Provider, Reply, StreamShape};

/// How the mock starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MockConfig {
    /// Port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// When set, model requests must carry this key (`Authorization: Bearer` for
    /// OpenAI, `x-api-key` for Anthropic).
    pub api_key: Option<String>,
    /// The pacing at start; `/__mock/reset` returns to it.
    pub pacing: Pacing,
}

/// How fast answers go out; changeable at run time through `/__mock/config`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pacing {
    /// Delay before the first byte of every answer at `/v1/*`.
    #[serde(default)]
    pub latency_ms: u64,
    /// Delay between wire chunks of a streamed answer.
    #[serde(default)]
    pub chunk_delay_ms: u64,
    /// Wire chunk size in bytes (cutting through lines and UTF-8 characters);
    /// 0 sends one SSE event per chunk.
    #[serde(default)]
    pub chunk_bytes: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PacingUpdate {
    latency_ms: Option<u64>,
    chunk_delay_ms: Option<u64>,
    chunk_bytes: Option<usize>,
}

/// Something going wrong on purpose, consumed by the next matching request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// Answer with this status and the provider's error JSON (or `body`: a string is
    /// sent as it is, other JSON as JSON), with `Retry-After` when given.
    Status {
        /// 400..=599.
        status: u16,
        /// Seconds for the `Retry-After` header.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<u64>,
        /// Replaces the default error body.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body: Option<Value>,
    },
    /// Read the request, send nothing for `ms` milliseconds, then close.
    Hang {
        /// How long to stay silent.
        ms: u64,
    },
    /// Answer normally but without any `Access-Control-*` header (preflight included).
    Cors,
    /// Start the normal answer, then close the socket after `after_bytes` body bytes:
    /// no `[DONE]` / `message_stop`. With `clean`, the body is framed by
    /// `Connection: close` so the cut looks like an ordinary end of the body; otherwise
    /// the chunked (or Content-Length) framing is left incomplete.
    Cut {
        /// Body bytes sent before the cut.
        after_bytes: usize,
        /// Frame the body by closing the connection.
        #[serde(default)]
        clean: bool,
    },
    /// One `data:` line of broken JSON after the first text piece (the stream then
    /// goes on normally); a non-streamed answer is a truncated JSON body.
    Malformed,
    /// A well-formed answer whose text is empty.
    Empty,
    /// Close the connection without any response.
    Drop,
}

impl Fault {
    /// The fault's kind as written in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Status { .. } => "status",
            Fault::Hang { .. } => "hang",
            Fault::Cors => "cors",
            Fault::Cut { .. } => "cut",
            Fault::Malformed => "malformed",
            Fault::Empty => "empty",
            Fault::Drop => "drop",
        }
    }
}

/// A queued fault and the requests it may hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaultRule {
    /// What goes wrong.
    #[serde(flatten)]
    pub fault: Fault,
    /// Only a request whose system prompt names this role (`None`: any request).
    #[serde(default)]
    pub role: Option<String>,
    /// Only a request whose path equals or ends with this (`None`: any path).
    #[serde(default)]
    pub path: Option<String>,
}

impl FaultRule {
    /// A rule hitting the next request of any role and path.
    pub fn new(fault: Fault) -> FaultRule {
        FaultRule { fault, role: None, path: None }
    }

    /// The same rule, only for requests of this role.
    pub fn role(mut self, role: &str) -> FaultRule {
        self.role = Some(role.to_string());
        self
    }

    /// The same rule, only for paths equal to or ending with this.
    pub fn path(mut self, path: &str) -> FaultRule {
        self.path = Some(path.to_string());
        self
    }

    fn matches(&self, path: &str, role: Option<&str>) -> bool {
        let path_ok = self.path.as_deref().is_none_or(|p| path == p || path.ends_with(p));
        let role_ok = self.role.is_none() || self.role.as_deref() == role;
        path_ok && role_ok
    }
}

/// A queued answer that replaces the default for the next request of its role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedReply {
    /// Only for this role (`None`: the next model request of any role).
    #[serde(default)]
    pub role: Option<String>,
    /// The answer text; JSON other than a string is sent as its compact text.
    #[serde(default)]
    pub reply: Value,
    /// Tool calls to answer with besides (or instead of) the text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ScriptedToolCall>,
}

impl ScriptedReply {
    /// A text answer for the next request of `role` (any role when `None`).
    pub fn text(role: Option<&str>, reply: impl Into<String>) -> ScriptedReply {
        ScriptedReply { role: role.map(str::to_string), reply: Value::String(reply.into()), tool_calls: Vec::new() }
    }

    /// The answer's text.
    pub fn reply_text(&self) -> String {
        match &self.reply {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// A tool call a scripted answer makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedToolCall {
    /// The tool's name.
    pub name: String,
    /// The input: a JSON object, or a string holding JSON.
    #[serde(default)]
    pub arguments: Value,
}

impl ScriptedToolCall {
    /// The input as JSON text, as OpenAI sends `arguments`.
    pub fn arguments_text(&self) -> String {
        match &self.arguments {
            Value::Null => "{}".to_string(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// The input as a JSON value, as Anthropic sends `input` (`{}` when unreadable).
    pub fn arguments_object(&self) -> Value {
        match &self.arguments {
            Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| json!({})),
            Value::Null => json!({}),
            other => other.clone(),
        }
    }
}

/// One request the mock received at `/v1/*` (preflights and admin calls are not recorded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// 1, 2, ... in arrival order since start or the last reset.
    pub seq: u64,
    /// HTTP method.
    pub method: String,
    /// Path without query.
    pub path: String,
    /// The role from the system prompt's `# role:` line.
    pub role: Option<String>,
    /// Whether the body asked for a stream.
    pub stream: bool,
    /// Whether `Authorization` or `x-api-key` was present.
    pub has_auth: bool,
    /// Header fields by lowercase name; key values are redacted.
    pub headers: BTreeMap<String, String>,
    /// The body as JSON (`null` when empty or unreadable).
    pub body: Value,
    /// Milliseconds since the mock started when the request had been read.
    pub started_ms: u64,
    /// Milliseconds since the mock started when the answer ended; `None` while running.
    pub finished_ms: Option<u64>,
    /// The mock's event counter when the request had been read: orders starts and ends
    /// of all requests without depending on the clock's resolution.
    #[serde(default)]
    pub started_tick: u64,
    /// The mock's event counter when the answer ended; `None` while running.
    #[serde(default)]
    pub finished_tick: Option<u64>,
    /// Wall-clock time (ms since the Unix epoch) when the first byte of a streamed body
    /// was written, to compare with the page's paint time.
    #[serde(default)]
    pub first_byte_epoch_ms: Option<u64>,
    /// The status sent; `None` for `hang` and `drop`, or while running.
    pub status: Option<u16>,
    /// The kind of fault applied, if any.
    pub fault: Option<String>,
    /// The client closed the connection while a streamed answer was still being sent.
    #[serde(default)]
    pub client_left: bool,
}

impl RecordedRequest {
    /// The system prompt: OpenAI's first system/developer message or Anthropic's `system`.
    pub fn system_prompt(&self) -> String {
        system_text(provider_of_path(&self.path), &self.body)
    }

    /// The text of the last user message.
    pub fn last_user_text(&self) -> String {
        last_user_text(&self.body)
    }

    /// Whether this request's time span overlaps another's (both must have finished): each
    /// started before the other ended, in the mock's order of events.
    pub fn overlaps(&self, other: &RecordedRequest) -> bool {
        match (self.finished_tick, other.finished_tick) {
            (Some(a_end), Some(b_end)) => self.started_tick < b_end && other.started_tick < a_end,
            _ => false,
        }
    }
}

struct State {
    pacing: Pacing,
    scripts: VecDeque<ScriptedReply>,
    faults: VecDeque<FaultRule>,
    requests: Vec<RecordedRequest>,
    next_seq: u64,
    /// Counts starts and ends of requests (see `RecordedRequest::started_tick`).
    tick: u64,
    /// Requests held until their fellows arrive (see `MockLlm::gather`).
    gatherings: Vec<Gathering>,
    next_gathering: u64,
    /// Bumped by reset, so answers still running from before do not touch the new log.
    generation: u64,
    /// The window llama.cpp's `GET /props` reports as `n_ctx`; None answers 404 there.
    server_window: Option<u32>,
    /// How many `GET /props` asks were answered with a window.
    window_reports: u32,
}

struct Shared {
    state: Mutex<State>,
    initial: Pacing,
    api_key: Option<String>,
    started: Instant,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking handler thread must not take the whole mock down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn reset(&self) {
        let mut s = self.lock();
        s.pacing = self.initial;
        s.scripts.clear();
        s.faults.clear();
        s.requests.clear();
        s.next_seq = 1;
        s.gatherings.clear();
        s.generation += 1;
        s.server_window = None;
    }

    fn finish(&self, ticket: Ticket, status: Option<u16>) {
        let now = self.now_ms();
        let mut s = self.lock();
        if s.generation != ticket.generation {
            return;
        }
        // The first call counts: later ones only confirm the end.
        s.tick += 1;
        let tick = s.tick;
        if let Some(r) = s.requests.iter_mut().rev().find(|r| r.seq == ticket.seq && r.finished_ms.is_none()) {
            r.finished_ms = Some(now);
            r.finished_tick = Some(tick);
            r.status = status;
        }
    }

    fn note_first_byte(&self, ticket: Ticket) {
        let epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let mut s = self.lock();
        if s.generation != ticket.generation {
            return;
        }
        if let Some(r) = s.requests.iter_mut().rev().find(|r| r.seq == ticket.seq) {
            r.first_byte_epoch_ms.get_or_insert(epoch_ms);
        }
    }

    fn note_client_left(&self, ticket: Ticket) {
        let mut s = self.lock();
        if s.generation != ticket.generation {
            return;
        }
        if let Some(r) = s.requests.iter_mut().rev().find(|r| r.seq == ticket.seq) {
            r.client_left = true;
        }
    }

    fn note_fault(&self, ticket: Ticket, kind: &str) {
        let mut s = self.lock();
        if s.generation != ticket.generation {
            return;
        }
        if let Some(r) = s.requests.iter_mut().rev().find(|r| r.seq == ticket.seq) {
            r.fault = Some(kind.to_string());
        }
    }

    fn take_fault(&self, path: &str, role: Option<&str>) -> Option<Fault> {
        let mut s = self.lock();
        let i = s.faults.iter().position(|f| f.matches(path, role))?;
        s.faults.remove(i).map(|r| r.fault)
    }

    /// A preflight cannot know the role, so only rules without a role filter apply, and
    /// only the first one matching the path, if it is a `cors` fault.
    fn take_preflight_cors_fault(&self, path: &str) -> bool {
        let mut s = self.lock();
        let first = s.faults.iter().position(|f| f.role.is_none() && f.matches(path, None));
        match first {
            Some(i) if s.faults[i].fault == Fault::Cors => {
                s.faults.remove(i);
                true
            }
            _ => false,
        }
    }

    /// Joins the open gathering for `role`, if any, and waits until it is full, the mock
    /// is reset, or `GATHER_LIMIT` has passed.
    fn join_gathering(&self, role: Option<&str>, conn: &Connection) {
        let id = {
            let mut s = self.lock();
            let Some(g) = s.gatherings.iter_mut().find(|g| g.arrived < g.count && g.matches(role)) else {
                return;
            };
            g.arrived += 1;
            g.id
        };
        let deadline = Instant::now() + GATHER_LIMIT;
        loop {
            let full = self.lock().gatherings.iter().find(|g| g.id == id).is_none_or(|g| g.arrived >= g.count);
            if full || Instant::now() >= deadline || !conn.pause(Duration::from_millis(5)) {
                return;
            }
        }
    }

    fn take_script(&self, role: Option<&str>) -> Option<ScriptedReply> {
        let mut s = self.lock();
        let i = s.scripts.iter().position(|r| r.role.is_none() || r.role.as_deref() == role)?;
        s.scripts.remove(i)
    }
}

/// The longest a request waits for its gathering to fill.
const GATHER_LIMIT: Duration = Duration::from_secs(10);

/// Requests of one role held back until `count` of them have arrived.
#[derive(Debug)]
struct Gathering {
    id: u64,
    role: Option<String>,
    count: usize,
    arrived: usize,
}

impl Gathering {
    fn matches(&self, role: Option<&str>) -> bool {
        self.role.is_none() || self.role.as_deref() == role
    }
}

#[derive(Debug, Clone, Copy)]
struct Ticket {
    seq: u64,
    generation: u64,
}

/// A running mock LLM server; stops when dropped.
pub struct MockLlm {
    server: Server,
    shared: Arc<Shared>,
}

impl MockLlm {
    /// Starts serving on 127.0.0.1, one thread per connection.
    pub fn start(config: MockConfig) -> io::Result<MockLlm> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                pacing: config.pacing,
                scripts: VecDeque::new(),
                faults: VecDeque::new(),
                requests: Vec::new(),
                next_seq: 1,
                tick: 0,
                gatherings: Vec::new(),
                next_gathering: 1,
                generation: 0,
                server_window: None,
                window_reports: 0,
            }),
            initial: config.pacing,
            api_key: config.api_key.filter(|k| !k.is_empty()),
            started: Instant::now(),
        });
        let handler_shared = shared.clone();
        let server = Server::start(config.port, "mock-llm", move |req, conn| handle(&handler_shared, req, conn))?;
        Ok(MockLlm { server, shared })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port())
    }

    /// The base URL for both providers' clients: `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.url())
    }

    /// The app's LLM settings (`deliberate.llm`) sending every call to this mock's
    /// OpenAI-compatible endpoint, model `mock-small`, with this time limit.
    pub fn app_settings(&self, timeout_secs: u32) -> serde_json::Value {
        serde_json::json!({
            "enabled": true,
            "designer": { "kind": "openai_compatible", "base_url": self.base_url(), "model": "mock-small" },
            "separate_critic": false,
            "critic": { "kind": "openai_compatible", "base_url": self.base_url(), "model": "mock-small" },
            "remember_keys": false,
            "timeout_secs": timeout_secs
        })
    }

    /// The admin API's root: `http://127.0.0.1:PORT/__mock`.
    pub fn admin_url(&self) -> String {
        format!("{}/__mock", self.url())
    }

    /// Forgets scripts, faults, gatherings and recorded requests and restores the starting pacing.
    pub fn reset(&self) {
        self.shared.reset();
    }

    /// The pacing in force.
    pub fn pacing(&self) -> Pacing {
        self.shared.lock().pacing
    }

    /// Replaces the pacing.
    pub fn set_pacing(&self, pacing: Pacing) {
        self.shared.lock().pacing = pacing;
    }

    /// Answers llama.cpp's `GET /props` with this context window (`n_ctx`), or 404 when None
    /// (the default, and after `reset`).
    pub fn set_server_window(&self, tokens: Option<u32>) {
        self.shared.lock().server_window = tokens;
    }

    /// How many `GET /props` asks were answered with a window so far.
    pub fn window_reports(&self) -> u32 {
        self.shared.lock().window_reports
    }

    /// Queues a text answer for the next request of `role` (any role when `None`).
    pub fn script(&self, role: Option<&str>, reply: impl Into<String>) {
        self.push_script(ScriptedReply::text(role, reply));
    }

    /// Queues a scripted answer.
    pub fn push_script(&self, reply: ScriptedReply) {
        self.shared.lock().scripts.push_back(reply);
    }

    /// Queues a fault for the next model request of any role and path.
    pub fn fault(&self, fault: Fault) {
        self.push_fault(FaultRule::new(fault));
    }

    /// Queues a fault rule.
    pub fn push_fault(&self, rule: FaultRule) {
        self.shared.lock().faults.push_back(rule);
    }

    /// Holds the answers of the next `count` model requests of `role` (any role when `None`)
    /// until all of them have arrived, for at most 10 s. Calls the app makes at the same time
    /// then overlap for sure, however slow the machine; calls it makes one after another
    /// cannot all arrive while the first is held, so they still do not overlap.
    pub fn gather(&self, role: Option<&str>, count: usize) {
        let mut s = self.shared.lock();
        let id = s.next_gathering;
        s.next_gathering += 1;
        s.gatherings.push(Gathering { id, role: role.map(str::to_string), count, arrived: 0 });
    }

    /// Every recorded request so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// Waits until the request numbered `seq` has finished (or `timeout` passed) and
    /// returns its record as it is then.
    pub fn wait_for_end_of(&self, seq: u64, timeout: Duration) -> Option<RecordedRequest> {
        let deadline = Instant::now() + timeout;
        loop {
            let found = self.requests().into_iter().find(|r| r.seq == seq);
            if found.as_ref().is_some_and(|r| r.finished_ms.is_some()) || Instant::now() >= deadline {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until at least `count` recorded requests have finished (or `timeout`
    /// passed) and returns all recorded requests.
    pub fn wait_for_finished(&self, count: usize, timeout: Duration) -> Vec<RecordedRequest> {
        let deadline = Instant::now() + timeout;
        loop {
            let all = self.requests();
            let finished = all.iter().filter(|r| r.finished_ms.is_some()).count();
            if finished >= count || Instant::now() >= deadline {
                return all;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn provider_of_path(path: &str) -> Provider {
    if path.ends_with("/messages") {
        Provider::Anthropic
    } else {
        Provider::OpenAi
    }
}

fn cors_headers() -> Vec<(String, String)> {
    vec![
        ("Access-Control-Allow-Origin".into(), "*".into()),
        ("Access-Control-Expose-Headers".into(), "retry-after, x-request-id, request-id".into()),
        // Lets the page's Resource Timing show each request's phases (for timing probes).
        ("Timing-Allow-Origin".into(), "*".into()),
    ]
}

fn with_cors(mut response: Response, cors: bool) -> Response {
    if cors {
        response.headers.extend(cors_headers());
    }
    response
}

fn handle(shared: &Shared, req: Request, conn: &mut Connection) -> io::Result<After> {
    if req.method == "OPTIONS" {
        preflight(shared, &req).write_to(conn.stream())?;
        return Ok(After::KeepAlive);
    }
    let path = req.path().to_string();
    if let Some(command) = path.strip_prefix("/__mock/") {
        with_cors(admin(shared, &req, command), true).write_to(conn.stream())?;
        return Ok(After::KeepAlive);
    }
    let server_window = shared.lock().server_window;
    if let (("GET", "/props"), Some(n_ctx)) = ((req.method.as_str(), path.as_str()), server_window) {
        let body = serde_json::json!({"default_generation_settings": {"n_ctx": n_ctx}, "total_slots": 1});
        with_cors(Response::json(200, &body), true).write_to(conn.stream())?;
        shared.lock().window_reports += 1;
        return Ok(After::KeepAlive);
    }
    let endpoint = match (req.method.as_str(), path.as_str()) {
        ("POST", "/v1/chat/completions") => Endpoint::Chat(Provider::OpenAi),
        ("POST", "/v1/messages") => Endpoint::Chat(Provider::Anthropic),
        ("GET", "/v1/models") => Endpoint::Models,
        (method, _) => {
            let message = format!("Invalid URL ({method} {path}) (mock)");
            let body = wire::error_body(provider_of_path(&path), 404, Some(&message), 0);
            with_cors(Response::json(404, &body), true).write_to(conn.stream())?;
            return Ok(After::KeepAlive);
        }
    };
    model_endpoint(shared, req, conn, endpoint)
}

fn preflight(shared: &Shared, req: &Request) -> Response {
    let path = req.path();
    let blocked = !path.starts_with("/__mock/") && shared.take_preflight_cors_fault(path);
    let response = Response::new(204);
    if blocked {
        return response;
    }
    response
        .header("Access-Control-Allow-Origin", "*")
        .header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        .header(
            "Access-Control-Allow-Headers",
            "authorization, content-type, x-api-key, anthropic-version, \
             anthropic-dangerous-direct-browser-access",
        )
        .header("Access-Control-Max-Age", "600")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    Chat(Provider),
    Models,
}

/// How the answer ends up on the wire.
enum Action {
    /// A complete response.
    Respond(Response),
    /// An SSE stream with this status and these events.
    Stream(Vec<Vec<u8>>),
    /// Silence, then close.
    Hang(Duration),
    /// Close at once.
    Drop,
}

fn redacted_headers(req: &Request) -> BTreeMap<String, String> {
    req.headers
        .iter()
        .map(|(n, v)| {
            let name = n.to_ascii_lowercase();
            let value = match name.as_str() {
                "authorization" => match v.split_once(' ') {
                    Some((scheme, _)) => format!("{scheme} [redacted]"),
                    None => "[redacted]".to_string(),
                },
                "x-api-key" => "[redacted]".to_string(),
                _ => v.to_string(),
            };
            (name, value)
        })
        .collect()
}

fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            parts.iter().filter_map(|p| p.as_str().or_else(|| p["text"].as_str())).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

fn system_text(provider: Provider, body: &Value) -> String {
    match provider {
        Provider::OpenAi => body["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["role"] == "system" || m["role"] == "developer"))
            .map(|m| content_text(&m["content"]))
            .unwrap_or_default(),
        Provider::Anthropic => content_text(&body["system"]),
    }
}

fn last_user_text(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .map(|m| content_text(&m["content"]))
        .unwrap_or_default()
}

fn mask_key(key: &str) -> String {
    let shown: String = key.chars().take(3).collect();
    format!("{shown}***")
}

/// The key and header checks of each provider: `(status, message)` when they fail.
fn auth_failure(shared: &Shared, req: &Request, provider: Provider) -> Option<(u16, String)> {
    match provider {
        Provider::OpenAi => {
            let key = shared.api_key.as_deref()?;
            match req.header("authorization") {
                None => Some((
                    401,
                    "You didn't provide an API key. You need to provide your API key in an \
                     Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY) (mock)."
                        .into(),
                )),
                Some(v) => {
                    let given = v.strip_prefix("Bearer ").unwrap_or(v).trim();
                    (given != key).then(|| (401, format!("Incorrect API key provided: {} (mock).", mask_key(given))))
                }
            }
        }
        Provider::Anthropic => {
            let browser_ok =
                req.header("anthropic-dangerous-direct-browser-access").is_some_and(|v| v.eq_ignore_ascii_case("true"));
            if req.header("origin").is_some() && !browser_ok {
                return Some((
                    401,
                    "CORS requests must set 'anthropic-dangerous-direct-browser-access' header (mock)".into(),
                ));
            }
            let Some(given) = req.header("x-api-key") else {
                return Some((401, "x-api-key header is required (mock)".into()));
            };
            if shared.api_key.as_deref().is_some_and(|k| k != given) {
                return Some((401, "invalid x-api-key (mock)".into()));
            }
            if req.header("anthropic-version").is_none() {
                return Some((400, "anthropic-version: header is required (mock)".into()));
            }
            None
        }
    }
}

/// What each provider refuses in a request body: the 400 message when it does.
fn invalid_request(provider: Provider, body: &Value) -> Option<String> {
    if !body.is_object() {
        return Some("The request body must be a JSON object (mock).".into());
    }
    if body["model"].as_str().is_none_or(str::is_empty) {
        return Some("you must provide a model parameter (mock)".into());
    }
    if body["messages"].as_array().is_none_or(|m| m.is_empty()) {
        return Some("'messages' must be a non-empty array (mock)".into());
    }
    match provider {
        Provider::OpenAi => {
            let has_options = !body["stream_options"].is_null();
            (has_options && body["stream"] != true)
                .then(|| "The 'stream_options' parameter is only allowed when 'stream' is enabled (mock).".into())
        }
        Provider::Anthropic => (!body["max_tokens"].is_u64()).then(|| "max_tokens: Field required (mock)".into()),
    }
}

fn error_response(provider: Provider, status: u16, message: Option<&str>, seq: u64) -> Response {
    let body = wire::error_body(provider, status, message, seq);
    Response::json(status, &body)
}

fn status_fault_response(
    provider: Provider,
    status: u16,
    retry_after: Option<u64>,
    body: Option<Value>,
    seq: u64,
) -> Response {
    let mut response = match body {
        None => error_response(provider, status, None, seq),
        Some(Value::String(text)) => {
            let trimmed = text.trim_start();
            let content_type = if serde_json::from_str::<Value>(&text).is_ok() {
                "application/json"
            } else if trimmed.starts_with('<') {
                "text/html; charset=utf-8"
            } else {
                "text/plain; charset=utf-8"
            };
            Response::with_body(status, content_type, text)
        }
        Some(json_body) => Response::json(status, &json_body),
    };
    if let Some(secs) = retry_after {
        response = response.header("Retry-After", secs.to_string());
    }
    response
}

fn model_endpoint(shared: &Shared, req: Request, conn: &mut Connection, endpoint: Endpoint) -> io::Result<After> {
    let path = req.path().to_string();
    let provider = match endpoint {
        Endpoint::Chat(p) => p,
        Endpoint::Models if req.header("x-api-key").is_some() || req.header("anthropic-version").is_some() => {
            Provider::Anthropic
        }
        Endpoint::Models => Provider::OpenAi,
    };
    let parsed = req.json();
    let body = parsed.as_ref().cloned().unwrap_or(Value::Null);
    let role = match endpoint {
        Endpoint::Chat(_) => role_of(&system_text(provider, &body)),
        Endpoint::Models => None,
    };
    let stream = matches!(endpoint, Endpoint::Chat(_)) && body["stream"] == true;
    let ticket = {
        let started_ms = shared.now_ms();
        let mut s = shared.lock();
        let seq = s.next_seq;
        s.next_seq += 1;
        s.tick += 1;
        let started_tick = s.tick;
        s.requests.push(RecordedRequest {
            seq,
            method: req.method.clone(),
            path: path.clone(),
            role: role.clone(),
            stream,
            has_auth: req.header("authorization").is_some() || req.header("x-api-key").is_some(),
            headers: redacted_headers(&req),
            body: body.clone(),
            started_ms,
            finished_ms: None,
            started_tick,
            finished_tick: None,
            first_byte_epoch_ms: None,
            status: None,
            fault: None,
            client_left: false,
        });
        Ticket { seq, generation: s.generation }
    };
    let pacing = shared.lock().pacing;
    let seq = ticket.seq;

    let mut cors = true;
    let mut cut = None;
    let mut shape = StreamShape { include_usage: body["stream_options"]["include_usage"] == true, malformed: false };
    let mut empty = false;

    let action = 'decide: {
        if matches!(endpoint, Endpoint::Chat(_)) {
            if let Err(e) = &parsed {
                let message = format!("We could not parse the JSON body of your request (mock): {e}");
                break 'decide Action::Respond(error_response(provider, 400, Some(&message), seq));
            }
        }
        if let Some((status, message)) = auth_failure(shared, &req, provider) {
            break 'decide Action::Respond(error_response(provider, status, Some(&message), seq));
        }
        if matches!(endpoint, Endpoint::Chat(_)) {
            if let Some(message) = invalid_request(provider, &body) {
                break 'decide Action::Respond(error_response(provider, 400, Some(&message), seq));
            }
        }
        if let Some(fault) = shared.take_fault(&path, role.as_deref()) {
            shared.note_fault(ticket, fault.kind());
            match fault {
                Fault::Status { status, retry_after, body } => {
                    break 'decide Action::Respond(status_fault_response(provider, status, retry_after, body, seq))
                }
                Fault::Hang { ms } => break 'decide Action::Hang(Duration::from_millis(ms)),
                Fault::Drop => break 'decide Action::Drop,
                Fault::Cors => cors = false,
                Fault::Cut { after_bytes, clean } => cut = Some((after_bytes, clean)),
                Fault::Malformed => shape.malformed = true,
                Fault::Empty => empty = true,
            }
        }
        if endpoint == Endpoint::Models {
            let body =
                if empty { json!({"object": "list", "data": [], "has_more": false}) } else { wire::models_body() };
            break 'decide Action::Respond(if shape.malformed {
                Response::with_body(200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":")
            } else {
                Response::json(200, &body)
            });
        }
        // Scripts are only spent on answers whose text reaches the client.
        let script = if empty || !cors { None } else { shared.take_script(role.as_deref()) };
        let (text, tool_calls) = match script {
            _ if empty => (String::new(), Vec::new()),
            Some(s) => (s.reply_text(), s.tool_calls.clone()),
            None => (default_reply(role.as_deref(), &last_user_text(&body)), Vec::new()),
        };
        let reply = Reply {
            seq,
            model: body["model"].as_str().unwrap_or("mock-small").to_string(),
            text,
            tool_calls,
            input_tokens: (body.to_string().chars().count() as u64 / 4).max(1),
        };
        if stream {
            Action::Stream(wire::sse_events(provider, &reply, shape))
        } else if shape.malformed {
            Action::Respond(Response::with_body(200, "application/json", wire::malformed_body(provider, &reply)))
        } else {
            Action::Respond(Response::json(200, &wire::json_body(provider, &reply)))
        }
    };

    let request_id = match provider {
        Provider::OpenAi => ("x-request-id", format!("req_mock_{seq}")),
        Provider::Anthropic => ("request-id", format!("req_mock_{seq}")),
    };
    shared.join_gathering(role.as_deref(), conn);
    if !conn.pause(Duration::from_millis(pacing.latency_ms)) {
        return Ok(After::Close);
    }
    match action {
        Action::Drop => {
            shared.finish(ticket, None);
            Ok(After::Close)
        }
        Action::Hang(duration) => {
            conn.pause(duration);
            shared.finish(ticket, None);
            Ok(After::Close)
        }
        Action::Respond(response) => {
            let status = response.status;
            let response = with_cors(response, cors).header(request_id.0, request_id.1);
            // Logged before the bytes go out, so a client that has its answer also
            // finds it finished in `/__mock/requests`.
            shared.finish(ticket, Some(status));
            write_whole(conn, &response, cut)
        }
        Action::Stream(events) => {
            let mut headers = vec![
                ("Content-Type".to_string(), "text/event-stream; charset=utf-8".to_string()),
                ("Cache-Control".to_string(), "no-cache".to_string()),
                (request_id.0.to_string(), request_id.1),
            ];
            if cors {
                headers.extend(cors_headers());
            }
            let ending = || shared.finish(ticket, Some(200));
            let first_byte = || shared.note_first_byte(ticket);
            let after = write_stream(conn, &headers, events, pacing, cut, &ending, &first_byte);
            if after.is_err() {
                shared.note_client_left(ticket);
            }
            // Also when the client went away mid-stream.
            shared.finish(ticket, Some(200));
            after
        }
    }
}

/// Writes a complete response, or with a cut only its first `after_bytes` body bytes.
fn write_whole(conn: &mut Connection, response: &Response, cut: Option<(usize, bool)>) -> io::Result<After> {
    let Some((after_bytes, clean)) = cut else {
        response.write_to(conn.stream())?;
        return Ok(After::KeepAlive);
    };
    let sent = &response.body[..after_bytes.min(response.body.len())];
    if clean {
        let mut w = StreamWriter::start(conn.stream(), response.status, &response.headers, Framing::Close)?;
        w.write_chunk(sent)?;
        w.abandon();
    } else {
        // The head announces the whole length; fewer bytes follow.
        let mut head = Vec::new();
        response.write_head_to(&mut head)?;
        head.extend_from_slice(sent);
        conn.stream().write_all(&head)?;
    }
    conn.cut();
    Ok(After::Close)
}

/// Sends SSE events paced by `pacing`, optionally cut after `after_bytes` body bytes;
/// `ending` runs just before the end (proper or cut) reaches the client.
fn write_stream(
    conn: &mut Connection,
    headers: &[(String, String)],
    events: Vec<Vec<u8>>,
    pacing: Pacing,
    cut: Option<(usize, bool)>,
    ending: &dyn Fn(),
    first_byte: &dyn Fn(),
) -> io::Result<After> {
    let framing = match cut {
        Some((_, true)) => Framing::Close,
        _ => Framing::Chunked,
    };
    let pieces: Vec<Vec<u8>> = if pacing.chunk_bytes == 0 {
        events
    } else {
        events.concat().chunks(pacing.chunk_bytes).map(<[u8]>::to_vec).collect()
    };
    let mut out = conn.stream().try_clone()?;
    let mut writer = StreamWriter::start(&mut out, 200, headers, framing)?;
    let mut budget = cut.map(|(after_bytes, _)| after_bytes);
    let delay = Duration::from_millis(pacing.chunk_delay_ms);
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 && !delay.is_zero() && !conn.pause(delay) {
            return Ok(After::Close);
        }
        if i == 0 {
            first_byte();
        }
        match budget.as_mut() {
            None => writer.write_chunk(piece)?,
            Some(left) => {
                let n = piece.len().min(*left);
                if n == *left {
                    ending();
                }
                writer.write_chunk(&piece[..n])?;
                *left -= n;
                if *left == 0 {
                    break;
                }
            }
        }
    }
    if budget.is_some() {
        // A cut stream never gets its proper end, even when the budget outlasted it.
        ending();
        writer.abandon();
        conn.cut();
        return Ok(After::Close);
    }
    ending();
    writer.finish()?;
    Ok(if framing == Framing::Close { After::Close } else { After::KeepAlive })
}

fn parse_list<T: DeserializeOwned>(value: Value) -> Result<Vec<T>, String> {
    let items = match value {
        Value::Array(items) => items,
        other => vec![other],
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| serde_json::from_value(item).map_err(|e| format!("item {i}: {e}")))
        .collect()
}

fn admin_error(status: u16, message: impl Into<String>) -> Response {
    Response::json(status, &json!({"error": message.into()}))
}

fn admin(shared: &Shared, req: &Request, command: &str) -> Response {
    let body = match req.json() {
        Ok(v) => v,
        Err(e) => return admin_error(400, e.to_string()),
    };
    match (req.method.as_str(), command) {
        ("POST", "reset") => {
            shared.reset();
            Response::json(200, &json!({"ok": true}))
        }
        ("GET", "config") => config_response(shared),
        ("POST", "config") => {
            let update: PacingUpdate = match serde_json::from_value(body) {
                Ok(u) => u,
                Err(e) => return admin_error(400, e.to_string()),
            };
            {
                let mut s = shared.lock();
                if let Some(v) = update.latency_ms {
                    s.pacing.latency_ms = v;
                }
                if let Some(v) = update.chunk_delay_ms {
                    s.pacing.chunk_delay_ms = v;
                }
                if let Some(v) = update.chunk_bytes {
                    s.pacing.chunk_bytes = v;
                }
            }
            config_response(shared)
        }
        ("GET", "script") => Response::json(200, &json!(shared.lock().scripts)),
        ("POST", "script") => match parse_list::<ScriptedReply>(body) {
            Ok(list) => {
                let mut s = shared.lock();
                let queued = list.len();
                s.scripts.extend(list);
                Response::json(200, &json!({"queued": queued, "pending": s.scripts.len()}))
            }
            Err(e) => admin_error(400, e),
        },
        ("GET", "faults") => Response::json(200, &json!(shared.lock().faults)),
        ("POST", "faults") => match parse_list::<FaultRule>(body) {
            Ok(list) => {
                if let Some(bad) = list.iter().find_map(|r| match r.fault {
                    Fault::Status { status, .. } if !(400..=599).contains(&status) => Some(status),
                    _ => None,
                }) {
                    return admin_error(400, format!("status {bad} is not an error status (400..=599)"));
                }
                let mut s = shared.lock();
                let queued = list.len();
                s.faults.extend(list);
                Response::json(200, &json!({"queued": queued, "pending": s.faults.len()}))
            }
            Err(e) => admin_error(400, e),
        },
        ("GET", "requests") => Response::json(200, &json!(shared.lock().requests)),
        (method, _) => admin_error(
            404,
            format!(
                "unknown admin call {method} /__mock/{command}; known: POST reset, GET/POST config, \
                 GET/POST script, GET/POST faults, GET requests"
            ),
        ),
    }
}

fn config_response(shared: &Shared) -> Response {
    let pacing = shared.lock().pacing;
    Response::json(
        200,
        &json!({
            "latency_ms": pacing.latency_ms,
            "chunk_delay_ms": pacing.chunk_delay_ms,
            "chunk_bytes": pacing.chunk_bytes,
            "api_key_required": shared.api_key.is_some(),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_rules_parse_from_the_admin_json() {
        let cases = [
            (
                json!({"kind": "status", "status": 429, "retry_after": 2}),
                FaultRule::new(Fault::Status { status: 429, retry_after: Some(2), body: None }),
            ),
            (
                json!({"kind": "hang", "ms": 500, "role": "critic"}),
                FaultRule::new(Fault::Hang { ms: 500 }).role("critic"),
            ),
            (
                json!({"kind": "cut", "after_bytes": 10, "path": "/v1/messages"}),
                FaultRule::new(Fault::Cut { after_bytes: 10, clean: false }).path("/v1/messages"),
            ),
            (json!({"kind": "cors"}), FaultRule::new(Fault::Cors)),
            (json!({"kind": "drop"}), FaultRule::new(Fault::Drop)),
        ];
        for (value, rule) in cases {
            let parsed: Vec<FaultRule> = parse_list(value.clone()).unwrap();
            assert_eq!(parsed, vec![rule], "{value}");
        }
        assert!(parse_list::<FaultRule>(json!([{"kind": "explode"}])).is_err());
    }

    #[test]
    fn fault_rule_matching_by_role_and_path() {
        let rule = FaultRule::new(Fault::Drop).role("critic").path("/messages");
        assert!(rule.matches("/v1/messages", Some("critic")));
        assert!(!rule.matches("/v1/messages", Some("designer")));
        assert!(!rule.matches("/v1/chat/completions", Some("critic")));
        assert!(FaultRule::new(Fault::Drop).matches("/v1/models", None));
    }

    #[test]
    fn recorded_headers_redact_keys() {
        let req = Request {
            method: "POST".into(),
            target: "/v1/messages".into(),
            version: "HTTP/1.1".into(),
            headers: crate::http::Headers(vec![
                ("Authorization".into(), "Bearer sk-secret".into()),
                ("X-Api-Key".into(), "sk-ant-secret".into()),
                ("Content-Type".into(), "application/json".into()),
            ]),
            body: Vec::new(),
        };
        let h = redacted_headers(&req);
        assert_eq!(h["authorization"], "Bearer [redacted]");
        assert_eq!(h["x-api-key"], "[redacted]");
        assert_eq!(h["content-type"], "application/json");
    }

    #[test]
    fn invalid_bodies_are_refused_per_provider() {
        let ok = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(invalid_request(Provider::OpenAi, &ok), None);
        assert!(invalid_request(Provider::Anthropic, &ok).is_some(), "max_tokens is required");
        let mut with_options = ok.clone();
        with_options["stream_options"] = json!({"include_usage": true});
        assert!(invalid_request(Provider::OpenAi, &with_options).is_some());
        with_options["stream"] = json!(true);
        assert_eq!(invalid_request(Provider::OpenAi, &with_options), None);
        assert!(invalid_request(Provider::OpenAi, &json!({"messages": []})).is_some());
    }
}
