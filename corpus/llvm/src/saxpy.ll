; SAXPY and a guarded scale kernel: special registers, 64-bit address math, fma.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare float @llvm.fma.f32(float, float, float)

define void @saxpy(i32 %n, float %a, float addrspace(1)* noalias readonly %x, float addrspace(1)* noalias %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit

body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, float addrspace(1)* %x, i64 %idx
  %py = getelementptr inbounds float, float addrspace(1)* %y, i64 %idx
  %vx = load float, float addrspace(1)* %px, align 4
  %vy = load float, float addrspace(1)* %py, align 4
  %r = call float @llvm.fma.f32(float %a, float %vx, float %vy)
  store float %r, float addrspace(1)* %py, align 4
  br label %exit

exit:
  ret void
}

; Generic (flat) pointer parameters, converted by the backend.
define void @scale_generic(float* %p, i64 %n, float %s) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul nuw i32 %ctaid, %ntid
  %i32 = add nuw i32 %b, %tid
  %i = zext i32 %i32 to i64
  %ok = icmp ult i64 %i, %n
  br i1 %ok, label %body, label %exit
body:
  %q = getelementptr inbounds float, float* %p, i64 %i
  %v = load float, float* %q, align 4
  %m = fmul float %v, %s
  store float %m, float* %q, align 4
  br label %exit
exit:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32, float, float addrspace(1)*, float addrspace(1)*)* @saxpy, !"kernel", i32 1}
!1 = !{void (float*, i64, float)* @scale_generic, !"kernel", i32 1}
