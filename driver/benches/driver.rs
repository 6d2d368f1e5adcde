//! What the driver layer costs, beside the library API it wraps, measured in the same
//! run (`cargo bench -p ptxvm-cuda`; `PTXVM_BENCH_QUICK=1` runs a little of each, as
//! CI does to keep it compiling):
//!
//! - a one-CTA kernel through `cuLaunchKernel`, over 100,000 launches, against the
//!   same launch through `Device::launch_with` (target: under 5 µs a launch);
//! - `cuModuleLoadData` of the 13 MB module (`bench/big/big.ptx`) against
//!   `Module::load` (target: at least 50 MB/s);
//! - resident memory over 10,000 load/launch/unload cycles (target: flat).
//!
//! Each timing is the median of several repetitions. The driver's functions are
//! called through the crate's Rust names, which are the exported C functions.

use cuda::context::cuCtxCreate_v4;
use cuda::device::{cuDeviceGet, cuInit};
use cuda::launch::cuLaunchKernel;
use cuda::memory::{cuMemAlloc_v2, cuMemFree_v2};
use cuda::module::{cuModuleGetFunction, cuModuleLoadData, cuModuleUnload};
use cuda::types::Handle;
use std::ffi::c_void;
use std::time::Instant;

const KERNEL: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .visible .entry bump(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n\
    ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n\
    ld.global.u32 %r2, [%rd1];\nadd.s32 %r2, %r2, 1;\nst.global.u32 [%rd1], %r2;\nret;\n}\n\0";

