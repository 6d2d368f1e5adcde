; Narrow and wide integers: i1, i8, i16, i32, i64 arithmetic, every icmp predicate, div/rem, ext/trunc.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @narrow_math(i8 addrspace(1)* %a8, i16 addrspace(1)* %a16, i8 addrspace(1)* %o8, i16 addrspace(1)* %o16, i1 addrspace(1)* %ob) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p8 = getelementptr i8, i8 addrspace(1)* %a8, i64 %i
  %p16 = getelementptr i16, i16 addrspace(1)* %a16, i64 %i
  %x = load i8, i8 addrspace(1)* %p8
  %y = load i16, i16 addrspace(1)* %p16
  %x2 = mul i8 %x, 37
  %x3 = add i8 %x2, -5
  %x4 = udiv i8 %x3, 3
  %x5 = srem i8 %x, 7
  %x6 = xor i8 %x4, %x5
  %x7 = ashr i8 %x6, 2
  %y2 = mul i16 %y, 1021
  %y3 = sdiv i16 %y2, -9
  %y4 = urem i16 %y, 100
  %y5 = shl i16 %y3, 3
  %y6 = or i16 %y5, %y4
  %xw = sext i8 %x7 to i16
  %s16 = add i16 %y6, %xw
  %tr = trunc i16 %s16 to i8
  %b0 = icmp eq i8 %tr, 0
  %b1 = icmp ne i16 %y, 0
  %b2 = xor i1 %b0, %b1
  %b3 = trunc i8 %x to i1
  %b4 = and i1 %b2, %b3
  %q8 = getelementptr i8, i8 addrspace(1)* %o8, i64 %i
  %q16 = getelementptr i16, i16 addrspace(1)* %o16, i64 %i
  %qb = getelementptr i1, i1 addrspace(1)* %ob, i64 %i
  store i8 %tr, i8 addrspace(1)* %q8
  store i16 %s16, i16 addrspace(1)* %q16
  store i1 %b4, i1 addrspace(1)* %qb
  ret void
}

define void @icmp_all(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i64 addrspace(1)* %c, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr i32, i32 addrspace(1)* %a, i64 %i
  %pb = getelementptr i32, i32 addrspace(1)* %b, i64 %i
  %x = load i32, i32 addrspace(1)* %pa
  %y = load i32, i32 addrspace(1)* %pb
  %c0 = icmp eq i32 %x, %y
  %c1 = icmp ne i32 %x, %y
  %c2 = icmp ugt i32 %x, %y
  %c3 = icmp uge i32 %x, %y
  %c4 = icmp ult i32 %x, %y
  %c5 = icmp ule i32 %x, %y
  %c6 = icmp sgt i32 %x, %y
  %c7 = icmp sge i32 %x, %y
  %c8 = icmp slt i32 %x, %y
  %c9 = icmp sle i32 %x, %y
  %z0 = zext i1 %c0 to i32
  %z1 = zext i1 %c1 to i32
  %z2 = zext i1 %c2 to i32
  %z3 = zext i1 %c3 to i32
  %z4 = zext i1 %c4 to i32
  %z5 = sext i1 %c5 to i32
  %z6 = zext i1 %c6 to i32
  %z7 = zext i1 %c7 to i32
  %z8 = zext i1 %c8 to i32
  %z9 = sext i1 %c9 to i32
  %s1 = shl i32 %z1, 1
  %s2 = shl i32 %z2, 2
  %s3 = shl i32 %z3, 3
  %s4 = shl i32 %z4, 4
  %s6 = shl i32 %z6, 6
  %s7 = shl i32 %z7, 7
  %s8 = shl i32 %z8, 8
  %r0 = or i32 %z0, %s1
  %r1 = or i32 %r0, %s2
  %r2 = or i32 %r1, %s3
  %r3 = or i32 %r2, %s4
  %r4 = xor i32 %r3, %z5
  %r5 = or i32 %r4, %s6
  %r6 = or i32 %r5, %s7
  %r7 = or i32 %r6, %s8
  %r8 = and i32 %r7, %z9
  ; 64-bit math mixed in
  %pc = getelementptr i64, i64 addrspace(1)* %c, i64 %i
  %w = load i64, i64 addrspace(1)* %pc
  %xw = sext i32 %x to i64
  %yw = zext i32 %y to i64
  %m = mul i64 %xw, %yw
  %d = sdiv i64 %w, 1000003
  %u = udiv i64 %w, %yw
  %rm = urem i64 %m, 4294967311
  %sh = lshr i64 %w, 17
  %sa = ashr i64 %m, 63
  %a1 = add i64 %m, %d
  %a2 = sub i64 %a1, %u
  %a3 = xor i64 %a2, %rm
  %a4 = or i64 %a3, %sh
  %a5 = and i64 %a4, %sa
  %big = icmp sgt i64 %a5, 4294967296
  %tr = trunc i64 %a5 to i32
  %sel = select i1 %big, i32 %tr, i32 %r8
  store i64 %a4, i64 addrspace(1)* %pc
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %i
  store i32 %sel, i32 addrspace(1)* %po
  ret void
}

; Odd-width integers are legalised by the backend.
define void @odd_widths(i64 addrspace(1)* %p) {
entry:
  %v = load i64, i64 addrspace(1)* %p
  %n = trunc i64 %v to i24
  %m = mul i24 %n, 12345
  %k = trunc i64 %v to i3
  %kk = add i3 %k, 5
  %e1 = zext i24 %m to i64
  %e2 = sext i3 %kk to i64
  %w = trunc i64 %v to i48
  %ws = lshr i48 %w, 7
  %e3 = zext i48 %ws to i64
  %s = add i64 %e1, %e2
  %s2 = add i64 %s, %e3
  store i64 %s2, i64 addrspace(1)* %p
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (i8 addrspace(1)*, i16 addrspace(1)*, i8 addrspace(1)*, i16 addrspace(1)*, i1 addrspace(1)*)* @narrow_math, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i64 addrspace(1)*, i32 addrspace(1)*)* @icmp_all, !"kernel", i32 1}
!2 = !{void (i64 addrspace(1)*)* @odd_widths, !"kernel", i32 1}
