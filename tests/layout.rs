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
