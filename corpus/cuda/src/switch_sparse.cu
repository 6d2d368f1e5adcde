// Sparse switch statements lowered to compare chains / binary search.

__device__ int sparse_class(unsigned key)
{
    switch (key) {
    case 3: return 10;
    case 17: return 11;
    case 250: return 12;
    case 1024: return 13;
    case 4099: return 14;
    case 65536: return 15;
    case 100000: return 16;
    case 0xdeadbeefu: return 17;
    default: return -1;
    }
}

__device__ long long sparse64(long long key)
{
    switch (key) {
    case -5: return 1;
    case 0: return 2;
    case 1000000007LL: return 3;
    case 0x100000000LL: return 4;
    case -0x7fffffffffffLL: return 5;
    default: return key >> 3;
    }
}

__global__ void sparse_switch(const unsigned *keys, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = sparse_class(keys[i]);
}

__global__ void sparse_switch64(const long long *keys, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = sparse64(keys[i]);
}

// Character classification with ranges mixed into a switch.
__global__ void char_class(const char *text, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    char c = text[i];
    int slot;
    switch (c) {
    case ' ': case '\t': case '\n': case '\r': slot = 0; break;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': slot = 1; break;
    case '(': case ')': case '[': case ']': case '{': case '}': slot = 2; break;
    case '+': case '-': case '*': case '/': case '%': slot = 3; break;
    default:
        slot = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ? 4 : 5;
    }
    atomicAdd(&counts[slot], 1);
}
