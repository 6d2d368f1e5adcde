//! CUDA programs of our own (tests/programs/*.cu), built by NVIDIA's nvcc with
//! `-cudart shared` against this crate's libcudart.so, and run unmodified under
//! `ptxvm exec`. Each judges itself; this test also checks what they print.
//!
//! nvcc comes from `$NVCC` or pip's nvidia-cuda-nvcc; without it the tests say so
//! and pass, unless `PTXVM_REQUIRE_NVCC=1` (CI sets it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nvcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NVCC") {
        return Some(p.into());
    }
    let probe = "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'cu13', 'bin', 'nvcc'))";
    let out = Command::new("python3").args(["-c", probe]).output().ok()?;
    let p = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    p.exists().then_some(p)
}

/// The folder where cargo test built libcudart.so and libcuda.so (`deps/`).
fn libs() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

/// A program as nvcc builds it both ways: against libcudart.so (`-cudart shared`,
/// which is ptxvm's under exec) and with NVIDIA's CUDA runtime linked in (`static`,
/// nvcc's default), which reaches ptxvm's driver through its private tables.
#[derive(Clone)]
struct Built {
    shared: PathBuf,
    fixed: PathBuf,
}

impl Built {
    /// Each build, named.
    fn both(&self) -> [(&'static str, &Path); 2] {
        [("-cudart shared", &self.shared), ("static runtime", &self.fixed)]
    }
}

/// Says why a test skipped: on stderr, and in `$PTXVM_SKIP_LOG` (tools/test.sh
/// prints that file after the tests, so a skip is never buried in captured output).
fn skip(why: &str) {
    eprintln!("skipped: {why}");
    if let Some(log) = std::env::var_os("PTXVM_SKIP_LOG") {
        use std::io::Write;
        let line = format!("runtime/tests/programs.rs: {why}\n");
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
            let _ = f.write_all(line.as_bytes());
        }
    }
}

/// Builds `name.cu` with `flags`; `None` when nvcc is missing.
fn build(name: &str, flags: &[&str]) -> Option<Built> {
    build_units(name, &[name], flags)
}

/// Builds program `name` from `units` (`tests/programs/UNIT.cu` each) with `flags`:
/// compiled once, linked both ways.
fn build_units(name: &str, units: &[&str], flags: &[&str]) -> Option<Built> {
    let Some(nvcc) = nvcc() else {
        assert!(
            std::env::var("PTXVM_REQUIRE_NVCC").is_err(),
            "nvcc not found (pip install nvidia-cuda-nvcc, or set NVCC)"
        );
        skip(&format!(
            "{name}: nvcc not found (pip install nvidia-cuda-nvcc, or set NVCC; tools/test.sh does)"
        ));
        return None;
    };
    Some(build_with(&nvcc, "", name, units, flags))
}

/// [`build_units`] with compiler `nvcc`, the builds named with `tag`. The CUDA 13
/// builds link their shared form against ptxvm's libcudart.so; another nvcc links
/// against its own toolkit's (`$NVCC12`'s: NVIDIA's libcudart.so.12), as a program is.
fn build_with(nvcc: &Path, tag: &str, name: &str, units: &[&str], flags: &[&str]) -> Built {
    // Named by the flags, but for include folders.
    let named: String = flags.iter().filter(|f| !f.starts_with("-I")).copied().collect();
    let stem = format!("rt{tag}-{name}-{}", named.replace(['=', ',', '-'], ""));
    // Tests share builds (two run `graphs`): each is made once, and no test runs
    // one while another is still writing it (which fails with ETXTBSY).
    type Once = std::sync::Arc<std::sync::OnceLock<Built>>;
    static BUILDS: std::sync::Mutex<Vec<(String, Once)>> = std::sync::Mutex::new(Vec::new());
    let once = {
        let mut builds = BUILDS.lock().unwrap_or_else(|e| e.into_inner());
        match builds.iter().find(|(s, _)| *s == stem) {
            Some((_, once)) => once.clone(),
            None => {
                let once = Once::default();
                builds.push((stem.clone(), once.clone()));
                once
            }
        }
    };
    once.get_or_init(|| make(nvcc, tag, name, &stem, units, flags)).clone()
}

