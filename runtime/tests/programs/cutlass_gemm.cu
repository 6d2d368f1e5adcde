// CUTLASS 3 Hopper GEMMs (TMA loads, warp-specialized wgmma mainloops, mbarrier
// pipelines, and clusters of two with multicast TMA) built for sm_90a from pip's
// nvidia-cutlass headers, checked against a CPU GEMM: FP16 inputs with FP32
// accumulation within CUTLASS's own verification tolerance, and s8 inputs with s32
// accumulation exactly.
//
//   nvcc -std=c++17 -arch=sm_90a -O2 --expt-relaxed-constexpr -I$CUTLASS/include \
//        -I$CUTLASS/tools/util/include cutlass_gemm.cu
//
// runtime/tests/programs.rs builds it so (about 40 s) and runs it under `ptxvm exec`.

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>

#include "check.cuh"
#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;


// A row-major (K contiguous), B column-major (K contiguous): both K-major in shared
// memory, as the TN GEMMs CUTLASS's Hopper examples run.
template <class ElementA, class ElementB, class ElementAcc, class ElementD, class Schedule, class Tile,
          class Cluster = Shape<_1, _1, _1>>
struct Gemm {
    using LayoutA = cutlass::layout::RowMajor;
    using LayoutB = cutlass::layout::ColumnMajor;
    using LayoutD = cutlass::layout::ColumnMajor;
    static constexpr int AlignA = 128 / cutlass::sizeof_bits<ElementA>::value;
    static constexpr int AlignB = 128 / cutlass::sizeof_bits<ElementB>::value;
    static constexpr int AlignD = 128 / cutlass::sizeof_bits<ElementD>::value;
    using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
        cutlass::epilogue::collective::EpilogueTileAuto, ElementAcc, ElementAcc, ElementD, LayoutD, AlignD,
        ElementD, LayoutD, AlignD, cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, AlignA, ElementB, LayoutB, AlignB,
        ElementAcc, Tile, Cluster,
        cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
            sizeof(typename Epilogue::SharedStorage))>,
        Schedule>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
    using Device = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

    // D = A * B (alpha 1, beta 0), M x N x K; returns D column-major.
    static std::vector<ElementD> run(int M, int N, int K, const std::vector<ElementA> &a,
                                     const std::vector<ElementB> &b) {
        ElementA *da;
        ElementB *db;
        ElementD *dd;
        CHECK(cudaMalloc(&da, a.size() * sizeof(ElementA)));
        CHECK(cudaMalloc(&db, b.size() * sizeof(ElementB)));
        CHECK(cudaMalloc(&dd, size_t(M) * N * sizeof(ElementD)));
        CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(ElementA), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(ElementB), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dd, 0, size_t(M) * N * sizeof(ElementD)));
        auto sa = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {M, K, 1});
        auto sb = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {N, K, 1});
        auto sd = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {M, N, 1});
        typename Device::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                        {M, N, K, 1},
                                        {da, sa, db, sb},
                                        {{ElementAcc(1), ElementAcc(0)}, dd, sd, dd, sd}};
        Device gemm;
        if (gemm.can_implement(args) != cutlass::Status::kSuccess) {
            printf("cutlass: cannot implement\n");
            exit(1);
        }
        size_t ws = Device::get_workspace_size(args);
        void *workspace = nullptr;
        if (ws) CHECK(cudaMalloc(&workspace, ws));
        if (gemm.initialize(args, workspace) != cutlass::Status::kSuccess || gemm.run() != cutlass::Status::kSuccess) {
            printf("cutlass: initialize or run failed: %s\n", cudaGetErrorString(cudaGetLastError()));
            exit(1);
        }
        CHECK(cudaDeviceSynchronize());
        std::vector<ElementD> d(size_t(M) * N);
        CHECK(cudaMemcpy(d.data(), dd, d.size() * sizeof(ElementD), cudaMemcpyDeviceToHost));
        cudaFree(da);
        cudaFree(db);
        cudaFree(dd);
        if (workspace) cudaFree(workspace);
        return d;
    }
};

static unsigned state = 12345;
static int next(int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % unsigned(hi - lo + 1));
}

// FP16 inputs in [-2, 2] with eighths, FP32 accumulation; CUTLASS's examples verify
// with a relative tolerance (cutlass::reference::device::BlockCompareRelativelyEqual,
// epsilon 1e-2 for half inputs, nonzero floor 1e-4): that is the bound here.
template <class Schedule, class Tile, class Cluster = Shape<_1, _1, _1>>
static int half_gemm(const char *name, int M, int N, int K) {
    std::vector<cutlass::half_t> a(size_t(M) * K), b(size_t(N) * K);
    for (auto &x : a) x = cutlass::half_t(next(-16, 16) / 8.0f);
    for (auto &x : b) x = cutlass::half_t(next(-16, 16) / 8.0f);
    auto d = Gemm<cutlass::half_t, cutlass::half_t, float, float, Schedule, Tile, Cluster>::run(M, N, K, a, b);
    int bad = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double want = 0;
            for (int k = 0; k < K; k++) want += double(float(a[size_t(m) * K + k])) * double(float(b[size_t(n) * K + k]));
            double got = d[size_t(n) * M + m];
            double tol = 1e-2 * std::fmax(std::fabs(want), 1e-4);
            if (std::fabs(got - want) > tol && bad++ < 5) printf("%s: D[%d][%d] = %g, want %g\n", name, m, n, got, want);
        }
    return bad;
}

template <class Schedule, class Tile>
static int int8_gemm(const char *name, int M, int N, int K) {
    std::vector<int8_t> a(size_t(M) * K), b(size_t(N) * K);
    for (auto &x : a) x = int8_t(next(-128, 127));
    for (auto &x : b) x = int8_t(next(-128, 127));
    auto d = Gemm<int8_t, int8_t, int32_t, int32_t, Schedule, Tile>::run(M, N, K, a, b);
    int bad = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            long long want = 0;
            for (int k = 0; k < K; k++) want += (long long)a[size_t(m) * K + k] * b[size_t(n) * K + k];
            if (d[size_t(n) * M + m] != want && bad++ < 5)
                printf("%s: D[%d][%d] = %d, want %lld\n", name, m, n, d[size_t(n) * M + m], want);
        }
    return bad;
}

int main() {
    using namespace cutlass::gemm;
    int bad = 0;
    // Warp-specialized (a producer warp group with TMA, a consumer warp group with
    // wgmma), several k-blocks and tiles, M and N not multiples of the tile.
    bad += half_gemm<KernelTmaWarpSpecialized, Shape<_128, _128, _64>>("f16 ws", 200, 136, 256);
    // Ping-pong: two consumer warp groups taking turns.
    bad += half_gemm<KernelTmaWarpSpecializedPingpong, Shape<_64, _128, _64>>("f16 pingpong", 128, 256, 192);
    bad += int8_gemm<KernelTmaWarpSpecialized, Shape<_128, _128, _128>>("s8 ws", 128, 144, 384);
    // Clusters of two CTAs along M: each loads its half of the B tiles and multicasts
    // them to both (TMA .multicast::cluster), and releases the stages of the other
    // CTA's pipeline with remote mbarrier arrivals.
    bad += half_gemm<KernelTmaWarpSpecialized, Shape<_128, _128, _64>, Shape<_2, _1, _1>>("f16 cluster 2x1", 256, 256,
                                                                                        256);
    if (bad) {
        printf("cutlass_gemm: %d wrong\n", bad);
        return 1;
    }
    printf("cutlass_gemm: ok\n");
    return 0;
}
