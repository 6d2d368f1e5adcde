; Math and bit intrinsics: llvm.* generic ones and llvm.nvvm.* approximations / rounding variants.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.fabs.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare double @llvm.minnum.f64(double, double)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)
declare double @llvm.nearbyint.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.sin.approx.f(float)
declare float @llvm.nvvm.cos.approx.f(float)
declare float @llvm.nvvm.div.rn.f(float, float)
declare float @llvm.nvvm.div.approx.f(float, float)
declare double @llvm.nvvm.rcp.rn.d(double)
declare float @llvm.nvvm.fma.rz.f(float, float, float)
declare float @llvm.nvvm.saturate.f(float)
declare float @llvm.nvvm.add.rm.f(float, float)
declare double @llvm.nvvm.mul.rp.d(double, double)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.bitreverse.i32(i32)
declare i64 @llvm.bitreverse.i64(i64)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.nvvm.prmt(i32, i32, i32)
declare i32 @llvm.nvvm.mulhi.i(i32, i32)
declare i64 @llvm.nvvm.mulhi.ull(i64, i64)
declare i32 @llvm.nvvm.sad.i(i32, i32, i32)

define void @float_math(float addrspace(1)* %x, double addrspace(1)* %d) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %p
  %a = call float @llvm.fabs.f32(float %v)
  %s = call float @llvm.sqrt.f32(float %a)
  %r = call float @llvm.nvvm.rsqrt.approx.f(float %a)
  %e = call float @llvm.nvvm.ex2.approx.f(float %v)
  %l = call float @llvm.nvvm.lg2.approx.f(float %a)
  %sn = call float @llvm.nvvm.sin.approx.f(float %v)
  %cs = call float @llvm.nvvm.cos.approx.f(float %v)
  %dv = call float @llvm.nvvm.div.rn.f(float %v, float 3.0)
  %da = call float @llvm.nvvm.div.approx.f(float %v, float %s)
  %fz = call float @llvm.nvvm.fma.rz.f(float %v, float %r, float %e)
  %st = call float @llvm.nvvm.saturate.f(float %v)
  %ad = call float @llvm.nvvm.add.rm.f(float %v, float %l)
  %mn = call float @llvm.minnum.f32(float %sn, float %cs)
  %mx = call float @llvm.maxnum.f32(float %dv, float %da)
  %fl = call float @llvm.floor.f32(float %v)
  %ce = call float @llvm.ceil.f32(float %v)
  %tr = call float @llvm.trunc.f32(float %v)
  %ri = call float @llvm.rint.f32(float %v)
  %cp = call float @llvm.copysign.f32(float %ri, float %sn)
  %fd = fdiv float %fl, %ce
  %frm = frem float %v, 2.5
  %s1 = fadd float %s, %fz
  %s2 = fadd float %s1, %st
  %s3 = fadd float %s2, %ad
  %s4 = fadd float %s3, %mn
  %s5 = fadd float %s4, %mx
  %s6 = fadd float %s5, %tr
  %s7 = fadd float %s6, %cp
  %s8 = fadd float %s7, %fd
  %s9 = fadd float %s8, %frm
  store float %s9, float addrspace(1)* %p
  %pd = getelementptr double, double addrspace(1)* %d, i64 %i
  %w = load double, double addrspace(1)* %pd
  %ws = call double @llvm.sqrt.f64(double %w)
  %wr = call double @llvm.nvvm.rcp.rn.d(double %w)
  %wm = call double @llvm.nvvm.mul.rp.d(double %ws, double %wr)
  %wn = call double @llvm.nearbyint.f64(double %wm)
  %wf = call double @llvm.fma.f64(double %wn, double %w, double %wr)
  %wmin = call double @llvm.minnum.f64(double %wf, double 1.0e10)
  %wdiv = fdiv double %wmin, 7.0
  store double %wdiv, double addrspace(1)* %pd
  ret void
}

define void @bit_math(i32 addrspace(1)* %x, i64 addrspace(1)* %y) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, i32 addrspace(1)* %x, i64 %i
  %v = load i32, i32 addrspace(1)* %p
  %pc = call i32 @llvm.ctpop.i32(i32 %v)
  %lz = call i32 @llvm.ctlz.i32(i32 %v, i1 false)
  %bs = call i32 @llvm.bswap.i32(i32 %v)
  %br = call i32 @llvm.bitreverse.i32(i32 %v)
  %fl = call i32 @llvm.fshl.i32(i32 %v, i32 %bs, i32 %t)
  %fr = call i32 @llvm.fshr.i32(i32 %v, i32 %br, i32 13)
  %pm = call i32 @llvm.nvvm.prmt(i32 %v, i32 %bs, i32 16961)
  %mh = call i32 @llvm.nvvm.mulhi.i(i32 %v, i32 %fl)
  %sd = call i32 @llvm.nvvm.sad.i(i32 %v, i32 %fr, i32 %pc)
  %a1 = add i32 %pc, %lz
  %a2 = xor i32 %a1, %fl
  %a3 = xor i32 %a2, %fr
  %a4 = add i32 %a3, %pm
  %a5 = add i32 %a4, %mh
  %a6 = add i32 %a5, %sd
  store i32 %a6, i32 addrspace(1)* %p
  %py = getelementptr i64, i64 addrspace(1)* %y, i64 %i
  %w = load i64, i64 addrspace(1)* %py
  %wp = call i64 @llvm.ctpop.i64(i64 %w)
  %wt = call i64 @llvm.cttz.i64(i64 %w, i1 true)
  %wb = call i64 @llvm.bitreverse.i64(i64 %w)
  %wh = call i64 @llvm.nvvm.mulhi.ull(i64 %w, i64 %wb)
  %b1 = add i64 %wp, %wt
  %b2 = xor i64 %b1, %wh
  store i64 %b2, i64 addrspace(1)* %py
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, double addrspace(1)*)* @float_math, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i64 addrspace(1)*)* @bit_math, !"kernel", i32 1}
