// A CUTLASS 3 Hopper grouped GEMM: one launch over problems of different shapes,
// whose kernel edits its TMA tensor maps on the device for each problem
// (`tensormap.replace` in shared memory, `tensormap.cp_fenceproxy` to global memory,
// `fence.proxy.tensormap::generic.acquire`), checked against a CPU GEMM within
// CUTLASS's verification tolerance for half inputs.
//
//   nvcc -std=c++17 -arch=sm_90a -O2 --expt-relaxed-constexpr -I$CUTLASS/include \
//        -I$CUTLASS/tools/util/include cutlass_grouped.cu
//
// runtime/tests/programs.rs builds it so and runs it under `ptxvm exec`.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.cuh"
#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;


using Problem = cutlass::gemm::GroupProblemShape<Shape<int, int, int>>;
using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementD = float;
using Acc = float;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutD = cutlass::layout::ColumnMajor;
constexpr int AlignA = 8, AlignB = 8, AlignD = 4;
using TileMNK = Shape<_128, _128, _64>;
using ClusterMNK = Shape<_1, _1, _1>;

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileMNK, ClusterMNK,
    cutlass::epilogue::collective::EpilogueTileAuto, Acc, Acc, ElementD, LayoutD *, AlignD, ElementD, LayoutD *,
    AlignD, cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative,
    cutlass::epilogue::fusion::LinearCombination<ElementD, Acc>>::CollectiveOp;
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA *, AlignA, ElementB, LayoutB *, AlignB,
    Acc, TileMNK, ClusterMNK,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Problem, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
using StrideA = typename Kernel::InternalStrideA;
using StrideB = typename Kernel::InternalStrideB;
using StrideD = typename Kernel::InternalStrideD;

static unsigned state = 777;
static int next(int lo, int hi) {
    state = state * 1664525u + 1013904223u;
    return lo + int((state >> 8) % unsigned(hi - lo + 1));
}

template <class T>
static T *upload(const std::vector<T> &v) {
    T *d;
    CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main() {
    // Problems of different shapes: the tensor maps change between them.
    std::vector<Problem::UnderlyingProblemShape> shapes = {{128, 128, 64}, {200, 72, 128}, {64, 256, 192}};
    int groups = int(shapes.size());
    std::vector<std::vector<ElementA>> a(groups);
    std::vector<std::vector<ElementB>> b(groups);
    std::vector<const ElementA *> pa;
    std::vector<const ElementB *> pb;
    std::vector<const ElementD *> pc;
    std::vector<ElementD *> pd;
    std::vector<StrideA> sa;
    std::vector<StrideB> sb;
    std::vector<StrideD> sd;
    for (int g = 0; g < groups; g++) {
        int M = get<0>(shapes[g]), N = get<1>(shapes[g]), K = get<2>(shapes[g]);
        a[g].resize(size_t(M) * K);
        b[g].resize(size_t(N) * K);
        for (auto &x : a[g]) x = ElementA(next(-16, 16) / 8.0f);
        for (auto &x : b[g]) x = ElementB(next(-16, 16) / 8.0f);
        pa.push_back(upload(a[g]));
        pb.push_back(upload(b[g]));
        ElementD *d;
        CHECK(cudaMalloc(&d, size_t(M) * N * sizeof(ElementD)));
        CHECK(cudaMemset(d, 0, size_t(M) * N * sizeof(ElementD)));
        pc.push_back(d);
        pd.push_back(d);
        sa.push_back(cutlass::make_cute_packed_stride(StrideA{}, {M, K, 1}));
        sb.push_back(cutlass::make_cute_packed_stride(StrideB{}, {N, K, 1}));
        sd.push_back(cutlass::make_cute_packed_stride(StrideD{}, {M, N, 1}));
    }
    auto d_shapes = upload(shapes);
    auto d_pa = upload(pa);
    auto d_pb = upload(pb);
    auto d_pc = upload(pc);
    auto d_pd = upload(pd);
    auto d_sa = upload(sa);
    auto d_sb = upload(sb);
    auto d_sd = upload(sd);

    cutlass::KernelHardwareInfo hw = cutlass::KernelHardwareInfo::make_kernel_hardware_info<Kernel>(0);
    typename Gemm::Arguments args;
    decltype(args.epilogue.thread) fusion;
    fusion.alpha = 1.0f;
    fusion.beta = 0.0f;
    fusion.alpha_ptr = nullptr;
    fusion.beta_ptr = nullptr;
    fusion.alpha_ptr_array = nullptr;
    fusion.beta_ptr_array = nullptr;
    fusion.dAlpha = {cute::_0{}, cute::_0{}, 0};
    fusion.dBeta = {cute::_0{}, cute::_0{}, 0};
    args = typename Gemm::Arguments{cutlass::gemm::GemmUniversalMode::kGrouped,
                                    {groups, d_shapes, shapes.data()},
                                    {d_pa, d_sa, d_pb, d_sb},
                                    {fusion, d_pc, d_sd, d_pd, d_sd},
                                    hw};
    Gemm gemm;
    if (gemm.can_implement(args) != cutlass::Status::kSuccess) {
        printf("cutlass_grouped: cannot implement\n");
        return 1;
    }
    void *workspace = nullptr;
    size_t ws = Gemm::get_workspace_size(args);
    if (ws) CHECK(cudaMalloc(&workspace, ws));
    if (gemm.initialize(args, workspace) != cutlass::Status::kSuccess || gemm.run() != cutlass::Status::kSuccess) {
        printf("cutlass_grouped: initialize or run failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int g = 0; g < groups; g++) {
        int M = get<0>(shapes[g]), N = get<1>(shapes[g]), K = get<2>(shapes[g]);
        std::vector<ElementD> d(size_t(M) * N);
        CHECK(cudaMemcpy(d.data(), pd[g], d.size() * sizeof(ElementD), cudaMemcpyDeviceToHost));
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double want = 0;
                for (int k = 0; k < K; k++)
                    want += double(float(a[g][size_t(m) * K + k])) * double(float(b[g][size_t(n) * K + k]));
                double got = d[size_t(n) * M + m];
                if (std::fabs(got - want) > 1e-2 * std::fmax(std::fabs(want), 1e-4) && bad++ < 5)
                    printf("group %d: D[%d][%d] = %g, want %g\n", g, m, n, got, want);
            }
    }
    if (bad) {
        printf("cutlass_grouped: %d wrong\n", bad);
        return 1;
    }
    printf("cutlass_grouped: ok\n");
    return 0;
}
