// Per-thread local arrays with dynamic indexing (spills to .local), linked structures.

struct ListNode { int value; int next; };

__global__ void list_walk(const ListNode *nodes, const int *heads, int *sums, int *lengths, int n, int max_len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int p = heads[i];
    int s = 0, len = 0;
    while (p >= 0 && len < max_len) {
        ListNode nd = nodes[p];
        s += nd.value;
        p = nd.next;
        ++len;
    }
    sums[i] = s;
    lengths[i] = len;
}

// Dynamically-indexed local array: insertion sort of 32 values per thread.
__global__ void local_insertion_sort(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a[32];
    for (int k = 0; k < 32; ++k) a[k] = in[t * 32 + k];
    for (int k = 1; k < 32; ++k) {
        float key = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; --j; }
        a[j + 1] = key;
    }
    for (int k = 0; k < 32; ++k) out[t * 32 + k] = a[k];
}

// Explicit stack for iterative DFS over a small graph (adjacency in CSR form).
__global__ void dfs_reach(const int *row_ptr, const int *cols, int nverts, const int *starts, unsigned *reach_mask, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int stack[64];
    unsigned visited = 0u;     // nverts <= 32
    int sp = 0;
    stack[sp++] = starts[i];
    while (sp > 0) {
        int v = stack[--sp];
        if (v < 0 || v >= nverts || (visited >> v) & 1u) continue;
        visited |= 1u << v;
        for (int e = row_ptr[v]; e < row_ptr[v + 1] && sp < 64; ++e)
            stack[sp++] = cols[e];
    }
    reach_mask[i] = visited;
}

// Local struct array with pointer arithmetic and address taken.
struct Acc { double sum; int count; };

__device__ __noinline__ void bump(Acc *a, int slot, double v) { a[slot].sum += v; a[slot].count++; }

__global__ void bucket_means(const double *v, const int *bucket, double *means, int n)
{
    Acc acc[8];
    for (int k = 0; k < 8; ++k) { acc[k].sum = 0.0; acc[k].count = 0; }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        bump(acc, bucket[i] & 7, v[i]);
    for (int k = 0; k < 8; ++k)
        means[threadIdx.x * 8 + k] = acc[k].count ? acc[k].sum / acc[k].count : 0.0;
}
