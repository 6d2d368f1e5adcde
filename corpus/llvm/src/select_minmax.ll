; Branch-free code: select chains, smin/smax/umin/umax/abs intrinsics, saturating add/sub, sorting network.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i64 @llvm.umax.i64(i64, i64)
declare i32 @llvm.abs.i32(i32, i1)
declare i16 @llvm.sadd.sat.i16(i16, i16)
declare i8 @llvm.usub.sat.i8(i8, i8)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.umul.with.overflow.i32(i32, i32)

define void @int_select(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %o, i64 addrspace(1)* %w) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr i32, i32 addrspace(1)* %a, i64 %i
  %pb = getelementptr i32, i32 addrspace(1)* %b, i64 %i
  %x = load i32, i32 addrspace(1)* %pa
  %y = load i32, i32 addrspace(1)* %pb
  %mn = call i32 @llvm.smin.i32(i32 %x, i32 %y)
  %mx = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  %um = call i32 @llvm.umin.i32(i32 %x, i32 %y)
  %ab = call i32 @llvm.abs.i32(i32 %x, i1 false)
  %lo = icmp slt i32 %x, -100
  %hi = icmp sgt i32 %x, 100
  %c1 = select i1 %hi, i32 100, i32 %x
  %clamp = select i1 %lo, i32 -100, i32 %c1
  %pos = icmp sgt i32 %x, 0
  %neg = icmp slt i32 %x, 0
  %sg1 = zext i1 %pos to i32
  %sg2 = zext i1 %neg to i32
  %sgn = sub i32 %sg1, %sg2
  %ov = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %x, i32 %y)
  %ovv = extractvalue { i32, i1 } %ov, 0
  %ovf = extractvalue { i32, i1 } %ov, 1
  %safe = select i1 %ovf, i32 2147483647, i32 %ovv
  %mo = call { i32, i1 } @llvm.umul.with.overflow.i32(i32 %x, i32 %y)
  %mof = extractvalue { i32, i1 } %mo, 1
  %mov = extractvalue { i32, i1 } %mo, 0
  %msafe = select i1 %mof, i32 -1, i32 %mov
  %x16 = trunc i32 %x to i16
  %y16 = trunc i32 %y to i16
  %s16 = call i16 @llvm.sadd.sat.i16(i16 %x16, i16 %y16)
  %s16e = sext i16 %s16 to i32
  %x8 = trunc i32 %x to i8
  %y8 = trunc i32 %y to i8
  %d8 = call i8 @llvm.usub.sat.i8(i8 %x8, i8 %y8)
  %d8e = zext i8 %d8 to i32
  %r1 = add i32 %mn, %mx
  %r2 = xor i32 %r1, %um
  %r3 = add i32 %r2, %ab
  %r4 = add i32 %r3, %clamp
  %r5 = mul i32 %r4, %sgn
  %r6 = add i32 %r5, %safe
  %r7 = xor i32 %r6, %msafe
  %r8 = add i32 %r7, %s16e
  %r9 = add i32 %r8, %d8e
  %both = and i1 %pos, %ovf
  %fin = select i1 %both, i32 0, i32 %r9
  %po = getelementptr i32, i32 addrspace(1)* %o, i64 %i
  store i32 %fin, i32 addrspace(1)* %po
  %xw = zext i32 %x to i64
  %yw = sext i32 %y to i64
  %um64 = call i64 @llvm.umax.i64(i64 %xw, i64 %yw)
  %pw = getelementptr i64, i64 addrspace(1)* %w, i64 %i
  store i64 %um64, i64 addrspace(1)* %pw
  ret void
}

define internal void @cswap(float* %a, float* %b) alwaysinline {
  %x = load float, float* %a
  %y = load float, float* %b
  %lt = fcmp olt float %x, %y
  %lo = select i1 %lt, float %x, float %y
  %hi = select i1 %lt, float %y, float %x
  store float %lo, float* %a
  store float %hi, float* %b
  ret void
}

define void @sort4(<4 x float> addrspace(1)* %v) {
entry:
  %s = alloca [4 x float], align 16
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr <4 x float>, <4 x float> addrspace(1)* %v, i64 %i
  %x = load <4 x float>, <4 x float> addrspace(1)* %p
  %sp = bitcast [4 x float]* %s to <4 x float>*
  store <4 x float> %x, <4 x float>* %sp
  %e0 = getelementptr [4 x float], [4 x float]* %s, i64 0, i64 0
  %e1 = getelementptr [4 x float], [4 x float]* %s, i64 0, i64 1
  %e2 = getelementptr [4 x float], [4 x float]* %s, i64 0, i64 2
  %e3 = getelementptr [4 x float], [4 x float]* %s, i64 0, i64 3
  call void @cswap(float* %e0, float* %e1)
  call void @cswap(float* %e2, float* %e3)
  call void @cswap(float* %e0, float* %e2)
  call void @cswap(float* %e1, float* %e3)
  call void @cswap(float* %e1, float* %e2)
  %y = load <4 x float>, <4 x float>* %sp
  store <4 x float> %y, <4 x float> addrspace(1)* %p
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*, i64 addrspace(1)*)* @int_select, !"kernel", i32 1}
!1 = !{void (<4 x float> addrspace(1)*)* @sort4, !"kernel", i32 1}
