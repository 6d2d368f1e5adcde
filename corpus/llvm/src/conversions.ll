; Casts: fptosi/fptoui/sitofp/uitofp at all widths, fpext/fptrunc, bitcast, ptrtoint/inttoptr,
; addrspacecast between generic/global/shared/local, saturating float->int intrinsics.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sbuf = internal addrspace(3) global [32 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.fptosi.sat.i32.f32(float)
declare i8 @llvm.fptoui.sat.i8.f32(float)
declare i32 @llvm.nvvm.f2i.rn(float)
declare i64 @llvm.nvvm.d2ll.rz(double)
declare float @llvm.nvvm.i2f.rz(i32)
declare float @llvm.nvvm.d2f.rm(double)

define void @numeric(float addrspace(1)* %f, double addrspace(1)* %d, i64 addrspace(1)* %o) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pf = getelementptr float, float addrspace(1)* %f, i64 %i
  %pd = getelementptr double, double addrspace(1)* %d, i64 %i
  %vf = load float, float addrspace(1)* %pf
  %vd = load double, double addrspace(1)* %pd
  %a = fptosi float %vf to i8
  %b = fptoui float %vf to i16
  %c = fptosi double %vd to i32
  %e = fptoui double %vd to i64
  %g = fptosi float %vf to i64
  %s1 = call i32 @llvm.fptosi.sat.i32.f32(float %vf)
  %s2 = call i8 @llvm.fptoui.sat.i8.f32(float %vf)
  %r1 = call i32 @llvm.nvvm.f2i.rn(float %vf)
  %r2 = call i64 @llvm.nvvm.d2ll.rz(double %vd)
  %ae = sext i8 %a to i64
  %be = zext i16 %b to i64
  %ce = sext i32 %c to i64
  %se1 = sext i32 %s1 to i64
  %se2 = zext i8 %s2 to i64
  %re1 = sext i32 %r1 to i64
  %x1 = add i64 %ae, %be
  %x2 = add i64 %x1, %ce
  %x3 = add i64 %x2, %e
  %x4 = add i64 %x3, %g
  %x5 = add i64 %x4, %se1
  %x6 = add i64 %x5, %se2
  %x7 = add i64 %x6, %re1
  %x8 = add i64 %x7, %r2
  %po = getelementptr i64, i64 addrspace(1)* %o, i64 %i
  store i64 %x8, i64 addrspace(1)* %po
  %u8 = trunc i32 %t to i8
  %f1 = uitofp i8 %u8 to float
  %f2 = sitofp i64 %x8 to float
  %f3 = uitofp i64 %x8 to double
  %f4 = sitofp i16 %b to double
  %f5 = call float @llvm.nvvm.i2f.rz(i32 %c)
  %f6 = call float @llvm.nvvm.d2f.rm(double %f3)
  %ext = fpext float %f1 to double
  %sum = fadd double %ext, %f3
  %sum2 = fadd double %sum, %f4
  %tr = fptrunc double %sum2 to float
  %y1 = fadd float %tr, %f2
  %y2 = fadd float %y1, %f5
  %y3 = fadd float %y2, %f6
  store float %y3, float addrspace(1)* %pf
  %bits = bitcast double %vd to i64
  %hi = lshr i64 %bits, 32
  %hi32 = trunc i64 %hi to i32
  %asf = bitcast i32 %hi32 to float
  %v2 = bitcast i64 %bits to <2 x float>
  %lo = extractelement <2 x float> %v2, i32 0
  %z = fadd float %asf, %lo
  %zd = fpext float %z to double
  store double %zd, double addrspace(1)* %pd
  ret void
}

define void @pointers(i32 addrspace(1)* %g, i64 addrspace(1)* %o) {
entry:
  %loc = alloca i32, align 4
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store volatile i32 %t, i32* %loc
  %tw = zext i32 %t to i64
  %ps = getelementptr [32 x i32], [32 x i32] addrspace(3)* @sbuf, i64 0, i64 %tw
  store i32 %t, i32 addrspace(3)* %ps
  %gen_s = addrspacecast i32 addrspace(3)* %ps to i32*
  %gen_g = addrspacecast i32 addrspace(1)* %g to i32*
  %back_g = addrspacecast i32* %gen_g to i32 addrspace(1)*
  %back_s = addrspacecast i32* %gen_s to i32 addrspace(3)*
  %vs = load i32, i32 addrspace(3)* %back_s
  %vg = load i32, i32 addrspace(1)* %back_g
  %vgen = load i32, i32* %gen_s
  %vl = load volatile i32, i32* %loc
  %ints = ptrtoint i32* %gen_s to i64
  %intg = ptrtoint i32 addrspace(1)* %g to i64
  %ints3 = ptrtoint i32 addrspace(3)* %ps to i32
  %ints3w = zext i32 %ints3 to i64
  %off = add i64 %intg, 4
  %pnext = inttoptr i64 %off to i32 addrspace(1)*
  %vn = load i32, i32 addrspace(1)* %pnext
  %a = add i32 %vs, %vg
  %b = add i32 %a, %vgen
  %c = add i32 %b, %vl
  %d = add i32 %c, %vn
  %dw = sext i32 %d to i64
  %r1 = xor i64 %ints, %dw
  %r2 = add i64 %r1, %ints3w
  %po = getelementptr i64, i64 addrspace(1)* %o, i64 %tw
  store i64 %r2, i64 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, double addrspace(1)*, i64 addrspace(1)*)* @numeric, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*, i64 addrspace(1)*)* @pointers, !"kernel", i32 1}
