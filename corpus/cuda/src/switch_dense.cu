// Dense switch statements: candidates for brx.idx jump tables.

__device__ __noinline__ int dense_op(int code, int a, int b)
{
    switch (code) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b != 0 ? a / b : 0;
    case 4: return b != 0 ? a % b : 0;
    case 5: return a & b;
    case 6: return a | b;
    case 7: return a ^ b;
    case 8: return a << (b & 31);
    case 9: return a >> (b & 31);
    case 10: return (int)((unsigned)a >> (b & 31));
    case 11: return a < b ? a : b;
    case 12: return a > b ? a : b;
    case 13: return -a;
    case 14: return ~a;
    case 15: return a == b;
    default: return 0x7fffffff;
    }
}

__global__ void dense_switch(const int *codes, const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = dense_op(codes[i], a[i], b[i]);
}

// Dense switch inside a loop with fallthrough cases.
__global__ void dense_fallthrough(const unsigned char *ops, float *acc, int len)
{
    float x = acc[threadIdx.x];
    for (int i = 0; i < len; ++i) {
        switch (ops[i]) {
        case 0: x += 1.0f;
        case 1: x *= 2.0f; break;
        case 2: x -= 3.0f;
        case 3: x = x * x; break;
        case 4: x = -x; break;
        case 5: x = x * 0.25f;
        case 6: x += 0.125f; break;
        case 7: x = 0.0f; break;
        case 8: x = x > 0.0f ? x : 0.0f; break;
        case 9: x = x < 1.0f ? x : 1.0f; break;
        default: break;
        }
    }
    acc[threadIdx.x] = x;
}
