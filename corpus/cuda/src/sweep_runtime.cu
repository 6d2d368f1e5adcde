// Runtime and memory intrinsics that ordinary CUDA C++ reaches: clocks, special
// registers, cache-hinted loads and stores, address-space tests and conversions,
// alloca, device malloc, sleep, trap, breakpoint.
#include <cstdint>

__global__ void rt_clocks(long long *out)
{
    long long a = clock64();
    int b = clock();
    out[threadIdx.x] = clock64() - a + (b & 0);
}

__global__ void rt_globaltimer(unsigned long long *out)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    out[0] = t;
}

__global__ void rt_ids(unsigned *out)
{
    unsigned smid, warpid, nsmid, laneid;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
    out[threadIdx.x] = smid + warpid + nsmid + laneid;
}

__global__ void rt_lanemasks(unsigned *out)
{
    unsigned lt, le, gt, ge, eq;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    out[threadIdx.x] = lt ^ le ^ gt ^ ge ^ eq ^ __activemask();
}

__global__ void rt_sleep(int *out, unsigned ns)
{
    __nanosleep(ns);
    out[threadIdx.x] = threadIdx.x;
}

__global__ void rt_trap(int *out, int bad)
{
    if (out[threadIdx.x] == bad) __trap();
    out[threadIdx.x] += 1;
}

__global__ void rt_brkpt(int *out, int bad)
{
    if (out[threadIdx.x] == bad) __brkpt();
    out[threadIdx.x] += 1;
}

__global__ void rt_cache_loads(const float *in, float *out)
{
    int i = threadIdx.x;
    out[i] = __ldg(in + i) + __ldcg(in + i) + __ldca(in + i) + __ldcs(in + i) + __ldlu(in + i) + __ldcv(in + i);
}

__global__ void rt_cache_loads_vec(const float4 *in, float4 *out, const int2 *ii, int2 *io)
{
    int i = threadIdx.x;
    float4 a = __ldg(in + i), b = __ldcs(in + i);
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    int2 c = __ldlu(ii + i);
    io[i] = c;
}

__global__ void rt_cache_stores(float *out, double *d, float v)
{
    int i = threadIdx.x;
    __stwb(out + i, v);
    __stcg(out + i + 32, v * 2);
    __stcs(out + i + 64, v * 3);
    __stwt(out + i + 96, v * 4);
    __stcs(d + i, (double)v);
}

__device__ int g_word;
__constant__ int c_word = 7;

__device__ __noinline__ int classify(const void *p)
{
    return __isGlobal(p) | __isShared(p) << 1 | __isConstant(p) << 2 | __isLocal(p) << 3
        | __isGridConstant(p) << 4;
}

__global__ void rt_isspace(int *out, int k)
{
    __shared__ int s[32];
    int local[4];
    local[k & 3] = k;
    s[threadIdx.x] = k;
    out[0] = classify(out);
    out[1] = classify(s);
    out[2] = classify(&c_word);
    out[3] = classify(local) + local[k & 3];
    out[4] = classify(&g_word);
}

__global__ void rt_cvta(unsigned long long *out)
{
    __shared__ int s[8];
    int local[2] = {1, 2};
    s[threadIdx.x & 7] = 1;
    size_t sa = __cvta_generic_to_shared(&s[1]);
    size_t ga = __cvta_generic_to_global(out);
    size_t ca = __cvta_generic_to_constant(&c_word);
    size_t la = __cvta_generic_to_local(&local[threadIdx.x & 1]);
    void *sp = __cvta_shared_to_generic(sa);
    void *gp = __cvta_global_to_generic(ga);
    void *cp = __cvta_constant_to_generic(ca);
    void *lp = __cvta_local_to_generic(la);
    out[0] = sa;
    out[1] = *(int *)sp + *(int *)cp + *(int *)lp;
    out[2] = (unsigned long long)gp - (unsigned long long)out;
}

__global__ void rt_alloca(int *out, int n)
{
    int *buf = (int *)__builtin_alloca(n * sizeof(int));
    for (int i = 0; i < n; i++) buf[i] = i * i + threadIdx.x;
    int s = 0;
    for (int i = 0; i < n; i++) s += buf[n - 1 - i] * (i + 1);
    out[threadIdx.x] = s;
}

__global__ void rt_malloc(int *out, int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) { out[threadIdx.x] = -1; return; }
    for (int i = 0; i < n; i++) p[i] = i;
    out[threadIdx.x] = p[n - 1];
    free(p);
}

__global__ void rt_aligned_malloc(int **out)
{
    out[threadIdx.x] = (int *)__nv_aligned_device_malloc(64, 32);
}

__global__ void rt_prof_trigger(int *out)
{
    __prof_trigger(3);
    out[threadIdx.x] = threadIdx.x;
}

__global__ void rt_fences(int *flag, int *data)
{
    data[threadIdx.x] = 1;
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    if (threadIdx.x == 0) atomicExch(flag, 1);
}

__global__ void rt_assume(int *out, int n)
{
    __builtin_assume(n > 0);
    __builtin_assume(n % 4 == 0);
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(out[i] < 0, 0)) s -= out[i];
        else s += out[i];
    }
    out[n] = s;
}

__global__ void rt_sync_variants(const int *in, int *out)
{
    int v = in[threadIdx.x];
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v > 0);
    int o = __syncthreads_or(v > 100);
    out[threadIdx.x] = c * 4 + a * 2 + o;
}

__global__ void rt_warp_sync(const int *in, int *out)
{
    unsigned m = __activemask();
    __syncwarp(m);
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(m, v & 1);
    int all = __all_sync(m, v > 0), any = __any_sync(m, v > 10);
    unsigned mm = __match_any_sync(m, v & 3);
    int pred;
    unsigned ma = __match_all_sync(m, v >> 8, &pred);
    int r = __popc(b) + all + any + __popc(mm) + pred + (ma != 0);
#if __CUDA_ARCH__ >= 800
    r += __reduce_add_sync(m, v)
        + __reduce_min_sync(m, (unsigned)v) + __reduce_max_sync(m, v) + __reduce_and_sync(m, (unsigned)v)
        + __reduce_or_sync(m, (unsigned)v) + __reduce_xor_sync(m, (unsigned)v);
#endif
    out[threadIdx.x] = r;
}
