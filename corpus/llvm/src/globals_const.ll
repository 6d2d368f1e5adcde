; Module-level data: constant-space tables, initialised global arrays and structs, strings,
; pointers to other globals in initialisers, externally visible and internal variables.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Cfg = type { i32, float, i64, [3 x i8] }

@taps = internal addrspace(4) constant [8 x float] [float 0.125, float 0.25, float 0.5, float 1.0, float 1.0, float 0.5, float 0.25, float 0.125], align 4
@dtab = addrspace(4) constant [4 x double] [double 1.0, double -2.5, double 0x7FF8000000000000, double 1.0e-300], align 8
@cfg = internal addrspace(4) constant %struct.Cfg { i32 7, float 1.5, i64 -9, [3 x i8] c"abc" }, align 8
@name = internal addrspace(1) constant [13 x i8] c"ptxvm-corpus\00", align 1
@counter = addrspace(1) global i64 0, align 8
@table = internal addrspace(1) global [6 x i32] [i32 1, i32 1, i32 2, i32 3, i32 5, i32 8], align 4
@ptrs = internal addrspace(1) global [2 x i32 addrspace(1)*] [i32 addrspace(1)* getelementptr ([6 x i32], [6 x i32] addrspace(1)* @table, i64 0, i64 0), i32 addrspace(1)* getelementptr ([6 x i32], [6 x i32] addrspace(1)* @table, i64 0, i64 3)], align 8
@zeros = internal addrspace(1) global [64 x i16] zeroinitializer, align 2
@halfs = internal addrspace(1) global [2 x half] [half 0xH3C00, half 0xHC000], align 2
@bools = internal addrspace(1) global [3 x i8] [i8 1, i8 0, i8 1], align 1

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @read_tables(float addrspace(1)* %x, i32 addrspace(1)* %o, double addrspace(1)* %d) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %k = and i64 %i, 7
  %pt = getelementptr [8 x float], [8 x float] addrspace(4)* @taps, i64 0, i64 %k
  %tap = load float, float addrspace(4)* %pt
  %px = getelementptr float, float addrspace(1)* %x, i64 %i
  %v = load float, float addrspace(1)* %px
  %m = fmul float %v, %tap
  %cfp = getelementptr %struct.Cfg, %struct.Cfg addrspace(4)* @cfg, i64 0, i32 1
  %cf = load float, float addrspace(4)* %cfp
  %m2 = fadd float %m, %cf
  store float %m2, float addrspace(1)* %px
  %k3 = and i64 %i, 3
  %pd = getelementptr [4 x double], [4 x double] addrspace(4)* @dtab, i64 0, i64 %k3
  %dv = load double, double addrspace(4)* %pd
  %qd = getelementptr double, double addrspace(1)* %d, i64 %i
  store double %dv, double addrspace(1)* %qd
  %kk = urem i64 %i, 13
  %pn = getelementptr [13 x i8], [13 x i8] addrspace(1)* @name, i64 0, i64 %kk
  %ch = load i8, i8 addrspace(1)* %pn
  %chi = zext i8 %ch to i32
  %sel = and i64 %i, 1
  %pp = getelementptr [2 x i32 addrspace(1)*], [2 x i32 addrspace(1)*] addrspace(1)* @ptrs, i64 0, i64 %sel
  %ptr = load i32 addrspace(1)*, i32 addrspace(1)* addrspace(1)* %pp
  %tv = load i32, i32 addrspace(1)* %ptr
  %ci = getelementptr %struct.Cfg, %struct.Cfg addrspace(4)* @cfg, i64 0, i32 0
  %cv = load i32, i32 addrspace(4)* %ci
  %ph = getelementptr [2 x half], [2 x half] addrspace(1)* @halfs, i64 0, i64 %sel
  %hv = load half, half addrspace(1)* %ph
  %hi = fptosi half %hv to i32
  %pb = getelementptr [3 x i8], [3 x i8] addrspace(1)* @bools, i64 0, i64 %sel
  %bv = load i8, i8 addrspace(1)* %pb
  %bi = zext i8 %bv to i32
  %s1 = add i32 %chi, %tv
  %s2 = add i32 %s1, %cv
  %s3 = add i32 %s2, %hi
  %s4 = add i32 %s3, %bi
  %po = getelementptr i32, i32 addrspace(1)* %o, i64 %i
  store i32 %s4, i32 addrspace(1)* %po
  %old = atomicrmw add i64 addrspace(1)* @counter, i64 1 monotonic
  %z = getelementptr [64 x i16], [64 x i16] addrspace(1)* @zeros, i64 0, i64 %k
  %t16 = trunc i32 %t to i16
  store i16 %t16, i16 addrspace(1)* %z
  ret void
}

; Generic pointer to a global (addrspacecast) and to constant memory.
define void @generic_access(i32 addrspace(1)* %o) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %g = addrspacecast [6 x i32] addrspace(1)* @table to [6 x i32]*
  %k = urem i64 %i, 6
  %pg = getelementptr [6 x i32], [6 x i32]* %g, i64 0, i64 %k
  %v = load i32, i32* %pg
  %c = addrspacecast [8 x float] addrspace(4)* @taps to [8 x float]*
  %k8 = and i64 %i, 7
  %pc = getelementptr [8 x float], [8 x float]* %c, i64 0, i64 %k8
  %f = load float, float* %pc
  %fi = fptosi float %f to i32
  %s = add i32 %v, %fi
  %po = getelementptr i32, i32 addrspace(1)* %o, i64 %i
  store i32 %s, i32 addrspace(1)* %po
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, double addrspace(1)*)* @read_tables, !"kernel", i32 1}
!1 = !{void (i32 addrspace(1)*)* @generic_access, !"kernel", i32 1}
