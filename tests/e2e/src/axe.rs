//! axe-core inside the page: inject the checker the project's scripts install (`./dev`
//! puts npm's `axe-core` under the tools directory), run it on the whole document, and
//! report what it found in a form a failing test can print.

use std::path::PathBuf;

use serde_json::Value;

use crate::webdriver::{Browser, Error};

/// Where `axe.min.js` is: `$DELIBERATE_AXE`, else where `./dev` installs it.
pub fn axe_script_path() -> PathBuf {
    if let Some(path) = std::env::var_os("DELIBERATE_AXE").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    home.join(".cache/deliberate-tools/node_modules/axe-core/axe.min.js")
}

/// The source of axe-core; panics with what to run when it is not installed.
pub fn axe_source() -> String {
    let path = axe_script_path();
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "axe-core is not at {} ({e}): run `./dev test` (it installs it), or \
             `npm install --prefix ~/.cache/deliberate-tools axe-core@4.11.0`, or point DELIBERATE_AXE at axe.min.js",
            path.display()
        )
    })
}

/// One rule axe found broken, with the elements that break it.
#[derive(Debug, Clone)]
pub struct Violation {
    /// The rule's id, e.g. `color-contrast`.
    pub rule: String,
    /// `minor`, `moderate`, `serious` or `critical`.
    pub impact: String,
    /// What the rule asks for.
    pub help: String,
    /// The CSS selectors of the offending elements, with axe's summary of each.
    pub targets: Vec<String>,
}

impl Violation {
    /// Whether the violation is serious or critical (what the tests refuse).
    pub fn is_blocking(&self) -> bool {
        matches!(self.impact.as_str(), "serious" | "critical")
    }

    /// One line per offending element, under a line naming the rule.
    pub fn describe(&self) -> String {
        let mut out = format!("[{}] {}: {}", self.impact, self.rule, self.help);
        for t in &self.targets {
            out.push_str("\n    ");
            out.push_str(t);
        }
        out
    }
}

/// Injects axe-core into the current page unless it is already there.
pub fn inject(browser: &Browser, source: &str) -> Result<(), Error> {
    let present = browser.execute("return typeof window.axe === 'object';", vec![])?;
    if present == Value::Bool(true) {
        return Ok(());
    }
    // Run as the WebDriver script itself: a script element would be refused by the page's
    // Content-Security-Policy (no inline scripts), while WebDriver's own scripts are not
    // subject to it. axe defines itself on `window`.
    let defined = browser.execute(&format!("{source}\n;return typeof window.axe === 'object';"), vec![])?;
    if defined != Value::Bool(true) {
        return Err(Error::Protocol(format!("axe-core did not define window.axe ({defined})")));
    }
    Ok(())
}

/// Runs every axe rule on the whole document and returns the violations.
pub fn audit(browser: &Browser, source: &str) -> Result<Vec<Violation>, Error> {
    inject(browser, source)?;
    let result = browser.execute_async(
        "const done = arguments[arguments.length - 1];\n\
         axe.run(document, { resultTypes: ['violations'] })\n\
           .then(r => done(r.violations.map(v => ({ rule: v.id, impact: v.impact || '', help: v.help,\n\
              targets: v.nodes.map(n => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300)) }))))\n\
           .catch(e => done({ error: String(e) }));",
        vec![],
    )?;
    if let Some(error) = result.get("error") {
        return Err(Error::Protocol(format!("axe.run failed: {error}")));
    }
    let list = result.as_array().ok_or_else(|| Error::Protocol(format!("axe.run returned {result}")))?;
    Ok(list
        .iter()
        .map(|v| Violation {
            rule: v["rule"].as_str().unwrap_or_default().to_string(),
            impact: v["impact"].as_str().unwrap_or_default().to_string(),
            help: v["help"].as_str().unwrap_or_default().to_string(),
            targets: v["targets"]
                .as_array()
                .map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(impact: &str) -> Violation {
        Violation {
            rule: "color-contrast".into(),
            impact: impact.into(),
            help: "Elements must meet minimum color contrast ratio thresholds".into(),
            targets: vec![".badge — contrast 3.4:1".into()],
        }
    }

    #[test]
    fn only_serious_and_critical_violations_block() {
        let cases = [("critical", true), ("serious", true), ("moderate", false), ("minor", false), ("", false)];
        for (impact, blocking) in cases {
            assert_eq!(violation(impact).is_blocking(), blocking, "{impact}");
        }
    }

    #[test]
    fn a_description_names_the_rule_its_impact_and_every_element() {
        let shown = violation("serious").describe();
        assert!(shown.starts_with("[serious] color-contrast: Elements must meet"), "{shown}");
        assert!(shown.contains("\n    .badge — contrast 3.4:1"), "{shown}");
    }
}
