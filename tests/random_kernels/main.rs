//! Random valid kernels against a per-thread reference (issue 3, acceptance point 5;
//! issue 7).
//!
//! proptest draws structured programs (`program.rs`, strategies in `generate.rs`):
//! integer arithmetic of `.u32`, `.s32` and `.b32` with boundary immediates, `setp`,
//! predicate logic, guards, nested `if`/`else` and loops with lane-dependent trip counts,
//! guarded `exit` and `ret`, and votes over the active mask; and, inside divergent code
//! (both sides of branches on lane data, lane-dependent loops, after exits), barriers
//! (`barrier.sync 0` with or without a thread count, `bar.sync 0` where converged) with
//! shared-memory exchanges across them, and the warp-synchronous instructions
//! (`vote.sync`, `shfl.sync`, `bar.warp.sync`, `match.any.sync`, `redux.sync`) with a
//! full member mask or tiles of 4-16 lanes, each side meeting them at its own
//! instructions, and branches uniform across tiles. `census.rs` counts how often each
//! occurs (`generated_kernels_synchronise_in_divergent_code`). Each program is written
//! as PTX (`emit.rs`) and run by the `ptxvm` binary through the launch contract on 1-3
//! dimensional blocks with partial warps and 1-4 CTAs; every output word is compared
//! with `reference.rs`, which runs the program tree itself, thread by thread, meeting
//! at the synchronisation points with the ISA's semantics, never ptxvm's.
//!
//! The binary must never panic, hang or exit with a code other than 0, 1 or 2; on these
//! valid programs it must exit 0, or 2 with the budget fault when a case sets a small
//! `--max-steps`. `PTXVM_PROPTEST_CASES` sets the number of cases (CI
//! runs the default); `PTXVM_RANDOM_KERNELS_DUMP=DIR` keeps every generated module and
//! spec there (all of them are accepted by NVIDIA's `ptxas`; check with
//! `ptxas -arch=sm_90 DIR/case*.ptx`, or set `PTXVM_PTXAS` to `ptxas` for the samples
//! that `generated_kernels_synchronise_in_divergent_code` writes).

mod census;
mod emit;
mod generate;
mod program;
mod reference;

use program::Program;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use reference::{OUT_WORDS, Shape};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Cases per `cargo test` run: about 7 s in release mode on two cores.
const DEFAULT_CASES: u32 = 1000;
/// A launch that takes longer than this is reported as a hang.
const TIMEOUT: Duration = Duration::from_secs(60);

fn cases() -> u32 {
    std::env::var("PTXVM_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_CASES)
}

/// Where the cases' files go: `PTXVM_RANDOM_KERNELS_DUMP`, or Cargo's scratch folder
/// for integration tests (files of passing cases are removed).
fn scratch_dir() -> PathBuf {
    let dir = match std::env::var_os("PTXVM_RANDOM_KERNELS_DUMP") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("random_kernels"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Outcome {
    code: Option<i32>,
    stderr: String,
    out: String,
}

/// Runs `ptxvm run` with stdout and stderr in files (no pipe can fill up), killing it
/// after [`TIMEOUT`].
fn run_cli(
    dir: &Path,
    name: &str,
    ptx: &str,
    spec: &str,
    extra: &[String],
) -> Result<Outcome, TestCaseError> {
    let ptx_path = dir.join(format!("{name}.ptx"));
    let spec_path = dir.join(format!("{name}.json"));
    let out_path = dir.join(format!("{name}.out.json"));
    let err_path = dir.join(format!("{name}.stderr"));
    std::fs::write(&ptx_path, ptx).unwrap();
    std::fs::write(&spec_path, spec).unwrap();
    let _ = std::fs::remove_file(&out_path);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .arg("run")
        .arg(&ptx_path)
        .arg("--launch")
        .arg(&spec_path)
        .arg("--out")
        .arg(&out_path)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // Most launches take a few milliseconds: poll often at first.
    let mut pause = Duration::from_micros(50);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!(
                "ptxvm did not finish within {TIMEOUT:?}\n--- {} ---\n{ptx}",
                ptx_path.display()
            )));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(2));
    };
    Ok(Outcome {
        code: status.code(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        out: std::fs::read_to_string(&out_path).unwrap_or_default(),
    })
}

fn words(json: &serde_json::Value) -> Option<Vec<u32>> {
    let buffers = json["buffers"].as_array()?;
    let out = buffers.iter().find(|b| b["arg"] == 1)?;
    out["data"].as_array()?.iter().map(|v| v.as_u64().and_then(|x| u32::try_from(x).ok())).collect()
}

