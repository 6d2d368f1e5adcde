//! Launches, function attributes and occupancy. A launch's arguments come as
//! `kernelParams` (one pointer per parameter, sized by the kernel's `.param` list)
//! or as `extra`'s packed buffer; both go through the library's one packing path
//! ([`ptxvm::api::Kernel::pack`]). The kernel runs when it is launched; a fault is
//! reported on stderr and leaves its error on the context, for the next call to find.

use crate::config;
use crate::device::{
    MAX_BLOCK, MAX_BLOCKS_PER_SM, MAX_GRID, MAX_THREADS_PER_BLOCK, MAX_THREADS_PER_SM,
    SHARED_PER_BLOCK_OPTIN, SHARED_PER_SM, SM_COUNT,
};
use crate::error;
use crate::state::{self, Driver};
use crate::types::{
    CUresult, Handle, LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, LAUNCH_ATTRIBUTE_COOPERATIVE, LaunchConfig,
};
use ptxvm::exec::limits::Limits;
use ptxvm::launch::Dim3;
use std::ffi::{c_char, c_void};
use std::io::Write;

/// `CU_LAUNCH_PARAM_BUFFER_POINTER`, `_SIZE` and `_END`.
const PARAM_BUFFER_POINTER: usize = 1;
const PARAM_BUFFER_SIZE: usize = 2;
const PARAM_END: usize = 0;

/// Shared memory the GPU reserves per CTA (`CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK`).
const RESERVED_SHARED: u32 = 1024;

/// The arguments of a launch, as C handed them over.
pub enum Params {
    /// `kernelParams`: one pointer per parameter.
    Pointers(*mut *mut c_void),
    /// `extra`: a `CU_LAUNCH_PARAM_*` list.
    Extra(*mut *mut c_void),
}

/// A launch's shape and options.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    pub stream: u64,
    pub cooperative: bool,
    /// CTAs of a cluster (`CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`).
    pub cluster: Option<[u32; 3]>,
}

/// CTAs of `threads` threads and `shared` bytes of shared memory one SM holds at once.
fn blocks_per_sm(threads: u32, shared: u32) -> u32 {
    let warps = threads.div_ceil(32).max(1);
    let by_threads = MAX_THREADS_PER_SM as u32 / 32 / warps;
    let by_shared =
        if shared == 0 { u32::MAX } else { SHARED_PER_SM as u32 / shared.saturating_add(RESERVED_SHARED) };
    by_threads.min(by_shared).min(MAX_BLOCKS_PER_SM as u32)
}

/// The code a library's kernel (`cuLibraryGetKernel`, the path NVIDIA's runtime
/// launches by) gets for a grid or block no device runs. NVIDIA's runtime passes the
/// driver's code through, and on a GPU `<<<1, 2048>>>` gives
/// `cudaErrorInvalidConfiguration` (9); a module's function launched through the
/// driver API gets `CUDA_ERROR_INVALID_VALUE`, as NVIDIA's driver answers it.
const INVALID_CONFIGURATION: CUresult = 9;

/// Why a shape cannot launch, as CUDA answers it: `shape_code` for the grid and
/// block, `CUDA_ERROR_INVALID_VALUE` for shared memory.
fn check_shape(
    l: &Launch,
    static_shared: u32,
    max_dynamic: u32,
    shape_code: CUresult,
) -> Result<(), CUresult> {
    let bad = |why: String| Err(crate::fail(shape_code, why));
    if l.grid.contains(&0) || l.block.contains(&0) {
        return bad(format!(
            "grid {:?} and block {:?} must be at least 1 in every dimension",
            l.grid, l.block
        ));
    }
    for k in 0..3 {
        if l.grid[k] > MAX_GRID[k] as u32 {
            return bad(format!("grid dimension {k} is {}, past the limit {}", l.grid[k], MAX_GRID[k]));
        }
        if l.block[k] > MAX_BLOCK[k] as u32 {
            return bad(format!("block dimension {k} is {}, past the limit {}", l.block[k], MAX_BLOCK[k]));
        }
    }
    let threads = l.block.iter().map(|&x| u64::from(x)).product::<u64>();
    if threads > MAX_THREADS_PER_BLOCK as u64 {
        return bad(format!("a block of {threads} threads is more than {MAX_THREADS_PER_BLOCK}"));
    }
    if l.shared > max_dynamic {
        let bad = |why: String| Err(crate::fail(error::INVALID_VALUE, why));
        let why = format!(
            "{} bytes of dynamic shared memory is more than the kernel's limit of {max_dynamic} \
             (raise it with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, up to {})",
            l.shared,
            SHARED_PER_BLOCK_OPTIN as u32 - static_shared
        );
        return bad(why);
    }
    Ok(())
}

