//! The table matrix (issue 8): modules generated from every row of the instruction
//! table (`src/isa/table.rs`) and from the matrix, tensor, asynchronous-copy and
//! mbarrier forms, each judged by ptxas 13 (`tools/ptxas_table_matrix.py`, data in
//! `tests/data/ptxas_matrix/table_cases.jsonl`).
//!
//! `check` must agree with ptxas on every case, except the ones listed in
//! `table_differences.txt` with ptxas's verdict. Each difference has its reason: the
//! first rule of `table_difference_reasons.txt` that fits it says why `check` differs
//! (a rule not in the table yet, a ptxas quirk `check` does not copy, ...), and a
//! difference that no rule explains fails the test. The list may only shrink: a new
//! difference fails the test, and so does a listed one that now agrees.
//! `PTXVM_MATRIX_BLESS=1` rewrites the list after a rule is added;
//! `PTXVM_MATRIX_REPORT=1` prints the differences grouped by opcode and variant kind.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Deserialize)]
struct Template {
    template: String,
}

/// One line of `table_difference_reasons.txt`: opcodes (`*` for any), fragments of the
/// difference's text (any one fits; `*` for any), and the reason.
struct Reason<'a> {
    opcodes: Vec<&'a str>,
    fragments: Vec<&'a str>,
    reason: &'a str,
}

fn reasons() -> Vec<Reason<'static>> {
    include_str!("data/ptxas_matrix/table_difference_reasons.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            let (ops, frags, reason) =
                (f.next().unwrap(), f.next().expect("fragments"), f.next().expect("reason"));
            Reason {
                opcodes: ops.split(',').map(str::trim).collect(),
                fragments: frags.split(" | ").map(str::trim).collect(),
                reason: reason.trim(),
            }
        })
        .collect()
}

/// The reason of the first rule that fits a difference.
fn reason_for<'a>(rules: &'a [Reason<'a>], opcode: &str, text: &str) -> Option<&'a str> {
    rules
        .iter()
        .find(|r| {
            (r.opcodes == ["*"] || r.opcodes.contains(&opcode))
                && (r.fragments == ["*"] || r.fragments.iter().any(|f| text.contains(f)))
        })
        .map(|r| r.reason)
}

#[derive(Deserialize)]
struct Case {
    id: String,
    opcode: String,
    kind: String,
    version: String,
    target: String,
    instr: String,
    accept: bool,
    #[serde(default)]
    error: String,
}

#[test]
fn check_agrees_with_ptxas_on_the_table_matrix() {
    let data = include_str!("data/ptxas_matrix/table_cases.jsonl");
    let mut lines = data.lines().filter(|l| !l.trim().is_empty());
    let template: Template = serde_json::from_str(lines.next().expect("a template line")).expect("template");
    let listed: BTreeSet<&str> = include_str!("data/ptxas_matrix/table_differences.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let rules = reasons();
    let mut unexplained = Vec::new();
    let report = std::env::var_os("PTXVM_MATRIX_REPORT").is_some();
    let mut total = 0;
    let mut differences = BTreeSet::new();
    let mut by_reason: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut per_family: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut groups: BTreeMap<(String, String, bool), Vec<String>> = BTreeMap::new();
    for line in lines {
        let case: Case = serde_json::from_str(line).expect("valid JSON line");
        let ptx = template
            .template
            .replace("{version}", &case.version)
            .replace("{target}", &case.target)
            .replace("{instr}", &case.instr);
        let diags = ptxvm::check_source(&ptx);
        total += 1;
        let family = ptxvm::isa::Opcode::parse(&case.opcode)
            .map_or("other".to_string(), |o| format!("{:?}", o.family()));
        let entry = per_family.entry(family).or_default();
        entry.0 += 1;
        entry.1 += usize::from(diags.is_empty() == case.accept);
        if diags.is_empty() != case.accept {
            let verdict = if case.accept {
                format!("ptxas accepts; check: {}", diags.first().map(|d| d.message.as_str()).unwrap_or(""))
            } else {
                format!("ptxas rejects ({}); check accepts", case.error.trim())
            };
            let line = format!("{}\t{} {}\t{}\t{}", case.id, case.version, case.target, case.instr, verdict);
            match reason_for(&rules, &case.opcode, &line) {
                Some(r) => by_reason.entry(r).or_default().push(line),
                None => unexplained.push(line),
            }
            if report {
                let ours = diags.first().map(|d| d.message.clone()).unwrap_or_default();
                groups.entry((case.opcode.clone(), case.kind.clone(), case.accept)).or_default().push(
                    format!(
                        "{} | {} {} | {} | ptxas: {} | ptxvm: {}",
                        case.id, case.version, case.target, case.instr, case.error, ours
                    ),
                );
            }
            differences.insert(case.id);
        }
    }
    if report {
        for ((op, kind, accept), list) in &groups {
            let who = if *accept { "ptxas accepts, check rejects" } else { "ptxas rejects, check accepts" };
            eprintln!("== {op} {kind}: {} ({who})", list.len());
            for l in list.iter().take(6) {
                eprintln!("   {l}");
            }
        }
    }
    for (family, (n, agree)) in &per_family {
        eprintln!("{family}: {agree} of {n} agree with ptxas");
    }
    assert!(
        unexplained.is_empty(),
        "{} differences that no rule of table_difference_reasons.txt explains, e.g. {:?}",
        unexplained.len(),
        &unexplained[..unexplained.len().min(40)]
    );
    let mut out = String::from(
        "# Cases of table_cases.jsonl where `check` differs from ptxas 13, grouped by the\n\
         # reason (table_difference_reasons.txt): the case id, .version and target, the\n\
         # instruction and the two verdicts. Written by PTXVM_MATRIX_BLESS=1 cargo test\n\
         # --release --test ptxas_table_matrix.\n",
    );
    for (reason, lines) in &by_reason {
        out.push_str(&format!("\n# {} cases: {reason}\n", lines.len()));
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    if std::env::var_os("PTXVM_MATRIX_BLESS").is_some() {
        std::fs::write("tests/data/ptxas_matrix/table_differences.txt", out).unwrap();
        return;
    }
    let unlisted: Vec<&String> = differences.iter().filter(|d| !listed.contains(d.as_str())).collect();
    let fixed: Vec<&&str> = listed.iter().filter(|d| !differences.contains(**d)).collect();
    eprintln!("{} of {total} cases agree with ptxas", total - differences.len());
    assert!(
        unlisted.is_empty(),
        "{} new differences from ptxas, e.g. {:?}",
        unlisted.len(),
        &unlisted[..unlisted.len().min(10)]
    );
    assert!(
        fixed.is_empty(),
        "{} listed differences now agree (PTXVM_MATRIX_BLESS=1 removes them), e.g. {:?}",
        fixed.len(),
        &fixed[..fixed.len().min(10)]
    );
    assert!(
        out == include_str!("data/ptxas_matrix/table_differences.txt"),
        "table_differences.txt is not what the matrix gives now (its reasons changed?): \
         PTXVM_MATRIX_BLESS=1 rewrites it"
    );
    assert!(total >= 60_000, "the matrix has {total} cases, fewer than 60,000");
}
