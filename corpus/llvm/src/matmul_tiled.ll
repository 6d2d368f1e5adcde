; 16x16 shared-memory tiled SGEMM with 2D thread indices and a fully unrolled inner product.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@As = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@Bs = internal addrspace(3) global [16 x [17 x float]] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare void @llvm.nvvm.barrier0()
declare float @llvm.fma.f32(float, float, float)

define void @sgemm(float addrspace(1)* %A, float addrspace(1)* %B, float addrspace(1)* %C, i32 %N) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %row0 = shl i32 %by, 4
  %row = add i32 %row0, %ty
  %col0 = shl i32 %bx, 4
  %col = add i32 %col0, %tx
  %txw = zext i32 %tx to i64
  %tyw = zext i32 %ty to i64
  %pas = getelementptr [16 x [16 x float]], [16 x [16 x float]] addrspace(3)* @As, i64 0, i64 %tyw, i64 %txw
  %pbs = getelementptr [16 x [17 x float]], [16 x [17 x float]] addrspace(3)* @Bs, i64 0, i64 %tyw, i64 %txw
  %ntiles = lshr i32 %N, 4
  %any = icmp ne i32 %ntiles, 0
  br i1 %any, label %tile, label %write
tile:
  %tt = phi i32 [ 0, %entry ], [ %tt.next, %tile.end ]
  %acc = phi float [ 0.0, %entry ], [ %acc15, %tile.end ]
  %k0 = shl i32 %tt, 4
  %ak = add i32 %k0, %tx
  %ai0 = mul i32 %row, %N
  %ai = add i32 %ai0, %ak
  %aiw = zext i32 %ai to i64
  %pa = getelementptr float, float addrspace(1)* %A, i64 %aiw
  %va = load float, float addrspace(1)* %pa
  store float %va, float addrspace(3)* %pas
  %bk = add i32 %k0, %ty
  %bi0 = mul i32 %bk, %N
  %bi = add i32 %bi0, %col
  %biw = zext i32 %bi to i64
  %pb = getelementptr float, float addrspace(1)* %B, i64 %biw
  %vb = load float, float addrspace(1)* %pb
  store float %vb, float addrspace(3)* %pbs
  call void @llvm.nvvm.barrier0()
  br label %dot
dot:
  %k = phi i64 [ 0, %tile ], [ %k.next, %dot ]
  %a.acc = phi float [ %acc, %tile ], [ %acc15, %dot ]
  %pak = getelementptr [16 x [16 x float]], [16 x [16 x float]] addrspace(3)* @As, i64 0, i64 %tyw, i64 %k
  %pbk = getelementptr [16 x [17 x float]], [16 x [17 x float]] addrspace(3)* @Bs, i64 0, i64 %k, i64 %txw
  %x = load float, float addrspace(3)* %pak
  %y = load float, float addrspace(3)* %pbk
  %acc15 = call float @llvm.fma.f32(float %x, float %y, float %a.acc)
  %k.next = add nuw nsw i64 %k, 1
  %kd = icmp eq i64 %k.next, 16
  br i1 %kd, label %tile.end, label %dot, !llvm.loop !10
tile.end:
  call void @llvm.nvvm.barrier0()
  %tt.next = add nuw i32 %tt, 1
  %td = icmp eq i32 %tt.next, %ntiles
  br i1 %td, label %write, label %tile
write:
  %res = phi float [ 0.0, %entry ], [ %acc15, %tile.end ]
  %ci0 = mul i32 %row, %N
  %ci = add i32 %ci0, %col
  %ciw = zext i32 %ci to i64
  %pc = getelementptr float, float addrspace(1)* %C, i64 %ciw
  store float %res, float addrspace(1)* %pc
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(1)*, i32)* @sgemm, !"kernel", i32 1}
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.unroll.full"}