/// Runs function `f` as `l` says with the packed parameter buffer (checked by
/// [`prepare`] when the launch or graph node was made).
pub(crate) fn run(d: &mut Driver, f: u64, l: &Launch, params: &[u8]) -> Result<(), CUresult> {
    d.ctx()?;
    crate::printf::flush();
    let cfg = config::get();
    let fe = d.functions.get(&f).ok_or_else(|| {
        crate::fail(error::INVALID_HANDLE, format!("0x{f:x} is not a function (its module was unloaded?)"))
    })?;
    let me = &d.modules[&fe.module];
    let (module, file, kernel) = (me.module.clone(), me.file.clone(), fe.kernel.clone());
    let grace = std::time::Duration::try_from_secs_f64(cfg.deadlock_grace)
        .unwrap_or(std::time::Duration::from_secs(1));
    let mut limits = Limits::new(cfg.max_steps).checks(cfg.checks).deadlock_grace(grace);
    if cfg.timeout > 0.0 {
        limits = limits.timeout(std::time::Duration::from_secs_f64(cfg.timeout));
    }
    let dim = |v: [u32; 3]| Dim3 { x: v[0], y: v[1], z: v[2] };
    let result = if l.cooperative {
        let shape = (dim(l.grid), dim(l.block), l.shared);
        d.device.launch_cooperative(&kernel, shape, l.cluster.map(dim), params, &limits)
    } else if let Some(c) = l.cluster {
        d.device.launch_clustered(&kernel, (dim(l.grid), dim(l.block), l.shared), dim(c), params, &limits)
    } else {
        d.device.launch_with(&kernel, dim(l.grid), dim(l.block), l.shared, params, &limits)
    };
    let (printed, dropped) = d.device.take_printed();
    crate::printf::hold(&printed);
    if dropped {
        eprintln!(
            "ptxvm: device printf output past 1 MiB was dropped (CUDA's printf FIFO keeps its first part too)"
        );
    }
    let name = ptxvm::demangle::shown(&kernel.name);
    for h in d.device.hazards() {
        let report = h.report(&module, &name, &file);
        eprintln!("{report}");
        if let Some(path) = &cfg.hazards
            && let Ok(mut log) = std::fs::OpenOptions::new().create(true).append(true).open(path)
        {
            let _ = writeln!(log, "{}", report.lines().next().unwrap_or_default());
        }
    }
    if let Err(fault) = result {
        // The command line's option is a variable here.
        let report = fault.report(&module, &name, &file);
        let report = report
            .replace(
                "(raise it with --max-steps)",
                "(raise it with PTXVM_MAX_STEPS, or ptxvm exec --max-steps)",
            )
            .replace(
                "(raise it with --timeout; 0 means none)",
                "(raise it with PTXVM_TIMEOUT; 0 means none)",
            );
        eprintln!("{report}");
        let code = error::of_fault(fault.kind());
        let c = state::top().unwrap_or(0);
        if let Some(ctx) = d.contexts.get_mut(&c) {
            ctx.sticky = Some(code);
        }
    }
    Ok(())
}