/// Compiles `units` with `flags` and links them both ways as `stem`.
fn make(nvcc: &Path, tag: &str, name: &str, stem: &str, units: &[&str], flags: &[&str]) -> Built {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let run = |args: &mut Command, what: &str| {
        let out = args.output().unwrap();
        assert!(out.status.success(), "nvcc {what} {name}:\n{}", String::from_utf8_lossy(&out.stderr));
    };
    let mut objects = Vec::new();
    for unit in units {
        let object = libs().join(format!("{stem}-{unit}.o"));
        run(
            Command::new(nvcc)
                .args(["-c", "-lineinfo"])
                .args(flags)
                .arg(dir.join(format!("{unit}.cu")))
                .arg("-o")
                .arg(&object),
            "-c",
        );
        objects.push(object);
    }
    let shared = libs().join(stem);
    let ours = if tag.is_empty() { vec!["-L".into(), libs()] } else { Vec::new() };
    run(
        Command::new(nvcc)
            .args(["-cudart", "shared"])
            .args(flags)
            .args(&objects)
            .args(&ours)
            .arg("-o")
            .arg(&shared),
        "-cudart shared",
    );
    let fixed = libs().join(format!("{stem}-static"));
    run(Command::new(nvcc).args(flags).args(&objects).arg("-o").arg(&fixed), "(static runtime)");
    Built { shared, fixed }
}

/// Runs `exe` with `args` under `ptxvm exec`; `None` without the ptxvm binary.
fn exec(exe: &Path, args: &[&str]) -> Option<Output> {
    exec_env(exe, args, &[])
}

/// [`exec`] with environment variables `env` set too.
fn exec_env(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Option<Output> {
    let ptxvm = libs().parent()?.join("ptxvm");
    if !ptxvm.exists() || !libs().join("libcuda.so").exists() {
        assert!(
            std::env::var("PTXVM_REQUIRE_NVCC").is_err(),
            "ptxvm and libcuda.so are not built beside the runtime"
        );
        skip("ptxvm and libcuda.so are not built (cargo test builds them with the workspace)");
        return None;
    }
    Some(
        Command::new(ptxvm)
            .arg("exec")
            .arg("--")
            .arg(exe)
            .args(args)
            .env("PTXVM_LIB_DIR", libs())
            .env_remove("LD_LIBRARY_PATH")
            .envs(env.iter().copied())
            .output()
            .unwrap(),
    )
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_program_built_by_nvcc_runs_unmodified() {
    // sm_80 PTX runs too; a per-thread default stream build calls the _ptds and
    // _ptsz forms of the functions.
    let builds: [&[&str]; 3] =
        [&["-arch=sm_90"], &["-arch=sm_80"], &["-arch=sm_90", "--default-stream", "per-thread"]];
    for flags in builds {
        let arch = flags.join(" ");
        let Some(built) = build("basics", flags) else { return };
        for (how, exe) in built.both() {
            let Some(out) = exec(exe, &[]) else { return };
            let (stdout, stderr) = text(&out);
            assert!(
                out.status.success() && stdout.contains("basics: ok"),
                "{arch}, {how}:\n{stdout}\n{stderr}"
            );
            // The launch error the program provokes is named on stderr, and so is
            // the function ptxvm does not implement: the runtime's, or under
            // NVIDIA's runtime the driver's.
            assert!(stderr.contains("block dimension 0 is 2048, past the limit 1024"), "{stderr}");
            assert!(
                stderr.contains("cudaIpcGetMemHandle is not implemented: it returns cudaErrorNotSupported")
                    || stderr.contains(
                        "cuIpcGetMemHandle is not implemented: it returns CUDA_ERROR_NOT_SUPPORTED"
                    ),
                "{how}: {stderr}"
            );
            // NVIDIA's runtime finds every table it needs.
            assert!(!stderr.contains("private table"), "{how}: {stderr}");
        }
    }
    // PTXVM_LIB_DIR may be relative to where exec starts.
    let Some(Built { shared: exe, .. }) = build("basics", &["-arch=sm_90"]) else { return };
    let out = Command::new(libs().parent().unwrap().join("ptxvm"))
        .args(["exec", "--"])
        .arg(&exe)
        .current_dir(libs().parent().unwrap())
        .env("PTXVM_LIB_DIR", "deps")
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success() && stdout.contains("basics: ok"),
        "relative PTXVM_LIB_DIR:\n{stdout}\n{stderr}"
    );
}

#[test]
fn faults_printf_and_assert_reach_the_program_as_cuda_reports_them() {
    let Some(built) = build("fault", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        faults_printf_and_assert(how, exe);
    }
}

fn faults_printf_and_assert(how: &str, exe: &Path) {
    let Some(out) = exec(exe, &[]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{how}: {stdout}\n{stderr}");
    assert_eq!(
        stdout,
        "hello 7 from 0\nhello 7 from 1\nfault: cudaErrorIllegalAddress, then cudaErrorIllegalAddress\n"
    );
    assert!(stderr.contains("fault: kernel `_Z10write_pastPi (write_past(int*))`"), "{stderr}");
    assert!(stderr.contains("fault.cu:10:"), "the report names the .cu line:\n{stderr}");
    let Some(out) = exec(exe, &["assert"]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout.ends_with("assert: cudaErrorAssert\n"), "{stdout}\n{stderr}");
    assert!(stderr.contains("assertion `x == 0` failed"), "{stderr}");
    let Some(out) = exec(exe, &["nosync"]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout == "exit\nhello 9 from 0\n", "{stdout}\n{stderr}");
}

#[test]
fn a_build_without_ptx_stops_with_the_fix() {
    // Both builds: a CUDA error and the fix, never a signal.
    let Some(built) = build("basics", &["-gencode", "arch=compute_90,code=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{how}: {stdout}\n{stderr}");
        assert!(stderr.contains("cudaErrorNoKernelImageForDevice"), "{how}: {stderr}");
        assert!(
            stderr.contains("holds no PTX, only machine code for sm_90") && stderr.contains("-arch=sm_90"),
            "{how}: {stderr}"
        );
    }
}

/// CUTLASS's headers: `$CUTLASS_DIR`, or pip's nvidia-cutlass (its `cutlass_library/source`).
fn cutlass() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUTLASS_DIR") {
        return Some(p.into());
    }
    let python = std::env::var("PTXVM_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = "import cutlass_library, os; print(os.path.join(os.path.dirname(cutlass_library.__file__), 'source'))";
    let out = Command::new(python).args(["-c", probe]).output().ok()?;
    let p = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    p.join("include/cute").exists().then_some(p)
}

/// Builds `name.cu` against CUTLASS for sm_90a, runs it, and checks it says `name: ok`.
fn cutlass_program(name: &str) {
    let Some(dir) = cutlass() else {
        assert!(
            std::env::var("PTXVM_REQUIRE_NVCC").is_err(),
            "CUTLASS not found (pip install nvidia-cutlass)"
        );
        skip(&format!("{name}: CUTLASS not found (pip install nvidia-cutlass, or set CUTLASS_DIR)"));
        return;
    };
    let (inc, util) =
        (format!("-I{}/include", dir.display()), format!("-I{}/tools/util/include", dir.display()));
    let flags = ["-std=c++17", "-arch=sm_90a", "-O2", "--expt-relaxed-constexpr", &inc, &util];
    let Some(built) = build(name, &flags) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == format!("{name}: ok\n"), "{how}: {stdout}\n{stderr}");
    }
}

