; Internal functions returning aggregates and vectors, byval struct parameters, many scalar params.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Vec3 = type { float, float, float }
%struct.Hit = type { float, i32, i8, %struct.Vec3 }
%struct.Params = type { i32, float, double, [4 x i16] }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.sqrt.f32(float)

define internal { float, i32 } @divmod_pair(float %a, i32 %b) #0 {
  %bf = sitofp i32 %b to float
  %q = fdiv float %a, %bf
  %ai = fptosi float %a to i32
  %r = srem i32 %ai, %b
  %s0 = insertvalue { float, i32 } undef, float %q, 0
  %s1 = insertvalue { float, i32 } %s0, i32 %r, 1
  ret { float, i32 } %s1
}

define internal %struct.Hit @intersect(%struct.Vec3 %o, %struct.Vec3 %d, float %r, i32 %id) #0 {
entry:
  %ox = extractvalue %struct.Vec3 %o, 0
  %oy = extractvalue %struct.Vec3 %o, 1
  %oz = extractvalue %struct.Vec3 %o, 2
  %dx = extractvalue %struct.Vec3 %d, 0
  %dy = extractvalue %struct.Vec3 %d, 1
  %dz = extractvalue %struct.Vec3 %d, 2
  %b0 = fmul float %ox, %dx
  %b1 = fmul float %oy, %dy
  %b2 = fmul float %oz, %dz
  %b01 = fadd float %b0, %b1
  %b = fadd float %b01, %b2
  %c0 = fmul float %ox, %ox
  %c1 = fmul float %oy, %oy
  %c2 = fmul float %oz, %oz
  %c01 = fadd float %c0, %c1
  %c012 = fadd float %c01, %c2
  %rr = fmul float %r, %r
  %c = fsub float %c012, %rr
  %bb = fmul float %b, %b
  %disc = fsub float %bb, %c
  %miss = fcmp olt float %disc, 0.0
  br i1 %miss, label %nohit, label %yes
nohit:
  %h0 = insertvalue %struct.Hit undef, float 0x7FF0000000000000, 0
  %h1 = insertvalue %struct.Hit %h0, i32 -1, 1
  %h2 = insertvalue %struct.Hit %h1, i8 0, 2
  %h3 = insertvalue %struct.Hit %h2, %struct.Vec3 zeroinitializer, 3
  ret %struct.Hit %h3
yes:
  %sq = call float @llvm.sqrt.f32(float %disc)
  %nb = fneg float %b
  %t = fsub float %nb, %sq
  %nx = fmul float %t, %dx
  %ny = fmul float %t, %dy
  %nz = fmul float %t, %dz
  %n0 = insertvalue %struct.Vec3 undef, float %nx, 0
  %n1 = insertvalue %struct.Vec3 %n0, float %ny, 1
  %n2 = insertvalue %struct.Vec3 %n1, float %nz, 2
  %k0 = insertvalue %struct.Hit undef, float %t, 0
  %k1 = insertvalue %struct.Hit %k0, i32 %id, 1
  %k2 = insertvalue %struct.Hit %k1, i8 1, 2
  %k3 = insertvalue %struct.Hit %k2, %struct.Vec3 %n2, 3
  ret %struct.Hit %k3
}

define internal <4 x float> @lerp4(<4 x float> %a, <4 x float> %b, float %t) #0 {
  %ti = insertelement <4 x float> undef, float %t, i32 0
  %ts = shufflevector <4 x float> %ti, <4 x float> undef, <4 x i32> zeroinitializer
  %d = fsub <4 x float> %b, %a
  %m = fmul <4 x float> %d, %ts
  %r = fadd <4 x float> %a, %m
  ret <4 x float> %r
}

