//! `ptxvm check` against ptxas 13.5 on operand mutations of real compiler output
//! (issue 22): tests/data/ptxas_matrix/operand_cases.jsonl, made by
//! tools/ptxas_operand_matrix.py, holds each mutated instruction with ptxas's verdict
//! on its module (a corpus file with that one line changed). Every case where check
//! differs is listed in operand_differences.txt, grouped by its reason: the first rule
//! of operand_difference_reasons.txt whose fragment the instruction contains. A new
//! difference, a listed one that now agrees, or one no rule explains fails the test.
//! `PTXVM_MATRIX_BLESS=1 cargo test --release --test ptxas_operand_matrix` rewrites
//! the list.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Deserialize)]
struct Case {
    id: String,
    file: String,
    line: usize,
    kind: String,
    instr: String,
    accept: bool,
    #[serde(default)]
    error: String,
}

#[test]
fn check_agrees_with_ptxas_on_operand_mutations() {
    let data = include_str!("data/ptxas_matrix/operand_cases.jsonl");
    let listed: BTreeSet<&str> = include_str!("data/ptxas_matrix/operand_differences.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut sources: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut per_family: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut differences = BTreeSet::new();
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let reasons: Vec<(&str, &str)> = include_str!("data/ptxas_matrix/operand_difference_reasons.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let mut unexplained = Vec::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).expect("valid JSON line");
        let lines = sources.entry(case.file.clone()).or_insert_with(|| {
            std::fs::read_to_string(&case.file).unwrap().split('\n').map(str::to_owned).collect()
        });
        let mut module = lines.clone();
        module[case.line - 1] = case.instr.clone();
        let diags = ptxvm::check_source(&module.join("\n"));
        let name = case.instr.trim().trim_start_matches('{').trim();
        let name = name.split(';').next_back().map_or(name, |_| name);
        let opcode = name
            .split_whitespace()
            .find(|w| !w.starts_with('@') && !w.starts_with('.') && !w.starts_with('%'))
            .unwrap_or("")
            .split('.')
            .next()
            .unwrap_or("");
        let family =
            ptxvm::isa::Opcode::parse(opcode).map_or("other".to_string(), |o| format!("{:?}", o.family()));
        // Per family: ptxas rejects (and check too), ptxas accepts (and check too).
        let e = per_family.entry(family).or_default();
        if case.accept {
            e.2 += 1;
            e.3 += usize::from(diags.is_empty());
        } else {
            e.0 += 1;
            e.1 += usize::from(!diags.is_empty());
        }
        if diags.is_empty() != case.accept {
            let verdict = if case.accept {
                format!("ptxas accepts; check: {}", diags.first().map(|d| d.message.as_str()).unwrap_or(""))
            } else {
                format!("ptxas rejects ({}); check accepts", case.error.trim())
            };
            let Some(&(_, why)) = reasons.iter().find(|(fragment, _)| case.instr.contains(fragment)) else {
                unexplained.push(case.id.clone());
                continue;
            };
            let verdict_kind = if case.accept { "ptxas accepts" } else { "ptxas rejects" };
            let reason = format!("{verdict_kind}: {why}");
            groups.entry(reason).or_default().push(format!(
                "{}\t{}:{}\t{}\t{}\t{verdict}",
                case.id,
                case.file,
                case.line,
                case.kind,
                case.instr.trim()
            ));
            differences.insert(case.id);
        }
    }
    for (family, (rej, both_rej, acc, both_acc)) in &per_family {
        eprintln!(
            "{family}: check rejects {both_rej} of the {rej} ptxas rejects, accepts {both_acc} of the {acc} it accepts"
        );
    }
    assert!(
        unexplained.is_empty(),
        "{} differences that no rule of operand_difference_reasons.txt explains, e.g. {:?}",
        unexplained.len(),
        &unexplained[..unexplained.len().min(20)]
    );
    let mut out = String::from(
        "# Cases of operand_cases.jsonl where `check` differs from ptxas 13.5, grouped by\n\
         # ptxas's verdict and the reason (operand_difference_reasons.txt). Written by\n\
         # PTXVM_MATRIX_BLESS=1 cargo test --release --test ptxas_operand_matrix.\n",
    );
    for (reason, lines) in &groups {
        out.push_str(&format!("\n# {} cases: {reason}\n", lines.len()));
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    if std::env::var_os("PTXVM_MATRIX_BLESS").is_some() {
        std::fs::write("tests/data/ptxas_matrix/operand_differences.txt", out).unwrap();
        return;
    }
    let unlisted: Vec<&String> = differences.iter().filter(|d| !listed.contains(d.as_str())).collect();
    let fixed: Vec<&&str> = listed.iter().filter(|d| !differences.contains(**d)).collect();
    assert!(
        unlisted.is_empty(),
        "{} new differences, e.g. {:?}",
        unlisted.len(),
        &unlisted[..unlisted.len().min(20)]
    );
    assert!(
        fixed.is_empty(),
        "{} listed differences now agree (bless the list): {:?}",
        fixed.len(),
        &fixed[..fixed.len().min(20)]
    );
}
