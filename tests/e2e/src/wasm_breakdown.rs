//! Where the wasm's bytes go: the release build's code grouped by crate or module, and its
//! data, so every change sees what it cost (issue 14).
//!
//! Cargo's release output still names its functions; it is run through `wasm-bindgen` and
//! `wasm-opt -Oz -g` (the shipped pipeline, keeping the names) and the code section is read
//! function by function. Group sizes are the bytes of their function bodies; "gzip alone"
//! is each group's bodies compressed together, an estimate of its share of the transfer.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Command;

/// One group's share of the code.
struct Group {
    raw: usize,
    bodies: Vec<u8>,
}

/// The report, or why it could not be made.
pub fn report(root: &Path) -> String {
    match measure(root) {
        Ok(text) => text,
        Err(e) => format!("## Wasm breakdown\n\nnot measured: {e}\n"),
    }
}

fn measure(root: &Path) -> Result<String, String> {
    let built = root.join("target/wasm32-unknown-unknown/release/deliberate.wasm");
    let out = root.join("target/size-breakdown");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    run(Command::new("wasm-bindgen").args(["--target", "web", "--out-dir"]).arg(&out).arg(&built))?;
    let named = out.join("named.wasm");
    run(Command::new("wasm-opt")
        .args(["-Oz", "-g", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext"])
        .args(["--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"])
        .arg(out.join("deliberate_bg.wasm"))
        .arg("-o")
        .arg(&named))?;
    let bytes = std::fs::read(&named).map_err(|e| e.to_string())?;
    let module = parse(&bytes).ok_or("the wasm could not be read")?;

    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (index, body) in module.bodies.iter().enumerate() {
        let name = module.names.get(&(index + module.imported_functions)).map(String::as_str).unwrap_or("");
        let g = groups.entry(group_of(name)).or_insert(Group { raw: 0, bodies: Vec::new() });
        g.raw += body.len();
        g.bodies.extend_from_slice(body);
    }
    let code: usize = module.bodies.iter().map(|b| b.len()).sum();
    let mut rows: Vec<(String, Group)> = groups.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.raw));

    let mut text = String::from("## Wasm breakdown (release build, names kept; wasm-opt -Oz -g)\n\n");
    text += &format!(
        "code section {} bytes (gzip alone {}), data section {} bytes (gzip alone {}), {} functions\n\n",
        code,
        gzip(&module.bodies.concat()),
        module.data.len(),
        gzip(&module.data),
        module.bodies.len()
    );
    text += &format!("{:<44} {:>9} {:>7} {:>11}\n", "group", "bytes", "share", "gzip alone");
    for (name, g) in rows.iter().take(28) {
        text += &format!(
            "{:<44} {:>9} {:>6.1}% {:>11}\n",
            name,
            g.raw,
            100.0 * g.raw as f64 / code.max(1) as f64,
            gzip(&g.bodies)
        );
    }
    let rest: usize = rows.iter().skip(28).map(|(_, g)| g.raw).sum();
    text += &format!("{:<44} {:>9} {:>6.1}%\n", "(all other groups)", rest, 100.0 * rest as f64 / code.max(1) as f64);
    Ok(text)
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?} did not start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

fn gzip(bytes: &[u8]) -> usize {
    // Fed from a thread: gzip's output pipe fills while its input is still being written.
    let child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else { return 0 };
    let feeder = child.stdin.take().map(|mut stdin| {
        let bytes = bytes.to_vec();
        std::thread::spawn(move || stdin.write_all(&bytes))
    });
    let size = child.wait_with_output().map(|o| o.stdout.len()).unwrap_or(0);
    if let Some(f) = feeder {
        let _ = f.join();
    }
    size
}

/// The group a function belongs to: what serde derives and serde_json make is serde's,
/// whatever module holds the type; the app's own code by module; everything else by crate.
pub fn group_of(name: &str) -> String {
    if name.is_empty() {
        return "(unnamed)".into();
    }
    if name.contains("serde") {
        return "serde, serde_json and derives".into();
    }
    let path = name.trim_start_matches('<');
    let krate = path.split([':', '[', '<', '>', ' ']).next().unwrap_or(path);
    match krate {
        "deliberate" => {
            let parts: Vec<&str> = path.split("::").collect();
            match parts.get(1).copied() {
                Some("engine") => match parts.get(2) {
                    Some(m) if m.chars().all(|c| c.is_ascii_lowercase() || c == '_') => format!("engine::{m}"),
                    _ => "engine".into(),
                },
                Some(m) if m.starts_with("main") => "ui".into(),
                Some(m) if m.starts_with("__component") || m == "ui" => "ui".into(),
                Some(m @ ("llm" | "store" | "markdown")) => m.into(),
                _ => "deliberate (other)".into(),
            }
        }
        "leptos" | "leptos_dom" | "leptos_macro" | "tachys" | "reactive_graph" | "any_spawner" | "either_of"
        | "throw_error" | "oco_ref" | "or_poisoned" | "next_tuple" | "slotmap" | "guardian" => {
            "leptos (leptos, tachys, reactive_graph, …)".into()
        }
        "T" if path.contains("tachys") || path.contains("reactive_graph") || path.contains("leptos") => {
            "leptos (leptos, tachys, reactive_graph, …)".into()
        }
        "core" | "alloc" | "std" | "dlmalloc" | "compiler_builtins" | "str" | "f64" | "f32" | "u8" | "u32" | "u64"
        | "usize" | "i32" | "i64" | "isize" | "char" | "bool" | "T" | "&T" | "&mut" | "&" => "core, alloc, std".into(),
        "wasm_bindgen" | "js_sys" | "web_sys" | "wasm_bindgen_futures" | "console_error_panic_hook" => {
            "wasm-bindgen, js-sys, web-sys".into()
        }
        other => other.to_string(),
    }
}

