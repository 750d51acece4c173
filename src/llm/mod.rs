//! LLM provider protocols (pure) and, in the browser, the transport over fetch.
