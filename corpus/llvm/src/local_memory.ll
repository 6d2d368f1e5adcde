; Per-thread stack arrays with dynamic indexing (.local), memcpy/memset, address-taken locals.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memcpy.p0i8.p1i8.i64(i8* noalias nocapture writeonly, i8 addrspace(1)* noalias nocapture readonly, i64, i1 immarg)
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg)
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture)
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture)

define internal void @bump(i32* %arr, i32 %slot, i32 %v) #0 {
  %sw = sext i32 %slot to i64
  %p = getelementptr i32, i32* %arr, i64 %sw
  %o = load i32, i32* %p
  %n = add i32 %o, %v
  store i32 %n, i32* %p
  ret void
}

; Insertion sort of 16 values in a local array.
define void @local_sort(float addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %buf = alloca [16 x float], align 4
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %t, 16
  %basew = zext i32 %base to i64
  %src = getelementptr float, float addrspace(1)* %in, i64 %basew
  %srcb = bitcast float addrspace(1)* %src to i8 addrspace(1)*
  %bufb = bitcast [16 x float]* %buf to i8*
  call void @llvm.lifetime.start.p0i8(i64 64, i8* %bufb)
  call void @llvm.memcpy.p0i8.p1i8.i64(i8* align 4 %bufb, i8 addrspace(1)* align 4 %srcb, i64 64, i1 false)
  br label %outer
outer:
  %k = phi i32 [ 1, %entry ], [ %k.next, %outer.end ]
  %kw = zext i32 %k to i64
  %pk = getelementptr [16 x float], [16 x float]* %buf, i64 0, i64 %kw
  %key = load float, float* %pk
  br label %inner
inner:
  %j = phi i32 [ %k, %outer ], [ %jm1, %shift ]
  %jm1 = sub i32 %j, 1
  %atstart = icmp eq i32 %j, 0
  br i1 %atstart, label %place, label %cmp
cmp:
  %jm1w = zext i32 %jm1 to i64
  %pprev = getelementptr [16 x float], [16 x float]* %buf, i64 0, i64 %jm1w
  %prev = load float, float* %pprev
  %gt = fcmp ogt float %prev, %key
  br i1 %gt, label %shift, label %place
shift:
  %jw = zext i32 %j to i64
  %pj = getelementptr [16 x float], [16 x float]* %buf, i64 0, i64 %jw
  store float %prev, float* %pj
  br label %inner
place:
  %jw2 = zext i32 %j to i64
  %pj2 = getelementptr [16 x float], [16 x float]* %buf, i64 0, i64 %jw2
  store float %key, float* %pj2
  br label %outer.end
outer.end:
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, 16
  br i1 %more, label %outer, label %emit
emit:
  br label %copy
copy:
  %c = phi i32 [ 0, %emit ], [ %c.next, %copy ]
  %cw = zext i32 %c to i64
  %pc = getelementptr [16 x float], [16 x float]* %buf, i64 0, i64 %cw
  %v = load float, float* %pc
  %oi = add i64 %basew, %cw
  %po = getelementptr float, float addrspace(1)* %out, i64 %oi
  store float %v, float addrspace(1)* %po
  %c.next = add i32 %c, 1
  %cd = icmp ult i32 %c.next, 16
  br i1 %cd, label %copy, label %fin
fin:
  call void @llvm.lifetime.end.p0i8(i64 64, i8* %bufb)
  ret void
}

; Local histogram updated through a pointer passed to a noinline function.
define void @local_hist(i8 addrspace(1)* %data, i32 %n, i32 addrspace(1)* %out) {
entry:
  %h = alloca [8 x i32], align 4
  %hb = bitcast [8 x i32]* %h to i8*
  call void @llvm.memset.p0i8.i64(i8* align 4 %hb, i8 0, i64 32, i1 false)
  %h0 = getelementptr [8 x i32], [8 x i32]* %h, i64 0, i64 0
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = add i32 %i, %t
  %iw = zext i32 %idx to i64
  %pd = getelementptr i8, i8 addrspace(1)* %data, i64 %iw
  %b = load i8, i8 addrspace(1)* %pd
  %bz = zext i8 %b to i32
  %slot = and i32 %bz, 7
  call void @bump(i32* %h0, i32 %slot, i32 1)
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %done
done:
  %tw = zext i32 %t to i64
  %ob = mul i64 %tw, 8
  br label %wr
wr:
  %k = phi i64 [ 0, %done ], [ %k.next, %wr ]
  %pk = getelementptr [8 x i32], [8 x i32]* %h, i64 0, i64 %k
  %v = load i32, i32* %pk
  %oi = add i64 %ob, %k
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %oi
  store i32 %v, i32 addrspace(1)* %po
  %k.next = add i64 %k, 1
  %kd = icmp ult i64 %k.next, 8
  br i1 %kd, label %wr, label %end
end:
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*)* @local_sort, !"kernel", i32 1}
!1 = !{void (i8 addrspace(1)*, i32, i32 addrspace(1)*)* @local_hist, !"kernel", i32 1}
