// Synchronisation and scope features: scoped atomics, cuda::atomic_ref with memory
// orders, cooperative groups (tiles, coalesced groups, scans, invoke_one, grid sync),
// thread block clusters and programmatic dependent launch.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/std/bit>
namespace cg = cooperative_groups;

__global__ void sy_atomic_scopes(int *a, unsigned long long *b, float *f)
{
    atomicAdd_block(a, 1);
    atomicAdd_system(a + 1, 2);
    atomicMax_block(a + 2, (int)threadIdx.x);
    atomicOr_system(a + 3, 1 << (threadIdx.x & 31));
    atomicExch_block(a + 4, (int)threadIdx.x);
    atomicCAS_system(a + 5, 0, 1);
    atomicAdd_block(b, 1ull);
    atomicAdd_system(f, 0.5f);
    atomicInc_block((unsigned *)a + 6, 7u);
    atomicDec_system((unsigned *)a + 7, 7u);
}

__global__ void sy_atomic_kinds(unsigned long long *q, unsigned short *h, float *f, double *d)
{
    unsigned long long old = q[0];
    while (true) {
        unsigned long long got = atomicCAS(q, old, old + threadIdx.x);
        if (got == old) break;
        old = got;
    }
    atomicCAS(h, (unsigned short)0, (unsigned short)threadIdx.x);
    atomicExch(f, (float)threadIdx.x);
    atomicAdd(d, 1.0);
    atomicMin((long long *)q + 1, -(long long)threadIdx.x);
    atomicMax((unsigned long long *)q + 2, (unsigned long long)threadIdx.x);
    atomicAnd(q + 3, ~(1ull << threadIdx.x));
    atomicXor(q + 4, 1ull << threadIdx.x);
}

__global__ void sy_atomic_ref(int *flag, int *data, unsigned long long *c)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<int, cuda::thread_scope_block> d(data[0]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> s(*c);
    if (threadIdx.x == 0) {
        data[1] = 42;
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0) {}
        data[2 + threadIdx.x] = data[1];
    }
    d.fetch_add(1, cuda::memory_order_relaxed);
    d.fetch_max((int)threadIdx.x, cuda::memory_order_acq_rel);
    int e = 0;
    d.compare_exchange_strong(e, 5, cuda::memory_order_seq_cst);
    s.fetch_add(1, cuda::memory_order_seq_cst);
    s.exchange(threadIdx.x, cuda::memory_order_acquire);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
    data[100 + threadIdx.x] = d.load(cuda::memory_order_seq_cst) + (int)s.load(cuda::memory_order_relaxed);
}

