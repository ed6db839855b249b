/* A way around obstacles (default mode): agents aimed straight at a convex
 * obstacle, with their goal behind it, must get round it with no navmesh:
 * a box, a long wall, a row of pillars, a crowd aimed at a pillar. Plain
 * ORCA (and rvo2_compat, which stays RVO2) stalls in front of each for
 * good. Prints the steps each scene took; `test_detour -v` prints the
 * positions every second of the first scene, `test_detour --offsets` the
 * crowd's time with the pillar moved off its middle row by 0 to 0.3 m
 * (docs/quality.md: the time is chaotic), `test_detour --offsets40 [SHIFT]`
 * at 40 offsets, -0.4 + 0.02 k + SHIFT m (SHIFT 0.005 unless given); both
 * also count the runs that never got every agent home in 120 s. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

#define MAX_AGENTS 64

typedef struct scene {
    const char *name;
    int nagents;
    float start[MAX_AGENTS][2], goal[MAX_AGENTS][2];
    float arrive; /* distance that counts as arrived [m] */
    int max_steps;
} scene;

static void add_box(rvo_world *w, float cx, float cy, float hw, float hh) {
    const float xy[] = {cx - hw, cy - hh, cx + hw, cy - hh, cx + hw, cy + hh, cx - hw, cy + hh};
    CHECK(rvo_world_add_obstacle(w, xy, 4, true) != 0);
}

/* Steps until every agent is within arrive of its goal, or -1. hash gets
 * check_hash_world of the world at the end (determinism). */
static int run(const scene *sc, void (*obstacles)(rvo_world *), int threads, bool compat, uint64_t *hash,
               bool verbose) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_rvo2_compat(w, compat);
    obstacles(w);
    rvo_agent_id ids[MAX_AGENTS];
    for (int k = 0; k < sc->nagents; ++k)
        ids[k] = rvo_world_add_agent(w, sc->start[k][0], sc->start[k][1], NULL);
    int steps = -1;
    for (int s = 0; s < sc->max_steps; ++s) {
        bool all = true;
        for (int k = 0; k < sc->nagents; ++k) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[k], &p);
            float vx = sc->goal[k][0] - p.x, vy = sc->goal[k][1] - p.y;
            const float d = sqrtf(vx * vx + vy * vy);
            if (d > sc->arrive)
                all = false;
            if (d > 2.0f) {
                vx *= 2.0f / d;
                vy *= 2.0f / d;
            }
            rvo_agent_set_pref_velocity(w, ids[k], vx, vy);
            if (verbose && k == 0 && s % 60 == 0)
                printf("  t=%5.1f (%7.3f, %7.3f)\n", s / 60.0, p.x, p.y);
        }
        if (all) {
            steps = s;
            break;
        }
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    if (hash)
        *hash = check_hash_world(w);
    rvo_world_destroy(w);
    return steps;
}

static void box_obstacles(rvo_world *w) { add_box(w, 0, 0, 2, 2); }
static void wall_obstacles(rvo_world *w) { add_box(w, 0, 0, 0.1f, 10); }
static void pillar_row(rvo_world *w) {
    for (int k = -3; k <= 3; ++k)
        add_box(w, 0, 2.0f * (float)k, 0.6f, 0.6f); /* gaps of 0.8 m: no way between */
}
static void one_pillar(rvo_world *w) { add_box(w, 0, 0, 1, 1); }
static float pillar_dy; /* --offsets */
static void one_pillar_off(rvo_world *w) { add_box(w, 0, pillar_dy, 1, 1); }

/* The crowd's time with the pillar moved off its middle row by each of
 * dys[0..n) (a run never home counts as its 120 s), and the runs never
 * home. */
static void crowd_at_offsets(const scene *crowd, const float *dys, int n) {
    double sum = 0;
    int never = 0;
    for (int k = 0; k < n; ++k) {
        pillar_dy = dys[k];
        const int steps = run(crowd, one_pillar_off, 1, false, NULL, false);
        printf("pillar at y = %6.3f: %.1f s%s\n", dys[k], steps / 60.0, steps > 0 ? "" : " (never home)");
        sum += steps > 0 ? steps / 60.0 : 120.0;
        never += steps <= 0;
    }
    printf("mean %.1f s, %d never home\n", sum / n, never);
}