/// CUTLASS 3's Hopper GEMMs, as `cutlass_gemm.cu` instantiates them (TMA, mbarrier
/// pipelines, warp-specialized and ping-pong wgmma), against a CPU GEMM: f16 within
/// CUTLASS's verification tolerance, s8 exactly.
#[test]
fn cutlass_hopper_gemms_match_a_cpu_gemm() {
    cutlass_program("cutlass_gemm");
}

/// CUTLASS 3's grouped GEMM: three problems of different shapes in one launch, the
/// kernel editing its tensor maps on the device (`tensormap.replace`,
/// `tensormap.cp_fenceproxy`) between them.
#[test]
fn cutlass_grouped_gemm_edits_its_tensor_maps_on_the_device() {
    cutlass_program("cutlass_grouped");
}

/// A FlashAttention-style kernel of our own: TMA tiles on an mbarrier, wgmma from
/// descriptors (Q K^T) and from registers (P V, V transposed), an online softmax,
/// against a CPU attention in double precision and against numpy's
/// (`flash_attention_check.py`).
#[test]
fn flash_attention_matches_a_cpu_attention_and_numpy() {
    let flags = ["-std=c++17", "-gencode", "arch=compute_90a,code=compute_90a", "-O2"];
    let Some(built) = build("flash_attention", &flags) else { return };
    let Some(python) = python_with_numpy() else { return };
    for (how, exe) in built.both() {
        let dump = libs().join("flash_attention.bin");
        let Some(out) = exec(exe, &[dump.to_str().unwrap()]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "flash_attention: ok\n", "{how}: {stdout}\n{stderr}");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/flash_attention_check.py");
        let check = Command::new(&python).arg(script).arg(&dump).output().unwrap();
        let (stdout, stderr) = text(&check);
        assert!(check.status.success() && stdout.contains("against numpy"), "{how}: {stdout}\n{stderr}");
    }
}