/// Names the first thread whose words differ, with both rows.
fn first_difference(shape: Shape, want: &[u32], got: &[u32]) -> String {
    let n = shape.threads() as usize;
    for (g, (w, o)) in want.chunks(OUT_WORDS).zip(got.chunks(OUT_WORDS)).enumerate() {
        if w != o {
            let (cta, linear) = (g / n, g % n);
            let [cx, cy, cz] = Shape::coords(shape.grid, cta as u32);
            let [x, y, z] = Shape::coords(shape.block, linear as u32);
            return format!(
                "first difference: ctaid=({cx},{cy},{cz}) tid=({x},{y},{z}) (warp {}, lane {})\n  \
                 words: r0..r7, status (1 done, 2+k exit k), predicate bits\n  \
                 expected {w:?}\n  got      {o:?}",
                linear / 32,
                linear % 32
            );
        }
    }
    format!("lengths differ: expected {} words, got {}", want.len(), got.len())
}

/// Runs one case. With `max_steps` the launch may also stop with the budget fault
/// (exit 2), which must be reported cleanly; when it completes, its output must match.
fn check(program: &Program, shape: Shape, seed: u64, max_steps: Option<u64>) -> Result<(), TestCaseError> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let name = format!("case{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
    let input = generate::input(seed, (shape.ctas() * shape.threads()) as usize * program::NREG as usize);
    let ptx = emit::ptx(program);
    let spec = emit::spec(shape, &input);
    let want = reference::expected(program, shape, &input);
    let dir = scratch_dir();
    let extra: Vec<String> =
        max_steps.iter().flat_map(|n| ["--max-steps".to_string(), n.to_string()]).collect();
    let outcome = run_cli(&dir, &name, &ptx, &spec, &extra)?;
    let remove_files = || {
        if std::env::var_os("PTXVM_RANDOM_KERNELS_DUMP").is_none() {
            for ext in ["ptx", "json", "out.json", "stderr"] {
                let _ = std::fs::remove_file(dir.join(format!("{name}.{ext}")));
            }
        }
    };
    let shown = format!("--- {name}.ptx ---\n{ptx}--- {name}.json ---\n{spec}");
    prop_assert!(!outcome.stderr.contains("panicked"), "ptxvm panicked:\n{}\n{shown}", outcome.stderr);
    prop_assert!(
        matches!(outcome.code, Some(0..=2)),
        "ptxvm exited with {:?}:\n{}\n{shown}",
        outcome.code,
        outcome.stderr
    );
    if max_steps.is_some() && outcome.code == Some(2) {
        prop_assert!(
            outcome.stderr.contains("instruction budget exhausted"),
            "a fault other than the budget with {extra:?}:\n{}\n{shown}",
            outcome.stderr
        );
        remove_files();
        return Ok(());
    }
    prop_assert_eq!(
        outcome.code,
        Some(0),
        "a valid kernel failed ({:?}):\n{}\n{}",
        extra,
        outcome.stderr,
        shown
    );
    let json: serde_json::Value = serde_json::from_str(&outcome.out)
        .map_err(|e| TestCaseError::fail(format!("result is not JSON ({e}): {}\n{shown}", outcome.out)))?;
    let got =
        words(&json).ok_or_else(|| TestCaseError::fail(format!("no u32 buffer 1 in {json}\n{shown}")))?;
    if got != want {
        return Err(TestCaseError::fail(format!("{}\n{shown}", first_difference(shape, &want, &got))));
    }
    remove_files();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_kernels_match_reference(
        program in generate::program(),
        shape in generate::shape(),
        seed in any::<u64>(),
        // One case in eight with a small instruction budget: the fault path.
        max_steps in prop::option::weighted(0.125, 0u64..3000),
    ) {
        check(&program, shape, seed, max_steps)?;
    }
}

