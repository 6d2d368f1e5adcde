//! No panic after check (issue 8): every module that `check` accepts goes through
//! `lower` and a short launch of each kernel without a panic. The variants come from
//! real compiler output (the nvcc sm_90 and llc corpus): each instruction in turn loses
//! its last operand. Most variants are rejected by `check`; those it accepts must
//! lower and run (or report an error or a fault), never panic.

use ptxvm::api::{Device, Module};
use ptxvm::exec::limits::Limits;
use ptxvm::launch::Dim3;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// The corpus files the variants are made from.
fn corpus() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["corpus/cuda/ptx/sm_90", "corpus/llvm/ptx"] {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files.into_iter().filter(|p| p.extension().is_some_and(|x| x == "ptx")) {
            let name = f.strip_prefix(Path::new("corpus")).unwrap_or(&f).display().to_string();
            out.push((name, std::fs::read_to_string(&f).unwrap()));
        }
    }
    out
}

/// The byte ranges of each top-level operand of the instruction `text` (its opcode
/// first); `None` for a line that is not an instruction.
fn operands(text: &str) -> Option<Vec<(usize, usize)>> {
    let t = text.trim_start();
    let lead = text.len() - t.len();
    if t.starts_with('.')
        || t.starts_with("//")
        || t.starts_with('{')
        || t.starts_with('}')
        || t.contains(':')
    {
        return None;
    }
    let semi = t.find(';')?;
    let body = &t[..semi];
    // Skip a guard, then the opcode.
    let mut at = 0;
    if body.starts_with('@') {
        at = body.find(char::is_whitespace)?;
        at += body[at..].len() - body[at..].trim_start().len();
    }
    let op_end = body[at..].find(char::is_whitespace).map_or(body.len(), |k| at + k);
    let mut ops = Vec::new();
    let (mut depth, mut start) = (0i32, op_end);
    for (i, c) in body.char_indices().skip(op_end) {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                ops.push((lead + start, lead + i));
                start = i + 1;
            }
            _ => {}
        }
    }
    if !body[start..].trim().is_empty() {
        ops.push((lead + start, lead + body.len()));
    }
    Some(ops)
}

/// Each variant of `src` with one instruction's last operand removed (with the comma
/// before it): (line number, text).
fn drop_last_operand(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (n, line) in src.split_inclusive('\n').enumerate() {
        if let Some(ops) = operands(line)
            && let Some(&(start, end)) = ops.last()
        {
            // From the comma before the last operand (or its start) to its end.
            let cut_from = if ops.len() > 1 { ops[ops.len() - 2].1 } else { start };
            let mut v = String::with_capacity(src.len());
            v.push_str(&src[..offset + cut_from]);
            v.push_str(&src[offset + end..]);
            out.push((n + 1, v));
        }
        offset += line.len();
    }
    out
}

thread_local! {
    /// Where the last panic on this thread was raised.
    static WHERE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Lowers `src` (which `check` accepted) and launches each kernel on one warp with
/// zeroed parameters and a small step budget. A panic is the only failure.
fn lower_and_run(src: &str) -> Result<(), String> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        WHERE.with(|w| *w.borrow_mut() = at);
    }));
    let r = catch_unwind(AssertUnwindSafe(|| {
        let Ok(module) = Module::load(src) else { return };
        for name in module.kernel_names() {
            let Ok(kernel) = module.kernel(&name) else { continue };
            let mut device = Device::default();
            let params = vec![0u8; kernel.param_bytes as usize];
            let one = Dim3 { x: 1, y: 1, z: 1 };
            let block = Dim3 { x: 32, y: 1, z: 1 };
            let _ = device.launch_with(&kernel, one, block, 0, &params, &Limits::new(10_000));
        }
    }));
    std::panic::set_hook(quiet);
    r.map_err(|e| {
        let msg =
            e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
        format!("{} at {}", msg.unwrap_or_default(), WHERE.with(|w| w.take()))
    })
}

#[test]
fn instructions_missing_their_last_operand_never_panic() {
    let (mut variants, mut accepted) = (0, 0);
    let mut panics = Vec::new();
    for (name, src) in corpus() {
        for (line, v) in drop_last_operand(&src) {
            variants += 1;
            if !ptxvm::check_source(&v).is_empty() {
                continue;
            }
            accepted += 1;
            // `SHOW_ACCEPTED=1 cargo test --test no_panic -- --nocapture` lists them.
            if std::env::var_os("SHOW_ACCEPTED").is_some() {
                eprintln!("ACCEPTED {name}:{line}: {}", v.lines().nth(line - 1).unwrap_or("").trim());
            }
            if let Err(msg) = lower_and_run(&v) {
                panics.push(format!("{name}:{line}: {msg}"));
            }
        }
    }
    eprintln!("{variants} variants, {accepted} accepted by check, {} panicked", panics.len());
    assert!(variants > 5000, "only {variants} variants");
    assert!(
        panics.is_empty(),
        "{} of {accepted} accepted variants panicked:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn the_operand_splitter_keeps_braces_and_brackets_whole() {
    let line = "\t@%p1 st.global.v2.f32 \t[%rd1+8], {%f1, %f2};\n";
    let ops: Vec<&str> = operands(line).unwrap().iter().map(|&(a, b)| line[a..b].trim()).collect();
    assert_eq!(ops, ["[%rd1+8]", "{%f1, %f2}"]);
    assert_eq!(operands("$L__BB0_2:\n"), None);
    assert_eq!(operands("\t.reg .b32 %r<4>;\n"), None);
    assert_eq!(operands("\tret;\n"), Some(vec![]));
    let v = drop_last_operand(".x\n\tadd.s32 %r1, %r2, %r3;\n");
    assert_eq!(v, [(2, ".x\n\tadd.s32 %r1, %r2;\n".to_string())]);
}
