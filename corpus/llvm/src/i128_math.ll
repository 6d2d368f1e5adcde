; 128-bit integers (legalised to pairs of 64-bit registers): add/mul/shift/compare, and wide hashing.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i128 @mul_add(i128 %a, i128 %b, i128 %c) #0 {
  %m = mul i128 %a, %b
  %s = add i128 %m, %c
  ret i128 %s
}

define void @wide(i128 addrspace(1)* %p, i64 addrspace(1)* %q) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pp = getelementptr i128, i128 addrspace(1)* %p, i64 %i
  %x = load i128, i128 addrspace(1)* %pp, align 16
  %pq = getelementptr i64, i64 addrspace(1)* %q, i64 %i
  %y64 = load i64, i64 addrspace(1)* %pq
  %y = zext i64 %y64 to i128
  %ys = shl i128 %y, 64
  %z = or i128 %ys, %y
  %r = call i128 @mul_add(i128 %x, i128 %z, i128 340282366920938463463374607431768211455)
  %sh = lshr i128 %r, 71
  %sa = ashr i128 %r, 3
  %sl = shl i128 %x, 100
  %gt = icmp ugt i128 %sh, %sa
  %lt = icmp slt i128 %sl, 0
  %both = and i1 %gt, %lt
  %pick = select i1 %both, i128 %sh, i128 %sa
  %fin = xor i128 %pick, %sl
  store i128 %fin, i128 addrspace(1)* %pp, align 16
  %hi = lshr i128 %fin, 64
  %hi64 = trunc i128 %hi to i64
  %lo64 = trunc i128 %fin to i64
  %h = xor i64 %hi64, %lo64
  store i64 %h, i64 addrspace(1)* %pq
  ret void
}

; 64x64->128 multiply via zext, keeping the high half (mul.hi / mad.wide style code).
define void @mulhi64(i64 addrspace(1)* %a, i64 addrspace(1)* %b, i64 addrspace(1)* %hi) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr i64, i64 addrspace(1)* %a, i64 %i
  %pb = getelementptr i64, i64 addrspace(1)* %b, i64 %i
  %x = load i64, i64 addrspace(1)* %pa
  %y = load i64, i64 addrspace(1)* %pb
  %xw = zext i64 %x to i128
  %yw = zext i64 %y to i128
  %p = mul i128 %xw, %yw
  %h = lshr i128 %p, 64
  %h64 = trunc i128 %h to i64
  %sx = sext i64 %x to i128
  %sy = sext i64 %y to i128
  %sp = mul i128 %sx, %sy
  %sh = ashr i128 %sp, 64
  %sh64 = trunc i128 %sh to i64
  %r = add i64 %h64, %sh64
  %ph = getelementptr i64, i64 addrspace(1)* %hi, i64 %i
  store i64 %r, i64 addrspace(1)* %ph
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (i128 addrspace(1)*, i64 addrspace(1)*)* @wide, !"kernel", i32 1}
!1 = !{void (i64 addrspace(1)*, i64 addrspace(1)*, i64 addrspace(1)*)* @mulhi64, !"kernel", i32 1}
