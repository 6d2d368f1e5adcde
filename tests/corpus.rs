//! The real-world corpus: every PTX file that nvcc and llc produced from the sources
//! in `corpus/` (see corpus/README.md for the commands) is valid for `ptxas`, so
//! `ptxvm check` must accept every one of them.

use std::path::{Path, PathBuf};

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

fn check_all(dir: &str) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    ptx_files(Path::new(dir), &mut files);
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let diags = ptxvm::check_source(&src);
        if !diags.is_empty() {
            let shown = f.display().to_string();
            failures.push(ptxvm::diag::render_all(&diags[..diags.len().min(3)], &shown, &src));
        }
    }
    (files.len(), failures)
}

#[test]
fn every_nvcc_file_passes_check() {
    let (n, failures) = check_all("corpus/cuda/ptx");
    assert!(n >= 90, "expected at least 30 sources x 3 targets, found {n} files");
    assert!(failures.is_empty(), "{} of {n} files rejected:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_llc_file_passes_check() {
    let (n, failures) = check_all("corpus/llvm/ptx");
    assert!(n >= 40, "expected at least 20 IR files x 2 targets, found {n} files");
    assert!(failures.is_empty(), "{} of {n} files rejected:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn examples_and_syntax_samples_pass_check() {
    for dir in ["examples", "tests/data/syntax"] {
        let (n, failures) = check_all(dir);
        assert!(n >= 1);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// Triton-style PTX, written by hand in that shape, and Triton's own sm_90a GEMM
/// (corpus/triton/README.md).
#[test]
fn every_triton_style_file_passes_check() {
    let (n, failures) = check_all("corpus/triton");
    assert!(n >= 3, "expected the three Triton-style files, found {n}");
    assert!(failures.is_empty(), "{} of {n} files rejected:\n{}", failures.len(), failures.join("\n"));
}
