//! No panic after check (issue 8): every module that `check` accepts goes through
//! `lower` and a short launch of each kernel without a panic. The modules come from
//! real compiler output (the nvcc sm_90 and llc corpus):
//! - each instruction in turn loses its last operand (22,998 variants);
//! - a proptest (2,000 cases, `PTXVM_PROPTEST_CASES` for more) makes one to three
//!   structured changes: an operand dropped, duplicated or swapped, a type or a
//!   modifier replaced, a declaration deleted.
//!
//! Most variants are rejected by `check`; those it accepts must lower and run (or
//! report an error or a fault), never panic.

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
            // 64-bit parameters point into one buffer, narrower ones are 1, so that
            // kernels get past their first load.
            let mut device = Device::default();
            let Ok(buffer) = device.alloc(1 << 16) else { return };
            let mut params = vec![0u8; kernel.param_bytes as usize];
            for &(_, offset, size) in &kernel.params {
                let v: u64 = if size == 8 { buffer } else { 1 };
                let (o, n) = (offset as usize, (size as usize).min(8));
                if let Some(p) = params.get_mut(o..o + n) {
                    p.copy_from_slice(&v.to_le_bytes()[..n]);
                }
            }
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

/// Modules for the structured mutations: compiler output of every style the corpus
/// has, small enough that a case stays quick.
fn bases() -> Vec<String> {
    let mut out: Vec<String> = corpus().into_iter().map(|(_, s)| s).filter(|s| s.len() < 40_000).collect();
    for ex in ["examples/saxpy.ptx", "examples/classify.ptx", "examples/collatz.ptx"] {
        out.push(std::fs::read_to_string(ex).unwrap());
    }
    out
}

const TYPES: &[&str] = &[
    ".u8", ".s8", ".u16", ".s16", ".u32", ".s32", ".u64", ".s64", ".b8", ".b16", ".b32", ".b64", ".f16",
    ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".pred",
];

const MODIFIERS: &[&str] = &[
    ".lt",
    ".eq",
    ".ge",
    ".ltu",
    ".num",
    ".nan",
    ".and",
    ".or",
    ".xor",
    ".rn",
    ".rz",
    ".rni",
    ".rzi",
    ".ftz",
    ".sat",
    ".approx",
    ".full",
    ".wide",
    ".lo",
    ".hi",
    ".cc",
    ".global",
    ".shared",
    ".local",
    ".const",
    ".param",
    ".volatile",
    ".relaxed",
    ".acquire",
    ".gpu",
    ".sys",
    ".cta",
    ".sync",
    ".aligned",
    ".uni",
    ".v2",
    ".v4",
    ".idx",
    ".up",
    ".down",
    ".bfly",
    ".ballot",
    ".any",
    ".all",
    ".to",
    ".add",
    ".min",
    ".cas",
    ".exch",
    ".inc",
    ".x",
    ".L1::evict_last",
];

/// Cases per run: 2,000 (CI), or `PTXVM_PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PTXVM_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000)
}

/// One structured change to a module (issue 8: drop, duplicate and swap operands,
/// swap types and modifiers, delete declarations). Indices wrap around.
#[derive(Debug, Clone)]
enum Change {
    DropOperand(usize, usize),
    DuplicateOperand(usize, usize),
    SwapOperands(usize, usize, usize),
    SwapType(usize, usize),
    SwapModifier(usize, usize, usize),
    DeleteDeclaration(usize),
}

fn change() -> impl proptest::strategy::Strategy<Value = Change> {
    use proptest::prelude::*;
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(l, k)| Change::DropOperand(l, k)),
        (any::<usize>(), any::<usize>()).prop_map(|(l, k)| Change::DuplicateOperand(l, k)),
        (any::<usize>(), any::<usize>(), any::<usize>()).prop_map(|(l, a, b)| Change::SwapOperands(l, a, b)),
        (any::<usize>(), 0..TYPES.len()).prop_map(|(l, t)| Change::SwapType(l, t)),
        (any::<usize>(), any::<usize>(), 0..MODIFIERS.len())
            .prop_map(|(l, k, m)| Change::SwapModifier(l, k, m)),
        any::<usize>().prop_map(Change::DeleteDeclaration),
    ]
}

