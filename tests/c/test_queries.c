/* Queries: neighbours as ORCA picks them, agents in a radius, line of sight. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rvo.h"
#include "rvo_internal.h"

typedef struct near {
    float d;
    rvo_agent_id id;
} near;

static int cmp_near(const void *a, const void *b) {
    const near *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* A step's overlap pass leaves its grid to the next solve, agents filed
 * where they stood before it pushed them (the grid's slack): every search
 * must still find exactly what a search of every agent finds. A packed
 * crowd pushes agents across cells. */
/* A world whose agents get this radius, k and neighbour range. */
static rvo_world *search_world(float radius, int32_t k, float range) {
    rvo_world_def wd = rvo_world_def_default();
    wd.agent.radius = radius;
    wd.agent.max_neighbors = k;
    wd.agent.neighbor_dist = range;
    return rvo_world_create(&wd, NULL);
}

static void searches_after_pushes(void) {
    enum { N = 600, K = 7 };
    rvo_world *w = search_world(1.0f, K, 4.0f);
    rvo_agent_id *ids = malloc(sizeof *ids * N);
    float *xy = malloc(sizeof *xy * 2 * N);
    near *all = malloc(sizeof *all * N);
    unsigned seed = 7;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1103515245u + 12345u;
        const float x = (float)((seed >> 8) % 4000) * 0.01f;
        seed = seed * 1103515245u + 12345u;
        const float y = (float)((seed >> 8) % 4000) * 0.01f;
        ids[i] = rvo_world_add_agent(w, x, y, NULL); /* about 1.5 agents per radius-1 disc: overlaps */
        rvo_agent_set_pref_velocity(w, ids[i], 20.0f - x, 20.0f - y);
    }
    rvo_agent_id out[N];
    int radius_bad = 0, knn_bad = 0;
    for (int step = 0; step < 4; ++step) {
        CHECK(rvo_world_step(w, 0.25f) == RVO_OK);
        CHECK(rvo_world_positions(w, xy, N) == N);
        for (int q = 0; q < 40; ++q) { /* radius queries around agents and between them */
            const float px = xy[2 * (q * 13)] + 0.3f * (float)(q % 3), py = xy[2 * (q * 13) + 1] - 0.2f;
            const float r = 0.5f + 0.25f * (float)(q % 9);
            int n = 0;
            for (int j = 0; j < N; ++j) {
                const float dx = xy[2 * j] - px, dy = xy[2 * j + 1] - py;
                if (dx * dx + dy * dy <= r * r)
                    all[n++].id = ids[j];
            }
            radius_bad += rvo_world_query_radius(w, px, py, r, out, N) != n;
        }
        for (int i = 0; i < N; i += 5) { /* neighbours as the solve picks them */
            int n = 0;
            for (int j = 0; j < N; ++j) {
                const float dx = xy[2 * i] - xy[2 * j], dy = xy[2 * i + 1] - xy[2 * j + 1];
                const float d = dx * dx + dy * dy;
                if (j != i && d < 16.0f)
                    all[n++] = (near){d, ids[j]};
            }
            qsort(all, (size_t)n, sizeof *all, cmp_near);
            if (n > K)
                n = K;
            const int32_t got = rvo_world_query_neighbors(w, ids[i], out, N);
            bool same = got == n;
            for (int k = 0; same && k < n; ++k)
                same = out[k] == all[k].id;
            knn_bad += !same;
        }
    }
    CHECK(radius_bad == 0);
    CHECK(knn_bad == 0);
    free(all);
    free(xy);
    free(ids);
    rvo_world_destroy(w);
}

/* Do two neighbour lists match entry for entry, bit for bit? */
static bool same_list(const neighbor *a, int32_t na, const neighbor *b, int32_t nb) {
    if (na != nb)
        return false;
    for (int32_t k = 0; k < na; ++k)
        if (memcmp(&a[k].dist_sq, &b[k].dist_sq, sizeof a[k].dist_sq) != 0 || a[k].index != b[k].index)
            return false;
    return true;
}

/* The solve searches first within the last k-th neighbour's distance (the
 * hint, w->knn_hint): whatever the hint, the list is the full search's.
 * Worlds: random (with and without groups), and a lattice, where many
 * distances tie exactly and the id decides at the k-th place. Lists of 8
 * and 16 (the longest the ranked search takes): its ranks, its equal
 * distances and its candidates beyond its room all meet here. */