__global__ void sy_nv_atomic(int *p, unsigned long long *q)
{
    int old = __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __nv_atomic_store_n(p + 1, old, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    int v = __nv_atomic_load_n(p + 2, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
    __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
    unsigned long long e = 0;
    __nv_atomic_compare_exchange_n(q, &e, 5ull, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE,
                                   __NV_THREAD_SCOPE_DEVICE);
    q[1] = v + __nv_atomic_fetch_max(p + 3, 7, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE)
        + __nv_atomic_exchange_n(p + 4, 9, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
}

__global__ void sy_half_atomics(__half2 *h2, __nv_bfloat162 *b2, __half *h, __nv_bfloat16 *b)
{
    atomicAdd(h2, __floats2half2_rn(1, 2));
    atomicAdd(h, __float2half(1.0f));
#if __CUDA_ARCH__ >= 800
    atomicAdd(b2, __floats2bfloat162_rn(1, 2));
    atomicAdd(b, __float2bfloat16(1.0f));
#endif
}

__global__ void sy_cg_memcpy(const int *in, int *out)
{
    __shared__ int s[128];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, s, in, sizeof(int) * 128);
    cg::wait(b);
    out[threadIdx.x] = s[127 - threadIdx.x];
}

__global__ void sy_bitcast(const float *in, unsigned *out, const double *din, unsigned long long *dout)
{
    int i = threadIdx.x;
    out[i] = cuda::std::bit_cast<unsigned>(in[i]) ^ (unsigned)__float_as_int(in[i]) + __float_as_uint(in[i]);
    dout[i] = cuda::std::bit_cast<unsigned long long>(din[i]) + __double_as_longlong(din[i])
        + cuda::std::popcount(out[i]) + cuda::std::countl_zero(out[i]) + cuda::std::bit_width(out[i]);
}

__global__ void sy_tiles(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(b);
    int v = in[b.thread_rank()];
    int s = cg::reduce(t16, v, cg::plus<int>());
    int mx = cg::reduce(t16, v, cg::greater<int>());
    int lo = cg::reduce(t16, v, cg::less<int>());
    int bx = cg::reduce(t16, (unsigned)v, cg::bit_xor<unsigned>());
    int an = t16.any(v > 5), al = t16.all(v > -100);
    unsigned bal = t16.ballot(v & 1);
    int sh = t16.shfl(v, 3) + t16.shfl_up(v, 1) + t16.shfl_down(v, 2) + t16.shfl_xor(v, 5);
    int inc = cg::inclusive_scan(t16, v);
    int exc = cg::exclusive_scan(t16, v, cg::bit_or<int>());
    t16.sync();
    out[b.thread_rank()] = s + mx + lo + bx + an + al + bal + sh + inc + exc + t16.meta_group_rank();
}

__global__ void sy_tile_dyn(const float *in, float *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_group g = cg::tiled_partition(b, 8);
    float v = in[b.thread_rank()];
    g.sync();
    out[b.thread_rank()] = v * g.size() + g.thread_rank();
}

__global__ void sy_coalesced(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        int s = cg::reduce(g, v, cg::plus<int>());
        int sc = cg::inclusive_scan(g, v);
        int r = g.shfl(v, 0);
        out[threadIdx.x] = s + sc + r + g.thread_rank() * 1000 + g.size() * 100000;
        out[threadIdx.x + 64] = g.shfl_down(v, 1) + g.any(v > 9) + g.all(v < 99) + g.ballot(v > 3);
    }
}

__global__ void sy_invoke_one(int *out)
{
    cg::thread_block b = cg::this_thread_block();
    auto w = cg::tiled_partition<32>(b);
    cg::invoke_one(w, [&] { atomicAdd(out, 1); });
    int r = cg::invoke_one_broadcast(w, [&] { return atomicAdd(out + 1, 10); });
    out[2 + threadIdx.x] = r;
}

__global__ void sy_grid_sync(int *data, int *out)
{
    cg::grid_group g = cg::this_grid();
    data[g.thread_rank()] = (int)g.thread_rank();
    g.sync();
    out[g.thread_rank()] = data[g.size() - 1 - g.thread_rank()];
}

__global__ void sy_grid_info(unsigned long long *out)
{
    cg::grid_group g = cg::this_grid();
    out[0] = g.num_threads() + g.num_blocks() + g.block_rank() + g.is_valid();
}

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
__global__ void __cluster_dims__(1, 1, 1) sy_cluster(int *out)
{
    __shared__ int s[32];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x * 3;
    cl.sync();
    int *remote = cl.map_shared_rank(s, 0);
    out[threadIdx.x] = remote[31 - threadIdx.x] + cl.block_rank() * 1000 + cl.num_blocks() * 100
        + cl.dim_blocks().x * 10 + cl.block_index().x + cl.thread_rank() + cl.num_threads();
    cl.barrier_wait(cl.barrier_arrive());
}

__global__ void __cluster_dims__(1, 1, 1) sy_cluster_query(unsigned *out)
{
    unsigned shared_rank = cg::this_cluster().query_shared_rank(&out);
    __shared__ int s;
    s = 1;
    out[0] = cg::this_cluster().query_shared_rank(&s) + shared_rank * 0;
    unsigned r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    out[1] = r;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    out[2] = r;
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(r));
    out[3] = r;
}

// Two CTAs per cluster: each reads its partner's shared memory (DSMEM).
__global__ void __cluster_dims__(2, 1, 1) sy_cluster_pair(int *out)
{
    __shared__ int s[32];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
    cl.sync();
    int *other = cl.map_shared_rank(s, cl.block_rank() ^ 1);
    out[blockIdx.x * 32 + threadIdx.x] = other[threadIdx.x];
    cl.sync();
}

// sm_90's vector and 128-bit atomics.
__global__ void sy_vector_atomics(float2 *a, float4 *b)
{
    atomicAdd(a, make_float2(1, 2));
    float4 old = atomicAdd(b, make_float4(1, 2, 3, 4));
    a[1 + threadIdx.x] = make_float2(old.x + old.y, old.z + old.w);
}

struct __align__(16) Pair
{
    long long a, b;
};

__global__ void sy_atomics_128(Pair *p)
{
    Pair e{0, 0}, d{1, 2};
    Pair got = atomicCAS(p, e, d);
    Pair was = atomicExch(p + 1, d);
    p[2 + threadIdx.x] = Pair{got.a + was.a, got.b + was.b};
}

__global__ void sy_pdl(const float *in, float *out)
{
    cudaGridDependencySynchronize();
    out[threadIdx.x] = in[threadIdx.x] * 2;
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void sy_elect(int *out)
{
    auto w = cg::tiled_partition<32>(cg::this_thread_block());
    if (threadIdx.x & 1) {
        cg::invoke_one(cg::coalesced_threads(), [&] { out[0] = threadIdx.x; });
    }
    out[1 + threadIdx.x] = w.thread_rank();
}
#endif
