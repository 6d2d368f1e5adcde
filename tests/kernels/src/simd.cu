// CUDA's SIMD intrinsics (CUDA Math API, "SIMD Intrinsics") on pairs of words: nvcc 13
// builds them for sm_90 from packed `add/min/max.{u,s}16x2`, `vabsdiff2`/`vabsdiff4`
// (plain and `.add`) and bit tricks around `prmt`.
//   nvcc -ptx -arch=sm_90 -O3 tests/kernels/src/simd.cu -o tests/kernels/simd.ptx

#define B(f) o[k++] = f(x, y);
#define U(f) o[k++] = f(x);

extern "C" __global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned *o = out + i * 82;
    int k = 0;
    U(__vabs2) B(__vabsdiffs2) B(__vabsdiffu2) U(__vabsss2) B(__vadd2) B(__vaddss2)
    B(__vaddus2) B(__vavgs2) B(__vavgu2) B(__vcmpeq2) B(__vcmpges2) B(__vcmpgeu2)
    B(__vcmpgts2) B(__vcmpgtu2) B(__vcmples2) B(__vcmpleu2) B(__vcmplts2) B(__vcmpltu2)
    B(__vcmpne2) B(__vhaddu2) B(__vmaxs2) B(__vmaxu2) B(__vmins2) B(__vminu2) U(__vneg2)
    U(__vnegss2) B(__vsads2) B(__vsadu2) B(__vseteq2) B(__vsetges2) B(__vsetgeu2)
    B(__vsetgts2) B(__vsetgtu2) B(__vsetles2) B(__vsetleu2) B(__vsetlts2) B(__vsetltu2)
    B(__vsetne2) B(__vsub2) B(__vsubss2) B(__vsubus2)
    U(__vabs4) B(__vabsdiffs4) B(__vabsdiffu4) U(__vabsss4) B(__vadd4) B(__vaddss4)
    B(__vaddus4) B(__vavgs4) B(__vavgu4) B(__vcmpeq4) B(__vcmpges4) B(__vcmpgeu4)
    B(__vcmpgts4) B(__vcmpgtu4) B(__vcmples4) B(__vcmpleu4) B(__vcmplts4) B(__vcmpltu4)
    B(__vcmpne4) B(__vhaddu4) B(__vmaxs4) B(__vmaxu4) B(__vmins4) B(__vminu4) U(__vneg4)
    U(__vnegss4) B(__vsads4) B(__vsadu4) B(__vseteq4) B(__vsetges4) B(__vsetgeu4)
    B(__vsetgts4) B(__vsetgtu4) B(__vsetles4) B(__vsetleu4) B(__vsetlts4) B(__vsetltu4)
    B(__vsetne4) B(__vsub4) B(__vsubss4) B(__vsubus4)
}
