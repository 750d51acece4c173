//! Listing the models an endpoint offers, for the model picker in Settings.

use serde_json::Value;

use super::anthropic;
use super::error::failure_from_error_value;
use super::provider::{HttpRequest, Method, ProviderConfig, ProviderKind};
use super::wire::{malformed, str_field};
use crate::engine::call::LlmFailure;

/// `GET {base}/models` with the provider's auth headers; Anthropic pages at 20 by default, so
/// its request asks for up to 1000.
pub fn build_model_list_request(cfg: &ProviderConfig) -> HttpRequest {
    let (url, headers) = match cfg.kind {
        ProviderKind::Anthropic => (cfg.endpoint("/models?limit=1000"), anthropic::headers(cfg)),
        ProviderKind::OpenAi | ProviderKind::OpenAiCompatible => {
            let headers =
                cfg.key().map(|key| vec![("authorization".to_string(), format!("Bearer {key}"))]).unwrap_or_default();
            (cfg.endpoint("/models"), headers)
        }
    };
    HttpRequest { method: Method::Get, url, headers, body: None }
}

/// Model ids from a model list, sorted and without duplicates: OpenAI and Anthropic
/// `{"data":[{"id":..}]}` or Ollama `/api/tags` `{"models":[{"name":..}]}`.
pub fn parse_model_list(body: &str) -> Result<Vec<String>, LlmFailure> {
    let value: Value = serde_json::from_str(body).map_err(|_| malformed("the model list is not JSON", body))?;
    if let Some(failure) = failure_from_error_value(&value) {
        return Err(failure);
    }
    let entries = value
        .get("data")
        .and_then(Value::as_array)
        .map(|items| (items, "id"))
        .or_else(|| value.get("models").and_then(Value::as_array).map(|items| (items, "name")));
    let Some((items, field)) = entries else {
        return Err(malformed("the model list has no `data` or `models`", body));
    };
    let mut ids: Vec<String> = items
        .iter()
        .filter_map(|item| match item {
            Value::String(id) => Some(id.as_str()),
            _ => str_field(item, field).or_else(|| str_field(item, "model")),
        })
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(String::from)
        .collect();
    crate::engine::order::sort_strings(&mut ids);
    ids.dedup();
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::call::FailureKind;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn model_list_request_carries_each_providers_auth() {
        let openai = ProviderConfig::new(ProviderKind::OpenAi, "").with_key("sk-o");
        let claude = ProviderConfig::new(ProviderKind::Anthropic, "").with_key("sk-a");
        let local = ProviderConfig::new(ProviderKind::OpenAiCompatible, "");
        let cases = [
            (
                build_model_list_request(&openai),
                "https://api.openai.com/v1/models",
                vec![("authorization", "Bearer sk-o")],
            ),
            (
                build_model_list_request(&claude),
                "https://api.anthropic.com/v1/models?limit=1000",
                vec![
                    ("x-api-key", "sk-a"),
                    ("anthropic-version", "2023-06-01"),
                    ("anthropic-dangerous-direct-browser-access", "true"),
                ],
            ),
            (build_model_list_request(&local), "http://localhost:11434/v1/models", vec![]),
        ];
        for (req, url, headers) in cases {
            assert_eq!(req.method, Method::Get);
            assert_eq!(req.url, url);
            assert_eq!(req.body, None);
            let got: Vec<(&str, &str)> = req.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            assert_eq!(got, headers, "{url}");
        }
    }

    #[test]
    fn model_lists_of_every_shape_are_read_sorted_and_deduplicated() {
        let cases = [
            (
                r#"{"object":"list","data":[{"id":"gpt-4o","object":"model"},{"id":"gpt-4o-mini"},{"id":"dall-e-3"},{"id":"gpt-4o"}]}"#,
                vec!["dall-e-3", "gpt-4o", "gpt-4o-mini"],
            ),
            (
                r#"{"data":[{"type":"model","id":"claude-sonnet-4-5-20250929","display_name":"Claude Sonnet 4.5","created_at":"2025-09-29T00:00:00Z"},{"type":"model","id":"claude-haiku-4-5","display_name":"Claude Haiku 4.5"}],"has_more":false,"first_id":"a","last_id":"b"}"#,
                vec!["claude-haiku-4-5", "claude-sonnet-4-5-20250929"],
            ),
            (
                r#"{"models":[{"name":"qwen2.5:7b","model":"qwen2.5:7b","size":1},{"name":"llama3.2:latest"}]}"#,
                vec!["llama3.2:latest", "qwen2.5:7b"],
            ),
            (r#"{"models":[]}"#, vec![]),
            (r#"{"data":["a"," ",{"id":""},{"model":"b"}]}"#, vec!["a", "b"]),
        ];
        for (body, want) in cases {
            assert_eq!(parse_model_list(body), Ok(want.iter().map(|s| s.to_string()).collect()), "{body}");
        }
    }

    #[test]
    fn unreadable_model_lists_are_failures() {
        let cases = [
            ("<html>", FailureKind::Malformed),
            (r#"{"object":"list"}"#, FailureKind::Malformed),
            (r#"{"error":{"message":"Incorrect API key","code":"invalid_api_key"}}"#, FailureKind::Auth),
        ];
        for (body, kind) in cases {
            assert_eq!(parse_model_list(body).map_err(|f| f.kind), Err(kind), "{body}");
        }
    }
}
