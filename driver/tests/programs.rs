//! The driver's C programs (tests/programs/*.c), built against NVIDIA's own `cuda.h`
//! (pip's nvidia-cuda-runtime) and linked with ptxvm's libcuda.so.1. Each checks its
//! own results and exits 0; this test also checks what they print.
//!
//! Without `cuda.h` the test says so and passes, unless `PTXVM_REQUIRE_CUDA_H=1`
//! (CI sets it, after installing the header).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where `cuda.h` is: `$CUDA_INCLUDE`, or pip's nvidia-cuda-runtime.
fn cuda_include() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CUDA_INCLUDE") {
        return Some(dir.into());
    }
    let probe = "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'cu13', 'include'))";
    let out = Command::new("python3").args(["-c", probe]).output().ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.join("cuda.h").exists().then_some(dir)
}

/// The directory with libcuda.so.1 (a link to the built libcuda.so) for the loader,
/// made once for all the tests.
fn library_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(make_library_dir).clone()
}

/// The library this test run built: `cargo test` leaves it in `deps/` (only `cargo
/// build` copies it up beside ptxvm).
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let lib = exe.parent().unwrap().join("libcuda.so");
    assert!(lib.exists(), "{} is not built", lib.display());
    lib
}

fn make_library_dir() -> PathBuf {
    let lib = built_library();
    let target = lib.parent().unwrap().parent().unwrap();
    let dir = target.join("driver-test-lib");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["libcuda.so", "libcuda.so.1"] {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&lib, &link).unwrap();
    }
    dir
}

/// Says why a test skipped: on stderr, and in `$PTXVM_SKIP_LOG` (tools/test.sh
/// prints that file after the tests, so a skip is never buried in captured output).
fn skip(why: &str) {
    eprintln!("skipped: {why}");
    if let Some(log) = std::env::var_os("PTXVM_SKIP_LOG") {
        use std::io::Write;
        let line = format!("driver/tests/programs.rs: {why}\n");
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
            let _ = f.write_all(line.as_bytes());
        }
    }
}

fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// Builds and runs program `name`; `None` when `cuda.h` is missing.
fn run(name: &str, env: &[(&str, &str)]) -> Option<Output> {
    run_linked(name, env, &[])
}

/// [`run`], linking `libs` too (`-L` folders and `-l` names) and putting their
/// folders on the program's library path.
fn run_linked(name: &str, env: &[(&str, &str)], libs: &[(PathBuf, &str)]) -> Option<Output> {
    build_and_run(name, name, &[], env, libs)
}