/// Clusters through cooperative groups: a DSMEM reduction over `__cluster_dims__(4)`
/// clusters and a swap between the CTAs of clusters of two from `cudaLaunchKernelEx`.
#[test]
fn cluster_kernels_reduce_and_swap_through_distributed_shared_memory() {
    let Some(built) = build("cluster", &["-arch=sm_90", "-O2"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "cluster: ok\n", "{how}: {stdout}\n{stderr}");
        assert!(stderr.contains("a cluster of (16, 1, 1) CTAs: a cluster holds 1 to 8 CTAs"), "{stderr}");
    }
}

#[test]
fn thrust_sorts_reduces_scans_and_transforms_a_million_elements() {
    let Some(built) = build("thrust", &["-arch=sm_90", "-O2"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout.contains("thrust: ok"), "{how}: {stdout}\n{stderr}");
    }
}

/// A library made with the C compiler: `cc -shared` of `src` with `map`, named
/// `soname`, in `dir`.
fn c_library(dir: &Path, soname: &str, src: &str, map: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("lib.c"), src).unwrap();
    std::fs::write(dir.join("lib.map"), map).unwrap();
    let lib = dir.join(soname);
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(dir.join("lib.c"))
        .arg(format!("-Wl,-soname,{soname},--version-script={}", dir.join("lib.map").display()))
        .output()
        .unwrap();
    assert!(built.status.success(), "cc {soname}:\n{}", String::from_utf8_lossy(&built.stderr));
    lib
}