define internal i64 @many(i32 %a, i32 %b, i16 %c, i8 %d, i1 %e, float %f, double %g, i64 %h, i32 %i, i32 %j, i32 %k, i32 %l) #0 {
  %ce = sext i16 %c to i32
  %de = zext i8 %d to i32
  %ee = zext i1 %e to i32
  %fi = fptosi float %f to i32
  %gi = fptosi double %g to i64
  %s1 = add i32 %a, %b
  %s2 = mul i32 %s1, %ce
  %s3 = sub i32 %s2, %de
  %s4 = add i32 %s3, %ee
  %s5 = xor i32 %s4, %fi
  %s6 = add i32 %s5, %i
  %s7 = mul i32 %s6, %j
  %s8 = sub i32 %s7, %k
  %s9 = or i32 %s8, %l
  %w = sext i32 %s9 to i64
  %r1 = add i64 %w, %gi
  %r2 = xor i64 %r1, %h
  ret i64 %r2
}

; Struct passed by value to a kernel (byval parameter) and to a device function.
define internal float @use_params(%struct.Params* byval(%struct.Params) align 8 %p) #0 {
  %pi = getelementptr %struct.Params, %struct.Params* %p, i32 0, i32 0
  %pf = getelementptr %struct.Params, %struct.Params* %p, i32 0, i32 1
  %pd = getelementptr %struct.Params, %struct.Params* %p, i32 0, i32 2
  %ps = getelementptr %struct.Params, %struct.Params* %p, i32 0, i32 3, i32 2
  %i = load i32, i32* %pi
  %f = load float, float* %pf
  %d = load double, double* %pd
  %s = load i16, i16* %ps
  %if = sitofp i32 %i to float
  %sf = sitofp i16 %s to float
  %df = fptrunc double %d to float
  %a = fadd float %if, %f
  %b = fadd float %a, %df
  %c = fadd float %b, %sf
  ret float %c
}

define void @aggregates(%struct.Params* byval(%struct.Params) align 8 %prm, float addrspace(1)* %xyz, %struct.Hit addrspace(1)* %hits, <4 x float> addrspace(1)* %v4, i64 addrspace(1)* %m) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %i3 = mul i64 %i, 3
  %p0 = getelementptr float, float addrspace(1)* %xyz, i64 %i3
  %p1 = getelementptr float, float addrspace(1)* %p0, i64 1
  %p2 = getelementptr float, float addrspace(1)* %p0, i64 2
  %x = load float, float addrspace(1)* %p0
  %y = load float, float addrspace(1)* %p1
  %z = load float, float addrspace(1)* %p2
  %o0 = insertvalue %struct.Vec3 undef, float %x, 0
  %o1 = insertvalue %struct.Vec3 %o0, float %y, 1
  %o2 = insertvalue %struct.Vec3 %o1, float %z, 2
  %pr = call float @use_params(%struct.Params* byval(%struct.Params) align 8 %prm)
  %h = call %struct.Hit @intersect(%struct.Vec3 %o2, %struct.Vec3 %o2, float %pr, i32 %t)
  %ph = getelementptr %struct.Hit, %struct.Hit addrspace(1)* %hits, i64 %i
  store %struct.Hit %h, %struct.Hit addrspace(1)* %ph
  %dm = call { float, i32 } @divmod_pair(float %x, i32 7)
  %q = extractvalue { float, i32 } %dm, 0
  %r = extractvalue { float, i32 } %dm, 1
  %pv = getelementptr <4 x float>, <4 x float> addrspace(1)* %v4, i64 %i
  %va = load <4 x float>, <4 x float> addrspace(1)* %pv
  %vb = shufflevector <4 x float> %va, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %l = call <4 x float> @lerp4(<4 x float> %va, <4 x float> %vb, float %q)
  store <4 x float> %l, <4 x float> addrspace(1)* %pv
  %hf = extractvalue %struct.Hit %h, 0
  %mm = call i64 @many(i32 %t, i32 %r, i16 3, i8 200, i1 true, float %q, double 2.5, i64 %i, i32 1, i32 2, i32 3, i32 4)
  %pm = getelementptr i64, i64 addrspace(1)* %m, i64 %i
  store i64 %mm, i64 addrspace(1)* %pm
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0}
!0 = !{void (%struct.Params*, float addrspace(1)*, %struct.Hit addrspace(1)*, <4 x float> addrspace(1)*, i64 addrspace(1)*)* @aggregates, !"kernel", i32 1}
