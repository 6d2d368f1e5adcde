// Early exits without assert: __trap() on corrupt input, guarded returns, validated loops.

struct Header { unsigned magic; int count; int stride; int pad; };

__device__ int last_error;

__device__ __noinline__ void fail_hard(int code)
{
    // record and abort the whole launch
    atomicExch(&last_error, code);
    __threadfence_system();
    __trap();
}

__global__ void parse_records(const Header *hdr, const int *payload, int *out, int cap)
{
    Header h = *hdr;
    if (h.magic != 0x50545856u)
        fail_hard(1);
    if (h.count < 0 || h.count > cap)
        __trap();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= h.count)
        return;
    int v = payload[i * h.stride];
    if (v < 0)
        return;             // skip negative records silently
    out[i] = v * 2;
}

// Bounds-checked gather that traps on an out-of-range index.
__global__ void checked_gather(const float *src, const int *idx, float *dst, int n, int srclen)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int j = idx[i];
    if ((unsigned)j >= (unsigned)srclen)
        __trap();
    dst[i] = src[j];
}

// Device-side "abort" via breakpoint in a debug path plus exit through return.
__global__ void watchdog(const int *steps, int *result, int limit, int debug)
{
    int s = steps[threadIdx.x];
    int acc = 0;
    for (int k = 0; k < s; ++k) {
        acc += k ^ s;
        if (k > limit) {
            if (debug) __brkpt();
            result[threadIdx.x] = -1;
            return;
        }
    }
    result[threadIdx.x] = acc;
}