/// Programs are usually linked against NVIDIA's own libcudart, whose functions
/// carry the version node `libcudart.so.13` (CUDA 13) or `libcudart.so.12`
/// (CUDA 12). Under exec they get ours, which defines both nodes: the loader
/// neither refuses the program nor warns "no version information available".
#[test]
fn programs_linked_against_nvidias_runtime_get_ours() {
    let Some(nvcc) = nvcc() else { return };
    // CUDA 13: basics.cu linked against pip's NVIDIA libcudart.so.13.
    let nvidia = nvcc.parent().unwrap().join("../lib/libcudart.so.13");
    assert!(nvidia.exists(), "NVIDIA's runtime is not beside nvcc: {}", nvidia.display());
    let dir = libs().join("rt-nvidia");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("libcudart.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&nvidia, &link).unwrap();
    let exe = dir.join("basics");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/basics.cu");
    let built = Command::new(&nvcc)
        .args(["-cudart", "shared", "-arch=sm_90"])
        .arg(&src)
        .arg("-L")
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(built.status.success(), "nvcc basics.cu:\n{}", String::from_utf8_lossy(&built.stderr));
    let Some(out) = exec(&exe, &[]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout.contains("basics: ok"), "{stdout}\n{stderr}");
    assert!(!stderr.contains("version information"), "{stderr}");

    // CUDA 12: a program linked against a stand-in libcudart.so.12 with NVIDIA's
    // version node (pip has no CUDA 12 runtime here). Ours answers.
    let dir = libs().join("rt-cuda12");
    c_library(
        &dir,
        "libcudart.so.12",
        "int cudaRuntimeGetVersion(int *v) { *v = 12000; return 0; }\n\
         int cudaGetDeviceCount(int *n) { *n = 0; return 100; }\n\
         int cudaGetDeviceProperties_v2(void *p, int d) { return 100; }\n",
        "libcudart.so.12 { global: *; };\n",
    );
    std::fs::write(
        dir.join("main.c"),
        "#include <stdio.h>\n\
         #include <string.h>\n\
         int cudaRuntimeGetVersion(int *); int cudaGetDeviceCount(int *);\n\
         int cudaGetDeviceProperties_v2(void *, int);\n\
         static int at(const unsigned char *p, int o) { int v; memcpy(&v, p + o, 4); return v; }\n\
         int main(void) { int v = 0, n = 0; int e = cudaGetDeviceCount(&n); cudaRuntimeGetVersion(&v);\n\
         printf(\"runtime %d, %d device(s), error %d\\n\", v, n, e);\n\
         unsigned char p[1032 + 64]; memset(p, 0xab, sizeof p);\n\
         e = cudaGetDeviceProperties_v2(p, 0); int guard = 1;\n\
         for (int i = 1032; i < 1032 + 64; i++) guard &= p[i] == 0xab;\n\
         printf(\"%d %s sm_%d%d, %d SMs, warp %d, %d kHz, mode %d, %d threads/SM, optin %d, coop %d, guard %d\\n\",\n\
                e, (char *)p, at(p, 360), at(p, 364), at(p, 388), at(p, 308), at(p, 348), at(p, 404),\n\
                at(p, 624), at(p, 696), at(p, 688), guard);\n\
         return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("main");
    let built = Command::new("cc")
        .arg(dir.join("main.c"))
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("libcudart.so.12"))
        .output()
        .unwrap();
    assert!(built.status.success(), "cc main.c:\n{}", String::from_utf8_lossy(&built.stderr));
    let Some(out) = exec(&exe, &[]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(!stderr.contains("version information"), "{stderr}");
    // cudaDeviceProp at 12.x's offsets (offsetof against 12.9's driver_types.h):
    // name 0, warpSize 308, clockRate 348, major 360, minor 364, multiProcessorCount
    // 388, computeMode 404, maxThreadsPerMultiProcessor 624, cooperativeLaunch 688,
    // sharedMemPerBlockOptin 696; 1,032 bytes, and nothing written past them.
    assert_eq!(
        stdout,
        "runtime 13050, 1 device(s), error 0\n\
         0 ptxvm (sm_90) sm_90, 132 SMs, warp 32, 1980000 kHz, mode 0, 2048 threads/SM, optin 232448, coop 1, guard 1\n",
        "{stderr}"
    );
}

/// runtime/src/unsupported.rs lists every cudaError_t function of
/// cuda_runtime_api.h that runtime/src does not implement, as the generator
/// makes it from the header of `$CUDA_INCLUDE` (CI sets it).
#[test]
fn the_unsupported_list_is_current() {
    let Some(include) = std::env::var_os("CUDA_INCLUDE") else {
        skip("the unsupported list's check: CUDA_INCLUDE is not set");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3").arg(dir.join("gen_unsupported.py")).arg(include).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let committed = std::fs::read_to_string(dir.join("src/unsupported.rs")).unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout) == committed,
        "runtime/src/unsupported.rs is stale: python3 runtime/gen_unsupported.py $CUDA_INCLUDE > runtime/src/unsupported.rs"
    );
}

#[test]
fn a_tiled_matmul_a_shuffle_reduction_and_a_cooperative_grid_sync() {
    let Some(built) = build("compute", &["-arch=sm_90", "-O2"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "compute: ok\n", "{how}: {stdout}\n{stderr}");
        assert!(
            stderr.contains("a cooperative grid of 2113 CTAs is more than the 2112 that can be resident"),
            "{stderr}"
        );
    }
}

/// `ptxvm exec --sanitize racecheck,initcheck` on a program with a missing
/// `__syncthreads()`: the hazard is reported and exec exits 2; with the barrier,
/// nothing is reported and exec exits 0.
#[test]
fn exec_sanitize_reports_a_missing_syncthreads() {
    let Some(built) = build("racy", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        sanitize_racy(how, exe);
    }
}

fn sanitize_racy(how: &str, exe: &Path) {
    let Some(_) = exec(exe, &[]) else { return };
    let sanitized = |mode: &str| {
        let out = Command::new(libs().parent().unwrap().join("ptxvm"))
            .args(["exec", "--sanitize", "racecheck,initcheck", "--"])
            .arg(exe)
            .arg(mode)
            .env("PTXVM_LIB_DIR", libs())
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        (out.status.code(), stdout, stderr)
    };
    let (code, _, stderr) = sanitized("racy");
    assert_eq!(code, Some(2), "{how}: {stderr}");
    assert!(stderr.contains("hazard: kernel `_Z5shiftPKiPib (shift(int const*, int*, bool))`"), "{stderr}");
    assert!(stderr.contains("racy.cu:12"), "the report names the .cu line of the read:\n{stderr}");
    assert!(stderr.contains("read of uninitialized shared memory"), "initcheck:\n{stderr}");
    assert!(stderr.contains("racecheck, initcheck: 3 hazards found"), "{stderr}");
    let (code, stdout, stderr) = sanitized("synced");
    assert_eq!((code, stdout.as_str()), (Some(0), "0 wrong\n"), "{stderr}");
    assert!(stderr.contains("racecheck, initcheck: no hazards found"), "{stderr}");
}

/// An `-rdc=true` program of two translation units: calls and a variable across
/// them, and dynamic parallelism (children, grandchildren, a tail launch, and a
/// bad launch's error in device code). NVIDIA's device runtime library, linked
/// in by nvcc, is left out: ptxvm provides it.
#[test]
fn an_rdc_program_of_two_units_with_dynamic_parallelism() {
    let Some(built) = build_units("rdc", &["rdc_main", "rdc_lib"], &["-rdc=true", "-arch=sm_90"]) else {
        return;
    };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "rdc: ok\n", "{how}: {stdout}\n{stderr}");
    }
}

