//! Parse + check throughput in MB/s on one large module of real nvcc output.
//!
//! The module is `bench/big/big.ptx` (13 MB, 1024 kernels and 514 device functions,
//! made by `nvcc -ptx -arch=sm_90 -O3 bench/big/big.cu`; see bench/big/README.md,
//! which also records ptxas's time on the same file). Each phase is timed several
//! times and the median reported, with the lexer alone as the baseline measured in
//! the same run. `PTXVM_BENCH_QUICK=1` runs each phase once (CI keeps it compiling).

use std::time::Instant;

fn main() {
    let quick = std::env::var_os("PTXVM_BENCH_QUICK").is_some();
    let text = std::fs::read_to_string("bench/big/big.ptx").expect("bench/big/big.ptx is committed");
    let diags = ptxvm::check_source(&text);
    assert!(diags.is_empty(), "benchmark module must be valid: {}", diags[0].message);
    let runs = if quick { 1 } else { 9 };
    // Each phase is timed `runs` times and the median reported; the lexer alone is
    // the baseline measured in the same run.
    let median = |f: &dyn Fn()| {
        let mut times: Vec<f64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    let mb = text.len() as f64 / 1e6;
    let lex = median(&|| {
        let mut lx = ptxvm::syntax::lexer::Lexer::new(std::hint::black_box(&text));
        while lx.next_token().tok != ptxvm::syntax::lexer::Tok::Eof {}
    });
    let parse = median(&|| {
        std::hint::black_box(ptxvm::syntax::parse(std::hint::black_box(&text)));
    });
    let full = median(&|| {
        std::hint::black_box(ptxvm::check_source(std::hint::black_box(&text)));
    });
    let (module, _) = ptxvm::syntax::parse(&text);
    println!(
        "module: {mb:.1} MB, {} statements, {} operands, {} modifiers, {} top-level items",
        module.pool.stmts.len(),
        module.pool.operands.len(),
        module.pool.mods.len(),
        module.items.len()
    );
    println!("lexer alone: {:7.1} ms = {:5.0} MB/s (baseline)", lex * 1e3, mb / lex);
    println!("parse:       {:7.1} ms = {:5.0} MB/s ({:.2}x the lexer)", parse * 1e3, mb / parse, parse / lex);
    println!(
        "parse+check: {:7.1} ms = {:5.0} MB/s ({:.2}x the lexer), median of {runs}, single-threaded",
        full * 1e3,
        mb / full,
        full / lex
    );
}
