; Recursive internal functions (fib, factorial, mutual recursion, Ackermann) called from kernels.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @fib(i32 %n) #0 {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %base, label %rec
base:
  ret i32 %n
rec:
  %n1 = sub i32 %n, 1
  %n2 = sub i32 %n, 2
  %f1 = call i32 @fib(i32 %n1)
  %f2 = call i32 @fib(i32 %n2)
  %s = add i32 %f1, %f2
  ret i32 %s
}

define internal i64 @fact(i64 %n) #0 {
entry:
  %le = icmp ule i64 %n, 1
  br i1 %le, label %one, label %rec
one:
  ret i64 1
rec:
  %m = sub i64 %n, 1
  %f = call i64 @fact(i64 %m)
  %r = mul i64 %n, %f
  ret i64 %r
}

define internal i1 @is_even(i32 %n) #0 {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %rec
yes:
  ret i1 true
rec:
  %m = sub i32 %n, 1
  %r = call i1 @is_odd(i32 %m)
  ret i1 %r
}

define internal i1 @is_odd(i32 %n) #0 {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %no, label %rec
no:
  ret i1 false
rec:
  %m = sub i32 %n, 1
  %r = call i1 @is_even(i32 %m)
  ret i1 %r
}

define internal i32 @ack(i32 %m, i32 %n) #0 {
entry:
  %m0 = icmp eq i32 %m, 0
  br i1 %m0, label %r1, label %t2
r1:
  %np1 = add i32 %n, 1
  ret i32 %np1
t2:
  %n0 = icmp eq i32 %n, 0
  %mm1 = sub i32 %m, 1
  br i1 %n0, label %r2, label %r3
r2:
  %a2 = call i32 @ack(i32 %mm1, i32 1)
  ret i32 %a2
r3:
  %nm1 = sub i32 %n, 1
  %inner = call i32 @ack(i32 %m, i32 %nm1)
  %a3 = call i32 @ack(i32 %mm1, i32 %inner)
  ret i32 %a3
}

; Recursive float function with a double accumulator (power by squaring).
define internal double @powi_rec(double %x, i32 %e) #0 {
entry:
  %z = icmp eq i32 %e, 0
  br i1 %z, label %one, label %rec
one:
  ret double 1.0
rec:
  %h = lshr i32 %e, 1
  %p = call double @powi_rec(double %x, i32 %h)
  %sq = fmul double %p, %p
  %odd = and i32 %e, 1
  %isodd = icmp ne i32 %odd, 0
  %sx = fmul double %sq, %x
  %r = select i1 %isodd, double %sx, double %sq
  ret double %r
}

define void @recursive(i32 addrspace(1)* %args, i32 addrspace(1)* %fibs, i64 addrspace(1)* %facts, i8 addrspace(1)* %par, i32 addrspace(1)* %acks, double addrspace(1)* %pw) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %pa = getelementptr i32, i32 addrspace(1)* %args, i64 %i
  %a = load i32, i32 addrspace(1)* %pa
  %a15 = and i32 %a, 15
  %f = call i32 @fib(i32 %a15)
  %a15w = zext i32 %a15 to i64
  %fa = call i64 @fact(i64 %a15w)
  %ev = call i1 @is_even(i32 %a15)
  %a1 = and i32 %a, 1
  %a3 = and i32 %a, 3
  %ak = call i32 @ack(i32 %a1, i32 %a3)
  %pf = call double @powi_rec(double 1.0001, i32 %a)
  %q1 = getelementptr i32, i32 addrspace(1)* %fibs, i64 %i
  store i32 %f, i32 addrspace(1)* %q1
  %q2 = getelementptr i64, i64 addrspace(1)* %facts, i64 %i
  store i64 %fa, i64 addrspace(1)* %q2
  %q3 = getelementptr i8, i8 addrspace(1)* %par, i64 %i
  %evb = zext i1 %ev to i8
  store i8 %evb, i8 addrspace(1)* %q3
  %q4 = getelementptr i32, i32 addrspace(1)* %acks, i64 %i
  store i32 %ak, i32 addrspace(1)* %q4
  %q5 = getelementptr double, double addrspace(1)* %pw, i64 %i
  store double %pf, double addrspace(1)* %q5
  ret void
}

attributes #0 = { noinline }

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i64 addrspace(1)*, i8 addrspace(1)*, i32 addrspace(1)*, double addrspace(1)*)* @recursive, !"kernel", i32 1}