/// Builds program `name` as `exe` with the compiler flags `cflags`, and runs it.
fn build_and_run(
    name: &str,
    exe: &str,
    cflags: &[&str],
    env: &[(&str, &str)],
    libs: &[(PathBuf, &str)],
) -> Option<Output> {
    let Some(include) = cuda_include() else {
        assert!(
            std::env::var("PTXVM_REQUIRE_CUDA_H").is_err(),
            "cuda.h not found (pip install nvidia-cuda-runtime, or set CUDA_INCLUDE)"
        );
        skip(&format!(
            "{name}: cuda.h not found (pip install nvidia-cuda-runtime, or set CUDA_INCLUDE; tools/test.sh does)"
        ));
        return None;
    };
    let lib = library_dir();
    let exe = lib.join(exe);
    let src = programs().join(format!("{name}.c"));
    // Tests share programs (three run `coop`): each is built once, and no test
    // runs it while another is still writing it (which fails with ETXTBSY).
    static BUILT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut built_once = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if !built_once.contains(&exe) {
        build_program(name, &exe, &src, cflags, &include, &lib, libs);
        built_once.push(exe.clone());
    }
    drop(built_once);
    let mut cmd = Command::new(&exe);
    let mut path = std::ffi::OsString::from(&lib);
    for (dir, _) in libs {
        path.push(":");
        path.push(dir);
    }
    cmd.arg(programs()).env("LD_LIBRARY_PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Some(cmd.output().unwrap())
}

/// Compiles `src` to `exe` with gcc against `cuda.h` in `include` and libcuda in `lib`.
fn build_program(
    name: &str,
    exe: &Path,
    src: &Path,
    cflags: &[&str],
    include: &Path,
    lib: &Path,
    libs: &[(PathBuf, &str)],
) {
    let built = Command::new("gcc")
        .args(cflags)
        .args(["-O1", "-Wall", "-o"])
        .arg(exe)
        .arg(src)
        .arg("-I")
        .arg(include)
        .arg("-L")
        .arg(lib)
        .arg("-lcuda")
        .args(libs.iter().flat_map(|(dir, lib)| [format!("-L{}", dir.display()), format!("-l{lib}")]))
        .output()
        .unwrap();
    assert!(built.status.success(), "gcc {name}.c:\n{}", String::from_utf8_lossy(&built.stderr));
}

/// Runs `name`, which must succeed; returns its stdout and stderr.
fn passes(name: &str) -> Option<(String, String)> {
    let out = run(name, &[])?;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
    Some((stdout, stderr))
}

#[test]
fn basics_device_modules_launch_forms_and_bad_input() {
    let Some((out, err)) = passes("basics") else { return };
    assert!(out.contains("basics: ok"));
    // Each refused call says why on stderr.
    assert!(err.contains("cuInit has not been called"), "{err}");
    assert!(err.contains("the packed buffer has 12"), "{err}");
    assert!(err.contains("no kernel named `no_such_kernel`"), "{err}");
    assert!(err.contains("a cluster of (16, 1, 1) CTAs: a cluster holds 1 to 8 CTAs"), "{err}");
    assert!(err.contains("the grid (8, 1, 1) is not a whole number of clusters of (3, 1, 1)"), "{err}");
}

#[test]
fn memory_copies_fills_managed_and_mapped() {
    let Some((out, _)) = passes("memory") else { return };
    assert!(out.contains("memory: ok"));
}

/// A tensor map whose tensor was freed before the kernel copies through it: the
/// copy's first read is of freed memory, a fault naming it.
#[test]
fn a_tensor_map_over_freed_memory_faults_at_its_copy() {
    let Some(out) = run("tma", &[("TMA_FREED", "1")]) else { return };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("tma freed: ok"), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("cp.async.bulk.tensor") && stderr.contains("is in memory already freed"),
        "{stderr}"
    );
}

#[test]
fn tensor_maps_and_tensor_copies_move_boxes_as_cuda_describes() {
    let Some((out, err)) = passes("tma") else { return };
    assert!(out.contains("tma: ok"));
    assert!(
        err.contains("out of bounds: the cp.async.bulk.tensor box of 16384 bytes at shared address"),
        "{err}"
    );
}

#[test]
fn streams_events_and_callbacks_in_order() {
    let Some((out, _)) = passes("streams") else { return };
    assert!(out.contains("streams: ok"));
}

/// Programs built with `CUDA_API_PER_THREAD_DEFAULT_STREAM` (what nvcc's
/// `--default-stream per-thread` defines) call the `_ptds`/`_ptsz` forms.
#[test]
fn per_thread_default_stream_builds_run() {
    for name in ["memory", "streams", "graphs"] {
        let flags = ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"];
        let Some(out) = build_and_run(name, &format!("{name}_ptds"), &flags, &[], &[]) else { return };
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains(&format!("{name}: ok")),
            "{name}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The build did call them.
        let exe = library_dir().join(format!("{name}_ptds"));
        let nm = Command::new("nm").arg("-D").arg("--undefined-only").arg(&exe).output().unwrap();
        let undefined = String::from_utf8_lossy(&nm.stdout);
        assert!(undefined.contains("_ptds") || undefined.contains("_ptsz"), "{name}: {undefined}");
    }
}

/// Every function `cuda.h` maps to a `_ptds`/`_ptsz` form under
/// `CUDA_API_PER_THREAD_DEFAULT_STREAM` has that form too, if ptxvm has the function.
#[test]
fn each_function_with_a_per_thread_form_exports_it() {
    let Some(include) = cuda_include() else { return };
    let header = std::fs::read_to_string(include.join("cuda.h")).unwrap();
    let nm = Command::new("nm").args(["-D", "--defined-only"]).arg(built_library()).output().unwrap();
    let exported: std::collections::HashSet<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect();
    let (mut have, mut missing) = (0, Vec::new());
    for (macro_, suffix) in [("__CUDA_API_PTDS(", "_ptds"), ("__CUDA_API_PTSZ(", "_ptsz")] {
        for part in header.split(macro_).skip(1) {
            let name = &part[..part.find(')').unwrap()];
            if !name.starts_with("cu") || !exported.contains(name) {
                continue;
            }
            have += 1;
            if !exported.contains(&format!("{name}{suffix}")) {
                missing.push(format!("{name}{suffix}"));
            }
        }
    }
    assert!(have >= 40, "only {have} per-thread forms found in cuda.h");
    assert!(missing.is_empty(), "not exported: {missing:?}");
}