/// `src` with `c` applied (unchanged when the change finds nothing to act on).
fn apply_change(src: &str, c: &Change) -> String {
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    let instrs: Vec<usize> = (0..lines.len()).filter(|&i| operands(lines[i]).is_some()).collect();
    let decls: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let t = lines[i].trim_start();
            [".reg", ".shared", ".global", ".local", ".param", ".const"].iter().any(|d| t.starts_with(d))
        })
        .collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let pick = |v: &[usize], k: usize| (!v.is_empty()).then(|| v[k % v.len()]);
    match *c {
        Change::DeleteDeclaration(k) => {
            if let Some(i) = pick(&decls, k) {
                out[i] = "\n".into();
            }
        }
        Change::DropOperand(l, k) | Change::DuplicateOperand(l, k) | Change::SwapOperands(l, k, _) => {
            let Some(i) = pick(&instrs, l) else { return src.into() };
            let line = lines[i];
            let ops = operands(line).unwrap_or_default();
            if ops.is_empty() {
                return src.into();
            }
            let texts: Vec<&str> = ops.iter().map(|&(a, b)| line[a..b].trim()).collect();
            let mut new: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
            let k = k % new.len();
            match *c {
                Change::DropOperand(..) => {
                    new.remove(k);
                }
                Change::DuplicateOperand(..) => new.insert(k, texts[k].into()),
                Change::SwapOperands(_, _, b) => new.swap(k, b % texts.len()),
                _ => {}
            }
            let (start, end) = (ops[0].0, ops[ops.len() - 1].1);
            out[i] = format!("{} {}{}", &line[..start], new.join(", "), &line[end..]);
        }
        Change::SwapType(l, t) => {
            let Some(i) = pick(&instrs, l) else { return src.into() };
            let line = lines[i];
            if let Some(old) = TYPES
                .iter()
                .rev()
                .find(|ty| line.contains(&format!("{ty} ")) || line.contains(&format!("{ty}\t")))
            {
                out[i] = line.replacen(old, TYPES[t], 1);
            }
        }
        Change::SwapModifier(l, k, m) => {
            let Some(i) = pick(&instrs, l) else { return src.into() };
            let line = lines[i];
            let t = line.trim_start();
            let op_end = t.find(char::is_whitespace).unwrap_or(t.len());
            let opcode = &t[..op_end];
            let dots: Vec<usize> = opcode.match_indices('.').map(|(p, _)| p).collect();
            if let Some(d) = pick(&dots, k) {
                let end = opcode[d + 1..].find('.').map_or(opcode.len(), |e| d + 1 + e);
                let lead = line.len() - t.len();
                out[i] = format!("{}{}{}{}", &line[..lead + d], MODIFIERS[m], &opcode[end..], &t[op_end..]);
            }
        }
    }
    out.concat()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: cases(), ..Default::default() })]

    /// Structured mutations of real PTX: whatever `check` accepts lowers and runs
    /// without a panic.
    #[test]
    fn structured_mutations_of_real_ptx_run_without_panic(
        changes in proptest::collection::vec(change(), 1..4),
        which in proptest::prelude::any::<usize>(),
    ) {
        thread_local! { static BASES: Vec<String> = bases(); }
        let src = BASES.with(|b| b[which % b.len()].clone());
        let mutated = changes.iter().fold(src, |s, c| apply_change(&s, c));
        if ptxvm::check_source(&mutated).is_empty() {
            if std::env::var_os("SHOW_ACCEPTED").is_some() {
                eprintln!("ACCEPTED {changes:?}");
            }
            if let Err(msg) = lower_and_run(&mutated) {
                panic!("panic after check: {msg}\n{changes:?}");
            }
        }
    }
}
