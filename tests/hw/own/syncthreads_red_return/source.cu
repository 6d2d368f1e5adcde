// Independent thread scheduling (sm_70+): __syncthreads_count / _and / _or (bar.red.popc,
// .and, .or) after an early return. 2 CTAs of 112 threads (the fourth warp has 16
// lanes); threads t >= lim[ctaid] return first and must not count. CTA 0's survivors
// hold a 3 and a 7, CTA 1's hold neither, so the and/or results differ by CTA.
extern "C" __global__ void syncthreads_red_return(const int* in, const int* lim, int* out) {
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (t >= lim[blockIdx.x]) return;
    int x = in[g];
    int c = __syncthreads_count(x > 0);
    int a = __syncthreads_and(x != 3);
    int o = __syncthreads_or(x == 7);
    int c2 = __syncthreads_count((x & 1) && t < 40);
    out[g] = ((c * 128 + c2) * 2 + a) * 2 + o;
}
