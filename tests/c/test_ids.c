/* Ids: generations, no silent reuse, churn keeps every live id right. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>

int main(void) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    const rvo_agent_id a = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id b = rvo_world_add_agent(w, 5, 0, NULL);
    CHECK(a == 1 && b == 2); /* fresh worlds count from 1 */
    CHECK(!rvo_agent_is_valid(w, 0));
    CHECK(!rvo_agent_is_valid(w, 3));
    CHECK(rvo_world_remove_agent(w, a) == RVO_OK);
    CHECK(!rvo_agent_is_valid(w, a));
    CHECK(rvo_world_remove_agent(w, a) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_last_error_arg(w) == 1);
    rvo_vec2 p;
    CHECK(rvo_agent_position(w, a, &p) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_agent_set_pref_velocity(w, a, 1, 0) == RVO_ERR_UNKNOWN_ID);
    /* Forged ids: a's free slot at the generation it will hand out next,
     * slot bits 0 (the null slot) with a generation, a slot never handed
     * out, the largest ids. None reaches an agent. */
    const rvo_agent_id forged[] = {a + (1ull << 24), 1ull << 24,       3ull << 24, b + 1,
                                   (1ull << 24) - 1, (1ull << 53) - 1, ~0ull};
    for (size_t k = 0; k < sizeof forged / sizeof forged[0]; k++) {
        CHECK(!rvo_agent_is_valid(w, forged[k]));
        CHECK(rvo_agent_position(w, forged[k], &p) == RVO_ERR_UNKNOWN_ID);
        CHECK(rvo_agent_set_pref_velocity(w, forged[k], 1, 0) == RVO_ERR_UNKNOWN_ID);
    }
    CHECK(rvo_agent_position(w, b, &p) == RVO_OK && p.x == 5);
    const rvo_agent_id c = rvo_world_add_agent(w, 7, 0, NULL); /* reuses a's slot */
    CHECK(c != a && c != 0);
    CHECK((c & 0xffffff) == (a & 0xffffff));
    CHECK(c < (1ull << 53));
    CHECK(!rvo_agent_is_valid(w, a));
    CHECK(rvo_agent_position(w, b, &p) == RVO_OK && p.x == 5);
    CHECK(rvo_agent_position(w, c, &p) == RVO_OK && p.x == 7);

    /* Churn: random adds and removes; every live id maps to its own agent. */
    enum { N = 3000 };
    static rvo_agent_id live[N];
    static float tag[N];
    int n = 0;
    unsigned seed = 12345;
    rvo_world *z = rvo_world_create(&wd, NULL);
    rvo_agent_id removed[64];
    int nremoved = 0;
    for (int it = 0; it < 40000; ++it) {
        seed = seed * 1103515245u + 12345u;
        const unsigned r = (seed >> 8) % 100;
        if (r < 55 && n < N) {
            const float x = (float)(it % 1000);
            live[n] = rvo_world_add_agent(z, x, 2.0f * (float)it, NULL);
            tag[n] = 2.0f * (float)it;
            CHECK(live[n] != 0);
            ++n;
        } else if (n > 0) {
            const int k = (int)((seed >> 4) % (unsigned)n);
            CHECK(rvo_world_remove_agent(z, live[k]) == RVO_OK);
            removed[nremoved++ % 64] = live[k];
            live[k] = live[n - 1];
            tag[k] = tag[n - 1];
            --n;
        }
        if (it % 997 == 0)
            rvo_world_step(z, 0);
    }
    CHECK(rvo_world_agent_count(z) == n);
    int bad = 0;
    for (int k = 0; k < n; ++k) {
        rvo_vec2 q;
        if (rvo_agent_position(z, live[k], &q) != RVO_OK || q.y != tag[k])
            ++bad;
    }
    CHECK(bad == 0);
    for (int k = 0; k < 64 && k < nremoved; ++k)
        CHECK(!rvo_agent_is_valid(z, removed[k]));
    /* The bulk id list is a permutation of the live ids. */
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)n);
    CHECK(rvo_world_agent_ids(z, ids, n) == n);
    int found = 0;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            if (ids[j] == live[k]) {
                ++found;
                break;
            }
    CHECK(found == n);
    free(ids);
    rvo_world_destroy(z);
    rvo_world_destroy(w);
    return check_finish("ids");
}