/// Every function name `cuda.h` lets a program bind to (each declared function
/// under its #define'd version, the older unversioned names, the per-thread forms),
/// as driver/gen_procs.py lists them from the header of this run, is exported.
#[test]
fn every_cuda_h_function_is_exported() {
    let Some(include) = cuda_include() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("gen_procs.py");
    let out = Command::new("python3").arg(&script).arg(&include).arg("names").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let names = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = names.lines().collect();
    assert!(names.len() > 600, "only {} names in cuda.h", names.len());
    for must in [
        "cuGraphInstantiate_v2",
        "cuGraphAddKernelNode",
        "cuGraphExecKernelNodeSetParams",
        "cuMemAlloc_v2",
        "cuMemcpyHtoD_v2_ptds",
        "cuDeviceGetProperties",
    ] {
        assert!(names.contains(&must), "{must} is not among cuda.h's names");
    }
    let nm = Command::new("nm").args(["-D", "--defined-only"]).arg(built_library()).output().unwrap();
    let exported: std::collections::HashSet<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect();
    let missing: Vec<&&str> = names.iter().filter(|n| !exported.contains(**n)).collect();
    assert!(missing.is_empty(), "{} not exported: {missing:?}", missing.len());
}

/// driver/src/unsupported.rs and procs.rs are what driver/gen_procs.py makes of the
/// header of this run: a function implemented since, or new in the header, fails
/// this until they are made again.
#[test]
fn the_generated_export_lists_are_current() {
    let Some(include) = cuda_include() else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (what, file) in [("unsupported", "src/unsupported.rs"), ("procs", "src/procs.rs")] {
        let out =
            Command::new("python3").arg(dir.join("gen_procs.py")).arg(&include).arg(what).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let committed = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout) == committed,
            "driver/{file} is stale: python3 driver/gen_procs.py $CUDA_INCLUDE {what} > driver/{file}"
        );
    }
}

/// A function ptxvm does not implement answers CUDA_ERROR_NOT_SUPPORTED and says so
/// once; the private tables' unknown slots and tables answer errors, not crashes.
#[test]
fn unimplemented_functions_and_unknown_tables_answer_errors() {
    let Some(out) = run("unsupported", &[("PTXVM_LOG", "api")]) else { return };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("unsupported: ok"), "{stdout}\n{stderr}");
    assert_eq!(
        stderr.matches("cuIpcGetMemHandle is not implemented: it returns CUDA_ERROR_NOT_SUPPORTED").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("cuGetExportTable: table 00112233-4455-6677-8899-aabbccddeeff is not one ptxvm has"),
        "{stderr}"
    );
    assert!(stderr.contains("slot 3 of the driver's private table `context-local storage`"), "{stderr}");
    // A bad argument to a table's function is an error, named under PTXVM_LOG=api.
    assert!(
        stderr.contains("ptxvm api: context-local storage: get() = CUDA_ERROR_INVALID_VALUE"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ptxvm api: context-local storage: put() = CUDA_ERROR_INVALID_CONTEXT"),
        "{stderr}"
    );
}

#[test]
fn a_fault_is_reported_and_sticky() {
    let Some((out, err)) = passes("fault") else { return };
    assert!(out.contains("fault: ok"));
    // The report names the kernel, the thread, the instruction, its source line and
    // the allocation.
    let report = err.lines().find(|l| l.contains(": fault: ")).unwrap_or_else(|| panic!("{err}"));
    assert!(report.contains("kernel `out_of_bounds`, ctaid=(0,0,0) tid=(0,0,0)"), "{report}");
    assert!(report.contains("st.global.u32"), "{report}");
    assert!(report.contains("cuMemAlloc allocation (256 bytes"), "{report}");
    assert!(err.contains("kernels.cu:"), "{err}");
}

