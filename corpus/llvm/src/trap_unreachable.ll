; Early exits: llvm.trap, unreachable after a noreturn call, guarded returns, exit via multiple rets.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.trap() noreturn nounwind
declare void @llvm.debugtrap() nounwind

define internal void @fail(i32 %code) noinline noreturn {
  %c = icmp eq i32 %code, 0
  br i1 %c, label %a, label %b
a:
  call void @llvm.trap()
  unreachable
b:
  call void @llvm.debugtrap()
  call void @llvm.trap()
  unreachable
}

define void @checked_gather(float addrspace(1)* %src, i32 addrspace(1)* %idx, float addrspace(1)* %dst, i32 %len, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %inr = icmp slt i32 %t, %n
  br i1 %inr, label %body, label %early
early:
  ret void
body:
  %i = zext i32 %t to i64
  %pi = getelementptr i32, i32 addrspace(1)* %idx, i64 %i
  %j = load i32, i32 addrspace(1)* %pi
  %ok = icmp ult i32 %j, %len
  br i1 %ok, label %load, label %bad
bad:
  call void @fail(i32 %j)
  unreachable
load:
  %jw = zext i32 %j to i64
  %ps = getelementptr float, float addrspace(1)* %src, i64 %jw
  %v = load float, float addrspace(1)* %ps
  %isnan = fcmp uno float %v, 0.0
  br i1 %isnan, label %trapnan, label %store
trapnan:
  call void @llvm.trap()
  unreachable
store:
  %pd = getelementptr float, float addrspace(1)* %dst, i64 %i
  store float %v, float addrspace(1)* %pd
  ret void
}

; A loop whose only exits are a return and a trap.
define void @bounded_search(i32 addrspace(1)* %arr, i32 %key, i32 addrspace(1)* %pos) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %next ]
  %kw = zext i32 %k to i64
  %p = getelementptr i32, i32 addrspace(1)* %arr, i64 %kw
  %v = load i32, i32 addrspace(1)* %p
  %eq = icmp eq i32 %v, %key
  br i1 %eq, label %found, label %next
next:
  %k.next = add nuw i32 %k, 1
  %lim = icmp ugt i32 %k.next, 1048576
  br i1 %lim, label %hang, label %loop
hang:
  call void @llvm.trap()
  unreachable
found:
  store i32 %k, i32 addrspace(1)* %pos
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, float addrspace(1)*, i32, i32)* @checked_gather, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i32, i32 addrspace(1)*)* @bounded_search, !"kernel", i32 1}