fn check(r: u32, what: &str) {
    assert_eq!(r, 0, "{what} failed: {r}");
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("VmRSS: 0 kB");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn main() {
    let quick = std::env::var_os("PTXVM_BENCH_QUICK").is_some();
    let (launches, reps, cycles) = if quick { (1_000, 1, 200) } else { (100_000, 5, 10_000) };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let big =
        std::fs::read_to_string(format!("{root}/bench/big/big.ptx")).expect("bench/big/big.ptx is committed");

    // SAFETY (every block below): the driver's functions called as cuda.h says, with
    // out-pointers to locals and NUL-terminated strings.
    let mut ctx: Handle = std::ptr::null_mut();
    unsafe {
        check(cuInit(0), "cuInit");
        let mut dev = 0;
        check(cuDeviceGet(&mut dev, 0), "cuDeviceGet");
        check(cuCtxCreate_v4(&mut ctx, std::ptr::null_mut(), 0, dev), "cuCtxCreate");
    }

    // 1. Launch overhead: one CTA of 32 threads.
    let mut module: Handle = std::ptr::null_mut();
    let mut f: Handle = std::ptr::null_mut();
    let mut buf = 0u64;
    unsafe {
        check(cuModuleLoadData(&mut module, KERNEL.as_ptr().cast()), "cuModuleLoadData");
        check(cuModuleGetFunction(&mut f, module, c"bump".as_ptr()), "cuModuleGetFunction");
        check(cuMemAlloc_v2(&mut buf, 128), "cuMemAlloc");
    }
    let driver_launch = median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..launches {
                    let mut p = buf;
                    let mut args = [(&raw mut p).cast::<c_void>()];
                    // SAFETY: as above; `args` holds the kernel's one parameter.
                    let r = unsafe {
                        cuLaunchKernel(
                            f,
                            1,
                            1,
                            1,
                            32,
                            1,
                            1,
                            0,
                            std::ptr::null_mut(),
                            args.as_mut_ptr(),
                            std::ptr::null_mut(),
                        )
                    };
                    check(r, "cuLaunchKernel");
                }
                t.elapsed().as_secs_f64() / launches as f64
            })
            .collect(),
    );
    let lib_module = ptxvm::api::Module::load(KERNEL.trim_end_matches('\0')).unwrap();
    let kernel = lib_module.kernel("bump").unwrap();
    let mut device = ptxvm::api::Device::default();
    let addr = device.alloc(128).unwrap();
    let params = addr.to_le_bytes();
    let one = ptxvm::launch::Dim3 { x: 1, y: 1, z: 1 };
    let block = ptxvm::launch::Dim3 { x: 32, y: 1, z: 1 };
    let library_launch = median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..launches {
                    // A budget per launch, as the driver gives each launch.
                    let limits = ptxvm::exec::limits::Limits::new(ptxvm::api::DEFAULT_MAX_STEPS);
                    device.launch_with(&kernel, one, block, 0, &params, &limits).unwrap();
                }
                t.elapsed().as_secs_f64() / launches as f64
            })
            .collect(),
    );
    let mut counts = [0u32; 32];
    // SAFETY: as above; `counts` holds the 128 bytes copied.
    unsafe {
        check(cuda::memory::cuMemcpyDtoH_v2(counts.as_mut_ptr().cast(), buf, 128), "cuMemcpyDtoH");
    }
    assert!(counts.iter().all(|&c| c == (reps * launches) as u32), "every launch ran");

    // 2. Module load of the 13 MB module.
    let mut big_c = big.clone().into_bytes();
    big_c.push(0);
    let mb = big.len() as f64 / 1e6;
    let load_reps = if quick { 1 } else { reps };
    let driver_load = median(
        (0..load_reps)
            .map(|_| {
                let mut m: Handle = std::ptr::null_mut();
                let t = Instant::now();
                // SAFETY: as above; `big_c` is NUL-terminated PTX.
                unsafe { check(cuModuleLoadData(&mut m, big_c.as_ptr().cast()), "cuModuleLoadData big") };
                let s = t.elapsed().as_secs_f64();
                // SAFETY: as above.
                unsafe { check(cuModuleUnload(m), "cuModuleUnload") };
                s
            })
            .collect(),
    );
    let library_load = median(
        (0..load_reps)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(ptxvm::api::Module::load(&big).unwrap());
                t.elapsed().as_secs_f64()
            })
            .collect(),
    );

    // 3. Resident memory over load/launch/unload cycles.
    let mut rss = Vec::new();
    for k in 0..cycles {
        let mut m: Handle = std::ptr::null_mut();
        let mut g: Handle = std::ptr::null_mut();
        let mut d = 0u64;
        // SAFETY: as above.
        unsafe {
            check(cuModuleLoadData(&mut m, KERNEL.as_ptr().cast()), "cycle load");
            check(cuModuleGetFunction(&mut g, m, c"bump".as_ptr()), "cycle function");
            check(cuMemAlloc_v2(&mut d, 128), "cycle alloc");
            let mut p = d;
            let mut args = [(&raw mut p).cast::<c_void>()];
            check(
                cuLaunchKernel(
                    g,
                    1,
                    1,
                    1,
                    32,
                    1,
                    1,
                    0,
                    std::ptr::null_mut(),
                    args.as_mut_ptr(),
                    std::ptr::null_mut(),
                ),
                "cycle launch",
            );
            check(cuMemFree_v2(d), "cycle free");
            check(cuModuleUnload(m), "cycle unload");
        }
        if k % (cycles / 10).max(1) == 0 {
            rss.push(rss_kib());
        }
    }
    rss.push(rss_kib());

    println!("launch of one CTA, median of {reps} x {launches}:");
    println!(
        "  cuLaunchKernel {:.2} us, Device::launch_with {:.2} us: the driver adds {:.2} us ({:.2}x)",
        driver_launch * 1e6,
        library_launch * 1e6,
        (driver_launch - library_launch) * 1e6,
        driver_launch / library_launch
    );
    println!("load of bench/big/big.ptx ({mb:.1} MB), median of {load_reps}:");
    println!(
        "  cuModuleLoadData {:.0} MB/s ({:.2} s), Module::load {:.0} MB/s ({:.2} s): {:.2}x the library's time",
        mb / driver_load,
        driver_load,
        mb / library_load,
        library_load,
        driver_load / library_load
    );
    println!("resident memory over {cycles} load/launch/unload cycles, KiB at each tenth: {rss:?}");
    let (first, last) = (rss[1.min(rss.len() - 1)], *rss.last().unwrap());
    println!("  growth after the first tenth: {} KiB", last as i64 - first as i64);
}
