// A texture and surface fetch runner: `tex_fetch CASES OUT` reads cases written by
// tests/tex/cases.py (one texture or surface each, its texels and its coordinates),
// makes each object with the CUDA runtime, fetches every coordinate on the device and
// writes what came back. The same binary records goldens on an H100 and runs under
// `ptxvm exec` in the tests, where tests/tex/reference.py (the Programming Guide's
// formulas in numpy) checks both.
//
// OUT holds, per case: the error of making the object (int32), the error after the
// kernel (int32), then the payload: 16 bytes per coordinate (the four 32-bit words
// of the fetch), or for the writing kinds the texels after the writes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

enum Kind {
    K_1D, K_2D, K_3D, K_A1D, K_A2D, K_CUBE, K_ACUBE, K_FETCH, K_1DLOD, K_2DLOD, K_3DLOD,
    K_2DGRAD, K_GATHER, K_TXQ, K_SULD1, K_SULD2, K_SULD3, K_SULDA2, K_SUST2, K_SURED2, K_SUQ,
    K_2DINT, K_ACUBELOD, K_CUBELOD, K_A2DLOD, K_3DGRAD,
};
enum Res { R_ARRAY, R_MIPMAP, R_LINEAR, R_PITCH2D };

struct Case {  // 128 bytes, as tests/tex/cases.py packs it
    int32_t kind, res, fkind, bits, channels;
    int32_t w, h, d;  // the cudaExtent the array is made with (w alone for linear)
    int32_t flags, levels;
    int32_t addr[3], filter, read_mode, srgb, normalized, mip_filter;
    float border[4];
    float lod_bias, min_lod, max_lod;
    int32_t comp, rtype, boundary, ncoords, data_bytes, seamless, pad;
};
static_assert(sizeof(Case) == 128, "case layout");

struct Coord {  // 80 bytes
    float x, y, z;
    int32_t layer;
    float lod;
    float dx[3], dy[3];
    int32_t ix, iy, iz;
    uint32_t val[4];
    int32_t pad[2];
};
static_assert(sizeof(Coord) == 80, "coordinate layout");

__device__ uint4 bits(float4 v) {
    return make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
}
__device__ uint4 bits(int4 v) { return make_uint4(v.x, v.y, v.z, v.w); }
__device__ uint4 bits(uint4 v) { return v; }

template <class T>
__global__ void fetch(cudaTextureObject_t t, const Coord* cs, uint4* out, int n, int kind, int comp) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Coord c = cs[i];
    T r = {};
    switch (kind) {
        case K_1D: r = tex1D<T>(t, c.x); break;
        case K_2D: r = tex2D<T>(t, c.x, c.y); break;
        case K_3D: r = tex3D<T>(t, c.x, c.y, c.z); break;
        case K_A1D: r = tex1DLayered<T>(t, c.x, c.layer); break;
        case K_A2D: r = tex2DLayered<T>(t, c.x, c.y, c.layer); break;
        case K_CUBE: r = texCubemap<T>(t, c.x, c.y, c.z); break;
        case K_ACUBE: r = texCubemapLayered<T>(t, c.x, c.y, c.z, c.layer); break;
        case K_FETCH: r = tex1Dfetch<T>(t, c.ix); break;
        case K_1DLOD: r = tex1DLod<T>(t, c.x, c.lod); break;
        case K_2DLOD: r = tex2DLod<T>(t, c.x, c.y, c.lod); break;
        case K_3DLOD: r = tex3DLod<T>(t, c.x, c.y, c.z, c.lod); break;
        case K_CUBELOD: r = texCubemapLod<T>(t, c.x, c.y, c.z, c.lod); break;
        case K_ACUBELOD: r = texCubemapLayeredLod<T>(t, c.x, c.y, c.z, c.layer, c.lod); break;
        case K_A2DLOD: r = tex2DLayeredLod<T>(t, c.x, c.y, c.layer, c.lod); break;
        case K_2DGRAD:
            r = tex2DGrad<T>(t, c.x, c.y, make_float2(c.dx[0], c.dx[1]), make_float2(c.dy[0], c.dy[1]));
            break;
        case K_3DGRAD:
            r = tex3DGrad<T>(t, c.x, c.y, c.z, make_float4(c.dx[0], c.dx[1], c.dx[2], 0),
                             make_float4(c.dy[0], c.dy[1], c.dy[2], 0));
            break;
        case K_GATHER: r = tex2Dgather<T>(t, c.x, c.y, comp); break;
        default: break;
    }
    out[i] = bits(r);
}