#[test]
fn device_printf_and_assert() {
    let Some((out, err)) = passes("printf") else { return };
    assert_eq!(
        out, "before\nlaunched\nhello from thread 0, x=7\nhello from thread 1, x=7\nafter\nprintf: ok\n",
        "{err}"
    );
    assert!(err.contains("assertion `x == 0` failed"), "{err}");
    let Some(out) = run("printf", &[("NEVER_SYNC", "1")]) else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.ends_with("after\nexit\nhello from thread 0, x=9\n"), "{text}");
}

#[test]
fn cubins_and_invalid_ptx_are_refused_and_two_ptx_inputs_link() {
    let Some((out, err)) = passes("images") else { return };
    assert!(out.contains("images: ok"));
    assert!(err.contains("the image is a cubin") && err.contains("-arch=sm_90"), "{err}");
    assert!(err.contains("holds no PTX, only machine code for sm_90"), "{err}");
    assert!(err.contains("setp.lt.b32"), "{err}");
    // The linked module resolves `twice`; linked_a.ptx alone does not.
    assert!(err.contains("`twice` is not defined in this module"), "{err}");
}

#[test]
fn api_log_names_each_call_and_its_result() {
    let Some(out) = run("streams", &[("PTXVM_LOG", "api")]) else { return };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("ptxvm api: cuInit(flags=0) = CUDA_SUCCESS"), "{err}");
    assert!(err.contains("ptxvm api: cuEventElapsedTime_v2("), "{err}");
    assert!(err.contains("= CUDA_ERROR_INVALID_HANDLE"), "{err}");
}

/// `target/release/ptxvm`, which `cargo test` builds beside the library.
fn ptxvm() -> Option<PathBuf> {
    let exe = std::env::current_exe().unwrap();
    let bin = exe.parent()?.parent()?.join("ptxvm");
    bin.exists().then_some(bin)
}

#[test]
fn exec_with_racecheck_fails_a_racy_program_and_passes_a_correct_one() {
    // Built (and linked with -lcuda) by `run`; exec then puts ptxvm's library first.
    if run("racy", &[]).is_none() {
        return;
    }
    let Some(ptxvm) = ptxvm() else {
        skip("target/release/ptxvm is not built (cargo test builds it with the workspace)");
        return;
    };
    let racy = library_dir().join("racy");
    let exec = |sync: &str| {
        Command::new(&ptxvm)
            .args(["exec", "--sanitize", "racecheck", "--"])
            .arg(&racy)
            .arg(programs())
            .arg(sync)
            .env_remove("LD_LIBRARY_PATH")
            .env("PTXVM_LIB_DIR", built_library().parent().unwrap())
            .output()
            .unwrap()
    };
    let bad = exec("0");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("sanitize: read-after-write hazard: kernel `racy`"), "{err}");
    // The write after another thread's read, and the read after another's write.
    assert!(err.contains("ptxvm exec: racecheck: 2 hazards found"), "{err}");
    let good = exec("1");
    let err = String::from_utf8_lossy(&good.stderr);
    assert_eq!(good.status.code(), Some(0), "{err}");
    assert!(err.contains("racecheck: no hazards found"), "{err}");
    assert!(String::from_utf8_lossy(&good.stdout).contains("racy: done"));
}

#[test]
fn graphs_explicit_and_captured_run_when_launched() {
    let Some((out, _)) = passes("graphs") else { return };
    assert!(out.contains("graphs: ok"));
}

#[test]
fn virtual_memory_reserve_map_access_and_remap() {
    let Some((out, _)) = passes("vmm") else { return };
    assert!(out.contains("vmm: ok"));
}

#[test]
fn ctas_that_wait_on_other_ctas_complete_on_one_core_and_on_all() {
    for threads in ["1", "0"] {
        // RAYON_NUM_THREADS=1: one host thread for every CTA (0: one per core).
        let Some(out) = run("coop", &[("RAYON_NUM_THREADS", threads)]) else { return };
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(
            out.status.success() && stdout.contains("coop: ok"),
            "{threads} threads:\n{stdout}\n{stderr}"
        );
    }
}