static void hinted_search_same_neighbours(void) {
    for (int kind = 0; kind < 6; ++kind) {
        enum { N = 400, KMAX = 16 };
        const int K = kind < 3 ? 8 : KMAX;
        const float reach = kind < 3 ? 5.0f : 7.0f;
        rvo_world *w = search_world(0.4f, K, reach);
        uint32_t seed = 7u + (uint32_t)kind;
        rvo_agent_id ids[N];
        for (int i = 0; i < N; ++i) {
            float x, y;
            if (kind % 3 == 2) {
                x = (float)(i % 20), y = (float)(i / 20);
            } else {
                seed = seed * 1664525u + 1013904223u;
                x = 40.0f * (float)(seed >> 8) / 16777216.0f;
                seed = seed * 1664525u + 1013904223u;
                y = 40.0f * (float)(seed >> 8) / 16777216.0f;
            }
            ids[i] = rvo_world_add_agent(w, x, y, NULL);
            if (kind % 3 == 1 && i % 3 == 0) /* groups: the filtered search */
                rvo_agent_set_param(w, ids[i], RVO_PARAM_MASK, 2.0);
        }
        for (int step = 0; step < 4; ++step) {
            for (int i = 0; i < N; ++i)
                rvo_agent_set_pref_velocity(w, ids[i], kind % 3 == 2 ? 0.0f : (float)(i % 5) - 2.0f,
                                            kind % 3 == 2 ? 0.0f : (float)(i % 3) - 1.0f);
            CHECK(rvo_world_step(w, 0.1f) == RVO_OK);
        }
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK); /* (the grid is this step's) */
        neighbor full[KMAX], got[KMAX];
        int hinted = 0;
        for (int32_t i = 0; i < w->count; ++i) {
            const int32_t nf = rvo__agent_neighbors(w, i, full);
            CHECK(memcmp(&w->knn_hint[i], &(float){rvo__knn_hint(w, i, full, nf)}, sizeof(float)) == 0);
            hinted += w->knn_hint[i] != RVO_NO_HINT;
            const float kth = nf > 0 ? full[nf - 1].dist_sq : 1.0f, range = reach * reach,
                        saved = w->knn_hint[i];
            const float hints[] = {
                saved, 0.0f,  0.5f * kth, nextafterf(kth, 0.0f), kth, nextafterf(kth, 1e30f), 0.999f * range,
                range, 1e29f, RVO_NO_HINT};
            for (size_t h = 0; h < sizeof hints / sizeof *hints; ++h) {
                w->knn_hint[i] = hints[h];
                CHECK(same_list(full, nf, got, rvo__agent_neighbors_hinted(w, i, 0.1f, got)));
                CHECK(same_list(full, nf, got, rvo__agent_neighbors_hinted(w, i, 0.0f, got)));
            }
            w->knn_hint[i] = saved;
        }
        CHECK(hinted > N / 2); /* most lists are full: the guess is used */
        rvo_world_destroy(w);
    }
}

/* The per-worker scratch holds as many neighbours as the most any agent
 * takes, not RVO_MAX_NEIGHBORS_LIMIT: raising an agent's max_neighbors
 * after the world ran, or loading a snapshot that holds such an agent,
 * must make room (ASan and valgrind would see an overflow). Every solver
 * and the neighbour query, on 1 and 2 threads. */
