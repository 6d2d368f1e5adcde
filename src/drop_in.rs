//! `ptxvm exec -- PROGRAM [ARGS]`: runs an unmodified CUDA program with ptxvm's
//! `libcuda.so.1` first on its library path. The options reach the library through
//! `PTXVM_*` variables (driver/src/config.rs lists them), which a user who sets
//! `LD_LIBRARY_PATH` alone may set too. With `--sanitize`, a hazard makes exec exit
//! non-zero once the program ends, with a summary line, as compute-sanitizer's
//! `--error-exitcode` does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `exec` passes to the libraries.
pub struct Options {
    pub max_steps: Option<u64>,
    pub timeout: Option<f64>,
    pub check: Vec<&'static str>,
    pub sanitize: Vec<&'static str>,
    pub log: Option<String>,
}

/// The libraries this build of ptxvm made: beside the executable (`cargo build`
/// puts `libcuda.so` next to `ptxvm`), or where `PTXVM_LIB_DIR` says.
fn built_library() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("PTXVM_LIB_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            let exe = std::env::current_exe().map_err(|e| format!("cannot find ptxvm's own path: {e}"))?;
            exe.parent().map(Path::to_path_buf).unwrap_or_default()
        }
    };
    let lib = dir.join("libcuda.so");
    if lib.exists() {
        // Absolute: the links made to it must hold from any working directory.
        Ok(std::path::absolute(&lib).unwrap_or(lib))
    } else {
        Err(format!(
            "{} not found: build the driver with `cargo build --release` (it builds ptxvm and libcuda.so together), \
             or set PTXVM_LIB_DIR to the folder that holds libcuda.so",
            lib.display()
        ))
    }
}

/// A folder where `libcuda.so.1` and `libcuda.so` name the built driver (and
/// `libcudart.so.13`, `.12` and `libcudart.so` the runtime), as the loader and
/// `dlopen("libcuda.so.1")` look for them: `ptxvm-lib/` beside the library, or a
/// folder of this process's own in the temporary directory.
fn library_folder(lib: &Path) -> Result<PathBuf, String> {
    let make = |dir: &Path| -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        // The runtime beside the driver, when it was built: programs built with
        // `nvcc -cudart shared` ask for libcudart.so.13 (or .12 from CUDA 12).
        let runtime = lib.with_file_name("libcudart.so");
        let mut links = vec![("libcuda.so.1", lib.to_path_buf()), ("libcuda.so", lib.to_path_buf())];
        if runtime.exists() {
            for name in ["libcudart.so.13", "libcudart.so.12", "libcudart.so"] {
                links.push((name, runtime.clone()));
            }
        }
        let nvrtc = lib.with_file_name("libptxvm_nvrtc.so");
        if nvrtc.exists() {
            links.push(("libptxvm_nvrtc.so", nvrtc));
        }
        for (name, target) in links {
            let link = dir.join(name);
            if std::fs::read_link(&link).ok().as_deref() != Some(target.as_path()) {
                let _ = std::fs::remove_file(&link);
                std::os::unix::fs::symlink(&target, &link)?;
            }
        }
        Ok(())
    };
    let beside = lib.parent().unwrap_or(Path::new(".")).join("ptxvm-lib");
    if make(&beside).is_ok() {
        return Ok(beside);
    }
    let own = std::env::temp_dir().join(format!("ptxvm-lib-{}", std::process::id()));
    make(&own).map_err(|e| format!("cannot make {}: {e}", own.display()))?;
    Ok(own)
}

/// Runs `program` with ptxvm as its CUDA driver; its exit code becomes exec's.
pub fn exec(program: &[OsString], options: &Options) -> ExitCode {
    let folder = match built_library().and_then(|lib| library_folder(&lib)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("ptxvm exec: {e}");
            return ExitCode::from(1);
        }
    };
    let Some((name, args)) = program.split_first() else {
        eprintln!("ptxvm exec: name the program to run after `--`");
        return ExitCode::from(1);
    };
    let mut path = OsString::from(&folder);
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty()) {
        path.push(":");
        path.push(old);
    }
    let mut cmd = std::process::Command::new(name);
    cmd.args(args).env("LD_LIBRARY_PATH", path);
    // The NVRTC interposer, when it was built beside the driver: a cubin asked of
    // NVRTC comes back as PTX (nvrtc/src/lib.rs). It does nothing in a program that
    // does not use NVRTC.
    let nvrtc = folder.join("libptxvm_nvrtc.so");
    if nvrtc.exists() {
        let mut preload = OsString::from(&nvrtc);
        if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|p| !p.is_empty()) {
            preload.push(":");
            preload.push(old);
        }
        cmd.env("LD_PRELOAD", preload);
    }
    if let Some(n) = options.max_steps {
        cmd.env("PTXVM_MAX_STEPS", n.to_string());
    }
    if let Some(t) = options.timeout {
        cmd.env("PTXVM_TIMEOUT", t.to_string());
    }
    if !options.check.is_empty() {
        cmd.env("PTXVM_CHECK", options.check.join(","));
    }
    if let Some(log) = &options.log {
        cmd.env("PTXVM_LOG", log);
    }
    let hazards = std::env::temp_dir().join(format!("ptxvm-hazards-{}", std::process::id()));
    if !options.sanitize.is_empty() {
        cmd.env("PTXVM_SANITIZE", options.sanitize.join(","));
        let _ = std::fs::remove_file(&hazards);
        cmd.env("PTXVM_HAZARDS", &hazards);
    }
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ptxvm exec: cannot run {}: {e}", name.to_string_lossy());
            return ExitCode::from(1);
        }
    };
    let code = match status.code() {
        Some(c) => c,
        None => {
            use std::os::unix::process::ExitStatusExt;
            128 + status.signal().unwrap_or(0)
        }
    };
    if !options.sanitize.is_empty() {
        let found = std::fs::read_to_string(&hazards).unwrap_or_default();
        let _ = std::fs::remove_file(&hazards);
        let n = found.lines().count();
        let tools = options.sanitize.join(", ");
        if n > 0 {
            eprintln!("ptxvm exec: {tools}: {n} hazard{} found", if n == 1 { "" } else { "s" });
            return ExitCode::from(if code != 0 { code as u8 } else { 2 });
        }
        eprintln!("ptxvm exec: {tools}: no hazards found");
    }
    ExitCode::from(code.clamp(0, 255) as u8)
}