/// Bad arguments return CUDA's error codes, the process goes on, and a kernel runs
/// afterwards (bad.cu judges the codes); `PTXVM_LOG=api` names each call with its
/// arguments and result on stderr, and without it there is no such line.
#[test]
fn bad_arguments_give_cudas_error_codes_and_the_log_names_them() {
    let Some(built) = build("bad", &["-arch=sm_90"]) else { return };
    // Under NVIDIA's runtime the codes come out the same, and the log names the
    // driver's calls.
    let Some(out) = exec_env(&built.fixed, &[], &[("PTXVM_LOG", "api")]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout == "bad: ok\n", "static runtime: {stdout}\n{stderr}");
    for line in [
        "ptxvm api: cuStreamDestroy_v2(h_stream=0x1234) = CUDA_ERROR_INVALID_HANDLE",
        "block_x=2048, block_y=1, block_z=1",
    ] {
        assert!(stderr.contains(line), "no `{line}` in:\n{stderr}");
    }
    let exe = built.shared;
    let Some(out) = exec_env(&exe, &[], &[("PTXVM_LOG", "api")]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout == "bad: ok\n", "{stdout}\n{stderr}");
    for line in [
        "ptxvm api: cudaMalloc(dev_ptr=0x0, size=16) = cudaErrorInvalidValue",
        "ptxvm api: cudaSetDevice(device=5) = cudaErrorInvalidDevice",
        "ptxvm api: cudaStreamDestroy(stream=0x1234) = cudaErrorInvalidResourceHandle",
        "kind=9) = cudaErrorInvalidMemcpyDirection",
        "block_dim=Dim3 { x: 2048, y: 1, z: 1 }, args=",
        ") = cudaErrorInvalidConfiguration",
        "ptxvm api: cudaDeviceSynchronize() = cudaSuccess",
    ] {
        assert!(stderr.contains(line), "no `{line}` in:\n{stderr}");
    }
    let Some(out) = exec(&exe, &[]) else { return };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success() && stdout == "bad: ok\n", "{stdout}\n{stderr}");
    assert!(!stderr.contains("ptxvm api:"), "{stderr}");
}

/// CUDA arrays through the runtime (arrays.cu judges itself): channel descriptors,
/// 2D copies to and from arrays at offsets, 3D copies counting texels, queries,
/// layered and cubemap shapes, and refusals that copy nothing.
#[test]
fn cuda_arrays_are_made_copied_queried_and_refused_as_cuda_does() {
    let Some(built) = build("arrays", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "arrays: ok\n", "{how}: {stdout}\n{stderr}");
        assert!(stderr.contains("the copy reaches past the array"), "{stderr}");
    }
}

/// A Python with numpy for tests/tex (`$PTXVM_PYTHON`, else `python3`); `None`
/// without one, unless CI requires it.
fn python_with_numpy() -> Option<PathBuf> {
    let python = PathBuf::from(std::env::var("PTXVM_PYTHON").unwrap_or_else(|_| "python3".into()));
    let ok = Command::new(&python).args(["-c", "import numpy"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var("PTXVM_REQUIRE_NVCC").is_err(), "no python with numpy (set PTXVM_PYTHON)");
        skip("no python with numpy (set PTXVM_PYTHON)");
        return None;
    }
    Some(python)
}

