//! `ptxvm trace`: the page for tests/data/trace/diverge.ptx, two warps that each take
//! an if/else on the lane's parity, a loop of tid & 3 rounds, a barrier, and (threads
//! 48-63) an early exit. The markers follow from the ISA's SIMT semantics: per warp one
//! divergent if, three divergent loop exits (rounds 0, 1 and 2 lose lanes, round 3
//! loses the rest), two reconvergences (after the if/else and after the loop), one
//! barrier; exits where the lanes leave. The SVG is a reviewed snapshot, and the page
//! renders in a real headless Chromium where one is installed.

use std::path::Path;
use std::process::Command;

fn trace(ptx: &str, spec: &str, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["trace", ptx, "--launch", spec, "-o"])
        .arg(out)
        .output()
        .unwrap()
}

fn page() -> String {
    let dir = std::env::temp_dir().join(format!("ptxvm-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("diverge.html");
    let run = trace("tests/data/trace/diverge.ptx", "tests/data/trace/diverge.json", &out);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    std::fs::read_to_string(&out).unwrap()
}

fn svg(page: &str) -> &str {
    let start = page.find("<svg").unwrap();
    let end = page.find("</svg>").unwrap() + "</svg>\n".len();
    &page[start..end]
}

#[test]
fn the_page_marks_divergence_reconvergence_barriers_and_exits() {
    let page = page();
    let svg = svg(&page);
    let count = |what: &str| svg.matches(what).count();
    assert_eq!(count("<polygon"), 12, "divergences and reconvergences");
    assert_eq!(count(r##"fill="#d62728""##), 8, "4 divergent branches per warp");
    assert_eq!(count(r##"fill="#2ca02c""##), 4, "2 reconvergences per warp");
    assert_eq!(count(r##"stroke="#ff7f0e""##), 2, "one barrier per warp");
    // Warp 0's 32 lanes leave by the kernel's ret (its exit); warp 1's by `exit`
    // (lanes 48-63) and ret (32-47).
    assert_eq!(count(r##"fill="#000000""##), 3);
    // Each warp executes 43 group-instructions: 5 up to the if, 3 on the odd path and
    // 1 on the even one, 2 at the join, 17 in the loop (rounds 0-2: setp, bra, then
    // 3 for the lanes that stay; round 3: setp, bra), 7 to the exit, 8 to the ret.
    assert!(svg.contains("warp 0: 43 instructions, lanes 0xffffffff"), "{svg}");
    assert!(svg.contains("warp 1: 43 instructions"), "{svg}");
    // The if's branch: the even lanes take it (0x55555555 of the full group).
    assert!(svg.contains("line 19: @%p1 bra EVEN; (group 0xffffffff, ran 0x55555555)"), "{svg}");
    assert!(page.contains("CTA (0,0,0) of a block of 64&times;1&times;1 threads, 2 warps"), "{page}");
}

#[test]
fn the_svg_matches_its_reviewed_snapshot() {
    let page = page();
    let path = "tests/snapshots/trace_diverge.svg";
    if std::env::var_os("PTXVM_BLESS").is_some() {
        std::fs::write(path, svg(&page)).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(expected == svg(&page), "{path} changed (PTXVM_BLESS=1 to accept)");
}

#[test]
fn a_faulting_cta_is_drawn_up_to_its_fault() {
    let dir = std::env::temp_dir().join(format!("ptxvm-trace-fault-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("oob.html");
    let spec = dir.join("oob.json");
    std::fs::write(&spec, std::fs::read_to_string("examples/saxpy_out_of_bounds.json").unwrap()).unwrap();
    // CTA 1 of the out-of-bounds saxpy: thread 4 reads past y.
    let run = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["trace", "examples/saxpy.ptx", "--cta", "1", "--launch"])
        .arg(&spec)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("CTA (1,0,0)") && page.contains("<pre>") && page.contains("tid=(4,0,0)"), "{page}");
    // A CTA past the grid is a bad argument.
    let run = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args([
            "trace",
            "examples/saxpy.ptx",
            "--cta",
            "3",
            "--launch",
            "examples/saxpy_out_of_bounds.json",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--cta 3: the grid has 3 CTAs (0 to 2)"));
}

/// A CTA of a cluster runs with its cluster's other CTAs (it reads their shared
/// memory and waits with them at the cluster barrier), and the page is its own: CTA 5
/// of `cluster_exchange` (clusters of 4), whose warps each run to their end.
#[test]
fn a_cta_of_a_cluster_is_traced_with_its_cluster_running() {
    let dir = std::env::temp_dir().join(format!("ptxvm-trace-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, spec) = (dir.join("cluster.html"), dir.join("cluster.json"));
    std::fs::write(
        &spec,
        r#"{"kernel": "cluster_exchange", "grid": 8, "block": 64, "args": [{"buffer": "u32", "len": 64}, {"buffer": "u32", "len": 512}]}"#,
    )
    .unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["trace", "tests/data/run/cluster.ptx", "--cta", "5", "--launch"])
        .arg(&spec)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("CTA (5,0,0) of a block of 64&times;1&times;1 threads, 2 warps"), "{page}");
    assert!(page.contains("warp 0: ") && page.contains("warp 1: "), "{page}");
    assert!(page.contains("mapa.shared::cluster.u32"), "{page}");
}

/// The page in Debian's Chromium, headless: it renders to a PNG of the window's size.
#[test]
fn the_page_renders_in_headless_chromium() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
    else {
        skip("the trace page's render test: no chromium on this machine (apt-get install chromium)");
        return;
    };
    let page = page();
    let dir = std::env::temp_dir().join(format!("ptxvm-chromium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("page.html");
    std::fs::write(&html, &page).unwrap();
    let png = dir.join("page.png");
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1000,500",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    let bytes =
        std::fs::read(&png).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, after the chunk's length and type.
    let dim = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((dim(16), dim(20)), (1000, 500));
    // A picture, not a blank page: an all-white 1000x500 PNG compresses to about 2 KB.
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
}

/// Says why a test skipped: on stderr, and in `$PTXVM_SKIP_LOG` (tools/test.sh
/// prints that file after the tests, so a skip is never buried in captured output).
fn skip(why: &str) {
    eprintln!("skipped: {why}");
    if let Some(log) = std::env::var_os("PTXVM_SKIP_LOG") {
        use std::io::Write;
        let line = format!("tests/trace.rs: {why}\n");
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
            let _ = f.write_all(line.as_bytes());
        }
    }
}
