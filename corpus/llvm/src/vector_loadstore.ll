; Vector memory operations: v4f32, v2f64, v4i32, v2i16, v4i8 loads/stores, element insert/extract, shuffles.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.nvvm.ldg.global.f.f32.p1f32(float addrspace(1)*, i32)
declare <4 x float> @llvm.nvvm.ldg.global.f.v4f32.p1v4f32(<4 x float> addrspace(1)*, i32)

define void @axpy_v4(<4 x float> addrspace(1)* noalias readonly %x, <4 x float> addrspace(1)* noalias %y, float %a) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %px = getelementptr <4 x float>, <4 x float> addrspace(1)* %x, i64 %i
  %py = getelementptr <4 x float>, <4 x float> addrspace(1)* %y, i64 %i
  %vx = load <4 x float>, <4 x float> addrspace(1)* %px, align 16
  %vy = load <4 x float>, <4 x float> addrspace(1)* %py, align 16
  %ai = insertelement <4 x float> undef, float %a, i32 0
  %as = shufflevector <4 x float> %ai, <4 x float> undef, <4 x i32> zeroinitializer
  %m = fmul <4 x float> %as, %vx
  %r = fadd <4 x float> %m, %vy
  store <4 x float> %r, <4 x float> addrspace(1)* %py, align 16
  ret void
}

define void @mixed_vectors(<2 x double> addrspace(1)* %d, <4 x i32> addrspace(1)* %q, <2 x i16> addrspace(1)* %s, <4 x i8> addrspace(1)* %b, <2 x i64> addrspace(1)* %l) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pd = getelementptr <2 x double>, <2 x double> addrspace(1)* %d, i64 %i
  %vd = load <2 x double>, <2 x double> addrspace(1)* %pd, align 16
  %d0 = extractelement <2 x double> %vd, i32 0
  %d1 = extractelement <2 x double> %vd, i32 1
  %ds = fadd double %d0, %d1
  %vd2 = insertelement <2 x double> %vd, double %ds, i32 1
  store <2 x double> %vd2, <2 x double> addrspace(1)* %pd, align 16
  %pq = getelementptr <4 x i32>, <4 x i32> addrspace(1)* %q, i64 %i
  %vq = load <4 x i32>, <4 x i32> addrspace(1)* %pq, align 16
  %sw = shufflevector <4 x i32> %vq, <4 x i32> undef, <4 x i32> <i32 2, i32 3, i32 0, i32 1>
  %sum = add <4 x i32> %vq, %sw
  %sh = shl <4 x i32> %sum, <i32 1, i32 2, i32 3, i32 4>
  store <4 x i32> %sh, <4 x i32> addrspace(1)* %pq, align 16
  %ps = getelementptr <2 x i16>, <2 x i16> addrspace(1)* %s, i64 %i
  %vs = load <2 x i16>, <2 x i16> addrspace(1)* %ps, align 4
  %vs2 = mul <2 x i16> %vs, <i16 3, i16 -3>
  store <2 x i16> %vs2, <2 x i16> addrspace(1)* %ps, align 4
  %pb = getelementptr <4 x i8>, <4 x i8> addrspace(1)* %b, i64 %i
  %vb = load <4 x i8>, <4 x i8> addrspace(1)* %pb, align 4
  %vb2 = add <4 x i8> %vb, <i8 1, i8 2, i8 3, i8 4>
  %e3 = extractelement <4 x i8> %vb2, i32 3
  %vb3 = insertelement <4 x i8> %vb2, i8 %e3, i32 0
  store <4 x i8> %vb3, <4 x i8> addrspace(1)* %pb, align 4
  %pl = getelementptr <2 x i64>, <2 x i64> addrspace(1)* %l, i64 %i
  %vl = load <2 x i64>, <2 x i64> addrspace(1)* %pl, align 16
  %vl2 = xor <2 x i64> %vl, <i64 -1, i64 81985529216486895>
  store <2 x i64> %vl2, <2 x i64> addrspace(1)* %pl, align 16
  ret void
}

; Non-coherent (read-only cache) loads via ldg intrinsics.
define void @ldg_copy(float addrspace(1)* %src, <4 x float> addrspace(1)* %src4, float addrspace(1)* %dst) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, float addrspace(1)* %src, i64 %i
  %v = call float @llvm.nvvm.ldg.global.f.f32.p1f32(float addrspace(1)* %p, i32 4)
  %p4 = getelementptr <4 x float>, <4 x float> addrspace(1)* %src4, i64 %i
  %v4 = call <4 x float> @llvm.nvvm.ldg.global.f.v4f32.p1v4f32(<4 x float> addrspace(1)* %p4, i32 16)
  %e = extractelement <4 x float> %v4, i32 2
  %s = fadd float %v, %e
  %q = getelementptr float, float addrspace(1)* %dst, i64 %i
  store float %s, float addrspace(1)* %q
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, float)* @axpy_v4, !"kernel", i32 1}
!1 = !{void (<2 x double> addrspace(1)*, <4 x i32> addrspace(1)*, <2 x i16> addrspace(1)*, <4 x i8> addrspace(1)*, <2 x i64> addrspace(1)*)* @mixed_vectors, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, <4 x float> addrspace(1)*, float addrspace(1)*)* @ldg_copy, !"kernel", i32 1}
