; Dynamically sized shared memory (external zero-length addrspace(3) array) carved into two typed views.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i8], align 16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

define void @dyn_reverse(float addrspace(1)* %vals, i32 addrspace(1)* %keys) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %c, %n
  %g = add i32 %base, %t
  %gw = zext i32 %g to i64
  %fview = bitcast [0 x i8] addrspace(3)* @dyn to float addrspace(3)*
  %nw = zext i32 %n to i64
  %kbytes = shl i64 %nw, 2
  %kraw = getelementptr [0 x i8], [0 x i8] addrspace(3)* @dyn, i64 0, i64 %kbytes
  %kview = bitcast i8 addrspace(3)* %kraw to i32 addrspace(3)*
  %tw = zext i32 %t to i64
  %pv = getelementptr float, float addrspace(1)* %vals, i64 %gw
  %pk = getelementptr i32, i32 addrspace(1)* %keys, i64 %gw
  %v = load float, float addrspace(1)* %pv
  %k = load i32, i32 addrspace(1)* %pk
  %sf = getelementptr float, float addrspace(3)* %fview, i64 %tw
  %sk = getelementptr i32, i32 addrspace(3)* %kview, i64 %tw
  store float %v, float addrspace(3)* %sf
  store i32 %k, i32 addrspace(3)* %sk
  call void @llvm.nvvm.barrier0()
  %m1 = sub i32 %n, 1
  %r = sub i32 %m1, %t
  %rw = zext i32 %r to i64
  %rf = getelementptr float, float addrspace(3)* %fview, i64 %rw
  %rk = getelementptr i32, i32 addrspace(3)* %kview, i64 %rw
  %vr = load float, float addrspace(3)* %rf
  %kr = load i32, i32 addrspace(3)* %rk
  store float %vr, float addrspace(1)* %pv
  store i32 %kr, i32 addrspace(1)* %pk
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*)* @dyn_reverse, !"kernel", i32 1}
