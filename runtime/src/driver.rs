//! The driver, found as NVIDIA's runtime finds it: `dlopen("libcuda.so.1")` (ptxvm's,
//! first on the library path) and its functions by name. A program that calls both
//! APIs then sees one driver, with one set of contexts, modules and allocations.

use std::ffi::{CStr, c_void};
use std::sync::OnceLock;

/// A driver function's address, by its exported name.
pub struct Driver {
    handle: *mut c_void,
}

// SAFETY: `handle` is a dlopen handle, usable from any thread.
unsafe impl Send for Driver {}
// SAFETY: as above; dlsym is thread-safe.
unsafe impl Sync for Driver {}

static DRIVER: OnceLock<Result<Driver, String>> = OnceLock::new();

/// The driver, loaded on first use.
///
/// # Errors
/// Why `libcuda.so.1` could not be loaded.
pub fn get() -> Result<&'static Driver, &'static str> {
    DRIVER
        .get_or_init(|| {
            // SAFETY: a NUL-terminated name; the handle is kept for the process.
            let handle =
                unsafe { libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
            if handle.is_null() {
                // SAFETY: dlerror returns a NUL-terminated message or NULL.
                let why = unsafe { libc::dlerror() };
                let why = if why.is_null() {
                    "unknown".into()
                } else {
                    unsafe { CStr::from_ptr(why) }.to_string_lossy().into_owned()
                };
                return Err(format!("cannot load libcuda.so.1 ({why}); run the program with `ptxvm exec`"));
            }
            Ok(Driver { handle })
        })
        .as_ref()
        .map_err(String::as_str)
}

impl Driver {
    /// The address of exported function `name` (NUL-terminated).
    pub fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live dlopen handle and a NUL-terminated name.
        let p = unsafe { libc::dlsym(self.handle, name.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}

/// Declares typed wrappers of driver functions: each looks its function up once and
/// calls it, answering `CUDA_ERROR_NOT_FOUND` (500) when the driver lacks it.
macro_rules! driver_functions {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[allow(non_snake_case, clippy::too_many_arguments)]
        pub(crate) fn $name($($arg: $ty),*) -> u32 {
            static ADDRESS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
            let address = ADDRESS.get_or_init(|| {
                let name = std::ffi::CString::new(stringify!($name)).ok()?;
                get().ok()?.symbol(&name).map(|p| p as usize)
            });
            let Some(address) = *address else { return 500 };
            // SAFETY: the driver's exported function of this name has this C
            // signature (cuda.h); its arguments are passed on as the caller gave them.
            unsafe {
                let f: unsafe extern "C" fn($($ty),*) -> u32 = std::mem::transmute(address);
                f($($arg),*)
            }
        }
    )*};
}

/// Calls driver function `NAME` with the arguments as given, typed as given:
/// looked up once per call site; `CUDA_ERROR_NOT_FOUND` (500) when the driver lacks
/// it.
#[macro_export]
macro_rules! driver_call {
    ($name:ident($($arg:expr => $ty:ty),* $(,)?)) => {{
        static ADDRESS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
        let address = ADDRESS.get_or_init(|| {
            let name = std::ffi::CString::new(stringify!($name)).ok()?;
            $crate::driver::get().ok()?.symbol(&name).map(|p| p as usize)
        });
        // The arguments are evaluated before the call, outside the unsafe block.
        let args: ($($ty,)*) = ($($arg,)*);
        match *address {
            Some(address) => {
                let f = address as *const ();
                // SAFETY: the driver's exported function of this name has this C
                // signature (cuda.h); the arguments are passed on as the caller gave them.
                let f: unsafe extern "C" fn($($ty),*) -> u32 = unsafe { std::mem::transmute(f) };
                $crate::driver::Apply::apply(f, args)
            }
            None => 500u32,
        }
    }};
}

/// Calls a C function pointer with a tuple of its arguments.
pub trait Apply<Args> {
    fn apply(self, args: Args) -> u32;
}

macro_rules! apply {
    ($($t:ident),*) => {
        impl<$($t),*> Apply<($($t,)*)> for unsafe extern "C" fn($($t),*) -> u32 {
            #[allow(non_snake_case)]
            fn apply(self, ($($t,)*): ($($t,)*)) -> u32 {
                // SAFETY: a driver function found by its name, whose C signature is
                // this one (the caller of `driver_call!` states it).
                unsafe { self($($t),*) }
            }
        }
    };
}
apply!();
apply!(A);
apply!(A, B);
apply!(A, B, C);
apply!(A, B, C, D);
apply!(A, B, C, D, E);
apply!(A, B, C, D, E, F);
apply!(A, B, C, D, E, F, G);
apply!(A, B, C, D, E, F, G, H);
apply!(A, B, C, D, E, F, G, H, I);

/// Declares runtime functions that are their driver function with the same
/// arguments (the runtime's handles and enums are the driver's): each makes sure
/// the driver is started and its context current, calls it, and turns the result
/// into the runtime's error.
#[macro_export]
macro_rules! forward {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $driver:ident $(also $alias:ident)?;)*) => {
        $crate::rt! {$(
            $(#[$doc])*
            fn $name($($arg: $ty),*) $(also $alias)? {
                $crate::register::ready()?;
                $crate::check($crate::driver_call!($driver($($arg => $ty),*)))
            }
        )*}
    };
}

