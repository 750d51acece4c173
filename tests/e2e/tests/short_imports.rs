//! The release build's short import names (tools/short_imports.mjs, run by
//! tools/post_build.sh): the glue carries no hashed wasm-bindgen names, and a glue the tool
//! cannot read stops the build without touching a file. Every browser suite loads the
//! renamed build, so a wrong rename fails them all.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use deliberate_e2e::app::{dist_copy, dist_dir, workspace_root};

fn built(suffix: &str) -> PathBuf {
    fs::read_dir(dist_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("deliberate-") && n.ends_with(suffix))
        })
        .unwrap_or_else(|| panic!("no deliberate-*{suffix} in the release build"))
}

/// Identifiers of the glue that start with `__wbg_`.
fn wbg_names(js: &str) -> Vec<&str> {
    js.match_indices("__wbg_")
        .map(|(at, _)| {
            let end = js[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(js.len(), |n| at + n);
            &js[at..end]
        })
        .collect()
}

fn hashed(name: &str) -> bool {
    name.rsplit('_').next().is_some_and(|tail| tail.len() == 16 && tail.chars().all(|c| c.is_ascii_hexdigit()))
}

#[test]
fn the_release_glue_names_no_import_by_its_hash() {
    let js = fs::read_to_string(built(".js")).unwrap();
    let names = wbg_names(&js);
    assert!(names.contains(&"__wbg_get_imports"), "the glue is wasm-bindgen's: {:?}", &names[..names.len().min(5)]);
    let long: Vec<_> = names.iter().filter(|n| hashed(n)).collect();
    assert!(long.is_empty(), "hashed import names left: {long:?}");
    assert!(js.contains("\n        _0: function"), "the first import is renamed _0");
    assert!(hashed("__wbg_setTimeout_4eb823e8b72fbe79") && !hashed("__wbg_ptr"), "the check itself");
}

fn run(dir: &Path) -> (bool, String) {
    let out = Command::new("node").arg(workspace_root().join("tools/short_imports.mjs")).arg(dir).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_glue_it_cannot_read_stops_the_build_and_changes_nothing() {
    let dir = dist_copy("short-imports");
    let js_name = built(".js").file_name().unwrap().to_owned();
    let wasm_name = built("_bg.wasm").file_name().unwrap().to_owned();
    let js = fs::read_to_string(dir.path().join(&js_name)).unwrap();
    // An import key written twice: the tool cannot tell which one the wasm means.
    let doubled = js.replacen("__proto__: null,", "__proto__: null,\n        _0: null,", 1);
    assert_ne!(doubled, js);
    fs::write(dir.path().join(&js_name), &doubled).unwrap();
    let before = |name: &std::ffi::OsStr| fs::read(dir.path().join(name)).unwrap();
    let (wasm, index) = (before(&wasm_name), before("index.html".as_ref()));

    let (ok, stderr) = run(dir.path());
    assert!(!ok, "the build must stop");
    assert!(stderr.contains("import _0 is in the glue 2 times"), "{stderr}");
    assert_eq!(before(&wasm_name), wasm, "the wasm is untouched");
    assert_eq!(before("index.html".as_ref()), index, "index.html is untouched");
    assert_eq!(fs::read_to_string(dir.path().join(&js_name)).unwrap(), doubled, "the glue is untouched");

    // The same build as Trunk left it runs through again: every import found once.
    fs::write(dir.path().join(&js_name), &js).unwrap();
    let (ok, stderr) = run(dir.path());
    assert!(ok, "{stderr}");
}