// tex.2d with integer coordinates: texel (ix, iy), through PTX since CUDA C has none.
__global__ void fetch_int(cudaTextureObject_t t, const Coord* cs, uint4* out, int n, int rtype) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint4 r;
    if (rtype == 0)
        asm volatile("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "l"(t), "r"(cs[i].ix), "r"(cs[i].iy));
    else if (rtype == 1)
        asm volatile("tex.2d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "l"(t), "r"(cs[i].ix), "r"(cs[i].iy));
    else
        asm volatile("tex.2d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "l"(t), "r"(cs[i].ix), "r"(cs[i].iy));
    out[i] = r;
}

// Surface loads of `size` bytes at byte x, row y, slice or layer z.
template <class T>
__device__ T suload(cudaSurfaceObject_t s, int kind, const Coord& c, cudaSurfaceBoundaryMode m) {
    switch (kind) {
        case K_SULD1: return surf1Dread<T>(s, c.ix, m);
        case K_SULD2: return surf2Dread<T>(s, c.ix, c.iy, m);
        case K_SULD3: return surf3Dread<T>(s, c.ix, c.iy, c.iz, m);
        default: return surf2DLayeredread<T>(s, c.ix, c.iy, c.iz, m);
    }
}

__device__ uint4 widen(unsigned char v) { return make_uint4(v, 0, 0, 0); }
__device__ uint4 widen(unsigned short v) { return make_uint4(v, 0, 0, 0); }
__device__ uint4 widen(unsigned v) { return make_uint4(v, 0, 0, 0); }
__device__ uint4 widen(uint2 v) { return make_uint4(v.x, v.y, 0, 0); }
__device__ uint4 widen(uint4 v) { return v; }

template <class T>
__global__ void surf_load(cudaSurfaceObject_t s, const Coord* cs, uint4* out, int n, int kind, int mode) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = widen(suload<T>(s, kind, cs[i], (cudaSurfaceBoundaryMode)mode));
}

__device__ void narrow(const uint32_t* v, unsigned char& r) { r = v[0]; }
__device__ void narrow(const uint32_t* v, unsigned short& r) { r = v[0]; }
__device__ void narrow(const uint32_t* v, unsigned& r) { r = v[0]; }
__device__ void narrow(const uint32_t* v, uint2& r) { r = make_uint2(v[0], v[1]); }
__device__ void narrow(const uint32_t* v, uint4& r) { r = make_uint4(v[0], v[1], v[2], v[3]); }

// One thread stores every coordinate's value in order (so later stores win).
template <class T>
__global__ void surf_store(cudaSurfaceObject_t s, const Coord* cs, int n, int mode) {
    for (int i = 0; i < n; i++) {
        T v;
        narrow(cs[i].val, v);
        surf2Dwrite<T>(v, s, cs[i].ix, cs[i].iy, (cudaSurfaceBoundaryMode)mode);
    }
}

// sured.b.add.2d.u32 with .clamp (mode 1) or .zero (mode 2): every thread adds.
__global__ void surf_red(cudaSurfaceObject_t s, const Coord* cs, int n, int mode) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (mode == 1)
        asm volatile("sured.b.add.clamp.2d.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(cs[i].ix), "r"(cs[i].iy),
                     "r"(cs[i].val[0]) : "memory");
    else
        asm volatile("sured.b.add.zero.2d.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(cs[i].ix), "r"(cs[i].iy),
                     "r"(cs[i].val[0]) : "memory");
}


static cudaChannelFormatDesc format(const Case& c) {
    int b = c.bits;
    return cudaCreateChannelDesc(b, c.channels > 1 ? b : 0, c.channels > 2 ? b : 0, c.channels > 3 ? b : 0,
                                 (cudaChannelFormatKind)c.fkind);
}

static size_t texel(const Case& c) { return (size_t)c.bits / 8 * c.channels; }

// The copy extent of a level: at least one row and one slice.
static cudaExtent level_extent(const Case& c, int l) {
    size_t w = c.w >> l, h = c.h >> l, d = c.d;
    if (w < 1) w = 1;
    if (c.h > 0 && h < 1) h = 1;
    if (!(c.flags & (cudaArrayLayered | cudaArrayCubemap))) {
        d = c.d >> l;
        if (c.d > 0 && d < 1) d = 1;
    }
    return make_cudaExtent(w, h ? h : 1, d ? d : 1);
}

static cudaError_t fill(cudaArray_t a, const Case& c, const uint8_t* data, cudaExtent e) {
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void*)data, e.width * texel(c), e.width, e.height);
    p.dstArray = a;
    p.extent = e;
    p.kind = cudaMemcpyHostToDevice;
    return cudaMemcpy3D(&p);
}

