; Performance-tuning annotations that become PTX directives: maxntid, reqntid, minnctapersm, maxnreg;
; plus a noinline device function shared by several kernels and one visible device function.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define internal float @shared_body(float addrspace(1)* %p, i32 %i) #0 {
  %iw = zext i32 %i to i64
  %q = getelementptr float, float addrspace(1)* %p, i64 %iw
  %v = load float, float addrspace(1)* %q
  %m = fmul float %v, 1.5
  store float %m, float addrspace(1)* %q
  ret float %m
}

define void @k_maxntid(float addrspace(1)* %p) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call float @shared_body(float addrspace(1)* %p, i32 %t)
  ret void
}

define void @k_reqntid(float addrspace(1)* %p) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %y = shl i32 %ty, 4
  %i = add i32 %y, %tx
  %r = call float @shared_body(float addrspace(1)* %p, i32 %i)
  ret void
}

define void @k_minctas(float addrspace(1)* %p) {
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = mul i32 %c, %n
  %i = add i32 %b, %t
  %r = call float @shared_body(float addrspace(1)* %p, i32 %i)
  ret void
}

; A visible (non-kernel) device function: becomes .visible .func.
define float @exported_device(float %x, float %y) #0 {
  %s = fadd float %x, %y
  %m = fmul float %s, %s
  ret float %m
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9}
!0 = !{void (float addrspace(1)*)* @k_maxntid, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*)* @k_maxntid, !"maxntidx", i32 256}
!2 = !{void (float addrspace(1)*)* @k_reqntid, !"kernel", i32 1}
!3 = !{void (float addrspace(1)*)* @k_reqntid, !"reqntidx", i32 16}
!4 = !{void (float addrspace(1)*)* @k_reqntid, !"reqntidy", i32 8}
!5 = !{void (float addrspace(1)*)* @k_minctas, !"kernel", i32 1}
!6 = !{void (float addrspace(1)*)* @k_minctas, !"maxntidx", i32 128}
!7 = !{void (float addrspace(1)*)* @k_minctas, !"minctasm", i32 4}
!8 = !{void (float addrspace(1)*)* @k_minctas, !"maxnreg", i32 32}
!9 = !{void (float addrspace(1)*)* @k_maxntid, !"maxntidy", i32 1}
