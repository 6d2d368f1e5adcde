; Block reduction in static shared memory (addrspace(3)) with bar.sync, plus a shared-memory scan.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partial = internal addrspace(3) global [256 x float] undef, align 4
@scanbuf = internal addrspace(3) global [2 x [128 x i32]] undef, align 4
@blocktotal = internal addrspace(3) global i32 undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

define void @block_sum(float addrspace(1)* %in, float addrspace(1)* %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = shl i32 %c, 8
  %g = add i32 %b, %t
  %ok = icmp slt i32 %g, %n
  br i1 %ok, label %load, label %store0
load:
  %gw = sext i32 %g to i64
  %pin = getelementptr float, float addrspace(1)* %in, i64 %gw
  %v = load float, float addrspace(1)* %pin
  br label %store0
store0:
  %x = phi float [ %v, %load ], [ 0.0, %entry ]
  %tw = zext i32 %t to i64
  %ps = getelementptr [256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 %tw
  store float %x, float addrspace(3)* %ps
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %s = phi i32 [ 128, %store0 ], [ %s.next, %cont ]
  %active = icmp ult i32 %t, %s
  br i1 %active, label %add, label %cont
add:
  %o = add i32 %t, %s
  %ow = zext i32 %o to i64
  %po = getelementptr [256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 %ow
  %a = load float, float addrspace(3)* %ps
  %bb = load float, float addrspace(3)* %po
  %sum = fadd float %a, %bb
  store float %sum, float addrspace(3)* %ps
  br label %cont
cont:
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ne i32 %s.next, 0
  br i1 %more, label %loop, label %fin
fin:
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %write, label %done
write:
  %r = load float, float addrspace(3)* getelementptr ([256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 0)
  %cw = zext i32 %c to i64
  %pout = getelementptr float, float addrspace(1)* %out, i64 %cw
  store float %r, float addrspace(1)* %pout
  br label %done
done:
  ret void
}

; Hillis-Steele inclusive scan with double buffering; the buffer index is a phi.
define void @block_scan(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tw = zext i32 %t to i64
  %pin = getelementptr i32, i32 addrspace(1)* %in, i64 %tw
  %v = load i32, i32 addrspace(1)* %pin
  %p0 = getelementptr [2 x [128 x i32]], [2 x [128 x i32]] addrspace(3)* @scanbuf, i64 0, i64 0, i64 %tw
  store i32 %v, i32 addrspace(3)* %p0
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %off = phi i32 [ 1, %entry ], [ %off.next, %loop.end ]
  %cur = phi i64 [ 0, %entry ], [ %nxt, %loop.end ]
  %nxt = xor i64 %cur, 1
  %pc = getelementptr [2 x [128 x i32]], [2 x [128 x i32]] addrspace(3)* @scanbuf, i64 0, i64 %cur, i64 %tw
  %mine = load i32, i32 addrspace(3)* %pc
  %ge = icmp uge i32 %t, %off
  br i1 %ge, label %addp, label %copy
addp:
  %src = sub i32 %t, %off
  %srcw = zext i32 %src to i64
  %pp = getelementptr [2 x [128 x i32]], [2 x [128 x i32]] addrspace(3)* @scanbuf, i64 0, i64 %cur, i64 %srcw
  %other = load i32, i32 addrspace(3)* %pp
  %s = add i32 %mine, %other
  br label %loop.end
copy:
  br label %loop.end
loop.end:
  %val = phi i32 [ %s, %addp ], [ %mine, %copy ]
  %pn = getelementptr [2 x [128 x i32]], [2 x [128 x i32]] addrspace(3)* @scanbuf, i64 0, i64 %nxt, i64 %tw
  store i32 %val, i32 addrspace(3)* %pn
  call void @llvm.nvvm.barrier0()
  %off.next = shl i32 %off, 1
  %again = icmp ult i32 %off.next, 128
  br i1 %again, label %loop, label %done
done:
  %last = icmp eq i32 %t, 127
  br i1 %last, label %settotal, label %wr
settotal:
  store i32 %val, i32 addrspace(3)* @blocktotal
  br label %wr
wr:
  call void @llvm.nvvm.barrier0()
  %tot = load i32, i32 addrspace(3)* @blocktotal
  %res = sub i32 %tot, %val
  %pout = getelementptr i32, i32 addrspace(1)* %out, i64 %tw
  store i32 %res, i32 addrspace(1)* %pout
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @block_sum, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @block_scan, !"kernel", i32 1}