/// Every texture and surface case of tests/tex (all formats, filter, address and
/// read modes, 1D to 3D, layered, cubemaps, mipmaps, gathers, integer
/// coordinates, linear and pitched memory, surface loads, stores and reductions)
/// through cudaCreateTextureObject and cudaCreateSurfaceObject under exec: bit for
/// bit what tests/tex/reference.py computes, and the GPU's goldens except where
/// tests/tex/known.json says why not; then the same for tests/tex/probes.py's
/// probes of the filter arithmetic (gpu_probes.bin, known_probes.json).
#[test]
fn texture_fetches_match_the_numpy_reference_and_the_gpu_goldens() {
    let Some(Built { shared: exe, .. }) = build("tex_fetch", &["-arch=sm_90"]) else { return };
    let Some(python) = python_with_numpy() else { return };
    let tex = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/tex");
    // cases.py's cases, then probes.py's (the fetches that pinned down the filter
    // weights and the signed 8-bit arithmetic).
    for (set, flag) in [("cases", None), ("probes", Some("--probes"))] {
        let cases = libs().join(format!("tex-{set}.bin"));
        let fetched = libs().join(format!("tex-{set}-fetched.bin"));
        let made = Command::new(&python).arg(tex.join(format!("{set}.py"))).arg(&cases).output().unwrap();
        assert!(made.status.success(), "{set}.py: {}", String::from_utf8_lossy(&made.stderr));
        let Some(out) = exec(&exe, &[cases.to_str().unwrap(), fetched.to_str().unwrap()]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout.contains(", 0 failed to run"), "{stdout}\n{stderr}");
        let checked =
            Command::new(&python).arg(tex.join("check.py")).args(flag).arg(&fetched).output().unwrap();
        let (stdout, stderr) = text(&checked);
        eprintln!("{set}: {stdout}");
        assert!(checked.status.success(), "{set}: {stdout}\n{stderr}");
        assert!(stdout.contains("; 0 failures"), "{set}: {stdout}");
    }
}

/// Seven programs of our own with textures and surfaces, each checking itself on the
/// CPU: a bilinear rotation (and a fetch through a destroyed object faulting as an
/// illegal address), a 3D texture, a layered one, a cubemap, a surface write then
/// a texture read, a texture over pitched memory, and a mipmapped fetch.
#[test]
fn tma_through_cuda_get_driver_entry_point_and_a_grid_constant_map() {
    let Some(built) = build("tma", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "tma: ok\n", "{how}: {stdout}\n{stderr}");
    }
}

/// A 3 x 3 convolution as an implicit GEMM over im2col TMA loads
/// (`cuTensorMapEncodeIm2col`), against a direct convolution on the CPU.
#[test]
fn an_im2col_convolution_matches_a_direct_one() {
    let Some(built) = build("im2col", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "im2col: ok\n", "{how}: {stdout}\n{stderr}");
    }
}

#[test]
fn texture_programs_check_themselves_against_the_cpu() {
    for name in ["tex_rotate", "tex_3d", "tex_layered", "tex_cubemap", "surf_tex", "tex_pitch", "tex_mip"] {
        let Some(built) = build(name, &["-arch=sm_90"]) else { return };
        for (how, exe) in built.both() {
            let Some(out) = exec(exe, &[]) else { return };
            let (stdout, stderr) = text(&out);
            assert!(
                out.status.success() && stdout == format!("{name}: ok\n"),
                "{name}, {how}:\n{stdout}\n{stderr}"
            );
            if name == "tex_rotate" {
                assert!(stderr.contains("out of bounds: texture handle"), "{stderr}");
            }
        }
    }
}

/// cuda-python's runtime bindings, whose wheels link NVIDIA's CUDA runtime
/// statically: CUDA 13's (`$PTXVM_PYTHON`) and CUDA 12.9's (`$PTXVM_PYTHON12`, with
/// cuda-bindings 12.9), each running python/tests/driver/runtime_vadd.py under exec:
/// NVRTC, cudaMalloc and cudaMemcpy, a kernel node of a graph, and stream-ordered
/// allocation. tools/test.sh fetches both.
#[test]
fn cuda_python_runtime_bindings_of_cuda_12_and_13_run_nvidias_static_runtime() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/tests/driver/runtime_vadd.py");
    for (var, what) in [("PTXVM_PYTHON", "cuda-python 13"), ("PTXVM_PYTHON12", "cuda-python 12")] {
        let Some(python) = std::env::var_os(var) else {
            skip(&format!("{what}'s runtime bindings: ${var} is not set (tools/test.sh sets it)"));
            continue;
        };
        let has = Command::new(&python).args(["-c", "import cuda.bindings.runtime, numpy"]).output();
        if !has.is_ok_and(|o| o.status.success()) {
            assert!(
                std::env::var("PTXVM_REQUIRE_NVCC").is_err() || var == "PTXVM_PYTHON12",
                "{what}: no cuda.bindings in ${var}"
            );
            skip(&format!("{what}'s runtime bindings: no cuda.bindings in ${var}"));
            continue;
        }
        let python = PathBuf::from(python);
        let Some(out) = exec(&python, &[script.to_str().unwrap()]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success() && stdout.contains("cuda.bindings.runtime: ok"),
            "{what}:\n{stdout}\n{stderr}"
        );
        assert!(!stderr.contains("private table") && !stderr.contains("not implemented"), "{what}: {stderr}");
    }
}

