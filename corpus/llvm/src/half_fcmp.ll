; half and <2 x half>: arithmetic, all fcmp predicates, select, conversions to/from float and ints.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare half @llvm.fma.f16(half, half, half)
declare half @llvm.fabs.f16(half)

define void @half_scalar(half addrspace(1)* %a, half addrspace(1)* %b, half addrspace(1)* %o, i16 addrspace(1)* %flags) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr half, half addrspace(1)* %a, i64 %i
  %pb = getelementptr half, half addrspace(1)* %b, i64 %i
  %x = load half, half addrspace(1)* %pa
  %y = load half, half addrspace(1)* %pb
  %s = fadd half %x, %y
  %d = fsub half %x, %y
  %m = fmul half %x, %y
  %q = fdiv half %x, %y
  %f = call half @llvm.fma.f16(half %x, half %y, half %s)
  %n = fneg half %d
  %ab = call half @llvm.fabs.f16(half %n)
  %c0 = fcmp olt half %x, %y
  %c1 = fcmp ugt half %x, %y
  %c2 = fcmp oeq half %x, %y
  %c3 = fcmp une half %x, %y
  %c4 = fcmp uno half %x, %y
  %c5 = fcmp ord half %x, %y
  %c6 = fcmp ole half %x, %y
  %c7 = fcmp uge half %x, %y
  %mn = select i1 %c0, half %x, half %y
  %mx = select i1 %c1, half %x, half %y
  %z = fadd half %mn, %mx
  %z2 = fadd half %z, %f
  %z3 = fadd half %z2, %ab
  %z4 = fadd half %z3, %q
  %z5 = fadd half %z4, %m
  %po = getelementptr half, half addrspace(1)* %o, i64 %i
  store half %z5, half addrspace(1)* %po
  %e0 = zext i1 %c2 to i16
  %e1 = zext i1 %c3 to i16
  %e2 = zext i1 %c4 to i16
  %e3 = zext i1 %c5 to i16
  %e4 = zext i1 %c6 to i16
  %e5 = zext i1 %c7 to i16
  %s1 = shl i16 %e1, 1
  %s2 = shl i16 %e2, 2
  %s3 = shl i16 %e3, 3
  %s4 = shl i16 %e4, 4
  %s5 = shl i16 %e5, 5
  %o1 = or i16 %e0, %s1
  %o2 = or i16 %o1, %s2
  %o3 = or i16 %o2, %s3
  %o4 = or i16 %o3, %s4
  %o5 = or i16 %o4, %s5
  %pf = getelementptr i16, i16 addrspace(1)* %flags, i64 %i
  store i16 %o5, i16 addrspace(1)* %pf
  ret void
}

define void @half_vec(<2 x half> addrspace(1)* %a, <2 x half> addrspace(1)* %b, <2 x half> addrspace(1)* %o) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr <2 x half>, <2 x half> addrspace(1)* %a, i64 %i
  %pb = getelementptr <2 x half>, <2 x half> addrspace(1)* %b, i64 %i
  %x = load <2 x half>, <2 x half> addrspace(1)* %pa, align 4
  %y = load <2 x half>, <2 x half> addrspace(1)* %pb, align 4
  %s = fadd <2 x half> %x, %y
  %m = fmul <2 x half> %s, %y
  %c = fcmp ogt <2 x half> %x, %y
  %sel = select <2 x i1> %c, <2 x half> %m, <2 x half> %x
  %sw = shufflevector <2 x half> %sel, <2 x half> undef, <2 x i32> <i32 1, i32 0>
  %po = getelementptr <2 x half>, <2 x half> addrspace(1)* %o, i64 %i
  store <2 x half> %sw, <2 x half> addrspace(1)* %po, align 4
  ret void
}

define void @half_convert(float addrspace(1)* %f, i32 addrspace(1)* %n, half addrspace(1)* %h, double addrspace(1)* %d) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pf = getelementptr float, float addrspace(1)* %f, i64 %i
  %pn = getelementptr i32, i32 addrspace(1)* %n, i64 %i
  %vf = load float, float addrspace(1)* %pf
  %vn = load i32, i32 addrspace(1)* %pn
  %h1 = fptrunc float %vf to half
  %h2 = sitofp i32 %vn to half
  %h3 = fadd half %h1, %h2
  %ph = getelementptr half, half addrspace(1)* %h, i64 %i
  store half %h3, half addrspace(1)* %ph
  %back = fpext half %h3 to double
  %pd = getelementptr double, double addrspace(1)* %d, i64 %i
  store double %back, double addrspace(1)* %pd
  %ii = fptoui half %h3 to i32
  store i32 %ii, i32 addrspace(1)* %pn
  %bits = bitcast half %h1 to i16
  %bw = zext i16 %bits to i32
  %fb = bitcast i32 %bw to float
  store float %fb, float addrspace(1)* %pf
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (half addrspace(1)*, half addrspace(1)*, half addrspace(1)*, i16 addrspace(1)*)* @half_scalar, !"kernel", i32 1}
!1 = !{void (<2 x half> addrspace(1)*, <2 x half> addrspace(1)*, <2 x half> addrspace(1)*)* @half_vec, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, i32 addrspace(1)*, half addrspace(1)*, double addrspace(1)*)* @half_convert, !"kernel", i32 1}
