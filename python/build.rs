//! Ships ptxvm's `libcuda.so.1`, `libcudart.so.13` (also as `.12`) and NVRTC
//! interposer inside the Python package: a release build (what `pip install .`
//! makes through maturin) also builds the crates `driver/`, `runtime/` and `nvrtc/`
//! (a nested cargo with a target folder of its own) and copies the libraries to
//! `ptxvm/lib/`, which maturin packs with the Python sources and `python -m ptxvm
//! exec` puts on a program's library path. Other builds (`cargo clippy`, debug)
//! skip it; `PTXVM_SHIP_DRIVER=0` skips it too.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PTXVM_SHIP_DRIVER");
    println!("cargo:rerun-if-changed=../driver/src");
    println!("cargo:rerun-if-changed=../runtime/src");
    println!("cargo:rerun-if-changed=../nvrtc/src");
    println!("cargo:rerun-if-changed=../src");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    if !release || std::env::var("PTXVM_SHIP_DRIVER").as_deref() == Ok("0") {
        return;
    }
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let target = out.join("driver-target");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "ptxvm-cuda", "-p", "ptxvm-cudart", "-p", "ptxvm-nvrtc", "--lib"])
        .arg("--manifest-path")
        .arg(here.join("../Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        // No debug information: the shipped library stays small.
        .args(["--config", "profile.release.debug=0"])
        // The outer build's flags are for a Python extension module.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building ptxvm's libraries (driver/, runtime/, nvrtc/) failed");
    let lib = here.join("ptxvm/lib");
    std::fs::create_dir_all(&lib).expect("ptxvm/lib can be made");
    // Copies, not links: a wheel holds plain files.
    for (built, shipped) in [
        ("libcuda.so", "libcuda.so.1"),
        ("libcudart.so", "libcudart.so.13"),
        ("libcudart.so", "libcudart.so.12"),
        ("libptxvm_nvrtc.so", "libptxvm_nvrtc.so"),
    ] {
        std::fs::copy(target.join("release").join(built), lib.join(shipped)).expect("the library was built");
    }
}
