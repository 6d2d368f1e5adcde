; A bytecode interpreter loop dispatching on a dense switch (0..11), with phi-carried state.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @interp(i8 addrspace(1)* %code, i32 %len, i32 addrspace(1)* %regs, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %pr = getelementptr i32, i32 addrspace(1)* %regs, i64 %ti
  %init = load i32, i32 addrspace(1)* %pr
  %empty = icmp sle i32 %len, 0
  br i1 %empty, label %done, label %loop

loop:
  %pc = phi i32 [ 0, %entry ], [ %pc.next, %latch ]
  %acc = phi i32 [ %init, %entry ], [ %acc.next, %latch ]
  %pcw = sext i32 %pc to i64
  %pop = getelementptr i8, i8 addrspace(1)* %code, i64 %pcw
  %op = load i8, i8 addrspace(1)* %pop
  %op32 = zext i8 %op to i32
  switch i32 %op32, label %bad [
    i32 0, label %op_inc
    i32 1, label %op_dec
    i32 2, label %op_dbl
    i32 3, label %op_half
    i32 4, label %op_neg
    i32 5, label %op_sq
    i32 6, label %op_not
    i32 7, label %op_tid
    i32 8, label %op_mod
    i32 9, label %op_abs
    i32 10, label %op_rot
    i32 11, label %op_halt
  ]

op_inc:
  %a0 = add i32 %acc, 1
  br label %latch
op_dec:
  %a1 = sub i32 %acc, 1
  br label %latch
op_dbl:
  %a2 = shl i32 %acc, 1
  br label %latch
op_half:
  %a3 = ashr i32 %acc, 1
  br label %latch
op_neg:
  %a4 = sub i32 0, %acc
  br label %latch
op_sq:
  %a5 = mul i32 %acc, %acc
  br label %latch
op_not:
  %a6 = xor i32 %acc, -1
  br label %latch
op_tid:
  %a7 = add i32 %acc, %t
  br label %latch
op_mod:
  %a8 = srem i32 %acc, 97
  br label %latch
op_abs:
  %isneg = icmp slt i32 %acc, 0
  %negv = sub i32 0, %acc
  %a9 = select i1 %isneg, i32 %negv, i32 %acc
  br label %latch
op_rot:
  %hi = shl i32 %acc, 5
  %lo = lshr i32 %acc, 27
  %a10 = or i32 %hi, %lo
  br label %latch
op_halt:
  br label %done
bad:
  br label %done

latch:
  %acc.next = phi i32 [ %a0, %op_inc ], [ %a1, %op_dec ], [ %a2, %op_dbl ], [ %a3, %op_half ], [ %a4, %op_neg ], [ %a5, %op_sq ], [ %a6, %op_not ], [ %a7, %op_tid ], [ %a8, %op_mod ], [ %a9, %op_abs ], [ %a10, %op_rot ]
  %pc.next = add nsw i32 %pc, 1
  %more = icmp slt i32 %pc.next, %len
  br i1 %more, label %loop, label %done

done:
  %res = phi i32 [ %init, %entry ], [ %acc, %op_halt ], [ -1, %bad ], [ %acc.next, %latch ]
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %ti
  store i32 %res, i32 addrspace(1)* %po
  ret void
}

; Dense switch returning constants: turned into a lookup table by the optimiser.
define internal i32 @days_in_month(i32 %m) #0 {
  switch i32 %m, label %other [
    i32 1, label %d31
    i32 2, label %d28
    i32 3, label %d31
    i32 4, label %d30
    i32 5, label %d31
    i32 6, label %d30
    i32 7, label %d31
    i32 8, label %d31
    i32 9, label %d30
    i32 10, label %d31
    i32 11, label %d30
    i32 12, label %d31
  ]
d31:
  ret i32 31
d30:
  ret i32 30
d28:
  ret i32 28
other:
  ret i32 0
}

define void @month_days(i32 addrspace(1)* %m) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, i32 addrspace(1)* %m, i64 %i
  %v = load i32, i32 addrspace(1)* %p
  %d = call i32 @days_in_month(i32 %v)
  store i32 %d, i32 addrspace(1)* %p
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (i8 addrspace(1)*, i32, i32 addrspace(1)*, i32 addrspace(1)*)* @interp, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*)* @month_days, !"kernel", i32 1}
