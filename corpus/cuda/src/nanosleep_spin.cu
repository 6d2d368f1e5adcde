// Spin locks and flags with __nanosleep back-off, volatile polling and fences.

__device__ void lock(int *mutex)
{
    unsigned ns = 8;
    while (atomicCAS(mutex, 0, 1) != 0) {
        __nanosleep(ns);
        if (ns < 256) ns *= 2;
    }
    __threadfence();
}

__device__ void unlock(int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
}

__global__ void locked_accumulate(int *mutex, double *total, const double *vals, int n)
{
    if (threadIdx.x == 0) {
        double s = 0.0;
        for (int k = 0; k < blockDim.x && blockIdx.x * blockDim.x + k < n; ++k)
            s += vals[blockIdx.x * blockDim.x + k];
        lock(mutex);
        *total += s;
        unlock(mutex);
    }
}

// Producer/consumer through a flag: block 0 publishes, others wait.
__global__ void flag_wait(volatile int *flag, int *data, int *out)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            data[0] = 42;
            __threadfence();
            *flag = 1;
        }
        return;
    }
    if (threadIdx.x == 0) {
        int spins = 0;
        while (*flag == 0) {
            __nanosleep(100);
            if (++spins > 1000000) __trap();
        }
        out[blockIdx.x] = data[0] + spins * 0;
    }
    __syncthreads();
}

// Simple grid barrier with a generation counter (for co-resident grids).
__device__ void grid_barrier(unsigned *count, volatile unsigned *gen, unsigned nblocks)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned g = *gen;
        __threadfence();
        if (atomicAdd(count, 1u) == nblocks - 1) {
            *count = 0;
            __threadfence();
            *gen = g + 1;
        } else {
            while (*gen == g) __nanosleep(32);
        }
    }
    __syncthreads();
}

__global__ void two_phase(unsigned *count, unsigned *gen, float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
    grid_barrier(count, gen, gridDim.x);
    if (i < n) b[i] = a[(i + 1) % n] + a[i];
    __threadfence_block();
    __threadfence_system();
}
