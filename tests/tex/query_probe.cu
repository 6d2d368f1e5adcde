// What a GPU answers to txq and suq: each attribute in a module of its own (PTX
// loaded with cuModuleLoadData), asked of textures and surfaces of every shape.
// Prints "OP.ATTR OBJECT: VALUE", or the error of loading or running the module.
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

static const char* TXQ[] = {"width", "height", "depth", "channel_data_type", "channel_order",
                            "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1",
                            "addr_mode_2", "array_size", "num_mipmap_levels", "num_samples",
                            "level.width", "level.height", "level.depth"};
static const char* SUQ[] = {"width", "height", "depth", "channel_data_type", "channel_order",
                            "array_size", "memory_layout"};

static void ask(const char* op, const char* attr, const char* what, unsigned long long obj, unsigned* out) {
    char ptx[1024];
    bool level = strncmp(attr, "level.", 6) == 0;
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry q(.param .u64 t, .param .u64 o) {\n"
             ".reg .b32 %%r<2>;\n.reg .b64 %%rd<3>;\n"
             "ld.param.u64 %%rd1, [t];\nld.param.u64 %%rd2, [o];\n"
             "%s.%s.b32 %%r1, [%%rd1]%s;\nst.global.u32 [%%rd2], %%r1;\nret;\n}\n",
             op, attr, level ? ", 1" : "");
    CUmodule m;
    CUfunction f;
    CUresult e = cuModuleLoadData(&m, ptx);
    if (e) {
        const char* name;
        cuGetErrorName(e, &name);
        printf("%s.%s %s: load %s\n", op, attr, what, name);
        return;
    }
    cuModuleGetFunction(&f, m, "q");
    void* args[] = {&obj, &out};
    e = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0);
    if (!e) e = cuCtxSynchronize();
    unsigned v = 0;
    if (!e) e = cuMemcpyDtoH(&v, (CUdeviceptr)out, 4);
    const char* name = "";
    if (e) cuGetErrorName(e, &name);
    if (e)
        printf("%s.%s %s: run %s\n", op, attr, what, name);
    else
        printf("%s.%s %s: %u\n", op, attr, what, v);
    cuModuleUnload(m);
}

static cudaArray_t array(cudaChannelFormatDesc f, cudaExtent e, unsigned flags) {
    cudaArray_t a = nullptr;
    if (cudaMalloc3DArray(&a, &f, e, flags)) printf("array: %s\n", cudaGetErrorName(cudaGetLastError()));
    return a;
}

int main() {
    cudaFree(0);
    unsigned* out;
    cudaMalloc(&out, 16);
    cudaChannelFormatDesc u8x4 = cudaCreateChannelDesc<uchar4>(), s16x2 = cudaCreateChannelDesc<short2>(),
                          f1 = cudaCreateChannelDesc<float>(), h2 = cudaCreateChannelDescHalf2();
    struct {
        const char* name;
        cudaResourceDesc r;
        cudaTextureDesc t;
    } texs[8];
    memset(texs, 0, sizeof texs);
    int n = 0;
    auto arr = [&](const char* name, cudaArray_t a) {
        texs[n].name = name;
        texs[n].r.resType = cudaResourceTypeArray;
        texs[n].r.res.array.array = a;
        return &texs[n++].t;
    };
    cudaTextureDesc* t = arr("2d-u8x4-norm-linear", array(u8x4, make_cudaExtent(7, 5, 0), 0));
    t->readMode = cudaReadModeNormalizedFloat;
    t->filterMode = cudaFilterModeLinear;
    t->normalizedCoords = 1;
    t->addressMode[0] = cudaAddressModeWrap;
    t->addressMode[1] = cudaAddressModeMirror;
    t->addressMode[2] = cudaAddressModeBorder;
    arr("3d-s16x2", array(s16x2, make_cudaExtent(5, 4, 3), 0));
    arr("1d-half2", array(h2, make_cudaExtent(9, 0, 0), 0));
    arr("a2d-f32", array(f1, make_cudaExtent(5, 4, 3), cudaArrayLayered));
    arr("cube-f32", array(f1, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
    cudaMipmappedArray_t mip;
    cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(16, 8, 0), 5);
    texs[n].name = "mip-16x8-5";
    texs[n].r.resType = cudaResourceTypeMipmappedArray;
    texs[n].r.res.mipmap.mipmap = mip;
    texs[n++].t.normalizedCoords = 1;
    void* lin;
    cudaMalloc(&lin, 1024);
    texs[n].name = "linear-f32x1-92";
    texs[n].r.resType = cudaResourceTypeLinear;
    texs[n].r.res.linear.devPtr = lin;
    texs[n].r.res.linear.desc = f1;
    texs[n++].r.res.linear.sizeInBytes = 92;
    texs[n].name = "pitch2d-f32-13x6";
    texs[n].r.resType = cudaResourceTypePitch2D;
    texs[n].r.res.pitch2D.devPtr = lin;
    texs[n].r.res.pitch2D.desc = f1;
    texs[n].r.res.pitch2D.width = 13;
    texs[n].r.res.pitch2D.height = 6;
    texs[n++].r.res.pitch2D.pitchInBytes = 128;
    for (int i = 0; i < n; i++) {
        cudaTextureObject_t o;
        cudaError_t e = cudaCreateTextureObject(&o, &texs[i].r, &texs[i].t, nullptr);
        if (e) {
            printf("texture %s: %s\n", texs[i].name, cudaGetErrorName(e));
            continue;
        }
        for (const char* a : TXQ) ask("txq", a, texs[i].name, o, out);
    }
    struct {
        const char* name;
        cudaArray_t a;
    } surfs[] = {
        {"2d-u8x4", array(u8x4, make_cudaExtent(6, 5, 0), cudaArraySurfaceLoadStore)},
        {"1d-half2", array(h2, make_cudaExtent(9, 0, 0), cudaArraySurfaceLoadStore)},
        {"3d-s16x2", array(s16x2, make_cudaExtent(5, 4, 3), cudaArraySurfaceLoadStore)},
        {"a2d-f32", array(f1, make_cudaExtent(5, 4, 3), cudaArraySurfaceLoadStore | cudaArrayLayered)},
    };
    for (auto& s : surfs) {
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeArray;
        r.res.array.array = s.a;
        cudaSurfaceObject_t o;
        cudaError_t e = cudaCreateSurfaceObject(&o, &r);
        if (e) {
            printf("surface %s: %s\n", s.name, cudaGetErrorName(e));
            continue;
        }
        for (const char* a : SUQ) ask("suq", a, s.name, o, out);
    }
    return 0;
}
