//! CUDA's error codes (`CUresult`), their names and descriptions
//! (`cuGetErrorName`, `cuGetErrorString`), and how a kernel fault becomes one.
//!
//! The codes and names are the values `cuda.h` 13.x declares; the descriptions are
//! ptxvm's own words.

use crate::types::CUresult;
use std::ffi::c_char;

/// Every code of `cuda.h`'s `CUresult`: value, name, description. Names and
/// descriptions end in NUL so they can be handed to C as they are.
const ERRORS: &[(CUresult, &str, &str)] = &[
    (0, "CUDA_SUCCESS", "no error"),
    (1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"),
    (2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
    (3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error: cuInit has not been called"),
    (4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"),
    (5, "CUDA_ERROR_PROFILER_DISABLED", "profiler disabled"),
    (6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "profiler not initialized"),
    (7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "profiler already started"),
    (8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "profiler already stopped"),
    (34, "CUDA_ERROR_STUB_LIBRARY", "stub library"),
    (36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "call requires newer driver"),
    (46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "device unavailable"),
    (47, "CUDA_ERROR_MULTICAST_RESOURCE_FULL", "multicast resource full"),
    (100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"),
    (101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"),
    (102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "device not licensed"),
    (200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"),
    (201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"),
    (202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current"),
    (205, "CUDA_ERROR_MAP_FAILED", "map failed"),
    (206, "CUDA_ERROR_UNMAP_FAILED", "unmap failed"),
    (207, "CUDA_ERROR_ARRAY_IS_MAPPED", "array is mapped"),
    (208, "CUDA_ERROR_ALREADY_MAPPED", "already mapped"),
    (209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"),
    (210, "CUDA_ERROR_ALREADY_ACQUIRED", "already acquired"),
    (211, "CUDA_ERROR_NOT_MAPPED", "not mapped"),
    (212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "not mapped as array"),
    (213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "not mapped as pointer"),
    (214, "CUDA_ERROR_ECC_UNCORRECTABLE", "ecc uncorrectable"),
    (215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "limit is not supported on this architecture"),
    (216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "context already in use"),
    (217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access unsupported"),
    (218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"),
    (219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "invalid graphics context"),
    (220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "nvlink uncorrectable"),
    (221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "jit compiler not found"),
    (222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "unsupported ptx version"),
    (223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "jit compilation disabled"),
    (224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "unsupported exec affinity"),
    (225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "unsupported devside sync"),
    (226, "CUDA_ERROR_CONTAINED", "contained"),
    (227, "CUDA_ERROR_INSUFFICIENT_LOADER_VERSION", "insufficient loader version"),
    (300, "CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid"),
    (301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"),
    (302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "shared object symbol not found"),
    (303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "shared object init failed"),
    (304, "CUDA_ERROR_OPERATING_SYSTEM", "operating system"),
    (400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"),
    (401, "CUDA_ERROR_ILLEGAL_STATE", "illegal state"),
    (402, "CUDA_ERROR_LOSSY_QUERY", "lossy query"),
    (500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"),
    (600, "CUDA_ERROR_NOT_READY", "device not ready"),
    (700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"),
    (701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"),
    (702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"),
    (703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "launch incompatible texturing"),
    (704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access already enabled"),
    (705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access not enabled"),
    (708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "the primary context is already active"),
    (709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"),
    (710, "CUDA_ERROR_ASSERT", "device-side assert triggered"),
    (711, "CUDA_ERROR_TOO_MANY_PEERS", "too many peers"),
    (
        712,
        "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
        "part or all of the requested memory range is already mapped",
    ),
    (
        713,
        "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
        "pointer does not correspond to a registered memory region",
    ),
    (714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"),
    (715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"),
    (716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"),
    (717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "invalid address space"),
    (718, "CUDA_ERROR_INVALID_PC", "invalid pc"),
    (719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"),
    (720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch"),
    (721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "tensor memory leak"),
    (800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"),
    (801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"),
    (802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not ready"),
    (803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system driver mismatch"),
    (804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "compat not supported on device"),
    (805, "CUDA_ERROR_MPS_CONNECTION_FAILED", "mps connection failed"),
    (806, "CUDA_ERROR_MPS_RPC_FAILURE", "mps rpc failure"),
    (807, "CUDA_ERROR_MPS_SERVER_NOT_READY", "mps server not ready"),
    (808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "mps max clients reached"),
    (809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "mps max connections reached"),
    (810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "mps client terminated"),
    (811, "CUDA_ERROR_CDP_NOT_SUPPORTED", "cdp not supported"),
    (812, "CUDA_ERROR_CDP_VERSION_MISMATCH", "cdp version mismatch"),
    (900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "operation not permitted when stream is capturing"),
    (901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "stream capture invalidated"),
    (902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "stream capture merge"),
    (903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "stream capture unmatched"),
    (904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "stream capture unjoined"),
    (905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "stream capture isolation"),
    (906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "stream capture implicit"),
    (907, "CUDA_ERROR_CAPTURED_EVENT", "captured event"),
    (908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "stream capture wrong thread"),
    (909, "CUDA_ERROR_TIMEOUT", "timeout"),
    (910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "graph exec update failure"),
    (911, "CUDA_ERROR_EXTERNAL_DEVICE", "external device"),
    (912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "invalid cluster size"),
    (913, "CUDA_ERROR_FUNCTION_NOT_LOADED", "function not loaded"),
    (914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "invalid resource type"),
    (915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "invalid resource configuration"),
    (916, "CUDA_ERROR_KEY_ROTATION", "key rotation"),
    (917, "CUDA_ERROR_STREAM_DETACHED", "stream detached"),
    (918, "CUDA_ERROR_GRAPH_RECAPTURE_FAILURE", "graph recapture failure"),
    (919, "CUDA_ERROR_FABRIC_NOT_READY", "fabric not ready"),
    (999, "CUDA_ERROR_UNKNOWN", "unknown error"),
];

pub const SUCCESS: CUresult = 0;
pub const INVALID_VALUE: CUresult = 1;
pub const OUT_OF_MEMORY: CUresult = 2;
pub const NOT_INITIALIZED: CUresult = 3;
pub const INVALID_DEVICE: CUresult = 101;
pub const PEER_ACCESS_UNSUPPORTED: CUresult = 217;
pub const INVALID_IMAGE: CUresult = 200;
pub const INVALID_CONTEXT: CUresult = 201;
pub const NO_BINARY_FOR_GPU: CUresult = 209;
pub const UNSUPPORTED_LIMIT: CUresult = 215;
pub const INVALID_PTX: CUresult = 218;
pub const FILE_NOT_FOUND: CUresult = 301;
pub const OPERATING_SYSTEM: CUresult = 304;
pub const INVALID_HANDLE: CUresult = 400;
pub const ILLEGAL_STATE: CUresult = 401;
pub const NOT_FOUND: CUresult = 500;
pub const NOT_READY: CUresult = 600;
pub const ILLEGAL_ADDRESS: CUresult = 700;
pub const LAUNCH_OUT_OF_RESOURCES: CUresult = 701;
pub const LAUNCH_TIMEOUT: CUresult = 702;
pub const PEER_ACCESS_NOT_ENABLED: CUresult = 705;
pub const PRIMARY_CONTEXT_ACTIVE: CUresult = 708;
pub const ASSERT: CUresult = 710;
pub const HOST_MEMORY_ALREADY_REGISTERED: CUresult = 712;
pub const HOST_MEMORY_NOT_REGISTERED: CUresult = 713;
pub const ILLEGAL_INSTRUCTION: CUresult = 715;
pub const MISALIGNED_ADDRESS: CUresult = 716;
pub const LAUNCH_FAILED: CUresult = 719;
pub const COOPERATIVE_LAUNCH_TOO_LARGE: CUresult = 720;
pub const NOT_SUPPORTED: CUresult = 801;
pub const STREAM_CAPTURE_UNSUPPORTED: CUresult = 900;
pub const STREAM_CAPTURE_UNMATCHED: CUresult = 903;
pub const STREAM_CAPTURE_ISOLATION: CUresult = 905;
pub const INVALID_CLUSTER_SIZE: CUresult = 912;
pub const UNKNOWN: CUresult = 999;

/// The name of `code` (`CUDA_ERROR_INVALID_VALUE`), if it is one of `cuda.h`'s.
pub fn name(code: CUresult) -> Option<&'static str> {
    ERRORS.iter().find(|e| e.0 == code).map(|e| e.1)
}

/// The error a kernel fault leaves on its context, as a GPU would report it.
pub fn of_fault(kind: ptxvm::api::FaultKind) -> CUresult {
    use ptxvm::api::FaultKind as K;
    match kind {
        K::OutOfBounds => ILLEGAL_ADDRESS,
        K::Misaligned => MISALIGNED_ADDRESS,
        K::Assert => ASSERT,
        K::Limit => LAUNCH_TIMEOUT,
        K::Other => LAUNCH_FAILED,
    }
}

/// A static NUL-terminated copy of `s`, for C.
fn c_str(s: &'static str) -> *const c_char {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static std::ffi::CStr>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let c = cache.entry(s).or_insert_with(|| {
        let owned = std::ffi::CString::new(s).unwrap_or_default();
        Box::leak(owned.into_boxed_c_str())
    });
    c.as_ptr()
}

crate::api! {
    /// The code's name, such as `CUDA_ERROR_INVALID_VALUE`.
    fn cuGetErrorName(error: CUresult, p_str: *mut *const c_char) {
        let Some(text) = name(error) else {
            crate::out(p_str, std::ptr::null())?;
            return Err(INVALID_VALUE);
        };
        crate::out(p_str, c_str(text))
    }

    /// What the code means, in words.
    fn cuGetErrorString(error: CUresult, p_str: *mut *const c_char) {
        let Some(text) = ERRORS.iter().find(|e| e.0 == error).map(|e| e.2) else {
            crate::out(p_str, std::ptr::null())?;
            return Err(INVALID_VALUE);
        };
        crate::out(p_str, c_str(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_have_the_names_of_cuda_h() {
        assert_eq!(name(ILLEGAL_ADDRESS), Some("CUDA_ERROR_ILLEGAL_ADDRESS"));
        assert_eq!(name(12345), None);
    }
}
