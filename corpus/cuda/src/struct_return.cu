// __noinline__ functions with many parameters, struct arguments and struct returns.

struct Vec3 { float x, y, z; };
struct Ray { Vec3 o, d; float tmin, tmax; };
struct Hit { float t; int id; Vec3 n; bool hit; };
struct Stats { double mean; double var; long long count; unsigned char flags; };
struct Pair64 { unsigned long long lo, hi; };

__device__ __noinline__ Vec3 vsub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
__device__ __noinline__ float vdot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __noinline__ Hit intersect_sphere(Ray r, Vec3 c, float rad, int id)
{
    Hit h;
    h.hit = false; h.t = r.tmax; h.id = -1; h.n = {0.f, 0.f, 0.f};
    Vec3 oc = vsub(r.o, c);
    float b = vdot(oc, r.d);
    float cc = vdot(oc, oc) - rad * rad;
    float disc = b * b - cc;
    if (disc < 0.0f) return h;
    float s = sqrtf(disc);
    float t = -b - s;
    if (t < r.tmin) t = -b + s;
    if (t < r.tmin || t > r.tmax) return h;
    h.hit = true; h.t = t; h.id = id;
    h.n = {r.o.x + t * r.d.x - c.x, r.o.y + t * r.d.y - c.y, r.o.z + t * r.d.z - c.z};
    return h;
}

__device__ __noinline__ Stats summarize(const float *v, int n, float lo, float hi, int stride, bool skip_neg,
                                        double bias, unsigned char tag)
{
    Stats s = {0.0, 0.0, 0, tag};
    double m2 = 0.0;
    for (int i = 0; i < n; i += stride) {
        float x = v[i];
        if (skip_neg && x < 0.0f) continue;
        if (x < lo || x > hi) { s.flags |= 0x80; continue; }
        s.count++;
        double d = x - s.mean;
        s.mean += d / (double)s.count;
        m2 += d * (x - s.mean);
    }
    s.var = s.count > 1 ? m2 / (double)(s.count - 1) : 0.0;
    s.mean += bias;
    return s;
}

__device__ __noinline__ Pair64 mul128(unsigned long long a, unsigned long long b)
{
    Pair64 p;
    p.lo = a * b;
    p.hi = __umul64hi(a, b);
    return p;
}

__device__ __noinline__ int many_params(int a, int b, int c, int d, int e, int f, int g, int h,
                                        float fa, float fb, double da, long long la, short sa, char ca)
{
    return a + b * c - d + (e ^ f) + (g | h) + (int)(fa * fb) + (int)da + (int)(la >> 7) + sa + ca;
}

__global__ void trace(const Ray *rays, const Vec3 *centers, const float *radii, int nspheres, Hit *hits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Ray r = rays[i];
    Hit best;
    best.hit = false; best.t = r.tmax; best.id = -1; best.n = {0, 0, 0};
    for (int s = 0; s < nspheres; ++s) {
        Hit h = intersect_sphere(r, centers[s], radii[s], s);
        if (h.hit && h.t < best.t) { best = h; r.tmax = h.t; }
    }
    hits[i] = best;
}

__global__ void stats_kernel(const float *v, Stats *out, int n)
{
    out[blockIdx.x] = summarize(v + blockIdx.x * n, n, -10.f, 10.f, 1 + (threadIdx.x & 1), threadIdx.x > 3, 0.5, (unsigned char)blockIdx.x);
}

__global__ void wide_mul(const unsigned long long *a, const unsigned long long *b, Pair64 *out, int *misc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = mul128(a[i], b[i]);
    misc[i] = many_params(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, 1.5f, (float)i, 2.0 * i, (long long)a[i], (short)i, (char)(i & 127));
}