/// What the report needs from a module.
struct Module {
    imported_functions: usize,
    bodies: Vec<Vec<u8>>,
    data: Vec<u8>,
    names: BTreeMap<usize, String>,
}

fn leb(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let (mut value, mut shift) = (0usize, 0);
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= ((b & 0x7f) as usize) << shift;
        if b < 0x80 {
            return Some(value);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

fn parse(bytes: &[u8]) -> Option<Module> {
    let mut m = Module { imported_functions: 0, bodies: Vec::new(), data: Vec::new(), names: BTreeMap::new() };
    let mut at = 8;
    while at < bytes.len() {
        let id = bytes[at];
        at += 1;
        let len = leb(bytes, &mut at)?;
        let (start, end) = (at, at.checked_add(len)?);
        let section = bytes.get(start..end)?;
        match id {
            2 => m.imported_functions = count_function_imports(section)?,
            10 => {
                let mut p = 0;
                let count = leb(section, &mut p)?;
                for _ in 0..count {
                    let size = leb(section, &mut p)?;
                    m.bodies.push(section.get(p..p + size)?.to_vec());
                    p += size;
                }
            }
            11 => m.data = section.to_vec(),
            0 => read_names(section, &mut m.names),
            _ => {}
        }
        at = end;
    }
    Some(m)
}

fn count_function_imports(section: &[u8]) -> Option<usize> {
    let mut p = 0;
    let count = leb(section, &mut p)?;
    let mut functions = 0;
    for _ in 0..count {
        for _ in 0..2 {
            let n = leb(section, &mut p)?;
            p += n;
        }
        let kind = *section.get(p)?;
        p += 1;
        match kind {
            0 => {
                leb(section, &mut p)?;
                functions += 1;
            }
            1 => {
                p += 1;
                limits(section, &mut p)?;
            }
            2 => limits(section, &mut p)?,
            3 => p += 2,
            4 => {
                p += 1;
                leb(section, &mut p)?;
            }
            _ => return None,
        }
    }
    Some(functions)
}

fn limits(section: &[u8], p: &mut usize) -> Option<()> {
    let flags = leb(section, p)?;
    leb(section, p)?;
    if flags & 1 == 1 {
        leb(section, p)?;
    }
    Some(())
}

fn read_names(section: &[u8], names: &mut BTreeMap<usize, String>) {
    let mut p = 0;
    let Some(n) = leb(section, &mut p) else { return };
    if section.get(p..p + n) != Some(b"name".as_slice()) {
        return;
    }
    p += n;
    while p < section.len() {
        let kind = section[p];
        p += 1;
        let Some(len) = leb(section, &mut p) else { return };
        let end = p + len;
        if kind == 1 {
            let mut q = p;
            let Some(count) = leb(section, &mut q) else { return };
            for _ in 0..count {
                let (Some(index), Some(l)) = (leb(section, &mut q), leb(section, &mut q)) else { return };
                let Some(text) = section.get(q..q + l) else { return };
                names.insert(index, String::from_utf8_lossy(text).into_owned());
                q += l;
            }
        }
        p = end;
    }
}

#[cfg(test)]
mod tests {
    use super::group_of;

    #[test]
    fn functions_fall_into_their_groups() {
        let cases = [
            ("deliberate::engine::core::Session<M>::step", "engine::core"),
            ("<deliberate::engine::session::AppMode as deliberate::engine::core::Mode>::on_message", "engine::session"),
            (
                "deliberate::engine::core::_::<impl serde_core::de::Deserialize for X>::deserialize",
                "serde, serde_json and derives",
            ),
            ("deliberate::main", "ui"),
            ("deliberate::ui::__component_app::{{closure}}", "ui"),
            ("deliberate::llm::transport::run_chat::{{closure}}", "llm"),
            ("leptos::for_loop::__component_for::{{closure}}", "leptos (leptos, tachys, reactive_graph, …)"),
            ("<T as tachys::view::any_view::IntoAny>::into_any", "leptos (leptos, tachys, reactive_graph, …)"),
            ("core[c5930c85a12de822]::num::flt2dec::strategy::dragon::format_shortest", "core, alloc, std"),
            ("<str>::to_lowercase", "core, alloc, std"),
            ("regex_lite::hir::parse::Parser::parse_inner", "regex_lite"),
            ("", "(unnamed)"),
        ];
        for (name, group) in cases {
            assert_eq!(group_of(name), group, "{name}");
        }
    }
}
