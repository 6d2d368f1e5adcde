; Warp intrinsics: shfl.sync (bfly/down/up/idx, i32 and f32), vote.sync (ballot/any/all/uni), match.sync, laneid.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)

define void @warp_reduce(float addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, float addrspace(1)* %in, i64 %i
  %v0 = load float, float addrspace(1)* %p
  br label %loop
loop:
  %v = phi float [ %v0, %entry ], [ %v.next, %loop ]
  %off = phi i32 [ 16, %entry ], [ %off.next, %loop ]
  %o = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v, i32 %off, i32 31)
  %v.next = fadd float %v, %o
  %off.next = lshr i32 %off, 1
  %more = icmp ne i32 %off.next, 0
  br i1 %more, label %loop, label %done
done:
  %d = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v.next, i32 1, i32 31)
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %wr, label %ret
wr:
  %w = lshr i32 %t, 5
  %ww = zext i32 %w to i64
  %po = getelementptr float, float addrspace(1)* %out, i64 %ww
  %r = fadd float %v.next, %d
  store float %r, float addrspace(1)* %po
  br label %ret
ret:
  ret void
}

define void @votes(i32 addrspace(1)* %in, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, i32 addrspace(1)* %in, i64 %i
  %v = load i32, i32 addrspace(1)* %p
  %pos = icmp sgt i32 %v, 0
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %pos)
  %neg = icmp slt i32 %v, 0
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %neg)
  %nz = icmp ne i32 %v, 0
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %nz)
  %odd = trunc i32 %v to i1
  %uni = call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %odd)
  %pc = call i32 @llvm.ctpop.i32(i32 %b)
  %lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %below = and i32 %b, %lt
  %rank = call i32 @llvm.ctpop.i32(i32 %below)
  %up = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %rank, i32 1, i32 0)
  %src = xor i32 %t, 3
  %bc = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 %src, i32 31)
  %bf = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v, i32 8, i32 7199)
  %peers = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %v)
  %ma = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %pc)
  %mam = extractvalue { i32, i1 } %ma, 0
  %map = extractvalue { i32, i1 } %ma, 1
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %a1 = zext i1 %any to i32
  %a2 = zext i1 %all to i32
  %a3 = zext i1 %uni to i32
  %a4 = zext i1 %map to i32
  %x1 = add i32 %pc, %a1
  %x2 = add i32 %x1, %a2
  %x3 = add i32 %x2, %a3
  %x4 = add i32 %x3, %a4
  %x5 = add i32 %x4, %up
  %x6 = xor i32 %x5, %bc
  %x7 = xor i32 %x6, %bf
  %x8 = xor i32 %x7, %peers
  %x9 = xor i32 %x8, %mam
  %wid = call i32 @llvm.nvvm.read.ptx.sreg.warpid()
  %x10 = add i32 %x9, %wid
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %i
  store i32 %x10, i32 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*)* @warp_reduce, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @votes, !"kernel", i32 1}