/// Checks launch `l` of function `f` and packs its arguments from `kernelParams` or
/// `extra`: what a launch and a kernel node of a graph both do when they are made.
pub(crate) fn prepare(d: &mut Driver, f: u64, l: &Launch, params: Params) -> Result<Vec<u8>, CUresult> {
    let fe = d
        .functions
        .get(&f)
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{f:x} is not a function")))?;
    let static_shared = fe.kernel.static_shared_bytes();
    let library = d.libraries.values().any(|&m| m == fe.module);
    let shape_code = if library { INVALID_CONFIGURATION } else { error::INVALID_VALUE };
    check_shape(l, static_shared, fe.max_dynamic_shared, shape_code)?;
    if l.cooperative {
        let per_sm = blocks_per_sm(l.block.iter().product(), static_shared.saturating_add(l.shared));
        let ctas = l.grid.iter().map(|&x| u64::from(x)).product::<u64>();
        let most = u64::from(per_sm) * SM_COUNT as u64;
        if ctas > most {
            let why = format!(
                "a cooperative grid of {ctas} CTAs is more than the {most} that can be resident ({per_sm} per SM on {SM_COUNT} SMs)"
            );
            return Err(crate::fail(error::COOPERATIVE_LAUNCH_TOO_LARGE, why));
        }
    }
    let kernel = &fe.kernel;
    match params {
        Params::Pointers(p) => {
            if p.is_null() && !kernel.params.is_empty() {
                let why = format!(
                    "kernel `{}` takes {} parameters; kernelParams is NULL",
                    kernel.name,
                    kernel.params.len()
                );
                return Err(crate::fail(error::INVALID_VALUE, why));
            }
            let values: Vec<&[u8]> = kernel
                .params
                .iter()
                .enumerate()
                .map(|(k, &(_, _, size))| {
                    // SAFETY: kernelParams holds one pointer per parameter of the
                    // kernel, each to a value of the parameter's size (cuda.h).
                    let v = unsafe { *p.add(k) };
                    // SAFETY: as above; a NULL one is refused by the size check.
                    if v.is_null() {
                        &[][..]
                    } else {
                        unsafe { std::slice::from_raw_parts(v.cast::<u8>(), size as usize) }
                    }
                })
                .collect();
            kernel.pack(values.into_iter()).map_err(|e| crate::fail(error::INVALID_VALUE, e))
        }
        Params::Extra(extra) => {
            let (mut buffer, mut size) = (std::ptr::null::<u8>(), None);
            let mut k = 0;
            loop {
                // SAFETY: `extra` is a list of (key, value) pointers ended by
                // CU_LAUNCH_PARAM_END (cuda.h).
                let key = unsafe { *extra.add(k) } as usize;
                match key {
                    PARAM_END => break,
                    // SAFETY: the key's value follows it in the list.
                    PARAM_BUFFER_POINTER => buffer = unsafe { *extra.add(k + 1) }.cast::<u8>(),
                    PARAM_BUFFER_SIZE => {
                        // SAFETY: the key's value follows it in the list.
                        let p = unsafe { *extra.add(k + 1) }.cast::<usize>();
                        if p.is_null() {
                            return Err(crate::fail(
                                error::INVALID_VALUE,
                                "CU_LAUNCH_PARAM_BUFFER_SIZE is NULL",
                            ));
                        }
                        // SAFETY: a non-NULL value of BUFFER_SIZE points at a size_t.
                        size = Some(unsafe { *p });
                    }
                    _ => {
                        return Err(crate::fail(
                            error::INVALID_VALUE,
                            format!("unknown `extra` key {key:#x}"),
                        ));
                    }
                }
                k += 2;
            }
            let Some(size) = size.filter(|_| !buffer.is_null()) else {
                return Err(crate::fail(
                    error::INVALID_VALUE,
                    "`extra` needs CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE",
                ));
            };
            // SAFETY: the buffer holds `size` bytes (the caller's BUFFER_SIZE).
            let bytes = unsafe { std::slice::from_raw_parts(buffer, size) };
            kernel.packed(bytes).map_err(|e| crate::fail(error::INVALID_VALUE, e))
        }
    }
}

/// Reads `kernelParams` or `extra` for function `f` and launches it, or records the
/// launch in the graph its stream is capturing.
pub fn launch(f: Handle, l: Launch, params: Params) -> Result<(), CUresult> {
    let (f, packed) = state::with(|d| {
        d.ctx()?;
        d.check_stream(l.stream)?;
        Ok((f as u64, prepare(d, f as u64, &l, params)?))
    })?;
    crate::graph::submit(l.stream, crate::graph::Work::Kernel { f, launch: l, params: packed, made: None })
}

