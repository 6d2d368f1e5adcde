; Sparse switches on i32, i64 and i16 keys (compare trees), including negative and huge case values.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @classify32(i32 %k) #0 {
entry:
  switch i32 %k, label %def [
    i32 -100, label %a
    i32 7, label %b
    i32 1000, label %c
    i32 65537, label %d
    i32 2147483647, label %e
    i32 -2147483648, label %f
  ]
a:
  ret i32 1
b:
  ret i32 2
c:
  %cc = mul i32 %k, 3
  ret i32 %cc
d:
  ret i32 4
e:
  ret i32 5
f:
  ret i32 6
def:
  %h = lshr i32 %k, 28
  ret i32 %h
}

define internal i64 @classify64(i64 %k) #0 {
entry:
  switch i64 %k, label %def [
    i64 0, label %zero
    i64 4294967296, label %big
    i64 -1, label %neg
    i64 81985529216486895, label %magic
  ]
zero:
  ret i64 10
big:
  ret i64 20
neg:
  ret i64 30
magic:
  ret i64 40
def:
  %x = xor i64 %k, 12345
  ret i64 %x
}

define void @sparse(i32 addrspace(1)* %k32, i64 addrspace(1)* %k64, i16 addrspace(1)* %k16) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p32 = getelementptr i32, i32 addrspace(1)* %k32, i64 %i
  %p64 = getelementptr i64, i64 addrspace(1)* %k64, i64 %i
  %p16 = getelementptr i16, i16 addrspace(1)* %k16, i64 %i
  %v32 = load i32, i32 addrspace(1)* %p32
  %v64 = load i64, i64 addrspace(1)* %p64
  %v16 = load i16, i16 addrspace(1)* %p16
  %r32 = call i32 @classify32(i32 %v32)
  %r64 = call i64 @classify64(i64 %v64)
  store i32 %r32, i32 addrspace(1)* %p32
  store i64 %r64, i64 addrspace(1)* %p64
  switch i16 %v16, label %s_def [
    i16 -1, label %s1
    i16 300, label %s2
    i16 9999, label %s3
  ]
s1:
  br label %s_end
s2:
  br label %s_end
s3:
  br label %s_end
s_def:
  br label %s_end
s_end:
  %r16 = phi i16 [ 11, %s1 ], [ 22, %s2 ], [ 33, %s3 ], [ 0, %s_def ]
  store i16 %r16, i16 addrspace(1)* %p16
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, i16 addrspace(1)*)* @sparse, !"kernel", i32 1}
