//! Parse + check throughput in MB/s on a large module of real compiler output.
//!
//! The module is built from the committed nvcc corpus (`corpus/cuda/ptx/sm_90/*.ptx`,
//! falling back to `examples/`): the bodies of every file are concatenated under one
//! header, copy after copy, with each module-level symbol renamed per copy, until the
//! text is at least 10 MB. It is written to `target/bench-big.ptx` so `ptxas` can be
//! timed on the very same file. Set `PTXVM_BENCH_QUICK=1` for a small, fast run (CI).

use std::time::Instant;

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'%'
}

/// Replaces whole-identifier occurrences of each name in `renames`.
fn rename(text: &str, names: &[String], suffix: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 1024);
    let mut i = 0;
    while i < bytes.len() {
        if is_ident_byte(bytes[i]) && (i == 0 || !is_ident_byte(bytes[i - 1])) {
            let end = i + bytes[i..].iter().take_while(|&&b| is_ident_byte(b)).count();
            let word = &text[i..end];
            out.push_str(word);
            if names.iter().any(|n| n == word) {
                out.push_str(suffix);
            }
            i = end;
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn sources() -> Vec<String> {
    let mut files: Vec<_> = ["corpus/cuda/ptx/sm_90", "examples"]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .next()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

fn build(target_bytes: usize) -> String {
    let header = ".version 9.5\n.target sm_90\n.address_size 64\n\n";
    let mut parts = Vec::new();
    for src in sources() {
        let (module, errors) = ptxvm::syntax::parse(&src);
        assert!(errors.is_empty(), "corpus file does not parse");
        let mut names = Vec::new();
        for item in &module.items {
            match item {
                ptxvm::syntax::ast::Item::Func(f) => names.push(f.name.text.to_string()),
                ptxvm::syntax::ast::Item::Var(v) => {
                    names.extend(v.vars.iter().map(|d| d.name.text.to_string()))
                }
                _ => {}
            }
        }
        // Everything after `.address_size` is the body of the module.
        let body = src.split_once(".address_size 64").map_or(src.as_str(), |(_, b)| b).to_string();
        parts.push((body, names));
    }
    assert!(!parts.is_empty(), "no PTX found to build the benchmark module");
    let mut out = String::from(header);
    let mut copy = 0;
    while out.len() < target_bytes {
        for (body, names) in &parts {
            out.push_str(&rename(body, names, &format!("_c{copy}")));
        }
        copy += 1;
    }
    out
}

fn main() {
    let quick = std::env::var_os("PTXVM_BENCH_QUICK").is_some();
    let target = if quick { 200_000 } else { 10 << 20 };
    let text = build(target);
    let _ = std::fs::create_dir_all("target");
    let _ = std::fs::write("target/bench-big.ptx", &text);
    let diags = ptxvm::check_source(&text);
    assert!(diags.is_empty(), "benchmark module must be valid: {}", diags[0].message);
    let runs = if quick { 2 } else { 7 };
    let mut times = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let d = ptxvm::check_source(std::hint::black_box(&text));
        std::hint::black_box(d);
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let mb = text.len() as f64 / 1e6;
    // Baseline in the same run: the lexer alone, to show how much the parser and checker add.
    let t = Instant::now();
    let mut lx = ptxvm::syntax::lexer::Lexer::new(&text);
    let mut n = 0u64;
    while lx.next_token().tok != ptxvm::syntax::lexer::Tok::Eof {
        n += 1;
    }
    let lex = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let parsed = ptxvm::syntax::parse(std::hint::black_box(&text));
    let parse = t.elapsed().as_secs_f64();
    std::hint::black_box(parsed);
    println!("parse alone: {:.1} ms = {:.0} MB/s", parse * 1e3, mb / parse);
    println!(
        "parse+check: {mb:.1} MB in {:.1} ms (median of {runs}) = {:.0} MB/s",
        median * 1e3,
        mb / median
    );
    println!(
        "lexer alone: {n} tokens in {:.1} ms = {:.0} MB/s (ratio parse+check/lex = {:.2})",
        lex * 1e3,
        mb / lex,
        median / lex
    );
    println!(
        "module written to target/bench-big.ptx for `ptxas -arch=sm_90 target/bench-big.ptx -o /dev/null`"
    );
}