/// `CUfunction_attribute` values of function `f`.
fn attribute(d: &Driver, f: u64, attrib: u32) -> Result<i32, CUresult> {
    let fe = d
        .functions
        .get(&f)
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{f:x} is not a function")))?;
    let k = &fe.kernel;
    Ok(match attrib {
        0 => MAX_THREADS_PER_BLOCK,
        1 => k.static_shared_bytes() as i32,
        2 => 0, // const bytes: module-wide in ptxvm, not per function
        3 => k.local_bytes() as i32,
        4 => k.registers().min(255) as i32,
        // PTX_VERSION: the PTX's target; BINARY_VERSION: the device's, which the
        // PTX is compiled for when it loads (as a GPU's driver JIT-compiles it).
        5 => k.target() as i32,
        6 => 90,
        7 => 0,
        8 => fe.max_dynamic_shared as i32,
        9 => fe.attributes.get(&9).copied().unwrap_or(-1),
        10..=15 | 17 => fe.attributes.get(&attrib).copied().unwrap_or(0),
        // DEVICE_NODE_UPDATE_SUPPORTED: ptxvm's graphs are not updated from the device.
        16 => 0,
        _ => return Err(crate::fail(error::INVALID_VALUE, format!("unknown function attribute {attrib}"))),
    })
}

fn set_attribute(d: &mut Driver, f: u64, attrib: u32, value: i32) -> Result<(), CUresult> {
    let fe = d
        .functions
        .get_mut(&f)
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{f:x} is not a function")))?;
    match attrib {
        8 => {
            let most = SHARED_PER_BLOCK_OPTIN - fe.kernel.static_shared_bytes() as i32;
            if !(0..=most).contains(&value) {
                return Err(crate::fail(
                    error::INVALID_VALUE,
                    format!("dynamic shared memory of {value} bytes: the limit is {most}"),
                ));
            }
            fe.max_dynamic_shared = value as u32;
        }
        9..=15 | 17 => {
            fe.attributes.insert(attrib, value);
        }
        _ => {
            return Err(crate::fail(
                error::INVALID_VALUE,
                format!("function attribute {attrib} cannot be set"),
            ));
        }
    }
    Ok(())
}

/// CTAs of `func` with `block_size` threads and `dynamic` bytes of dynamic shared
/// memory one SM holds at once.
fn occupancy(func: Handle, block_size: i32, dynamic: usize) -> Result<i32, CUresult> {
    state::with(|d| {
        let shared =
            (attribute(d, func as u64, 1)? as u32).saturating_add(u32::try_from(dynamic).unwrap_or(u32::MAX));
        Ok(blocks_per_sm(block_size.max(1) as u32, shared) as i32)
    })
}

