// Independent thread scheduling (sm_70+): a loop whose trip count (1..8) varies by lane;
// every iteration takes m = __activemask() and runs __ballot_sync, __any_sync,
// __all_sync, __reduce_add_sync (redux.sync, sm_80+) and __match_any_sync over m.
// m is whatever the H100 reports as converged (expected: the lanes still in the loop).
extern "C" __global__ void vote_loop_activemask(const int* in, unsigned* out) {
    int t = threadIdx.x, x = in[t];
    int trips = (x & 7) + 1;
    unsigned acc = 0;
    for (int i = 0; i < trips; i++) {
        unsigned m = __activemask();
        unsigned b = __ballot_sync(m, (x >> i) & 1);
        int any = __any_sync(m, ((x >> (i + 3)) & 3) == 3);
        int all = __all_sync(m, x > i * 100);
        unsigned red = __reduce_add_sync(m, (unsigned)(x + i));
        unsigned mt = __match_any_sync(m, (x >> 4) & 3);
        acc = acc * 31u + __popc(b) * 7u + any * 3u + all + red + __popc(mt) * 13u + __popc(m);
    }
    out[t] = acc;
}
