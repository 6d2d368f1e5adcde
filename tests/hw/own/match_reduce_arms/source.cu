// Independent thread scheduling (sm_70+): __match_any_sync, __reduce_add_sync
// (redux.sync) and __any_sync with the full mask from both arms of a divergent branch,
// each arm with its own key/value; lanes of the two arms match and sum together. Then a
// converged __all_sync and __reduce_max_sync. out[3g..3g+2] per thread.
#define FULL 0xffffffffu
extern "C" __global__ void match_reduce_arms(const int* in, unsigned* out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x, x = in[g];
    unsigned mt, r;
    int a;
    if (x & 1) {
        mt = __match_any_sync(FULL, x & 12);
        r = __reduce_add_sync(FULL, (unsigned)x);
        a = __any_sync(FULL, x > 90);
    } else {
        mt = __match_any_sync(FULL, (x >> 2) & 3) ^ 1u;
        r = __reduce_add_sync(FULL, (unsigned)x * 3u);
        a = __any_sync(FULL, x < 10) * 5;
    }
    unsigned al = __all_sync(FULL, x >= 2);
    int mx = __reduce_max_sync(FULL, x * (int)(mt & 3));
    out[3 * g] = mt;
    out[3 * g + 1] = r;
    out[3 * g + 2] = (unsigned)a + 16u * al + 64u * (unsigned)mx;
}
