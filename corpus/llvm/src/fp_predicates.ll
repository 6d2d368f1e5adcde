; Every fcmp predicate on f32 and f64, results packed into a bit mask with select/zext/or.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @mask_f32(float %a, float %b) #0 {
  %c0 = fcmp oeq float %a, %b
  %c1 = fcmp ogt float %a, %b
  %c2 = fcmp oge float %a, %b
  %c3 = fcmp olt float %a, %b
  %c4 = fcmp ole float %a, %b
  %c5 = fcmp one float %a, %b
  %c6 = fcmp ord float %a, %b
  %c7 = fcmp ueq float %a, %b
  %c8 = fcmp ugt float %a, %b
  %c9 = fcmp uge float %a, %b
  %c10 = fcmp ult float %a, %b
  %c11 = fcmp ule float %a, %b
  %c12 = fcmp une float %a, %b
  %c13 = fcmp uno float %a, %b
  %z0 = zext i1 %c0 to i32
  %z1 = select i1 %c1, i32 2, i32 0
  %z2 = select i1 %c2, i32 4, i32 0
  %z3 = select i1 %c3, i32 8, i32 0
  %z4 = select i1 %c4, i32 16, i32 0
  %z5 = select i1 %c5, i32 32, i32 0
  %z6 = select i1 %c6, i32 64, i32 0
  %z7 = select i1 %c7, i32 128, i32 0
  %z8 = select i1 %c8, i32 256, i32 0
  %z9 = select i1 %c9, i32 512, i32 0
  %z10 = select i1 %c10, i32 1024, i32 0
  %z11 = select i1 %c11, i32 2048, i32 0
  %z12 = select i1 %c12, i32 4096, i32 0
  %z13 = select i1 %c13, i32 8192, i32 0
  %o1 = or i32 %z0, %z1
  %o2 = or i32 %o1, %z2
  %o3 = or i32 %o2, %z3
  %o4 = or i32 %o3, %z4
  %o5 = or i32 %o4, %z5
  %o6 = or i32 %o5, %z6
  %o7 = or i32 %o6, %z7
  %o8 = or i32 %o7, %z8
  %o9 = or i32 %o8, %z9
  %o10 = or i32 %o9, %z10
  %o11 = or i32 %o10, %z11
  %o12 = or i32 %o11, %z12
  %o13 = or i32 %o12, %z13
  ret i32 %o13
}

define internal i32 @mask_f64(double %a, double %b) #0 {
  %c0 = fcmp oeq double %a, %b
  %c1 = fcmp one double %a, %b
  %c2 = fcmp ord double %a, %b
  %c3 = fcmp uno double %a, %b
  %c4 = fcmp ult double %a, %b
  %c5 = fcmp uge double %a, %b
  %c6 = fcmp ole double %a, %b
  %c7 = fcmp ugt double %a, %b
  %c8 = fcmp true double %a, %b
  %c9 = fcmp false double %a, %b
  %x0 = xor i1 %c0, %c1
  %x1 = and i1 %c2, %c4
  %x2 = or i1 %c3, %c5
  %x3 = xor i1 %c6, %c7
  %x4 = and i1 %c8, %x3
  %x5 = or i1 %c9, %x2
  %z0 = zext i1 %x0 to i32
  %z1 = zext i1 %x1 to i32
  %z2 = zext i1 %x4 to i32
  %z3 = zext i1 %x5 to i32
  %s1 = shl i32 %z1, 1
  %s2 = shl i32 %z2, 2
  %s3 = shl i32 %z3, 3
  %r1 = or i32 %z0, %s1
  %r2 = or i32 %r1, %s2
  %r3 = or i32 %r2, %s3
  ret i32 %r3
}

define void @fp_predicates(float addrspace(1)* %a, float addrspace(1)* %b, double addrspace(1)* %da, double addrspace(1)* %db, i32 addrspace(1)* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr float, float addrspace(1)* %a, i64 %i
  %pb = getelementptr float, float addrspace(1)* %b, i64 %i
  %va = load float, float addrspace(1)* %pa
  %vb = load float, float addrspace(1)* %pb
  %m1 = call i32 @mask_f32(float %va, float %vb)
  %pda = getelementptr double, double addrspace(1)* %da, i64 %i
  %pdb = getelementptr double, double addrspace(1)* %db, i64 %i
  %vda = load double, double addrspace(1)* %pda
  %vdb = load double, double addrspace(1)* %pdb
  %m2 = call i32 @mask_f64(double %vda, double %vdb)
  %sh = shl i32 %m2, 16
  %m = or i32 %m1, %sh
  ; NaN-aware min: pick b when a is NaN
  %isnan = fcmp uno float %va, %va
  %lt = fcmp olt float %va, %vb
  %mn0 = select i1 %lt, float %va, float %vb
  %mn = select i1 %isnan, float %vb, float %mn0
  store float %mn, float addrspace(1)* %pa
  %po = getelementptr i32, i32 addrspace(1)* %out, i64 %i
  store i32 %m, i32 addrspace(1)* %po
  ret void
}

; Branches on unordered compares (control flow instead of selects).
define void @fp_branches(float addrspace(1)* %x, i32 addrspace(1)* %cls) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %p
  %nan = fcmp uno float %v, 0.0
  br i1 %nan, label %is_nan, label %not_nan
is_nan:
  br label %done
not_nan:
  %neg = fcmp ult float %v, 0.0
  br i1 %neg, label %negative, label %nonneg
negative:
  %inf = fcmp oeq float %v, 0xFFF0000000000000
  %c = select i1 %inf, i32 2, i32 3
  br label %done
nonneg:
  %zero = fcmp ueq float %v, 0.0
  %c2 = select i1 %zero, i32 4, i32 5
  br label %done
done:
  %r = phi i32 [ 1, %is_nan ], [ %c, %negative ], [ %c2, %nonneg ]
  %q = getelementptr i32, i32 addrspace(1)* %cls, i64 %i
  store i32 %r, i32 addrspace(1)* %q
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, double addrspace(1)*, double addrspace(1)*, i32 addrspace(1)*)* @fp_predicates, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, i32 addrspace(1)*)* @fp_branches, !"kernel", i32 1}
