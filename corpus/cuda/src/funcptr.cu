// Indirect calls through a __device__ table of function pointers.

typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ __noinline__ float op_square(float x) { return x * x; }
__device__ __noinline__ float op_negate(float x) { return -x; }
__device__ __noinline__ float op_recip(float x) { return x != 0.0f ? 1.0f / x : 0.0f; }
__device__ __noinline__ float op_half(float x) { return 0.5f * x; }

__device__ __noinline__ int bin_add(int a, int b) { return a + b; }
__device__ __noinline__ int bin_sub(int a, int b) { return a - b; }
__device__ __noinline__ int bin_mul(int a, int b) { return a * b; }
__device__ __noinline__ int bin_max(int a, int b) { return a > b ? a : b; }

__device__ unary_fn unary_table[4] = { op_square, op_negate, op_recip, op_half };
__device__ binop_fn binop_table[4] = { bin_add, bin_sub, bin_mul, bin_max };

__global__ void apply_unary(const float *in, float *out, const int *which, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_fn f = unary_table[which[i] & 3];
    out[i] = f(in[i]);
}

// Fold an array with an operator chosen at run time.
__global__ void fold(const int *in, int *out, int len, int op)
{
    binop_fn f = binop_table[op & 3];
    int acc = in[0];
    for (int i = 1; i < len; ++i)
        acc = f(acc, in[i]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

// Function pointer passed as a value through a helper.
__device__ __noinline__ float compose(unary_fn f, unary_fn g, float x)
{
    return f(g(x));
}

__global__ void apply_composed(float *data, int n, int fi, int gi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = compose(unary_table[fi & 3], unary_table[gi & 3], data[i]);
}