type P = *mut c_void;

/// `CUlaunchConfig`.
#[repr(C)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_mem_bytes: u32,
    pub stream: P,
    /// `CUlaunchAttribute`s, laid out as `cudaLaunchAttribute`s are.
    pub attrs: P,
    pub num_attrs: u32,
}

/// `CUDA_MEMCPY2D`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Memcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: u32,
    pub src_host: usize,
    pub src_device: u64,
    pub src_array: usize,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: u32,
    pub dst_host: usize,
    pub dst_device: u64,
    pub dst_array: usize,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Array3DDescriptor {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: u32,
    pub num_channels: u32,
    pub flags: u32,
}

/// `CUDA_MEMCPY3D`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Memcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: u32,
    pub src_host: usize,
    pub src_device: u64,
    pub src_array: usize,
    pub reserved0: usize,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: u32,
    pub dst_host: usize,
    pub dst_device: u64,
    pub dst_array: usize,
    pub reserved1: usize,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

/// `CUDA_RESOURCE_DESC` (144 bytes; offsets measured with offsetof on cuda.h 13).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ResourceDesc {
    pub res_type: u32,
    pub pad: u32,
    pub handle: u64,
    pub format: u32,
    pub num_channels: u32,
    pub size_or_width: usize,
    pub height: usize,
    pub pitch: usize,
    pub rest: [u8; 88],
    pub flags: u32,
    pub pad2: u32,
}

impl Default for ResourceDesc {
    fn default() -> Self {
        // SAFETY: plain integers; all zeros is a valid value.
        unsafe { std::mem::zeroed() }
    }
}

/// `CUDA_TEXTURE_DESC` (104 bytes).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct TextureDesc {
    pub address_mode: [u32; 3],
    pub filter_mode: u32,
    pub flags: u32,
    pub max_anisotropy: u32,
    pub mipmap_filter_mode: u32,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub border_color: [f32; 4],
    pub reserved: [i32; 12],
}

