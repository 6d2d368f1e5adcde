//! `cudaError_t`: the runtime's codes, names and descriptions, and the driver's
//! `CUresult` as the runtime reports it (the two share their numbers where they
//! share a meaning). Names are `driver_types.h` 13.x's; descriptions are ptxvm's
//! words, made from the names.

pub type CudaError = u32;

pub const SUCCESS: CudaError = 0;
pub const INVALID_VALUE: CudaError = 1;
pub const MEMORY_ALLOCATION: CudaError = 2;
pub const INITIALIZATION_ERROR: CudaError = 3;
pub const INVALID_CONFIGURATION: CudaError = 9;
pub const INVALID_SYMBOL: CudaError = 13;
pub const INVALID_FILTER_SETTING: CudaError = 26;
pub const INVALID_NORM_SETTING: CudaError = 27;
pub const INVALID_CHANNEL_DESCRIPTOR: CudaError = 20;
pub const INVALID_MEMCPY_DIRECTION: CudaError = 21;
pub const INVALID_DEVICE_FUNCTION: CudaError = 98;
pub const INVALID_DEVICE: CudaError = 101;
pub const INVALID_KERNEL_IMAGE: CudaError = 200;
pub const NOT_SUPPORTED: CudaError = 801;

/// Every code: value, name, description.
const ERRORS: &[(CudaError, &str, &str)] = &[
    (0, "cudaSuccess", "no error"),
    (1, "cudaErrorInvalidValue", "invalid value"),
    (2, "cudaErrorMemoryAllocation", "memory allocation"),
    (3, "cudaErrorInitializationError", "initialization error"),
    (4, "cudaErrorCudartUnloading", "cudart unloading"),
    (5, "cudaErrorProfilerDisabled", "profiler disabled"),
    (6, "cudaErrorProfilerNotInitialized", "profiler not initialized"),
    (7, "cudaErrorProfilerAlreadyStarted", "profiler already started"),
    (8, "cudaErrorProfilerAlreadyStopped", "profiler already stopped"),
    (9, "cudaErrorInvalidConfiguration", "invalid configuration"),
    (10, "cudaErrorVersionTranslation", "version translation"),
    (12, "cudaErrorInvalidPitchValue", "invalid pitch value"),
    (13, "cudaErrorInvalidSymbol", "invalid symbol"),
    (16, "cudaErrorInvalidHostPointer", "invalid host pointer"),
    (17, "cudaErrorInvalidDevicePointer", "invalid device pointer"),
    (18, "cudaErrorInvalidTexture", "invalid texture"),
    (19, "cudaErrorInvalidTextureBinding", "invalid texture binding"),
    (20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"),
    (21, "cudaErrorInvalidMemcpyDirection", "invalid memcpy direction"),
    (22, "cudaErrorAddressOfConstant", "address of constant"),
    (23, "cudaErrorTextureFetchFailed", "texture fetch failed"),
    (24, "cudaErrorTextureNotBound", "texture not bound"),
    (25, "cudaErrorSynchronizationError", "synchronization error"),
    (26, "cudaErrorInvalidFilterSetting", "invalid filter setting"),
    (27, "cudaErrorInvalidNormSetting", "invalid norm setting"),
    (28, "cudaErrorMixedDeviceExecution", "mixed device execution"),
    (31, "cudaErrorNotYetImplemented", "not yet implemented"),
    (32, "cudaErrorMemoryValueTooLarge", "memory value too large"),
    (34, "cudaErrorStubLibrary", "stub library"),
    (35, "cudaErrorInsufficientDriver", "insufficient driver"),
    (36, "cudaErrorCallRequiresNewerDriver", "call requires newer driver"),
    (37, "cudaErrorInvalidSurface", "invalid surface"),
    (43, "cudaErrorDuplicateVariableName", "duplicate variable name"),
    (44, "cudaErrorDuplicateTextureName", "duplicate texture name"),
    (45, "cudaErrorDuplicateSurfaceName", "duplicate surface name"),
    (46, "cudaErrorDevicesUnavailable", "devices unavailable"),
    (49, "cudaErrorIncompatibleDriverContext", "incompatible driver context"),
    (52, "cudaErrorMissingConfiguration", "missing configuration"),
    (53, "cudaErrorPriorLaunchFailure", "prior launch failure"),
    (65, "cudaErrorLaunchMaxDepthExceeded", "launch max depth exceeded"),
    (66, "cudaErrorLaunchFileScopedTex", "launch file scoped tex"),
    (67, "cudaErrorLaunchFileScopedSurf", "launch file scoped surf"),
    (68, "cudaErrorSyncDepthExceeded", "sync depth exceeded"),
    (69, "cudaErrorLaunchPendingCountExceeded", "launch pending count exceeded"),
    (98, "cudaErrorInvalidDeviceFunction", "invalid device function"),
    (100, "cudaErrorNoDevice", "no device"),
    (101, "cudaErrorInvalidDevice", "invalid device"),
    (102, "cudaErrorDeviceNotLicensed", "device not licensed"),
    (103, "cudaErrorSoftwareValidityNotEstablished", "software validity not established"),
    (127, "cudaErrorStartupFailure", "startup failure"),
    (200, "cudaErrorInvalidKernelImage", "invalid kernel image"),
    (201, "cudaErrorDeviceUninitialized", "device uninitialized"),
    (205, "cudaErrorMapBufferObjectFailed", "map buffer object failed"),
    (206, "cudaErrorUnmapBufferObjectFailed", "unmap buffer object failed"),
    (207, "cudaErrorArrayIsMapped", "array is mapped"),
    (208, "cudaErrorAlreadyMapped", "already mapped"),
    (209, "cudaErrorNoKernelImageForDevice", "no kernel image for device"),
    (210, "cudaErrorAlreadyAcquired", "already acquired"),
    (211, "cudaErrorNotMapped", "not mapped"),
    (212, "cudaErrorNotMappedAsArray", "not mapped as array"),
    (213, "cudaErrorNotMappedAsPointer", "not mapped as pointer"),
    (214, "cudaErrorECCUncorrectable", "e c c uncorrectable"),
    (215, "cudaErrorUnsupportedLimit", "unsupported limit"),
    (216, "cudaErrorDeviceAlreadyInUse", "device already in use"),
    (217, "cudaErrorPeerAccessUnsupported", "peer access unsupported"),
    (218, "cudaErrorInvalidPtx", "invalid ptx"),
    (219, "cudaErrorInvalidGraphicsContext", "invalid graphics context"),
    (220, "cudaErrorNvlinkUncorrectable", "nvlink uncorrectable"),
    (221, "cudaErrorJitCompilerNotFound", "jit compiler not found"),
    (222, "cudaErrorUnsupportedPtxVersion", "unsupported ptx version"),
    (223, "cudaErrorJitCompilationDisabled", "jit compilation disabled"),
    (224, "cudaErrorUnsupportedExecAffinity", "unsupported exec affinity"),
    (225, "cudaErrorUnsupportedDevSideSync", "unsupported dev side sync"),
    (226, "cudaErrorContained", "contained"),
    (227, "cudaErrorInsufficientLoaderVersion", "insufficient loader version"),
    (300, "cudaErrorInvalidSource", "invalid source"),
    (301, "cudaErrorFileNotFound", "file not found"),
    (302, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found"),
    (303, "cudaErrorSharedObjectInitFailed", "shared object init failed"),
    (304, "cudaErrorOperatingSystem", "operating system"),
    (400, "cudaErrorInvalidResourceHandle", "invalid resource handle"),
    (401, "cudaErrorIllegalState", "illegal state"),
    (402, "cudaErrorLossyQuery", "lossy query"),
    (500, "cudaErrorSymbolNotFound", "symbol not found"),
    (600, "cudaErrorNotReady", "not ready"),
    (700, "cudaErrorIllegalAddress", "illegal address"),
    (701, "cudaErrorLaunchOutOfResources", "launch out of resources"),
    (702, "cudaErrorLaunchTimeout", "launch timeout"),
    (703, "cudaErrorLaunchIncompatibleTexturing", "launch incompatible texturing"),
    (704, "cudaErrorPeerAccessAlreadyEnabled", "peer access already enabled"),
    (705, "cudaErrorPeerAccessNotEnabled", "peer access not enabled"),
    (708, "cudaErrorSetOnActiveProcess", "set on active process"),
    (709, "cudaErrorContextIsDestroyed", "context is destroyed"),
    (710, "cudaErrorAssert", "assert"),
    (711, "cudaErrorTooManyPeers", "too many peers"),
    (712, "cudaErrorHostMemoryAlreadyRegistered", "host memory already registered"),
    (713, "cudaErrorHostMemoryNotRegistered", "host memory not registered"),
    (714, "cudaErrorHardwareStackError", "hardware stack error"),
    (715, "cudaErrorIllegalInstruction", "illegal instruction"),
    (716, "cudaErrorMisalignedAddress", "misaligned address"),
    (717, "cudaErrorInvalidAddressSpace", "invalid address space"),
    (718, "cudaErrorInvalidPc", "invalid pc"),
    (719, "cudaErrorLaunchFailure", "launch failure"),
    (720, "cudaErrorCooperativeLaunchTooLarge", "cooperative launch too large"),
    (721, "cudaErrorTensorMemoryLeak", "tensor memory leak"),
    (800, "cudaErrorNotPermitted", "not permitted"),
    (801, "cudaErrorNotSupported", "not supported"),
    (802, "cudaErrorSystemNotReady", "system not ready"),
    (803, "cudaErrorSystemDriverMismatch", "system driver mismatch"),
    (804, "cudaErrorCompatNotSupportedOnDevice", "compat not supported on device"),
    (805, "cudaErrorMpsConnectionFailed", "mps connection failed"),
    (806, "cudaErrorMpsRpcFailure", "mps rpc failure"),
    (807, "cudaErrorMpsServerNotReady", "mps server not ready"),
    (808, "cudaErrorMpsMaxClientsReached", "mps max clients reached"),
    (809, "cudaErrorMpsMaxConnectionsReached", "mps max connections reached"),
    (810, "cudaErrorMpsClientTerminated", "mps client terminated"),
    (811, "cudaErrorCdpNotSupported", "cdp not supported"),
    (812, "cudaErrorCdpVersionMismatch", "cdp version mismatch"),
    (900, "cudaErrorStreamCaptureUnsupported", "stream capture unsupported"),
    (901, "cudaErrorStreamCaptureInvalidated", "stream capture invalidated"),
    (902, "cudaErrorStreamCaptureMerge", "stream capture merge"),
    (903, "cudaErrorStreamCaptureUnmatched", "stream capture unmatched"),
    (904, "cudaErrorStreamCaptureUnjoined", "stream capture unjoined"),
    (905, "cudaErrorStreamCaptureIsolation", "stream capture isolation"),
    (906, "cudaErrorStreamCaptureImplicit", "stream capture implicit"),
    (907, "cudaErrorCapturedEvent", "captured event"),
    (908, "cudaErrorStreamCaptureWrongThread", "stream capture wrong thread"),
    (909, "cudaErrorTimeout", "timeout"),
    (910, "cudaErrorGraphExecUpdateFailure", "graph exec update failure"),
    (911, "cudaErrorExternalDevice", "external device"),
    (912, "cudaErrorInvalidClusterSize", "invalid cluster size"),
    (913, "cudaErrorFunctionNotLoaded", "function not loaded"),
    (914, "cudaErrorInvalidResourceType", "invalid resource type"),
    (915, "cudaErrorInvalidResourceConfiguration", "invalid resource configuration"),
    (917, "cudaErrorStreamDetached", "stream detached"),
    (918, "cudaErrorGraphRecaptureFailure", "graph recapture failure"),
    (919, "cudaErrorFabricNotReady", "fabric not ready"),
    (999, "cudaErrorUnknown", "unknown"),
    (10000, "cudaErrorApiFailureBase", "api failure base"),
];

/// The name of `code`, if it is one of the runtime's.
pub fn name(code: CudaError) -> Option<&'static str> {
    ERRORS.iter().find(|e| e.0 == code).map(|e| e.1)
}

/// What `code` means, in words.
pub fn description(code: CudaError) -> Option<&'static str> {
    ERRORS.iter().find(|e| e.0 == code).map(|e| e.2)
}

/// The runtime's error for the driver's `code`: the same number, which the runtime
/// gives the same meaning (`CUDA_ERROR_ILLEGAL_ADDRESS` is `cudaErrorIllegalAddress`,
/// 700), or `cudaErrorUnknown` for a driver code the runtime has not.
pub fn of_driver(code: u32) -> CudaError {
    if name(code).is_some() { code } else { 999 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_codes_keep_their_numbers() {
        assert_eq!(of_driver(700), 700);
        assert_eq!(name(700), Some("cudaErrorIllegalAddress"));
        assert_eq!(name(710), Some("cudaErrorAssert"));
        assert_eq!(name(98), Some("cudaErrorInvalidDeviceFunction"));
        assert_eq!(of_driver(123_456), 999);
    }
}
