// Thrust on a million elements: sort, reduce, inclusive_scan and transform. Thrust
// is CUB underneath: templates, dynamic dispatch (cudaFuncGetAttributes,
// occupancy, cudaLaunchKernelExC) and kernels whose CTAs wait on one another.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
int main() {
    const int n = 1 << 20;
    thrust::host_vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 2654435761u) % 1000003;
    thrust::device_vector<int> d = h;
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> s = d;
    for (int i = 1; i < n; i++) if (s[i - 1] > s[i]) { printf("unsorted at %d\n", i); return 1; }
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    long long want = 0; for (int i = 0; i < n; i++) want += h[i];
    if (sum != want) { printf("reduce %lld != %lld\n", sum, want); return 1; }
    thrust::device_vector<int> ones(n, 1), pre(n);
    // CUB's scan waits on the status and value of earlier tiles, stored together
    // by one vector store: a few runs give a torn read more chances to show.
    for (int run = 0; run < 3; run++) {
        thrust::inclusive_scan(ones.begin(), ones.end(), pre.begin());
        if (pre[n - 1] != n || pre[n / 2] != n / 2 + 1) { printf("scan\n"); return 1; }
    }
    thrust::transform(ones.begin(), ones.end(), pre.begin(), pre.begin(), thrust::plus<int>());
    if (pre[5] != 7) { printf("transform\n"); return 1; }
    printf("thrust: ok\n");
    return 0;
}
