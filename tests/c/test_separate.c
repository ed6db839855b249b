/* The strict overlap passes (src/solve/separate.c) skip the pairs that cannot
 * change: only pairs that overlapped when last looked at, or whose agents
 * moved since, are projected, and only agents moved since a push-out that
 * found nothing are pushed out of obstacles again. The skipping must give
 * the same bits as the plain Gauss-Seidel that looks at every pair and
 * every agent in every pass (rvo__separate_reference), on any thread count:
 * dense crowds of mixed agents (radii, weights, groups, masks, heights,
 * locks) among obstacles and a slot too narrow for them, a crowd packed
 * onto one spot, soft mode. And the shortcuts of the common cases (a world
 * of one radius, weight and no filters; agents without give-way flags; the
 * SSE2 flag and stall loops) give the bits of the general code
 * (rvo__no_shortcuts), agent counts not a multiple of four included. */
#include "check.h"
#include "rvo.h"
#include "rvo_internal.h"

#include <stdlib.h>
#include <string.h>

/* n agents in a square of side `side` walking to random goals across it,
 * between four pillars and two walls; mixed: agents of four radii, five weights (0
 * included), three groups, one-sided masks, heights, a few locked; packed:
 * every agent starts on one spot. Returns the hash after steps steps. */
static uint64_t crowd(int threads, int n, float side, int steps, bool mixed, bool packed, bool soft) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 0.25f;
    wd.agent.radius = 1.0f;
    wd.agent.neighbor_dist = 8.0f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    if (!w)
        return 0;
    if (soft)
        rvo_world_set_strict_overlap(w, false);
    for (int k = 0; k < 4; ++k) {
        const float cx = (k % 2 ? 0.25f : -0.25f) * side, cy = (k / 2 ? 0.25f : -0.25f) * side;
        const float pillar[] = {cx - 2, cy - 2, cx + 2, cy - 2, cx + 2, cy + 2, cx - 2, cy + 2};
        rvo_world_add_obstacle(w, pillar, 4, true);
    }
    /* two walls 1.5 m apart across the middle: an agent between them is
     * pushed out of one into the other, so a push-out can push again */
    const float wall_a[] = {-8, -1.75f, 8, -1.75f, 8, -0.75f, -8, -0.75f}; /* counter-clockwise */
    const float wall_b[] = {-8, 0.75f, 8, 0.75f, 8, 1.75f, -8, 1.75f};
    rvo_world_add_obstacle(w, wall_a, 4, true);
    rvo_world_add_obstacle(w, wall_b, 4, true);
    unsigned seed = 7;
    float *goal = malloc(sizeof(float) * 2 * (size_t)n), *pref = malloc(sizeof(float) * 2 * (size_t)n);
    for (int i = 0; i < n; ++i) {
        float xy[4];
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1103515245u + 12345u;
            xy[k] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * side;
        }
        if (packed)
            xy[0] = xy[1] = 0.5f; /* between the pillars */
        const rvo_agent_id id = rvo_world_add_agent(w, xy[0], xy[1], NULL);
        if (mixed) {
            rvo_agent_set_param(w, id, RVO_PARAM_RADIUS, 0.6 + 0.25 * (i % 4));
            rvo_agent_set_param(w, id, RVO_PARAM_WEIGHT, (i % 5) * 0.25);
            rvo_agent_set_param(w, id, RVO_PARAM_GROUPS, 1u << (i % 3));
            rvo_agent_set_param(w, id, RVO_PARAM_MASK, i % 7 == 0 ? 0x5u : 0xffffffffu);
            rvo_agent_set_param(w, id, RVO_PARAM_Z, i % 11 == 0 ? 3.0 : 0.0);
            rvo_agent_set_param(w, id, RVO_PARAM_HEIGHT, i % 2 ? 2.0 : INFINITY);
            if (i % 23 == 0)
                rvo_agent_lock(w, id, 0.0f, 0.0f);
        }
        goal[2 * i] = xy[2];
        goal[2 * i + 1] = xy[3];
    }
    for (int s = 0; s < steps; ++s) {
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < n; ++i) {
            float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy);
            if (d > 2.0f)
                dx *= 2.0f / d, dy *= 2.0f / d;
            if (i % 6 == 0)
                dx = dy = 0.0f; /* idle: others push them aside */
            pref[2 * i] = dx;
            pref[2 * i + 1] = dy;
        }
        CHECK(rvo_world_set_pref_velocities(w, pref, n) == RVO_OK);
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    uint64_t h = check_hash_world(w);
    /* and the stall times of the stalled agents (in the world's order) */
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)n);
    float *times = malloc(sizeof *times * (size_t)n);
    const int32_t stalled = rvo_world_stalled(w, ids, times, n);
    CHECK(stalled >= 0 && stalled <= n);
    for (int32_t k = 0; k < stalled && k < n; ++k) {
        uint32_t bits;
        memcpy(&bits, &times[k], sizeof bits);
        h = (h ^ ids[k] ^ ((uint64_t)bits << 17)) * 0x100000001b3ull;
    }
    free(ids);
    free(times);
    rvo_world_destroy(w);
    free(goal);
    free(pref);
    return h;
}

/* The skipping passes on 1, 2 and 3 threads against the reference. */
static void same_as_reference(const char *what, int n, float side, int steps, bool mixed, bool packed,
                              bool soft) {
    rvo__separate_reference = true;
    const uint64_t ref = crowd(1, n, side, steps, mixed, packed, soft);
    rvo__separate_reference = false;
    const uint64_t h1 = crowd(1, n, side, steps, mixed, packed, soft);
    const uint64_t h2 = crowd(2, n, side, steps, mixed, packed, soft);
    const uint64_t h3 = crowd(3, n, side, steps, mixed, packed, soft);
    printf("%s: reference %016llx, skipping on 1/2/3 threads %016llx %016llx %016llx\n", what,
           (unsigned long long)ref, (unsigned long long)h1, (unsigned long long)h2, (unsigned long long)h3);
    CHECK(h1 == ref);
    CHECK(h2 == ref);
    CHECK(h3 == ref);
}

/* The shortcuts against the general code, on 1 and 2 threads. */
static void same_as_general(const char *what, int n, float side, int steps, bool mixed, bool packed) {
    rvo__no_shortcuts = true;
    const uint64_t ref = crowd(1, n, side, steps, mixed, packed, false);
    rvo__no_shortcuts = false;
    const uint64_t h1 = crowd(1, n, side, steps, mixed, packed, false);
    const uint64_t h2 = crowd(2, n, side, steps, mixed, packed, false);
    printf("%s: general %016llx, shortcuts on 1/2 threads %016llx %016llx\n", what, (unsigned long long)ref,
           (unsigned long long)h1, (unsigned long long)h2);
    CHECK(h1 == ref);
    CHECK(h2 == ref);
}

int main(void) {
    same_as_reference("dense crossing", 600, 70.0f, 80, false, false, false);
    same_as_reference("dense crossing, mixed agents", 600, 70.0f, 80, true, false, false);
    same_as_reference("packed onto one spot, mixed agents", 300, 60.0f, 40, true, true, false);
    same_as_reference("soft mode, mixed agents", 400, 60.0f, 40, true, false, true);
    same_as_general("shortcuts, dense crossing", 603, 70.0f, 80, false, false);
    same_as_general("shortcuts, packed onto one spot", 301, 60.0f, 40, false, true);
    same_as_general("shortcuts, mixed agents", 602, 70.0f, 80, true, false);
    return check_finish("separate");
}
