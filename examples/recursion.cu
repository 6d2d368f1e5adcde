// Recursive __device__ functions kept out of line with __noinline__.

__device__ __noinline__ unsigned long long factorial(unsigned int n)
{
    if (n <= 1u)
        return 1ull;
    return (unsigned long long)n * factorial(n - 1u);
}

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int ackermann(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

struct Node {
    int value;
    int left;
    int right;
};

// Recursive tree walk over an array-encoded binary tree.
__device__ __noinline__ int tree_sum(const Node *nodes, int idx, int depth)
{
    if (idx < 0 || depth > 32)
        return 0;
    const Node nd = nodes[idx];
    return nd.value + tree_sum(nodes, nd.left, depth + 1) + tree_sum(nodes, nd.right, depth + 1);
}

// Mutual recursion.
__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

__global__ void recursive_kernels(const int *args, unsigned long long *fact, int *fibs, int *ack, int *parity, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = args[i];
    fact[i] = factorial((unsigned)(a & 15));
    fibs[i] = fib(a & 15);
    ack[i] = ackermann(a & 1, a & 3);
    parity[i] = is_even((unsigned)a & 63u) ? 1 : 0;
}

__global__ void tree_kernel(const Node *nodes, const int *roots, int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sums[i] = tree_sum(nodes, roots[i], 0);
}
