//! What `run` still rejects in real compiler output: every kernel of every module in
//! `corpus/` (nvcc for sm_75/80/90, llc, Triton) is decoded for launch, and the
//! instructions ptxvm cannot run are compared with `tests/data/run_rejected.txt`, the
//! list README.md gives. A kernel that newly fails, or a listed one that now runs,
//! fails the test (`PTXVM_BLESS_REJECTED=1` rewrites the list).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ptx") {
            out.push(p);
        }
    }
}

#[test]
fn run_rejects_only_the_listed_instructions_of_real_compiler_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    ptx_files(&root.join("corpus"), &mut files);
    assert!(files.len() > 190, "corpus/ has {} PTX files", files.len());
    let mut rejected = BTreeSet::new();
    let mut kernels = 0;
    for file in &files {
        let src = std::fs::read_to_string(file).unwrap();
        let rel = file.strip_prefix(root).unwrap().display().to_string();
        // A module that no longer loads is a change too.
        let Ok(module) = ptxvm::api::Module::load(&src) else {
            rejected.insert(format!("{rel}: does not load"));
            continue;
        };
        for name in module.kernel_names() {
            kernels += 1;
            if let Err(e) = module.kernel(&name) {
                let line = src[..e.span.start as usize].lines().count().max(1);
                rejected.insert(format!("{rel}:{line}: {} ({name})", e.message));
            }
        }
    }
    let got: String = rejected.iter().map(|l| format!("{l}\n")).collect();
    let path = root.join("tests/data/run_rejected.txt");
    if std::env::var_os("PTXVM_BLESS_REJECTED").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(kernels > 300, "only {kernels} kernels");
    assert_eq!(got, want, "the kernels run rejects changed; README.md lists them");
}