/// The reference's integer semantics on the ISA's edge cases, written out by hand.
#[test]
fn reference_semantics_at_the_edges() {
    use program::{BinOp::*, Ty::*, UnOp};
    use reference::{bin, mad, un};
    assert_eq!(bin(Shl, B32, 1, 31), 0x8000_0000);
    assert_eq!(bin(Shl, B32, 1, 32), 0);
    assert_eq!(bin(Shl, B32, 1, u32::MAX), 0);
    assert_eq!(bin(Shr, U32, 0x8000_0000, 33), 0);
    assert_eq!(bin(Shr, S32, 0x8000_0000, 31), u32::MAX);
    assert_eq!(bin(Shr, S32, 0x8000_0000, 1000), u32::MAX);
    assert_eq!(bin(Shr, S32, 0x7fff_ffff, 32), 0);
    assert_eq!(bin(Shr, B32, 0x8000_0000, 4), 0x0800_0000);
    assert_eq!(bin(MulHi, U32, u32::MAX, u32::MAX), 0xffff_fffe);
    assert_eq!(bin(MulHi, S32, u32::MAX, u32::MAX), 0);
    assert_eq!(bin(MulHi, S32, 0x8000_0000, 2), u32::MAX);
    assert_eq!(bin(Min, S32, u32::MAX, 1), u32::MAX);
    assert_eq!(bin(Min, U32, u32::MAX, 1), 1);
    assert_eq!(bin(Max, S32, 0x8000_0000, 0), 0);
    assert_eq!(bin(Div, S32, (-7i32) as u32, 2), (-2i32) as u32); // divisor 2 | 1 = 3; truncates
    assert_eq!(bin(Rem, S32, (-7i32) as u32, 3), (-1i32) as u32);
    assert_eq!(bin(Div, U32, 7, 0), 7); // divisor 0 | 1
    assert_eq!(bin(Div, S32, 0x8000_0000, u32::MAX), u32::MAX); // divisor 0x7fffffff
    assert_eq!(un(UnOp::Abs, 0x8000_0000), 0x8000_0000);
    assert_eq!(un(UnOp::Neg, 0x8000_0000), 0x8000_0000);
    assert_eq!(mad(true, S32, u32::MAX, 1, 5), 4);
    assert_eq!(mad(false, U32, 0x1_0000, 0x1_0000, 7), 7);
}

/// The reference's warp-synchronous arithmetic on hand-worked cases: `shfl.sync`'s
/// source lane by the ISA's formula (`c` packs the segment mask in bits 8-12 and the
/// clamp in bits 0-4), `redux.sync`, and the tile member masks.
#[test]
fn reference_warp_arithmetic() {
    use program::{ReduxOp, ShflMode::*, Ty::*};
    use reference::{reduce, shfl_source, tile_mask};
    assert_eq!(shfl_source(Idx, 5, 3, 0x1f), (3, true));
    assert_eq!(shfl_source(Idx, 5, 35, 0x1f), (3, true)); // b is taken mod 32
    // Segments of 8 lanes: lane 13 is in lanes 8-15; index 2 of it is lane 10.
    assert_eq!(shfl_source(Idx, 13, 2, 0x181f), (10, true));
    assert_eq!(shfl_source(Idx, 13, 10, 0x181f), (10, true));
    // A clamp below the segment's end: lanes past it are out of range.
    assert_eq!(shfl_source(Idx, 13, 6, 0x1803), (13, false));
    assert_eq!(shfl_source(Up, 7, 5, 0), (2, true));
    assert_eq!(shfl_source(Up, 3, 5, 0), (3, false));
    assert_eq!(shfl_source(Up, 12, 3, 0x1800), (9, true));
    assert_eq!(shfl_source(Up, 10, 3, 0x1800), (10, false)); // would leave lanes 8-15
    assert_eq!(shfl_source(Down, 28, 3, 0x1f), (31, true));
    assert_eq!(shfl_source(Down, 30, 3, 0x1f), (30, false));
    assert_eq!(shfl_source(Down, 13, 3, 0x181f), (13, false));
    assert_eq!(shfl_source(Bfly, 5, 1, 0x1f), (4, true));
    // The formula only bounds a butterfly from above: lane 9 ^ 8 = 1 is in range.
    assert_eq!(shfl_source(Bfly, 9, 8, 0x181f), (1, true));
    assert_eq!(shfl_source(Bfly, 1, 8, 0x181f), (1, false));
    assert_eq!(reduce(ReduxOp::Min, S32, &[u32::MAX, 1]), u32::MAX);
    assert_eq!(reduce(ReduxOp::Min, U32, &[u32::MAX, 1]), 1);
    assert_eq!(reduce(ReduxOp::Max, S32, &[0x8000_0000, 0]), 0);
    assert_eq!(reduce(ReduxOp::Add, U32, &[u32::MAX, 2]), 1);
    assert_eq!(reduce(ReduxOp::Xor, B32, &[6, 3, 1]), 4);
    assert_eq!(reduce(ReduxOp::And, B32, &[6, 3]), 2);
    assert_eq!(reduce(ReduxOp::Or, B32, &[6, 1]), 7);
    assert_eq!(tile_mask(13, 8), 0xff00);
    assert_eq!(tile_mask(5, 4), 0xf0);
    assert_eq!(tile_mask(31, 16), 0xffff_0000);
    assert_eq!(tile_mask(0, 32), u32::MAX);
}

