// N-body force computation with shared-memory tiles, rsqrtf and float4 packing.

__device__ float3 body_interaction(float4 bi, float4 bj, float3 ai, float soft2)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + soft2;
    float inv = rsqrtf(d2);
    float inv3 = inv * inv * inv;
    float s = bj.w * inv3;
    ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
    return ai;
}

__global__ void nbody_forces(const float4 *pos, float4 *acc, int n, float soft2)
{
    extern __shared__ float4 sh[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 a = make_float3(0, 0, 0);
    for (int tile = 0; tile < (n + blockDim.x - 1) / blockDim.x; ++tile) {
        int j = tile * blockDim.x + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < blockDim.x; ++k)
            a = body_interaction(me, sh[k], a, soft2);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}

__global__ void integrate(float4 *pos, float4 *vel, const float4 *acc, int n, float dt, float damping)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i], v = vel[i], a = acc[i];
    v.x = (v.x + a.x * dt) * damping;
    v.y = (v.y + a.y * dt) * damping;
    v.z = (v.z + a.z * dt) * damping;
    p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
    // reflect off the unit box
    if (p.x < -1.f || p.x > 1.f) { v.x = -v.x; p.x = fminf(fmaxf(p.x, -1.f), 1.f); }
    if (p.y < -1.f || p.y > 1.f) { v.y = -v.y; p.y = fminf(fmaxf(p.y, -1.f), 1.f); }
    if (p.z < -1.f || p.z > 1.f) { v.z = -v.z; p.z = fminf(fmaxf(p.z, -1.f), 1.f); }
    pos[i] = p;
    vel[i] = v;
}

__global__ void kinetic_energy(const float4 *vel, const float4 *pos, double *e, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double k = 0.0;
    if (i < n) {
        float4 v = vel[i];
        k = 0.5 * pos[i].w * ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    }
    for (int o = 16; o > 0; o >>= 1) k += __shfl_down_sync(0xffffffffu, k, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(e, k);
}
