; Indirect calls through a global table of function pointers and through a pointer parameter.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal float @op_sq(float %x) #0 {
  %r = fmul float %x, %x
  ret float %r
}
define internal float @op_neg(float %x) #0 {
  %r = fneg float %x
  ret float %r
}
define internal float @op_half(float %x) #0 {
  %r = fmul float %x, 0.5
  ret float %r
}
define float @op_inc(float %x) #0 {
  %r = fadd float %x, 1.0
  ret float %r
}

define internal i64 @combine(i32 %a, i64 %b, float %c) #0 {
  %ae = sext i32 %a to i64
  %s = add i64 %ae, %b
  %ci = fptosi float %c to i64
  %r = mul i64 %s, %ci
  ret i64 %r
}

@unary_table = internal addrspace(1) global [4 x float (float)*] [float (float)* @op_sq, float (float)* @op_neg, float (float)* @op_half, float (float)* @op_inc], align 8

define void @dispatch(float addrspace(1)* %x, i32 addrspace(1)* %sel) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %ps = getelementptr i32, i32 addrspace(1)* %sel, i64 %i
  %s = load i32, i32 addrspace(1)* %ps
  %s3 = and i32 %s, 3
  %sw = zext i32 %s3 to i64
  %pf = getelementptr [4 x float (float)*], [4 x float (float)*] addrspace(1)* @unary_table, i64 0, i64 %sw
  %f = load float (float)*, float (float)* addrspace(1)* %pf, align 8
  %px = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %px
  %r = call float %f(float %v)
  %r2 = call float %f(float %r)
  store float %r2, float addrspace(1)* %px
  ret void
}

; The callee arrives as a kernel parameter (a generic code address).
define void @apply_param(float (float)* %fn, i64 (i32, i64, float)* %fn3, float addrspace(1)* %x, i64 addrspace(1)* %y) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %px = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %px
  %r = call float %fn(float %v)
  store float %r, float addrspace(1)* %px
  %w = call i64 %fn3(i32 %t, i64 %i, float %r)
  %py = getelementptr i64, i64 addrspace(1)* %y, i64 %i
  store i64 %w, i64 addrspace(1)* %py
  ret void
}

; Pick a function with select, call it.
define void @select_callee(float addrspace(1)* %x, i64 addrspace(1)* %y) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %px = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %px
  %pos = fcmp ogt float %v, 0.0
  %f = select i1 %pos, float (float)* @op_sq, float (float)* @op_neg
  %r = call float %f(float %v)
  store float %r, float addrspace(1)* %px
  %c = call i64 @combine(i32 %t, i64 %i, float %r)
  %py = getelementptr i64, i64 addrspace(1)* %y, i64 %i
  store i64 %c, i64 addrspace(1)* %py
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*)* @dispatch, !"kernel", i32 1}
!1 = !{void (float (float)*, i64 (i32, i64, float)*, float addrspace(1)*, i64 addrspace(1)*)* @apply_param, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, i64 addrspace(1)*)* @select_callee, !"kernel", i32 1}
