; atomicrmw of every kind on global and shared memory, i32/i64/f32/f64, plus cmpxchg loops and fences.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem_i = internal addrspace(3) global i32 0, align 4
@smem_l = internal addrspace(3) global i64 0, align 8
@smem_f = internal addrspace(3) global float 0.0, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.sys()

define void @rmw_global(i32 addrspace(1)* %pi, i64 addrspace(1)* %pl, float addrspace(1)* %pf, double addrspace(1)* %pd, i32 %v) {
entry:
  %a0 = atomicrmw add i32 addrspace(1)* %pi, i32 %v monotonic
  %q1 = getelementptr i32, i32 addrspace(1)* %pi, i64 1
  %a1 = atomicrmw sub i32 addrspace(1)* %q1, i32 %v monotonic
  %q2 = getelementptr i32, i32 addrspace(1)* %pi, i64 2
  %a2 = atomicrmw and i32 addrspace(1)* %q2, i32 %a0 monotonic
  %q3 = getelementptr i32, i32 addrspace(1)* %pi, i64 3
  %a3 = atomicrmw or i32 addrspace(1)* %q3, i32 %a1 monotonic
  %q4 = getelementptr i32, i32 addrspace(1)* %pi, i64 4
  %a4 = atomicrmw xor i32 addrspace(1)* %q4, i32 %a2 monotonic
  %q5 = getelementptr i32, i32 addrspace(1)* %pi, i64 5
  %a5 = atomicrmw max i32 addrspace(1)* %q5, i32 %a3 monotonic
  %q6 = getelementptr i32, i32 addrspace(1)* %pi, i64 6
  %a6 = atomicrmw min i32 addrspace(1)* %q6, i32 %a4 monotonic
  %q7 = getelementptr i32, i32 addrspace(1)* %pi, i64 7
  %a7 = atomicrmw umax i32 addrspace(1)* %q7, i32 %a5 monotonic
  %q8 = getelementptr i32, i32 addrspace(1)* %pi, i64 8
  %a8 = atomicrmw umin i32 addrspace(1)* %q8, i32 %a6 monotonic
  %q9 = getelementptr i32, i32 addrspace(1)* %pi, i64 9
  %a9 = atomicrmw xchg i32 addrspace(1)* %q9, i32 %a7 monotonic
  %w = sext i32 %a9 to i64
  %l0 = atomicrmw add i64 addrspace(1)* %pl, i64 %w monotonic
  %r1 = getelementptr i64, i64 addrspace(1)* %pl, i64 1
  %l1 = atomicrmw max i64 addrspace(1)* %r1, i64 %l0 monotonic
  %r2 = getelementptr i64, i64 addrspace(1)* %pl, i64 2
  %l2 = atomicrmw umin i64 addrspace(1)* %r2, i64 %l1 monotonic
  %r3 = getelementptr i64, i64 addrspace(1)* %pl, i64 3
  %l3 = atomicrmw xchg i64 addrspace(1)* %r3, i64 %l2 monotonic
  %r4 = getelementptr i64, i64 addrspace(1)* %pl, i64 4
  %l4 = atomicrmw and i64 addrspace(1)* %r4, i64 %l3 monotonic
  %f = sitofp i32 %a8 to float
  %f0 = atomicrmw fadd float addrspace(1)* %pf, float %f monotonic
  %d = fpext float %f0 to double
  %d0 = atomicrmw fadd double addrspace(1)* %pd, double %d monotonic
  %cx = cmpxchg i32 addrspace(1)* %pi, i32 0, i32 %v monotonic monotonic
  %cxv = extractvalue { i32, i1 } %cx, 0
  %cxl = cmpxchg i64 addrspace(1)* %pl, i64 %l4, i64 %w monotonic monotonic
  %cxlv = extractvalue { i64, i1 } %cxl, 0
  call void @llvm.nvvm.membar.gl()
  %s = add i32 %cxv, %a9
  %q10 = getelementptr i32, i32 addrspace(1)* %pi, i64 10
  store volatile i32 %s, i32 addrspace(1)* %q10
  %dz = fptosi double %d0 to i64
  %sum = add i64 %dz, %cxlv
  %r5 = getelementptr i64, i64 addrspace(1)* %pl, i64 5
  store i64 %sum, i64 addrspace(1)* %r5
  ret void
}

; Shared-memory atomics and a CAS loop implementing float max.
define void @rmw_shared(float addrspace(1)* %in, float addrspace(1)* %out, i32 addrspace(1)* %cnt) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %init, label %go
init:
  store i32 0, i32 addrspace(3)* @smem_i
  store i64 0, i64 addrspace(3)* @smem_l
  store float 0xFFF0000000000000, float addrspace(3)* @smem_f
  br label %go
go:
  call void @llvm.nvvm.barrier0()
  %tw = zext i32 %t to i64
  %p = getelementptr float, float addrspace(1)* %in, i64 %tw
  %v = load float, float addrspace(1)* %p
  %one = atomicrmw add i32 addrspace(3)* @smem_i, i32 1 monotonic
  %tl = atomicrmw add i64 addrspace(3)* @smem_l, i64 %tw monotonic
  %vi = bitcast float %v to i32
  %fp = bitcast float addrspace(3)* @smem_f to i32 addrspace(3)*
  %start = load volatile i32, i32 addrspace(3)* %fp
  br label %cas
cas:
  %old = phi i32 [ %start, %go ], [ %seen, %retry ]
  %oldf = bitcast i32 %old to float
  %bigger = fcmp ogt float %v, %oldf
  br i1 %bigger, label %try, label %casdone
try:
  %pair = cmpxchg i32 addrspace(3)* %fp, i32 %old, i32 %vi monotonic monotonic
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %casdone, label %retry
retry:
  br label %cas
casdone:
  call void @llvm.nvvm.membar.cta()
  call void @llvm.nvvm.barrier0()
  br i1 %is0, label %publish, label %end
publish:
  %m = load float, float addrspace(3)* @smem_f
  store float %m, float addrspace(1)* %out
  %c = load i32, i32 addrspace(3)* @smem_i
  %g = atomicrmw add i32 addrspace(1)* %cnt, i32 %c monotonic
  call void @llvm.nvvm.membar.sys()
  br label %end
end:
  ret void
}

; Atomics through generic pointers.
define void @rmw_generic(i32* %p, float* %f) {
  %a = atomicrmw add i32* %p, i32 3 monotonic
  %b = atomicrmw fadd float* %f, float 1.5 monotonic
  %c = atomicrmw umax i32* %p, i32 %a monotonic
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, float addrspace(1)*, double addrspace(1)*, i32)* @rmw_global, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(1)*)* @rmw_shared, !"kernel", i32 1}
!2 = !{void (i32*, float*)* @rmw_generic, !"kernel", i32 1}