/// Reads `CUlaunchConfig`'s attributes: cooperative, and the cluster dimension.
fn config_of(config: *const LaunchConfig) -> Result<(Launch, Handle), CUresult> {
    if config.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUlaunchConfig*` the caller filled.
    let c = unsafe { &*config };
    let mut launch = Launch {
        grid: [c.grid_dim_x, c.grid_dim_y, c.grid_dim_z],
        block: [c.block_dim_x, c.block_dim_y, c.block_dim_z],
        shared: c.shared_mem_bytes,
        stream: c.h_stream as u64,
        cooperative: false,
        cluster: None,
    };
    if c.num_attrs > 0 && c.attrs.is_null() {
        return Err(error::INVALID_VALUE);
    }
    for k in 0..c.num_attrs as usize {
        // SAFETY: `attrs` holds `num_attrs` attributes.
        let a = unsafe { &*c.attrs.add(k) };
        match a.id {
            LAUNCH_ATTRIBUTE_COOPERATIVE => launch.cooperative = a.value[0] as u32 != 0,
            LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION => {
                let v = a.value;
                let dims = [v[0] as u32, (v[0] >> 32) as u32, v[1] as u32];
                let dim = |v: [u32; 3]| Dim3 { x: v[0], y: v[1], z: v[2] };
                // What CUDA refuses: a cluster that does not tile the grid, or of more
                // than 8 CTAs.
                if let Err(why) = ptxvm::launch::cluster_shape(dim(launch.grid), Some(dim(dims)), None) {
                    return Err(crate::fail(error::INVALID_CLUSTER_SIZE, why));
                }
                launch.cluster = Some(dims);
            }
            // Priorities, access policies, synchronisation domains and the like
            // tune a GPU's scheduling, which ptxvm does not model.
            _ => {}
        }
    }
    Ok((launch, std::ptr::null_mut()))
}

crate::api! {
    fn cuLaunchKernel(f: Handle, grid_x: u32, grid_y: u32, grid_z: u32, block_x: u32, block_y: u32, block_z: u32, shared_mem_bytes: u32, stream: Handle, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) also cuLaunchKernel_ptsz {
        let l = Launch { grid: [grid_x, grid_y, grid_z], block: [block_x, block_y, block_z], shared: shared_mem_bytes, stream: stream as u64, cooperative: false, cluster: None };
        if !kernel_params.is_null() && !extra.is_null() {
            return Err(crate::fail(error::INVALID_VALUE, "give kernelParams or extra, not both"));
        }
        let params = if extra.is_null() { Params::Pointers(kernel_params) } else { Params::Extra(extra) };
        launch(f, l, params)
    }

    fn cuLaunchCooperativeKernel(f: Handle, grid_x: u32, grid_y: u32, grid_z: u32, block_x: u32, block_y: u32, block_z: u32, shared_mem_bytes: u32, stream: Handle, kernel_params: *mut *mut c_void) also cuLaunchCooperativeKernel_ptsz {
        let l = Launch { grid: [grid_x, grid_y, grid_z], block: [block_x, block_y, block_z], shared: shared_mem_bytes, stream: stream as u64, cooperative: true, cluster: None };
        launch(f, l, Params::Pointers(kernel_params))
    }

    fn cuLaunchKernelEx(config: *const LaunchConfig, f: Handle, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) also cuLaunchKernelEx_ptsz {
        let (l, _) = config_of(config)?;
        if !kernel_params.is_null() && !extra.is_null() {
            return Err(crate::fail(error::INVALID_VALUE, "give kernelParams or extra, not both"));
        }
        let params = if extra.is_null() { Params::Pointers(kernel_params) } else { Params::Extra(extra) };
        launch(f, l, params)
    }

    fn cuFuncGetAttribute(pi: *mut i32, attrib: u32, hfunc: Handle) {
        let v = state::with(|d| attribute(d, hfunc as u64, attrib))?;
        crate::out(pi, v)
    }

    fn cuFuncSetAttribute(hfunc: Handle, attrib: u32, value: i32) {
        state::with(|d| set_attribute(d, hfunc as u64, attrib, value))
    }

    fn cuFuncSetCacheConfig(hfunc: Handle, config: u32) {
        let _ = config;
        state::with(|d| attribute(d, hfunc as u64, 0).map(|_| ()))
    }

    fn cuFuncGetName(name: *mut *const c_char, hfunc: Handle) {
        let text = state::with(|d| {
            let fe = d.functions.get(&(hfunc as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{hfunc:?} is not a function")))?;
            Ok(fe.kernel.name.clone())
        })?;
        let c = std::ffi::CString::new(text).map_err(|_| error::INVALID_VALUE)?;
        // The name lives as long as the process, as the driver's own does.
        crate::out(name, Box::leak(c.into_boxed_c_str()).as_ptr())
    }

    fn cuOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks: *mut i32, func: Handle, block_size: i32, dynamic_smem_size: usize) {
        crate::out(num_blocks, occupancy(func, block_size, dynamic_smem_size)?)
    }

    fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks: *mut i32, func: Handle, block_size: i32, dynamic_smem_size: usize, flags: u32) {
        // The flag only turns off caching's effect on occupancy, which ptxvm has not.
        let _ = flags;
        crate::out(num_blocks, occupancy(func, block_size, dynamic_smem_size)?)
    }

    fn cuOccupancyMaxActiveClusters(num_clusters: *mut i32, func: Handle, config: *const LaunchConfig) {
        // CTAs resident at once, in whole clusters (a cluster the launch would refuse
        // is refused here).
        let (l, _) = config_of(config)?;
        let threads = l.block.iter().try_fold(1u32, |a, &d| a.checked_mul(d)).ok_or(error::INVALID_VALUE)?;
        let per_sm = occupancy(func, i32::try_from(threads).map_err(|_| error::INVALID_VALUE)?, l.shared as usize)?;
        let size = l.cluster.map_or(1, |c| c.iter().map(|&d| d.max(1) as i32).product::<i32>());
        crate::out(num_clusters, per_sm * SM_COUNT / size)
    }

    fn cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid_size: *mut i32, block_size: *mut i32, func: Handle, block_size_to_dynamic_smem_size: Option<unsafe extern "C" fn(i32) -> usize>, dynamic_smem_size: usize, block_size_limit: i32, flags: u32) {
        // The flag only turns off caching's effect on occupancy, which ptxvm has not.
        let _ = flags;
        // SAFETY: the same arguments, passed on.
        let code = unsafe { cuOccupancyMaxPotentialBlockSize(min_grid_size, block_size, func, block_size_to_dynamic_smem_size, dynamic_smem_size, block_size_limit) };
        if code == error::SUCCESS { Ok(()) } else { Err(code) }
    }

    fn cuOccupancyAvailableDynamicSMemPerBlock(dynamic_smem_size: *mut usize, func: Handle, num_blocks: i32, block_size: i32) {
        if num_blocks <= 0 || block_size <= 0 {
            return Err(error::INVALID_VALUE);
        }
        let (static_shared, limit) = state::with(|d| Ok((attribute(d, func as u64, 1)? as u32, attribute(d, func as u64, 8)? as u32)))?;
        // The most dynamic shared memory with which `num_blocks` blocks still fit
        // on an SM at once, within the function's own limit.
        let fits = |dynamic: u32| blocks_per_sm(block_size as u32, static_shared.saturating_add(dynamic)) >= num_blocks as u32;
        if !fits(0) {
            return crate::out(dynamic_smem_size, 0);
        }
        let (mut lo, mut hi) = (0u32, limit);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
        crate::out(dynamic_smem_size, lo as usize)
    }

    fn cuOccupancyMaxPotentialClusterSize(cluster_size: *mut i32, func: Handle, config: *const LaunchConfig) {
        let _ = config_of(config)?;
        state::with(|d| attribute(d, func as u64, 0).map(|_| ()))?;
        // Eight CTAs, the portable limit; 16 when the function allows non-portable
        // sizes (CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED).
        let non_portable = state::with(|d| attribute(d, func as u64, 14))? != 0;
        crate::out(cluster_size, if non_portable { 16 } else { 8 })
    }

    fn cuFuncSetSharedMemConfig(hfunc: Handle, config: u32) {
        // A preference that sm_90's fixed four-byte banks ignore, as on a GPU.
        if config > 2 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| attribute(d, hfunc as u64, 0).map(|_| ()))
    }

    fn cuFuncGetModule(hmod: *mut Handle, hfunc: Handle) {
        let m = state::with(|d| {
            d.functions.get(&(hfunc as u64)).map(|f| f.module).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{hfunc:?} is not a function")))
        })?;
        crate::out(hmod, m as Handle)
    }

    fn cuFuncIsLoaded(state_: *mut u32, function: Handle) {
        state::with(|d| attribute(d, function as u64, 0).map(|_| ()))?;
        // CU_FUNCTION_LOADED: a function handle is decoded when it is made.
        crate::out(state_, 1)
    }

    fn cuFuncLoad(function: Handle) {
        state::with(|d| attribute(d, function as u64, 0).map(|_| ()))
    }

    fn cuOccupancyMaxPotentialBlockSize(min_grid_size: *mut i32, block_size: *mut i32, func: Handle, block_size_to_dynamic_smem_size: Option<unsafe extern "C" fn(i32) -> usize>, dynamic_smem_size: usize, block_size_limit: i32) {
        let static_shared = state::with(|d| attribute(d, func as u64, 1))? as u32;
        let limit = if block_size_limit <= 0 { MAX_THREADS_PER_BLOCK } else { block_size_limit.min(MAX_THREADS_PER_BLOCK) };
        let (mut best, mut best_blocks) = (0, 0);
        let mut size = limit / 32 * 32;
        while size >= 32 {
            // SAFETY: the caller's callback takes a block size and returns bytes.
            let dynamic = match block_size_to_dynamic_smem_size { Some(cb) => unsafe { cb(size) }, None => dynamic_smem_size };
            let blocks = blocks_per_sm(size as u32, static_shared.saturating_add(u32::try_from(dynamic).unwrap_or(u32::MAX))) as i32;
            if blocks * size > best_blocks * best {
                (best, best_blocks) = (size, blocks);
            }
            size -= 32;
        }
        crate::out(min_grid_size, best_blocks * SM_COUNT)?;
        crate::out(block_size, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_follows_threads_shared_memory_and_the_block_limit() {
        // 2048 threads per SM: eight blocks of 256, two of 1024, 32 blocks of 32.
        assert_eq!(blocks_per_sm(256, 0), 8);
        assert_eq!(blocks_per_sm(1024, 0), 2);
        assert_eq!(blocks_per_sm(32, 0), 32);
        // 228 KiB per SM, 1 KiB reserved per block: 48 KiB blocks fit four at a time.
        assert_eq!(blocks_per_sm(128, 48 * 1024), 4);
    }
}