static cudaError_t drain(cudaArray_t a, const Case& c, uint8_t* data, cudaExtent e) {
    cudaMemcpy3DParms p = {};
    p.dstPtr = make_cudaPitchedPtr(data, e.width * texel(c), e.width, e.height);
    p.srcArray = a;
    p.extent = e;
    p.kind = cudaMemcpyDeviceToHost;
    return cudaMemcpy3D(&p);
}

template <class T>
static void launch_fetch(cudaTextureObject_t t, const Coord* cs, uint4* out, const Case& c) {
    fetch<T><<<(c.ncoords + 127) / 128, 128>>>(t, cs, out, c.ncoords, c.kind, c.comp);
}

static size_t payload(const Case& c) {
    return (c.kind == K_SUST2 || c.kind == K_SURED2) ? (size_t)c.data_bytes : (size_t)c.ncoords * 16;
}

static bool surface_kind(int k) { return (k >= K_SULD1 && k <= K_SUQ); }

static int run(const Case& c, const uint8_t* data, const Coord* host_coords, uint8_t* result) {
    int err_make = 0;
    std::vector<cudaArray_t> arrays;
    cudaArray_t array = nullptr;
    cudaMipmappedArray_t mip = nullptr;
    void* linear = nullptr;
    size_t pitch = 0;
    cudaResourceDesc rd = {};
    cudaChannelFormatDesc f = format(c);
    cudaError_t e = cudaSuccess;
    if (c.res == R_ARRAY) {
        e = cudaMalloc3DArray(&array, &f, make_cudaExtent(c.w, c.h, c.d), c.flags);
        if (!e) e = fill(array, c, data, level_extent(c, 0));
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = array;
    } else if (c.res == R_MIPMAP) {
        e = cudaMallocMipmappedArray(&mip, &f, make_cudaExtent(c.w, c.h, c.d), c.levels, c.flags);
        const uint8_t* at = data;
        for (int l = 0; !e && l < c.levels; l++) {
            cudaArray_t lev;
            e = cudaGetMipmappedArrayLevel(&lev, mip, l);
            cudaExtent x = level_extent(c, l);
            if (!e) e = fill(lev, c, at, x);
            at += x.width * x.height * x.depth * texel(c);
        }
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = mip;
    } else if (c.res == R_LINEAR) {
        e = cudaMalloc(&linear, c.data_bytes);
        if (!e) e = cudaMemcpy(linear, data, c.data_bytes, cudaMemcpyHostToDevice);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = linear;
        rd.res.linear.desc = f;
        rd.res.linear.sizeInBytes = c.data_bytes;
    } else {
        e = cudaMallocPitch(&linear, &pitch, c.w * texel(c), c.h);
        if (!e)
            e = cudaMemcpy2D(linear, pitch, data, c.w * texel(c), c.w * texel(c), c.h, cudaMemcpyHostToDevice);
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = linear;
        rd.res.pitch2D.desc = f;
        rd.res.pitch2D.width = c.w;
        rd.res.pitch2D.height = c.h;
        rd.res.pitch2D.pitchInBytes = pitch;
    }
    size_t n = payload(c);
    memset(result, 0, n);
    if (e) {  // recorded as 1000 + the error of making or filling the array
        cudaGetLastError();
        if (array) cudaFreeArray(array);
        if (mip) cudaFreeMipmappedArray(mip);
        if (linear) cudaFree(linear);
        return 1000 + e;
    }
    Coord* coords = nullptr;
    uint4* out = nullptr;
    if (cudaMalloc(&coords, sizeof(Coord) * (c.ncoords + 1)) || cudaMalloc(&out, 16 * (c.ncoords + 1)) ||
        cudaMemcpy(coords, host_coords, sizeof(Coord) * c.ncoords, cudaMemcpyHostToDevice) ||
        cudaMemset(out, 0xa5, 16 * (c.ncoords + 1))) {
        fprintf(stderr, "coordinates: %s\n", cudaGetErrorName(cudaGetLastError()));
        exit(1);
    }
    cudaError_t made;
    cudaTextureObject_t tex = 0;
    cudaSurfaceObject_t surf = 0;
    if (surface_kind(c.kind)) {
        made = cudaCreateSurfaceObject(&surf, &rd);
    } else {
        cudaTextureDesc td = {};
        for (int k = 0; k < 3; k++) td.addressMode[k] = (cudaTextureAddressMode)c.addr[k];
        td.filterMode = (cudaTextureFilterMode)c.filter;
        td.readMode = (cudaTextureReadMode)c.read_mode;
        td.sRGB = c.srgb;
        for (int k = 0; k < 4; k++) td.borderColor[k] = c.border[k];
        td.normalizedCoords = c.normalized;
        td.mipmapFilterMode = (cudaTextureFilterMode)c.mip_filter;
        td.mipmapLevelBias = c.lod_bias;
        td.minMipmapLevelClamp = c.min_lod;
        td.maxMipmapLevelClamp = c.max_lod;
        td.seamlessCubemap = c.seamless;
        made = cudaCreateTextureObject(&tex, &rd, &td, nullptr);
    }
    cudaGetLastError();
    err_make = made;
    cudaError_t ran = cudaSuccess;
    if (made == cudaSuccess) {
        size_t size = texel(c);
        int grid = (c.ncoords + 127) / 128;
        switch (c.kind) {
            case K_2DINT: fetch_int<<<grid, 128>>>(tex, coords, out, c.ncoords, c.rtype); break;
            case K_SULD1: case K_SULD2: case K_SULD3: case K_SULDA2:
                if (size == 1) surf_load<unsigned char><<<grid, 128>>>(surf, coords, out, c.ncoords, c.kind, c.boundary);
                if (size == 2) surf_load<unsigned short><<<grid, 128>>>(surf, coords, out, c.ncoords, c.kind, c.boundary);
                if (size == 4) surf_load<unsigned><<<grid, 128>>>(surf, coords, out, c.ncoords, c.kind, c.boundary);
                if (size == 8) surf_load<uint2><<<grid, 128>>>(surf, coords, out, c.ncoords, c.kind, c.boundary);
                if (size == 16) surf_load<uint4><<<grid, 128>>>(surf, coords, out, c.ncoords, c.kind, c.boundary);
                break;
            case K_SUST2:
                if (size == 1) surf_store<unsigned char><<<1, 1>>>(surf, coords, c.ncoords, c.boundary);
                if (size == 2) surf_store<unsigned short><<<1, 1>>>(surf, coords, c.ncoords, c.boundary);
                if (size == 4) surf_store<unsigned><<<1, 1>>>(surf, coords, c.ncoords, c.boundary);
                if (size == 8) surf_store<uint2><<<1, 1>>>(surf, coords, c.ncoords, c.boundary);
                if (size == 16) surf_store<uint4><<<1, 1>>>(surf, coords, c.ncoords, c.boundary);
                break;
            case K_SURED2: surf_red<<<grid, 128>>>(surf, coords, c.ncoords, c.boundary); break;
            default:
                if (c.rtype == 0) launch_fetch<float4>(tex, coords, out, c);
                if (c.rtype == 1) launch_fetch<int4>(tex, coords, out, c);
                if (c.rtype == 2) launch_fetch<uint4>(tex, coords, out, c);
        }
        ran = cudaDeviceSynchronize();
        if (ran == cudaSuccess) ran = cudaGetLastError();
        if (ran == cudaSuccess) {
            if (c.kind == K_SUST2 || c.kind == K_SURED2)
                ran = drain(array, c, result, level_extent(c, 0));
            else
                ran = cudaMemcpy(result, out, n, cudaMemcpyDeviceToHost);
        }
        if (surf) cudaDestroySurfaceObject(surf);
        if (tex) cudaDestroyTextureObject(tex);
    }
    cudaFree(coords);
    cudaFree(out);
    if (array) cudaFreeArray(array);
    if (mip) cudaFreeMipmappedArray(mip);
    if (linear) cudaFree(linear);
    return err_make | (int)ran << 16;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: tex_fetch CASES OUT\n");
        return 2;
    }
    FILE* in = fopen(argv[1], "rb");
    FILE* out = fopen(argv[2], "wb");
    if (!in || !out) {
        perror("tex_fetch");
        return 2;
    }
    Case c;
    int count = 0, failed = 0;
    while (fread(&c, sizeof c, 1, in) == 1) {
        std::vector<uint8_t> data(c.data_bytes);
        std::vector<Coord> coords(c.ncoords);
        if (fread(data.data(), 1, data.size(), in) != data.size() ||
            fread(coords.data(), sizeof(Coord), coords.size(), in) != coords.size()) {
            fprintf(stderr, "tex_fetch: case %d is cut short\n", count);
            return 2;
        }
        std::vector<uint8_t> result(payload(c));
        int status = run(c, data.data(), coords.data(), result.data());
        int32_t head[2] = {status & 0xffff, status >> 16};
        if (head[1]) {
            fprintf(stderr, "tex_fetch: case %d: %s\n", count, cudaGetErrorName((cudaError_t)head[1]));
            failed++;
        }
        fwrite(head, 4, 2, out);
        fwrite(result.data(), 1, result.size(), out);
        count++;
    }
    fclose(out);
    printf("tex_fetch: %d cases, %d failed to run\n", count, failed);
    return failed ? 1 : 0;
}
