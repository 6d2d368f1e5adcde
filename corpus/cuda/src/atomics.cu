// Atomic operations on 32/64-bit integers and floats, CAS loops.

__device__ float atomic_max_float(float *addr, float v)
{
    int *ia = reinterpret_cast<int *>(addr);
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(ia, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ double atomic_mul_double(double *addr, double v)
{
    unsigned long long *ua = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void atomic_mix(const int *in, int *ires, unsigned *ures, unsigned long long *u64res,
                           float *fres, double *dres, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    atomicAdd(&ires[0], v);
    atomicSub(&ires[1], v & 7);
    atomicMax(&ires[2], v);
    atomicMin(&ires[3], v);
    atomicAnd(&ures[0], (unsigned)v | 0xffff0000u);
    atomicOr(&ures[1], 1u << (v & 31));
    atomicXor(&ures[2], (unsigned)v);
    atomicInc(&ures[3], 1000u);
    atomicDec(&ures[4], 1000u);
    int old = atomicExch(&ires[4], v);
    atomicAdd(&u64res[0], (unsigned long long)(unsigned)v);
    atomicMax(&u64res[1], (unsigned long long)v * 3ull);
    atomicMin((long long *)&u64res[2], (long long)v);
    atomicAdd(&fres[0], (float)v * 0.5f);
    atomic_max_float(&fres[1], (float)v);
    atomicAdd(&dres[0], (double)v);
    atomic_mul_double(&dres[1], 1.0000001);
    if (old == v)
        atomicCAS(&ures[5], 0u, (unsigned)i);
}

// Ticket lock-free append into an output queue.
__global__ void compact_positive(const float *in, float *out, unsigned *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.0f) {
        unsigned slot = atomicAdd(count, 1u);
        out[slot] = in[i];
    }
}

// Atomics on shared memory followed by one global atomic per block.
__global__ void shared_atomics(const int *in, int *out, int n)
{
    __shared__ int smax;
    __shared__ unsigned long long ssum;
    if (threadIdx.x == 0) { smax = -2147483647 - 1; ssum = 0ull; }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMax(&smax, in[i]);
        atomicAdd(&ssum, (unsigned long long)(long long)in[i]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMax(&out[0], smax);
        atomicAdd((unsigned long long *)&out[2], ssum);
    }
}

// System/block scoped atomics where available.
__global__ void scoped_atomics(int *flags, float *vals)
{
    atomicAdd_block(&flags[0], 1);
    atomicAdd_system(&flags[1], 1);
    atomicExch_block(&vals[threadIdx.x & 7], 1.0f);
    atomicCAS_system(&flags[2], 0, 1);
}