driver_functions! {
    cuInit(flags: u32);
    cuGetProcAddress_v2(symbol: *const std::ffi::c_char, pfn: *mut P, version: i32, flags: u64, status: *mut i32);
    cuDriverGetVersion(v: *mut i32);
    cuDeviceGetCount(n: *mut i32);
    cuDeviceGetAttribute(v: *mut i32, attr: i32, dev: i32);
    cuDeviceTotalMem_v2(bytes: *mut usize, dev: i32);
    cuDevicePrimaryCtxRetain(ctx: *mut P, dev: i32);
    cuDevicePrimaryCtxReset_v2(dev: i32);
    cuCtxSetCurrent(ctx: P);
    cuCtxSynchronize();
    cuCtxSetLimit(limit: u32, value: usize);
    cuCtxGetLimit(value: *mut usize, limit: u32);
    cuModuleLoadData(module: *mut P, image: *const c_void);
    cuModuleGetFunction(f: *mut P, module: P, name: *const i8);
    cuModuleGetGlobal_v2(ptr: *mut u64, bytes: *mut usize, module: P, name: *const i8);
    cuMemAlloc_v2(ptr: *mut u64, bytes: usize);
    cuMemAllocManaged(ptr: *mut u64, bytes: usize, flags: u32);
    cuMemAllocHost_v2(ptr: *mut P, bytes: usize);
    cuMemHostAlloc(ptr: *mut P, bytes: usize, flags: u32);
    cuMemFreeHost(ptr: P);
    cuMemFree_v2(ptr: u64);
    cuMemAllocAsync(ptr: *mut u64, bytes: usize, stream: P);
    cuMemFreeAsync(ptr: u64, stream: P);
    cuMemHostRegister_v2(ptr: P, bytes: usize, flags: u32);
    cuMemHostUnregister(ptr: P);
    cuMemHostGetDevicePointer_v2(dptr: *mut u64, ptr: P, flags: u32);
    cuPointerGetAttribute(data: P, attr: u32, ptr: u64);
    cuStreamAddCallback(s: P, cb: Option<unsafe extern "C" fn(P, u32, P)>, data: P, flags: u32);
    cuMemGetInfo_v2(free: *mut usize, total: *mut usize);
    cuMemcpy(dst: u64, src: u64, n: usize);
    cuMemcpyAsync(dst: u64, src: u64, n: usize, stream: P);
    cuMemsetD8_v2(dst: u64, v: u8, n: usize);
    cuMemsetD2D8_v2(dst: u64, pitch: usize, v: u8, width: usize, height: usize);
    cuMemAllocPitch_v2(ptr: *mut u64, pitch: *mut usize, width: usize, height: usize, element: u32);
    cuMemcpy2DUnaligned_v2(copy: *const Memcpy2D);
    cuMemcpy2DAsync_v2(copy: *const Memcpy2D, stream: P);
    cuMemcpy3D_v2(copy: *const Memcpy3D);
    cuArray3DCreate_v2(array: *mut P, desc: *const Array3DDescriptor);
    cuArray3DGetDescriptor_v2(desc: *mut Array3DDescriptor, array: P);
    cuArrayDestroy(array: P);
    cuMipmappedArrayCreate(mipmap: *mut P, desc: *const Array3DDescriptor, levels: u32);
    cuMipmappedArrayGetLevel(array: *mut P, mipmap: P, level: u32);
    cuMipmappedArrayDestroy(mipmap: P);
    cuTexObjectCreate(obj: *mut u64, res: *const ResourceDesc, tex: *const TextureDesc, view: *const u8);
    cuTexObjectDestroy(obj: u64);
    cuSurfObjectCreate(obj: *mut u64, res: *const ResourceDesc);
    cuSurfObjectDestroy(obj: u64);
    cuMemcpy3DAsync_v2(copy: *const Memcpy3D, stream: P);
    cuMemsetD2D8Async(dst: u64, pitch: usize, v: u8, width: usize, height: usize, stream: P);
    cuStreamBeginCapture_v2(s: P, mode: u32);
    cuStreamEndCapture(s: P, graph: *mut P);
    cuGraphInstantiateWithFlags(exec: *mut P, graph: P, flags: u64);
    cuGraphLaunch(exec: P, s: P);
    cuGraphDestroy(graph: P);
    cuGraphExecDestroy(exec: P);
    cuMemsetD8Async(dst: u64, v: u8, n: usize, stream: P);
    cuLaunchKernel(f: P, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: P, params: *mut P, extra: *mut P);
    cuLaunchKernelEx(config: *const LaunchConfig, f: P, params: *mut P, extra: *mut P);
    cuLaunchCooperativeKernel(f: P, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: P, params: *mut P);
    cuFuncSetAttribute(f: P, attr: u32, v: i32);
    cuFuncGetAttribute(v: *mut i32, attr: u32, f: P);
    cuStreamCreate(s: *mut P, flags: u32);
    cuStreamCreateWithPriority(s: *mut P, flags: u32, priority: i32);
    cuStreamDestroy_v2(s: P);
    cuStreamSynchronize(s: P);
    cuStreamQuery(s: P);
    cuStreamWaitEvent(s: P, e: P, flags: u32);
    cuLaunchHostFunc(s: P, f: Option<unsafe extern "C" fn(P)>, data: P);
    cuEventCreate(e: *mut P, flags: u32);
    cuEventRecord(e: P, s: P);
    cuEventSynchronize(e: P);
    cuEventQuery(e: P);
    cuEventElapsedTime_v2(ms: *mut f32, a: P, b: P);
    cuEventDestroy_v2(e: P);
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n: *mut i32, f: P, block: i32, shared: usize, flags: u32);
    cuOccupancyMaxActiveClusters(n: *mut i32, f: P, config: *const LaunchConfig);
}
