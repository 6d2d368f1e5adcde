//! The stages' boundaries (DESIGN.md; issue 8, item 5): the executor knows the decoded
//! program and the semantics, not the text it came from, the checker's types or the
//! launch contract.

#[test]
fn exec_imports_neither_syntax_nor_check_nor_launch() {
    let mut offenders = Vec::new();
    for entry in std::fs::read_dir("src/exec").unwrap().flatten() {
        let path = entry.path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for stage in ["crate::syntax", "crate::check", "crate::launch", "crate::api"] {
                if code.contains(stage) {
                    offenders.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "exec reaches into other stages:\n{}", offenders.join("\n"));
}

/// One instruction is one row of `src/isa/table.rs` plus one file per stage, named by
/// its family (issue 8, item 5): `lower` decodes each family in its own file, and the
/// files of `check` and `sem` that hold one family use the same names.
#[test]
fn stages_keep_one_file_per_instruction_family() {
    use ptxvm::isa::Family;
    let name = |f: Family| match f {
        Family::Int => "int",
        Family::Float => "float",
        Family::Half => "half",
        Family::Cmp => "cmp",
        Family::Mem => "mem",
        Family::Cvt => "cvt",
        Family::Warp => "warp",
        Family::Control => "control",
        Family::Tex => "tex",
        Family::Matrix => "matrix",
        Family::Video => "video",
        Family::Misc => "misc",
    };
    let runnable = [
        Family::Int,
        Family::Float,
        Family::Half,
        Family::Cmp,
        Family::Mem,
        Family::Cvt,
        Family::Warp,
        Family::Control,
        Family::Tex,
    ];
    for f in runnable {
        let path = format!("src/lower/{}.rs", name(f));
        assert!(std::path::Path::new(&path).exists(), "{path} is missing");
    }
    // Family files elsewhere, by the same names.
    for path in ["src/check/cmp.rs", "src/check/control.rs", "src/check/mem.rs", "src/check/tex.rs"] {
        assert!(std::path::Path::new(path).exists(), "{path} is missing");
    }
    for path in ["src/sem/cmp.rs", "src/sem/int.rs", "src/sem/float.rs", "src/sem/cvt.rs", "src/sem/warp.rs"]
    {
        assert!(std::path::Path::new(path).exists(), "{path} is missing");
    }
    // No decoder matches modifier text: the forms come from `check` as words.
    for f in runnable {
        let path = format!("src/lower/{}.rs", name(f));
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                !code.contains("self.t(i.mods") && !code.contains("i.mods.iter()"),
                "{path}:{}: reads modifier text: {}",
                n + 1,
                line.trim()
            );
        }
    }
}
