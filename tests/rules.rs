//! One failing and one passing case for every validation rule of `ptxvm check`.
//!
//! Cases live in `tests/data/rules.ptxt`. Each verdict (ok or error) was checked
//! against NVIDIA's ptxas by `tools/verify_rules.py`, which builds the module the same
//! way as [`module_text`] here; this test asserts ptxvm's verdict and that its first
//! diagnostic contains the expected words (messages are ptxvm's own design).

/// The registers every kernel-body case may use (shared with tools/verify_rules.py).
const DECLS: &str = include_str!("data/rules_decls.ptx");

struct Case {
    name: String,
    module: bool,
    version: String,
    target: String,
    expect: Option<String>,
    body: Vec<String>,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("== ") {
            let (left, expect) = head.split_once(" => ").expect("case header has `=>`");
            let mut words = left.split_whitespace();
            let name = words.next().unwrap().to_string();
            let mut case = Case {
                name,
                module: false,
                version: "8.0".into(),
                target: "sm_90".into(),
                expect: expect.strip_prefix("error: ").map(str::to_string),
                body: Vec::new(),
            };
            assert!(expect == "ok" || case.expect.is_some(), "bad verdict in {head}");
            for w in words {
                match w.split_once('=') {
                    Some(("version", v)) => case.version = v.into(),
                    Some(("target", t)) => case.target = t.into(),
                    None if w == "module" => case.module = true,
                    // ptxvm's verdict is the opposite of ptxas's on purpose (see the
                    // header of rules.ptxt); the expectation is ptxvm's.
                    None if w == "deliberate" => {}
                    _ => panic!("bad option {w} in {head}"),
                }
            }
            cases.push(case);
        } else if let Some(c) = cases.last_mut() {
            c.body.push(line.to_string());
        } else {
            assert!(line.trim().is_empty() || line.starts_with('#'), "text before the first case: {line}");
        }
    }
    cases
}

fn module_text(c: &Case) -> String {
    let body = c.body.join("\n");
    let body = body.trim_matches('\n');
    if c.module {
        return format!("{body}\n");
    }
    let (pre, inner) = body.split_once("---\n").unwrap_or(("", body));
    format!(
        ".version {}\n.target {}\n.address_size 64\n{pre}\n.visible .entry k()\n{{\n{DECLS}{inner}\n\tret;\n}}\n",
        c.version, c.target
    )
}

#[test]
fn every_rule_has_its_verdict_and_message() {
    let cases = parse_cases(include_str!("data/rules.ptxt"));
    assert!(cases.len() >= 100, "only {} rule cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let text = module_text(c);
        let diags = ptxvm::check_source(&text);
        match (&c.expect, diags.first()) {
            (None, None) => {}
            (Some(want), Some(d)) if d.message.contains(want.as_str()) => {}
            (None, Some(d)) => failures.push(format!("{}: expected ok, got `{}`", c.name, d.message)),
            (Some(want), None) => failures.push(format!("{}: expected error `{want}`, accepted", c.name)),
            (Some(want), Some(d)) => {
                failures.push(format!("{}: expected `{want}`, got `{}`", c.name, d.message))
            }
        }
    }
    assert!(failures.is_empty(), "{} rule cases fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_rule_name_has_a_passing_and_a_failing_case() {
    use std::collections::BTreeMap;
    let cases = parse_cases(include_str!("data/rules.ptxt"));
    let mut seen: BTreeMap<String, (bool, bool)> = BTreeMap::new();
    for c in &cases {
        // Case names are `rule.ok` / `rule.bad` (optionally with a numeric suffix);
        // `rule.deliberate` cases are extra and do not count.
        let rule = c.name.rsplit_once('.').map_or(c.name.as_str(), |(r, _)| r).to_string();
        if c.name.contains(".deliberate") {
            continue;
        }
        let e = seen.entry(rule).or_default();
        if c.expect.is_none() { e.0 = true } else { e.1 = true }
    }
    let lonely: Vec<_> = seen.iter().filter(|(_, (ok, bad))| !(ok & bad)).map(|(r, _)| r.clone()).collect();
    assert!(lonely.is_empty(), "rules without both a passing and a failing case: {lonely:?}");
}
