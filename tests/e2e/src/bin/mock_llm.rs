//! Runs the mock LLM server until killed:
//! `cargo run -p deliberate-e2e --bin mock_llm -- [--port 8787] [--key K] [--latency-ms N]
//! [--chunk-delay-ms N] [--chunk-bytes N]`.

use std::process::ExitCode;

use deliberate_e2e::mock_llm::{MockConfig, MockLlm, Pacing};

const USAGE: &str = "usage: mock_llm [--port N] [--key K] [--latency-ms N] [--chunk-delay-ms N] [--chunk-bytes N]
  --port            port on 127.0.0.1 (default 8787, 0 = any free port)
  --key             require this API key (Authorization: Bearer / x-api-key)
  --latency-ms      delay before the first byte of every answer (default 0)
  --chunk-delay-ms  delay between streamed chunks (default 20, so streaming is visible)
  --chunk-bytes     streamed chunk size in bytes, 0 = one SSE event per chunk (default 0)";

fn parse_args() -> Result<MockConfig, String> {
    let mut config =
        MockConfig { port: 8787, api_key: None, pacing: Pacing { latency_ms: 0, chunk_delay_ms: 20, chunk_bytes: 0 } };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|_| format!("{flag} needs a number, got {value:?}"));
        match flag.as_str() {
            "--port" => {
                config.port = value.parse().map_err(|_| format!("--port needs a port number, got {value:?}"))?
            }
            "--key" => config.api_key = Some(value.clone()),
            "--latency-ms" => config.pacing.latency_ms = number()?,
            "--chunk-delay-ms" => config.pacing.chunk_delay_ms = number()?,
            "--chunk-bytes" => config.pacing.chunk_bytes = number()? as usize,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(config)
}

fn main() -> ExitCode {
    let config = match parse_args() {
        Ok(c) => c,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("mock_llm: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let key_note = if config.api_key.is_some() { "a key is required" } else { "any key is accepted" };
    let mock = match MockLlm::start(config) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("mock_llm: cannot listen: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("Mock LLM listening ({key_note}).");
    println!("  OpenAI-compatible base URL: {}  (POST /chat/completions)", mock.base_url());
    println!("  Anthropic base URL:         {}  (POST /messages)", mock.base_url());
    println!("  Models:                     GET {}/models", mock.base_url());
    println!("  Admin API:                  {}/  (reset, config, script, faults, requests)", mock.admin_url());
    println!("Press Ctrl+C to stop.");
    loop {
        std::thread::park();
    }
}