/// Found by this generator: after an `if` that holds an `exit`, even one no lane takes,
/// the two sides of a warp never reconverged (the exit makes the virtual exit the
/// branch's immediate post-dominator), and `bar.sync` then reported "barrier that cannot
/// complete: lanes 0xffff0000 of warp 0 wait on another path", though every thread of
/// the block reaches that same barrier. Fixed; `finalize` still writes `bar.sync` only
/// where the warp is surely converged, and `barrier.sync` elsewhere.
#[test]
fn bar_after_branch_with_exit() {
    let ptx = "\
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 out)
{
\t.reg .b32 %r<2>;
\t.reg .pred %p<2>;
\t.reg .b64 %rd<3>;

\tmov.u32 %r0, %tid.x;
\tsetp.lt.u32 %p0, %r0, 16;
\tsetp.gt.u32 %p1, %r0, 1000;
\t@!%p0 bra $L_end;
\t@%p1 exit;
$L_end:
\tbar.sync 0;
\tld.param.u64 %rd0, [out];
\tcvta.to.global.u64 %rd0, %rd0;
\tmul.wide.u32 %rd1, %r0, 4;
\tadd.s64 %rd2, %rd0, %rd1;
\tadd.u32 %r1, %r0, 1;
\tst.global.u32 [%rd2], %r1;
\tret;
}
";
    let spec = r#"{"kernel": "k", "grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}]}"#;
    let outcome = run_cli(&scratch_dir(), "bar_after_branch_with_exit", ptx, spec, &[]).unwrap();
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    let json: serde_json::Value = serde_json::from_str(&outcome.out).unwrap();
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().filter_map(|v| v.as_u64()).collect();
    assert_eq!(got, (1..=32).collect::<Vec<u64>>());
}

/// Issue 7: the generator puts barriers and warp-synchronous instructions inside
/// divergent code. Counts, over a fixed sample of programs, how many have each kind
/// (printed with `--nocapture`), and requires a good share of each. Writes the first
/// [`SAMPLES`] modules to `samples/` in the scratch folder; with `PTXVM_PTXAS` naming
/// NVIDIA's `ptxas`, checks that it accepts them.
#[test]
fn generated_kernels_synchronise_in_divergent_code() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    const PROGRAMS: usize = 1000;
    const SAMPLES: usize = 40;
    /// The least share of programs with each feature (about half of what is drawn).
    const LEAST: &[(&str, f64)] = &[
        ("barrier in divergent code", 0.3),
        ("barrier on both sides of a lane branch", 0.25),
        ("shared-memory exchange on both sides", 0.08),
        ("warp-sync wider than the lanes surely there", 0.3),
        ("full-mask warp-sync on both sides", 0.2),
        ("tile-mask warp-sync in a lane branch", 0.1),
        ("tile branch with tile-mask warp-sync", 0.1),
        ("lane-dependent loop that synchronises", 0.05),
        ("synchronisation after exit/ret", 0.15),
        ("exit/ret before synchronisation in a lane branch", 0.05),
        ("barrier.sync with a thread count", 0.05),
        ("bar.sync (aligned)", 0.05),
        ("vote over the active mask", 0.15),
    ];
    let mut runner = TestRunner::deterministic();
    let strategy = generate::program();
    let dir = scratch_dir().join("samples");
    std::fs::create_dir_all(&dir).unwrap();
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for k in 0..PROGRAMS {
        let program = strategy.new_tree(&mut runner).unwrap().current();
        for (i, (name, has)) in census::Census::of(&program).features().into_iter().enumerate() {
            if i == counts.len() {
                counts.push((name, 0));
            }
            counts[i].1 += usize::from(has);
        }
        if k < SAMPLES {
            std::fs::write(dir.join(format!("kernel{k}.ptx")), emit::ptx(&program)).unwrap();
        }
    }
    let mut low = Vec::new();
    for &(name, n) in &counts {
        let share = n as f64 / PROGRAMS as f64;
        println!("{:>5.1}%  {name}", 100.0 * share);
        match LEAST.iter().find(|l| l.0 == name) {
            Some(&(_, least)) if share < least => low.push(format!("{name}: {share:.3} < {least}")),
            None if share < 0.1 => low.push(format!("{name}: {share:.3} < 0.1")),
            _ => {}
        }
    }
    assert!(low.is_empty(), "too few generated programs have: {low:#?}");
    if let Some(ptxas) = std::env::var_os("PTXVM_PTXAS") {
        for k in 0..SAMPLES {
            let file = dir.join(format!("kernel{k}.ptx"));
            let out = Command::new(&ptxas)
                .arg("-arch=sm_90")
                .arg(&file)
                .args(["-o", "/dev/null"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "ptxas rejects {}:\n{}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
