; Inline PTX from LLVM IR: nanosleep back-off loop, fences, activemask, %globaltimer/%smid/%laneid,
; multi-output asm with a scoped .reg block (LLVM 14 has no intrinsics for several of these).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()

define void @spin_lock(i32 addrspace(1)* %mutex, i32 addrspace(1)* %data) {
entry:
  br label %try
try:
  %ns = phi i32 [ 8, %entry ], [ %ns.next, %backoff ]
  %pair = cmpxchg i32 addrspace(1)* %mutex, i32 0, i32 1 monotonic monotonic
  %got = extractvalue { i32, i1 } %pair, 1
  br i1 %got, label %locked, label %backoff
backoff:
  call void asm sideeffect "nanosleep.u32 $0;", "r"(i32 %ns)
  %dbl = shl i32 %ns, 1
  %cap = icmp ult i32 %dbl, 1024
  %ns.next = select i1 %cap, i32 %dbl, i32 1024
  br label %try
locked:
  call void asm sideeffect "fence.acq_rel.gpu;", "~{memory}"()
  %v = load volatile i32, i32 addrspace(1)* %data
  %v1 = add i32 %v, 1
  store volatile i32 %v1, i32 addrspace(1)* %data
  call void asm sideeffect "fence.acq_rel.gpu;", "~{memory}"()
  %old = atomicrmw xchg i32 addrspace(1)* %mutex, i32 0 monotonic
  ret void
}

define void @asm_misc(i32 addrspace(1)* %out, i64 addrspace(1)* %times) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"()
  %lane = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %sm = call i32 asm sideeffect "mov.u32 $0, %smid;", "=r"()
  %pair = call { i32, i32 } asm "{\0A\09.reg .u32 tmp;\0A\09add.u32 tmp, $2, $3;\0A\09mul.lo.u32 $0, tmp, 3;\0A\09sub.u32 $1, tmp, $3;\0A\09}", "=r,=r,r,r"(i32 %lane, i32 %sm)
  %p0 = extractvalue { i32, i32 } %pair, 0
  %p1 = extractvalue { i32, i32 } %pair, 1
  %bf = call i32 asm "bfe.u32 $0, $1, 4, 8;", "=r,r"(i32 %mask)
  %s1 = add i32 %p0, %p1
  %s2 = xor i32 %s1, %bf
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %i
  store i32 %s2, i32 addrspace(1)* %po
  %g0 = call i64 asm sideeffect "mov.u64 $0, %globaltimer;", "=l"()
  %c0 = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  call void asm sideeffect "nanosleep.u32 100;", ""()
  %c1 = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %g1 = call i64 asm sideeffect "mov.u64 $0, %globaltimer;", "=l"()
  %dc = sub i64 %c1, %c0
  %dg = sub i64 %g1, %g0
  %tot = add i64 %dc, %dg
  %pt = getelementptr i64, i64 addrspace(1)* %times, i64 %i
  store i64 %tot, i64 addrspace(1)* %pt
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @spin_lock, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i64 addrspace(1)*)* @asm_misc, !"kernel", i32 1}
