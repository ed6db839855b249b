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
 * (rvo__no_shortcuts), agent counts not a multiple of four included, and
 * so do the strict passes' candidates taken from the solve's neighbour
 * lists, whatever a script does between solve and integrate. */
#include "check.h"
#include "rvo.h"
#include "rvo_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The worlds of these tests: dt 0.25, radius 1, neighbour distance 8. */
static rvo_world *new_world(int threads) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 0.25f;
    wd.agent.radius = 1.0f;
    wd.agent.neighbor_dist = 8.0f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    return w;
}

/* n agents in a square of side `side` walking to random goals across it,
 * between four pillars and two walls; mixed: agents of four radii, five weights (0
 * included), three groups, one-sided masks, heights, a few locked; packed:
 * every agent starts on one spot. Returns the hash after steps steps. */
static uint64_t crowd(int threads, int n, float side, int steps, bool mixed, bool packed, bool soft) {
    rvo_world *w = new_world(threads);
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

/* A crowd of one radius (the lists of the strict passes come from the
 * solve's neighbour lists, rvo__solve_cand_keep) whose script, between
 * solve and integrate, moves an agent onto another, adds an agent on top
 * of one, removes one, overrides a new velocity, integrates another dt;
 * later a wall moving through the crowd carries agents, and a pillar grown
 * over agents pushes them out. *lists: agents
 * that had a list from the solve, summed over the steps. */
static uint64_t interrupted(int threads, long *lists) {
    rvo_world *w = new_world(threads);
    if (!w)
        return 0;
    enum { N = 240, CAP = 300 };
    rvo_agent_id ids[CAP];
    float goal[2 * CAP];
    int n = 0;
    unsigned seed = 11;
    for (; n < N; ++n) {
        float xy[4];
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1103515245u + 12345u;
            xy[k] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 45.0f;
        }
        ids[n] = rvo_world_add_agent(w, xy[0], xy[1], NULL);
        goal[2 * n] = xy[2];
        goal[2 * n + 1] = xy[3];
    }
    *lists = 0;
    for (int s = 0; s < 90; ++s) {
        for (int i = 0; i < n; ++i) {
            rvo_vec2 p;
            CHECK(rvo_agent_position(w, ids[i], &p) == RVO_OK);
            float dx = goal[2 * i] - p.x, dy = goal[2 * i + 1] - p.y;
            const float d = sqrtf(dx * dx + dy * dy);
            if (d > 2.0f)
                dx *= 2.0f / d, dy *= 2.0f / d;
            CHECK(rvo_agent_set_pref_velocity(w, ids[i], dx, dy) == RVO_OK);
        }
        CHECK(rvo_world_solve(w, 0.25f) == RVO_OK);
        if (w->solve_cand_ok)
            for (int32_t i = 0; i < w->count; ++i)
                *lists += w->solve_cand_at[i] >= 0;
        const int a = (s * 37) % n, b = (s * 53 + 1) % n;
        rvo_vec2 q;
        CHECK(rvo_agent_position(w, ids[b], &q) == RVO_OK);
        if (s % 5 == 1) { /* onto another agent */
            CHECK(rvo_agent_set_position(w, ids[a], q.x + 0.5f, q.y) == RVO_OK);
        } else if (s % 5 == 2 && n < CAP) { /* a new agent on top of one */
            ids[n] = rvo_world_add_agent(w, q.x, q.y + 0.4f, NULL);
            goal[2 * n] = -q.x, goal[2 * n + 1] = -q.y;
            ++n;
        } else if (s % 5 == 3) { /* one removed (the last takes its place) */
            CHECK(rvo_world_remove_agent(w, ids[a]) == RVO_OK);
            ids[a] = ids[n - 1], goal[2 * a] = goal[2 * n - 2], goal[2 * a + 1] = goal[2 * n - 1];
            --n;
        } else if (s % 5 == 4) { /* a new velocity of the script's (held to max speed) */
            CHECK(rvo_agent_set_new_velocity(w, ids[a], 9.0f, -9.0f) == RVO_OK);
        }
        if (s == 40) {                    /* a pillar grown over agents: they are pushed out */
            const float x = q.x, y = q.y; /* (agent b's place) */
            const float small[] = {x - 0.5f, y - 20.5f, x + 0.5f, y - 20.5f,
                                   x + 0.5f, y - 19.5f, x - 0.5f, y - 19.5f};
            const float big[] = {x - 6, y - 6, x + 6, y - 6, x + 6, y + 6, x - 6, y + 6};
            const rvo_obstacle_id o = rvo_world_add_obstacle(w, small, 4, true);
            CHECK(rvo_obstacle_set_points(w, o, big, 4) == RVO_OK);
        }
        if (s == 60) { /* a wall sweeping across the crowd */
            const float wall[] = {-30, -15, -28, -15, -28, 15, -30, 15};
            const rvo_obstacle_id o = rvo_world_add_obstacle(w, wall, 4, true);
            CHECK(rvo_obstacle_set_velocity(w, o, 12.0f, 0.0f) == RVO_OK);
        }
        CHECK(rvo_world_integrate(w, s % 7 == 0 ? 1.5f : 0.25f) == RVO_OK);
    }
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

static void interrupted_as_general(void) {
    long none, lists1, lists2;
    rvo__no_shortcuts = true;
    const uint64_t ref = interrupted(1, &none);
    rvo__no_shortcuts = false;
    const uint64_t h1 = interrupted(1, &lists1), h2 = interrupted(2, &lists2);
    printf("interrupted steps: general %016llx, lists from the solve on 1/2 threads %016llx %016llx (%ld, "
           "%ld)\n",
           (unsigned long long)ref, (unsigned long long)h1, (unsigned long long)h2, lists1, lists2);
    CHECK(none == 0);
    /* the solve's lists were made (which of them fit depends on the split) */
    CHECK(lists1 > 240 * 60 && lists2 > 240 * 60);
    CHECK(h1 == ref);
    CHECK(h2 == ref);
}

/* A crowd of one radius in a world slowed down by 5e38: max speed 4e-39
 * m/s (below the smallest normal float), dt 1.25e38 s (every step still
 * moves an agent up to half a metre; the horizons stay at 2 s, the largest
 * allowed is 1e9). The squared speeds underflow in floats: the farthest move
 * of a step read 0, the solve's neighbour lists passed for the strict
 * passes' lists, and a partner missing from one list made the passes read
 * before the lists' buffer (found by fuzz_ops). Returns the hash. */
static uint64_t slowed_down(int threads) {
    const float speed = 4e-39f;
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 1.25e38f;
    wd.agent.radius = 1.0f;
    wd.agent.neighbor_dist = 8.0f;
    wd.agent.max_speed = speed;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    if (!w)
        return 0;
    enum { N = 150 };
    float goal[2 * N], pref[2 * N];
    unsigned seed = 11;
    for (int i = 0; i < N; ++i) {
        float xy[4];
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1103515245u + 12345u;
            xy[k] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 30.0f;
        }
        CHECK(rvo_world_add_agent(w, xy[0], xy[1], NULL) != 0);
        goal[2 * i] = xy[2], goal[2 * i + 1] = xy[3];
    }
    for (int s = 0; s < 60; ++s) {
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < N; ++i) {
            const float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy), k = d > 1e-3f ? speed / d : 0.0f;
            pref[2 * i] = dx * k, pref[2 * i + 1] = dy * k;
        }
        CHECK(rvo_world_set_pref_velocities(w, pref, N) == RVO_OK);
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

static void slowed_down_as_general(void) {
    rvo__no_shortcuts = true;
    const uint64_t ref = slowed_down(1);
    rvo__no_shortcuts = false;
    const uint64_t h1 = slowed_down(1), h2 = slowed_down(2);
    printf("slowed down 5e38 times: general %016llx, shortcuts on 1/2 threads %016llx %016llx\n",
           (unsigned long long)ref, (unsigned long long)h1, (unsigned long long)h2);
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
    interrupted_as_general();
    slowed_down_as_general();
    return check_finish("separate");
}
