// Independent thread scheduling (sm_70+): __shfl_sync with the full mask from three
// divergent arms (chosen by x mod 3), each shuffling a different expression from a
// different source lane; a lane reads the value its source lane offered in its own arm.
#define FULL 0xffffffffu
extern "C" __global__ void shfl_three_arms(const int* in, int* out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int x = in[g], v;
    int k = ((x % 3) + 3) % 3;
    if (k == 0)
        v = __shfl_sync(FULL, x * 2 + 1, (lane * 5) & 31);
    else if (k == 1)
        v = __shfl_sync(FULL, x - lane, 31 - lane) + 7;
    else
        v = __shfl_sync(FULL, ~x, (lane + 9) & 31) * 3;
    out[g] = v;
}