static scene single(const char *name, float sx, float sy, float gx, float gy, int max_steps) {
    scene sc;
    memset(&sc, 0, sizeof sc);
    sc.name = name;
    sc.nagents = 1;
    sc.start[0][0] = sx;
    sc.start[0][1] = sy;
    sc.goal[0][0] = gx;
    sc.goal[0][1] = gy;
    sc.arrive = 0.1f;
    sc.max_steps = max_steps;
    return sc;
}

/* Saved while going round the box, a loaded copy goes on bit-identically. */
static void snapshot_mid_detour(void) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    box_obstacles(w);
    const rvo_agent_id a = rvo_world_add_agent(w, -6, 0.3f, NULL);
    rvo_agent_set_pref_velocity(w, a, 2, 0);
    for (int s = 0; s < 350; ++s) /* slowed by the box, stalled, going round after about 5 s */
        rvo_world_step(w, 0);
    rvo_vec2 p;
    rvo_agent_position(w, a, &p);
    CHECK(p.x < -2.4f && p.y > 0.4f); /* sliding along the near face */
    rvo_world *l = check_copy(w);
    if (!l) {
        rvo_world_destroy(w);
        return;
    }
    for (int s = 0; s < 300; ++s) {
        rvo_world_step(w, 0);
        rvo_world_step(l, 0);
    }
    CHECK(check_hash_world(w) == check_hash_world(l));
    rvo_world_destroy(w);
    rvo_world_destroy(l);
}

int main(int argc, char **argv) {
    const bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    /* The 4 m box at the origin, the agent aimed 0.3 m off its middle. */
    const scene box = single("box", -6, 0.3f, 6, 0.3f, 60 * 60);
    /* A 20 m wall, the agent aimed at its middle. */
    const scene wall = single("wall", -6, 0, 6, 0, 60 * 60);
    /* Seven pillars in a row, the agent aimed at the middle one. */
    const scene row = single("pillar row", -6, 0, 6, 0, 60 * 60);
    /* 30 agents in 5 rows of 6, walking 22 m ahead, a 2 m pillar in the
     * way of the middle rows (the middle one aimed at its middle). */
    scene crowd;
    memset(&crowd, 0, sizeof crowd);
    crowd.name = "crowd of 30 at a pillar";
    crowd.nagents = 30;
    crowd.arrive = 0.3f;
    crowd.max_steps = 120 * 60;
    for (int k = 0; k < 30; ++k) {
        const float x = -12.0f + 1.2f * (float)(k % 6), y = 1.2f * (float)(k / 6 - 2);
        crowd.start[k][0] = x;
        crowd.start[k][1] = y;
        crowd.goal[k][0] = x + 22.0f;
        crowd.goal[k][1] = y;
    }

    if (argc > 1 && strcmp(argv[1], "--offsets40") == 0) {
        const float shift = argc > 2 ? (float)atof(argv[2]) : 0.005f;
        float dys[40];
        for (int k = 0; k < 40; ++k)
            dys[k] = -0.4f + 0.02f * (float)k + shift;
        crowd_at_offsets(&crowd, dys, 40);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--offsets") == 0) {
        static const float dys[10] = {0, 0.01f, 0.03f, 0.05f, 0.1f, -0.05f, 0.2f, 0.3f, -0.1f, -0.2f};
        crowd_at_offsets(&crowd, dys, 10);
        return 0;
    }
    const scene *scenes[] = {&box, &wall, &row, &crowd};
    void (*obst[])(rvo_world *) = {box_obstacles, wall_obstacles, pillar_row, one_pillar};
    for (int k = 0; k < 4; ++k) {
        uint64_t h1 = 0, h3 = 0;
        const int steps = run(scenes[k], obst[k], 1, false, &h1, verbose && k == 0);
        printf("%-24s arrived after %d steps (%.2f s)\n", scenes[k]->name, steps, steps / 60.0);
        CHECK(steps > 0);
        /* bit-identical on 3 threads */
        const int steps3 = run(scenes[k], obst[k], 3, false, &h3, false);
        CHECK(steps3 == steps);
        CHECK(h1 == h3);
    }
    snapshot_mid_detour();
    /* rvo2_compat stays RVO2: it stalls in front of the box. */
    CHECK(run(&box, box_obstacles, 1, true, NULL, false) < 0);
    return check_finish("detour");
}