/// Graphs through the runtime (graphs.cu judges itself): a capture with
/// stream-ordered allocation launched three times, a capture forked and joined
/// across streams, a graph built by hand, queried, cloned, changed and updated;
/// memory pools and stream priorities.
#[test]
fn graphs_captured_and_built_by_hand_with_their_own_memory() {
    let Some(built) = build("graphs", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success() && stdout == "graphs: ok\n", "{how}: {stdout}\n{stderr}");
    }
}

/// The graph, memory-pool and VMM programs under valgrind's memcheck, both builds:
/// no invalid read or write of the host heap, where device memory lives. (A
/// captured cudaFreeAsync once freed its memory before the graph's kernels ran;
/// then the allocator's own memory was at risk.) Needs valgrind; CI has it.
#[test]
fn graphs_and_pools_run_clean_under_memcheck() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        assert!(std::env::var("PTXVM_REQUIRE_VALGRIND").is_err(), "valgrind not found");
        skip("memcheck of the graph and pool programs: valgrind not found (apt-get install valgrind)");
        return;
    }
    let Some(built) = build("graphs", &["-arch=sm_90"]) else { return };
    let Some(ptxvm) = libs().parent().map(|p| p.join("ptxvm")) else { return };
    for (how, exe) in built.both() {
        let out = Command::new("valgrind")
            .args(["--trace-children=yes", "--error-exitcode=97", "-q"])
            .arg(&ptxvm)
            .args(["exec", "--"])
            .arg(exe)
            .env("PTXVM_LIB_DIR", libs())
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success() && stdout == "graphs: ok\n",
            "{how} under memcheck:\n{stdout}\n{stderr}"
        );
    }
}

/// Driver calls while the process exits (a global's destructor and an atexit
/// handler free, launch and copy) work silently, and copies of nothing with NULL
/// pointers succeed, as on CUDA.
#[test]
fn calls_at_exit_and_empty_copies_work_as_on_cuda() {
    let Some(built) = build("exit", &["-arch=sm_90"]) else { return };
    for (how, exe) in built.both() {
        let Some(out) = exec(exe, &[]) else { return };
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{how}: {stdout}\n{stderr}");
        assert_eq!(
            stdout,
            "main: done\natexit: launch and copy cudaSuccess, 42\natexit: cudaFree cudaSuccess\n\
             destructor: cudaFree cudaSuccess\n",
            "{how}: {stderr}"
        );
        assert!(!stderr.contains("internal error") && !stderr.contains("panicked"), "{how}: {stderr}");
    }
}

/// Programs built by CUDA 12's nvcc (`$NVCC12`: tools/cuda12.sh assembles CUDA
/// 12.4's compiler from Debian's nvidia-cuda-toolkit with pip's CUDA 12.9 headers
/// and runtime), with NVIDIA's CUDA 12 static runtime and against its
/// libcudart.so.12, which ptxvm's runtime answers under exec (the functions whose
/// CUDA 12 arguments differ from CUDA 13's at the version libcudart.so.12).
#[test]
fn cuda_12_builds_run_both_ways() {
    let Some(nvcc) = std::env::var_os("NVCC12") else {
        assert!(std::env::var("PTXVM_REQUIRE_NVCC12").is_err(), "$NVCC12 is not set");
        skip("the CUDA 12 builds: $NVCC12 is not set (tools/test.sh makes a CUDA 12 nvcc)");
        return;
    };
    let programs: [(&str, &[&str]); 10] = [
        ("basics", &["-arch=sm_90"]),
        ("compute", &["-arch=sm_90", "-O2"]),
        ("thrust", &["-arch=sm_90", "-O2"]),
        ("graphs", &["-arch=sm_90"]),
        ("tex_rotate", &["-arch=sm_90"]),
        ("tex_3d", &["-arch=sm_90"]),
        ("tex_layered", &["-arch=sm_90"]),
        ("tex_cubemap", &["-arch=sm_90"]),
        ("surf_tex", &["-arch=sm_90"]),
        ("tex_mip", &["-arch=sm_90"]),
    ];
    for (name, flags) in programs {
        let built = build_with(Path::new(&nvcc), "12", name, &[name], flags);
        for (how, exe) in built.both() {
            let Some(out) = exec(exe, &[]) else { return };
            let (stdout, stderr) = text(&out);
            assert!(
                out.status.success() && stdout.contains(&format!("{name}: ok")),
                "CUDA 12 {name}, {how}:\n{stdout}\n{stderr}"
            );
        }
    }
}
