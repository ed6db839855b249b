#include "check.h"

#include <stdlib.h>
#include <string.h>

int check_failures = 0;
int check_count = 0;

int check_finish(const char *name) {
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}

uint64_t check_hash_world(const rvo_world *w) {
    const int32_t n = rvo_world_agent_count(w);
    const float *p = rvo_world_positions_view(w), *v = rvo_world_velocities_view(w);
    uint64_t h = 1469598103934665603ull;
    for (int32_t k = 0; k < 2 * n; ++k) {
        uint32_t a, b;
        memcpy(&a, &p[k], 4);
        memcpy(&b, &v[k], 4);
        h = (h ^ a) * 1099511628211ull;
        h = (h ^ b) * 1099511628211ull;
    }
    return h;
}

rvo_world *check_copy(const rvo_world *w) {
    const size_t n = rvo_world_save(w, NULL, 0);
    void *buf = malloc(n);
    CHECK(buf && rvo_world_save(w, buf, n) == n);
    rvo_world *l = NULL;
    CHECK(buf && rvo_world_load(buf, n, NULL, &l, NULL) == RVO_OK);
    free(buf);
    return l;
}
