// Pointers inside a packed struct: nvcc initialises the byte array a byte of an
// address at a time, `0xFF00(generic(values)+4)` (issue 8). use_packed reads
// values[1] + 'a' = 99 and values[3] + 'b' = 102, alternating.
__device__ int values[4] = {1, 2, 3, 4};
struct __attribute__((packed)) Packed { char tag; const int *data; };
__device__ Packed packed[2] = {{'a', &values[1]}, {'b', &values[3]}};

__global__ void use_packed(int *out) {
    out[threadIdx.x] = *packed[threadIdx.x & 1].data + packed[threadIdx.x & 1].tag;
}