static void scratch_follows_max_neighbors(void) {
    for (int threads = 1; threads <= 2; ++threads)
        for (int solver = 0; solver < 3; ++solver) {
            rvo_world_def wd = rvo_world_def_default();
            wd.threads = threads;
            wd.agent.max_neighbors = 4;
            wd.agent.neighbor_dist = 100;
            rvo_world *w = rvo_world_create(&wd, NULL);
            CHECK(rvo_world_set_solver(w, (rvo_solver)solver) == RVO_OK);
            const float box[] = {30, -1, 32, -1, 32, 1, 30, 1};
            CHECK(rvo_world_add_obstacle(w, box, 4, true) != 0);
            rvo_agent_id ids[300];
            for (int i = 0; i < 300; ++i) {
                ids[i] = rvo_world_add_agent(w, (float)(i % 20) * 1.5f, (float)(i / 20) * 1.5f, NULL);
                CHECK(rvo_agent_set_pref_velocity(w, ids[i], 1.0f, 0.2f) == RVO_OK);
            }
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            CHECK(rvo_agent_set_param(w, ids[150], RVO_PARAM_MAX_NEIGHBORS, 1000) == RVO_OK);
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            rvo_agent_id listed[300];
            CHECK(rvo_world_query_neighbors(w, ids[150], listed, 300) == 299);
            const size_t n = rvo_world_save(w, NULL, 0);
            void *snap = malloc(n);
            CHECK(rvo_world_save(w, snap, n) == n);
            rvo_world *l = NULL;
            CHECK(rvo_world_load(snap, n, NULL, &l, NULL) == RVO_OK);
            if (l) {
                CHECK(rvo_world_query_neighbors(l, ids[150], listed, 300) == 299);
                CHECK(rvo_world_step(l, 0) == RVO_OK && rvo_world_step(w, 0) == RVO_OK);
                rvo_vec2 a, b;
                CHECK(rvo_agent_position(w, ids[150], &a) == RVO_OK &&
                      rvo_agent_position(l, ids[150], &b) == RVO_OK);
                CHECK(a.x == b.x && a.y == b.y);
                rvo_world_destroy(l);
            }
            free(snap);
            rvo_world_destroy(w);
        }
}

int main(void) {
    searches_after_pushes();
    hinted_search_same_neighbours();
    scratch_follows_max_neighbors();
    rvo_world_def wd = rvo_world_def_default();
    wd.agent.max_neighbors = 3;
    wd.agent.neighbor_dist = 5;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_agent_id ids[8];
    for (int i = 0; i < 8; ++i)
        ids[i] = rvo_world_add_agent(w, (float)i, 0, NULL);
    rvo_agent_id out[16];
    /* agent 3's nearest: 2 and 4 at distance 1 (ties by id), then 1 or 5 -> 1 (smaller id) */
    CHECK(rvo_world_query_neighbors(w, ids[3], out, 16) == 3);
    CHECK(out[0] == ids[2] && out[1] == ids[4] && out[2] == ids[1]);
    /* neighbor_dist is strict, as in RVO2 */
    rvo_agent_set_param(w, ids[0], RVO_PARAM_NEIGHBOR_DIST, 1.0);
    CHECK(rvo_world_query_neighbors(w, ids[0], out, 16) == 0);
    CHECK(rvo_world_query_neighbors(w, 999, out, 16) == RVO_ERR_UNKNOWN_ID);

    /* radius query: inclusive, nearest first, returns the total */
    CHECK(rvo_world_query_radius(w, 3.2f, 0, 1.2f, out, 16) == 3);
    CHECK(out[0] == ids[3] && out[1] == ids[4] && out[2] == ids[2]);
    CHECK(rvo_world_query_radius(w, 3.5f, 0, 100, out, 2) == 8);
    CHECK(rvo_world_query_radius(w, 100, 100, 1, out, 16) == 0);
    CHECK(rvo_world_query_radius(w, 0, 0, -1, out, 16) < 0);
    /* after moving, queries see the new positions */
    rvo_agent_set_position(w, ids[7], 3.1f, 0.1f);
    CHECK(rvo_world_query_radius(w, 3.2f, 0, 0.2f, out, 16) == 1 && out[0] == ids[7]);

    /* line of sight around a wall */
    const float wall[] = {0, -2, 0, 2};
    rvo_world_add_obstacle(w, wall, 2, false);
    CHECK(rvo_world_line_of_sight(w, -5, 0, 5, 0, 0) == 0);
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 0) == 1);
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 1.5f) == 0); /* too close with clearance */
    CHECK(rvo_world_line_of_sight(w, -5, 3, 5, 3, 0.5f) == 1);
    CHECK(rvo_world_line_of_sight(w, NAN, 0, 1, 1, 0) < 0);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_line_of_sight(w, 0, 0, 1, 1, -1) < 0);
    rvo_world_destroy(w);
    return check_finish("queries");
}