#[test]
fn a_wait_that_never_ends_stops_at_the_budget_and_says_where_ctas_waited() {
    let Some(exe) = run("coop", &[]).map(|_| library_dir().join("coop")) else { return };
    let out = Command::new(exe)
        .arg(programs())
        .arg("forever")
        .env("LD_LIBRARY_PATH", library_dir())
        .env("PTXVM_MAX_STEPS", "3000000")
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("forever: ok"), "{stdout}\n{stderr}");
    assert!(stderr.contains("instruction budget exhausted"), "{stderr}");
    assert!(stderr.contains("raise it with PTXVM_MAX_STEPS"), "{stderr}");
    assert!(stderr.contains("was waiting here"), "{stderr}");
}

#[test]
fn a_wait_that_never_ends_is_a_deadlock_long_before_the_budget() {
    let Some(exe) = run("coop", &[]).map(|_| library_dir().join("coop")) else { return };
    for threads in ["1", "0"] {
        let started = std::time::Instant::now();
        let out = Command::new(&exe)
            .arg(programs())
            .arg("deadlock")
            .env("LD_LIBRARY_PATH", library_dir())
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && stdout.contains("deadlock: ok"), "{stdout}\n{stderr}");
        assert!(stderr.contains("deadlock across CTAs: each of the 4 CTAs still running waits"), "{stderr}");
        // The loop's load, in the CUDA source, and each other CTA's place in it.
        assert!(stderr.contains("kernels.cu:129"), "{stderr}");
        for c in 1..4 {
            assert!(
                stderr.contains(&format!("CTA ({c},0,0) loops here: lanes 0xffffffff of warp 0")),
                "{stderr}"
            );
        }
        // The default budget (2^32 warp instructions) would take minutes.
        let took = started.elapsed().as_secs_f64();
        assert!(took < 20.0, "{threads} threads: {took} s");
    }
}

#[test]
fn nvrtc_compiles_cuda_cpp_that_the_driver_then_runs() {
    // NVRTC sits beside cuda.h in pip's layout (site-packages/nvidia/cu13/lib).
    let Some(nvrtc) = cuda_include().map(|inc| inc.with_file_name("lib")) else { return };
    if !nvrtc.join("libnvrtc.so.13").exists() {
        assert!(
            std::env::var("PTXVM_REQUIRE_CUDA_H").is_err(),
            "{} has no libnvrtc.so.13 (pip install nvidia-cuda-nvrtc)",
            nvrtc.display()
        );
        skip(&format!("no libnvrtc.so.13 in {} (pip install nvidia-cuda-nvrtc)", nvrtc.display()));
        return;
    }
    let out = run_linked("nvrtc", &[], &[(nvrtc.clone(), ":libnvrtc.so.13")]).unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("nvrtc: ok"), "{stdout}\n{stderr}");

    // Asked for an sm_90 cubin, NVRTC gives machine code, which the driver refuses...
    let out = run_linked("nvrtc", &[("NVRTC_ARCH", "sm_90")], &[(nvrtc.clone(), ":libnvrtc.so.13")]).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("CUDA_ERROR_NO_BINARY_FOR_GPU"), "{stderr}");
    // ... and under exec, the interposer gives PTX for compute_90 in its place.
    let Some(ptxvm) = ptxvm() else { return };
    let out = Command::new(&ptxvm)
        .args(["exec", "--"])
        .arg(library_dir().join("nvrtc"))
        .arg(programs())
        .env("NVRTC_ARCH", "sm_90")
        .env("LD_LIBRARY_PATH", &nvrtc)
        .env("PTXVM_LIB_DIR", built_library().parent().unwrap())
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("nvrtc: ok"), "{stdout}\n{stderr}");
}

/// The graph, VMM and memory programs under valgrind's memcheck: no invalid read or
/// write of the host heap, where device memory lives. Needs valgrind; CI has it.
#[test]
fn graphs_vmm_and_memory_run_clean_under_memcheck() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        assert!(std::env::var("PTXVM_REQUIRE_VALGRIND").is_err(), "valgrind not found");
        skip("memcheck of the graph, VMM and memory programs: valgrind not found (apt-get install valgrind)");
        return;
    }
    for name in ["graphs", "vmm", "memory"] {
        let Some(_) = passes(name) else { return };
        let out = Command::new("valgrind")
            .args(["--error-exitcode=97", "-q"])
            .arg(library_dir().join(name))
            .arg(programs())
            .env("LD_LIBRARY_PATH", library_dir())
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(
            out.status.success() && stdout.contains(&format!("{name}: ok")),
            "{name} under memcheck:\n{stdout}\n{stderr}"
        );
    }
}
