; Nested loops with phis, data-dependent trip counts, multiple exits, and an irreducible region.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; Collatz steps with a cap: loop with two exits.
define void @collatz(i64 addrspace(1)* %seeds, i32 addrspace(1)* %steps, i32 %cap) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c8 = shl i32 %c, 8
  %g = add i32 %c8, %t
  %gi = zext i32 %g to i64
  %ps = getelementptr i64, i64 addrspace(1)* %seeds, i64 %gi
  %n0 = load i64, i64 addrspace(1)* %ps
  %z = icmp ule i64 %n0, 1
  br i1 %z, label %out, label %loop
loop:
  %n = phi i64 [ %n0, %entry ], [ %n.next, %cont ]
  %k = phi i32 [ 0, %entry ], [ %k.next, %cont ]
  %over = icmp sge i32 %k, %cap
  br i1 %over, label %capped, label %step
step:
  %odd = and i64 %n, 1
  %isodd = icmp ne i64 %odd, 0
  br i1 %isodd, label %oddb, label %evenb
oddb:
  %m3 = mul i64 %n, 3
  %m3p = add i64 %m3, 1
  br label %cont
evenb:
  %h = lshr i64 %n, 1
  br label %cont
cont:
  %n.next = phi i64 [ %m3p, %oddb ], [ %h, %evenb ]
  %k.next = add nuw nsw i32 %k, 1
  %one = icmp eq i64 %n.next, 1
  br i1 %one, label %out, label %loop
capped:
  br label %out
out:
  %r = phi i32 [ 0, %entry ], [ %k.next, %cont ], [ -1, %capped ]
  %po = getelementptr i32, i32 addrspace(1)* %steps, i64 %gi
  store i32 %r, i32 addrspace(1)* %po
  ret void
}

; Triangular loop nest over a matrix row with a continue-like skip.
define void @triangle(float addrspace(1)* %m, i32 addrspace(1)* %lens, float addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %pl = getelementptr i32, i32 addrspace(1)* %lens, i64 %ti
  %L = load i32, i32 addrspace(1)* %pl
  %row = mul i64 %ti, 64
  %has = icmp sgt i32 %L, 0
  br i1 %has, label %outer, label %fin
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc.o = phi float [ 0.0, %entry ], [ %acc.i.end, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner.latch ]
  %acc.i = phi float [ %acc.o, %outer ], [ %acc.new, %inner.latch ]
  %ij = add i32 %i, %j
  %ij63 = and i32 %ij, 63
  %ijw = zext i32 %ij63 to i64
  %idx = add i64 %row, %ijw
  %pe = getelementptr float, float addrspace(1)* %m, i64 %idx
  %e = load float, float addrspace(1)* %pe
  %neg = fcmp olt float %e, 0.0
  br i1 %neg, label %inner.latch, label %accum
accum:
  %sum = fadd float %acc.i, %e
  br label %inner.latch
inner.latch:
  %acc.new = phi float [ %acc.i, %inner ], [ %sum, %accum ]
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp sgt i32 %j.next, %i
  br i1 %jdone, label %outer.latch, label %inner
outer.latch:
  %acc.i.end = phi float [ %acc.new, %inner.latch ]
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %L
  br i1 %idone, label %fin, label %outer
fin:
  %res = phi float [ 0.0, %entry ], [ %acc.i.end, %outer.latch ]
  %po = getelementptr float, float addrspace(1)* %out, i64 %ti
  store float %res, float addrspace(1)* %po
  ret void
}

; Irreducible control flow: two blocks that jump into each other, entered from either side.
define void @irreducible(i32 addrspace(1)* %p, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %t, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %left, label %right
left:
  %l.v = phi i32 [ %t, %entry ], [ %r.next, %right ]
  %l.next = mul i32 %l.v, 3
  %l.stop = icmp sgt i32 %l.next, %n
  br i1 %l.stop, label %exit, label %right
right:
  %r.v = phi i32 [ %t, %entry ], [ %l.next, %left ]
  %r.next = add i32 %r.v, 7
  %r.stop = icmp sgt i32 %r.next, %n
  br i1 %r.stop, label %exit, label %left
exit:
  %v = phi i32 [ %l.next, %left ], [ %r.next, %right ]
  %ti = zext i32 %t to i64
  %q = getelementptr i32, i32 addrspace(1)* %p, i64 %ti
  store i32 %v, i32 addrspace(1)* %q
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (i64 addrspace(1)*, i32 addrspace(1)*, i32)* @collatz, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, i32 addrspace(1)*, float addrspace(1)*)* @triangle, !"kernel", i32 1}
!2 = !{void (i32 addrspace(1)*, i32)* @irreducible, !"kernel", i32 1}
