/* The rally scenes of issue 16 (tests/c/test_rest.c asserts them,
 * tests/bench/rally.c reports them over seeds and modes): 80 agents sent to
 * a destination too small for them, the way game scripts order it: full
 * speed towards the agent's slot, zero within the arrival radius. Measures
 * whether the group comes to rest. */
#ifndef RALLY_SCENES_H
#define RALLY_SCENES_H

#include "rvo.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { RALLY_DEFAULT = 0, RALLY_SOFT = 1, RALLY_RVO2 = 2, RALLY_SCENES = 4 };
static const char *const rally_names[RALLY_SCENES] = {"ring to a patch", "block to slots",
                                                      "two squads side by side", "one rally point"};

static unsigned rally_lcg(unsigned *s) { return *s = *s * 1103515245u + 12345u; }
static float rally_frand(unsigned *s) { return (float)((rally_lcg(s) >> 8) & 0xffff) / 65536.0f; }

typedef struct rest {
    int ok;         /* every API call succeeded */
    double speed;   /* mean speed over the last 20 s [m/s] */
    double accel;   /* mean |dv/dt| over the last 20 s [m/s^2] */
    int moving;     /* agents faster than 0.2 m/s at the end */
    double overlap; /* worst overlap over the run, fraction of ri + rj */
    uint64_t hash;  /* final positions, bit for bit */
} rest;

/* The world's settings: time step [s], radius [m], max speed [m/s],
 * neighbour distance [m], time horizon [s]; reload_at: before that step the
 * world is saved and goes on as the copy loaded from its snapshot (0:
 * never); jitter: the block's starts (scene 1) move by up to this much
 * [m, at radius 0.5] each way, drawn from the seed. The other scenes draw
 * their slots or starts from the seed; without jitter the block is one
 * scene whatever the seed. */
typedef struct rally_setting {
    float dt, radius, max_speed, neighbor_dist, horizon;
    int reload_at;
    float jitter;
} rally_setting;
static const rally_setting rally_default = {0.1f, 0.5f, 2.0f, 5.0f, 2.0f, 0, 0.0f};
/* The block's jitter in the rally tool (tests/bench/rally.c): 5 cm. */
#define RALLY_BLOCK_JITTER 0.05f

/* arrive: the arrival radius [m], or RALLY_OFFSET: none, and the offset to
 * the slot as the preferred velocity (clamped to max speed), as in the
 * README's quick start: it slows down near the slot instead of stepping
 * past it at full speed (arrival radius 0). */
#define RALLY_OFFSET (-1.0f)

/* A world of setting st on `threads` threads (the rally's, and other
 * scenes at its settings: test_rest's queue at a door). */
static inline rvo_world *rally_world(rally_setting st, int threads) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = st.dt;
    wd.agent.radius = st.radius;
    wd.agent.max_speed = st.max_speed;
    wd.agent.neighbor_dist = st.neighbor_dist;
    wd.agent.time_horizon = st.horizon;
    wd.threads = threads;
    return rvo_world_create(&wd, NULL);
}

/* 80 agents for 2 minutes (in the default setting: radius 0.5, max speed 2,
 * dt 0.1, neighbour distance 5, time horizon 2). scene 0: from a ring of
 * 30 m to random slots of a 4 m x 4 m patch; 1: a marching block to 10 x 8
 * slots 0.9 m apart; 2: two squads from either side to random slots of two
 * patches side by side; 3: from 20-30 m all round to one rally point. Other
 * radii scale the scene and its 2 minutes with radius / 0.5. */
static rest rally_in(int scene, float arrive, int threads, unsigned seed, int mode, rally_setting st) {
    rvo_world *w = rally_world(st, threads);
    rest r = {0, 0, 0, 0, 0, 0};
    if (!w)
        return r;
    r.ok = 1;
    if (mode == RALLY_SOFT)
        r.ok &= rvo_world_set_strict_overlap(w, false) == RVO_OK;
    if (mode == RALLY_RVO2)
        r.ok &= rvo_world_set_rvo2_compat(w, true) == RVO_OK;
    enum { N = 80 };
    const float scale = st.radius / 0.5f;
    const int steps = (int)(120.0f * scale / st.dt + 0.5f), window = (int)(20.0f / st.dt + 0.5f);
    float goal[2 * N], pref[2 * N], prev[2 * N];
    for (int i = 0; i < N; ++i) {
        float x, y;
        if (scene == 0) {
            const float a = (float)i * 6.2831853f / N;
            x = 30 * cosf(a), y = 30 * sinf(a);
            goal[2 * i] = -2 + 4 * rally_frand(&seed), goal[2 * i + 1] = -2 + 4 * rally_frand(&seed);
        } else if (scene == 1) {
            x = -30 + (float)(i % 8) * 1.2f, y = -6 + (float)(i / 8) * 1.2f;
            if (st.jitter > 0.0f) {
                x += 2.0f * st.jitter * (rally_frand(&seed) - 0.5f);
                y += 2.0f * st.jitter * (rally_frand(&seed) - 0.5f);
            }
            goal[2 * i] = 10 + (float)(i % 10) * 0.9f, goal[2 * i + 1] = -4 + (float)(i / 10) * 0.9f;
        } else if (scene == 3) {
            const float a = (float)i * 2.399963f, rr = 20 + 10 * rally_frand(&seed);
            x = rr * cosf(a), y = rr * sinf(a);
            goal[2 * i] = 0, goal[2 * i + 1] = 0;
        } else {
            const float side = i < N / 2 ? -1.0f : 1.0f;
            const int k = i % (N / 2);
            x = side * 25 + (float)(k % 5) * 1.2f, y = -5 + (float)(k / 5) * 1.3f;
            goal[2 * i] = side * 2.5f - 1.5f + 3 * rally_frand(&seed),
                     goal[2 * i + 1] = -2 + 4 * rally_frand(&seed);
        }
        x *= scale, y *= scale, goal[2 * i] *= scale, goal[2 * i + 1] *= scale;
        r.ok &= rvo_world_add_agent(w, x, y, NULL) != 0;
    }
    memset(prev, 0, sizeof prev);
    long samples = 0;
    for (int step = 0; step < steps; ++step) {
        if (step == st.reload_at && step > 0) { /* a save and a load in the middle of the run */
            const size_t n = rvo_world_save(w, NULL, 0);
            uint8_t *snap = (uint8_t *)malloc(n);
            rvo_world *copy = NULL;
            r.ok &= snap && rvo_world_save(w, snap, n) == n &&
                    rvo_world_load(snap, n, NULL, &copy, NULL) == RVO_OK;
            free(snap);
            if (copy) {
                rvo_world_destroy(w);
                w = copy;
            }
        }
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < N; ++i) {
            const float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy);
            const float s = arrive == RALLY_OFFSET
                                ? (d > st.max_speed ? st.max_speed / d : 1.0f) /* clamped */
                            : d <= arrive || d < 1e-6f ? 0.0f
                                                       : st.max_speed / d;
            pref[2 * i] = dx * s, pref[2 * i + 1] = dy * s;
        }
        r.ok &= rvo_world_set_pref_velocities(w, pref, N) == RVO_OK;
        r.ok &= rvo_world_step(w, 0) == RVO_OK;
        p = rvo_world_positions_view(w);
        const float *v = rvo_world_velocities_view(w);
        for (int i = 0; i < N; ++i)
            for (int j = i + 1; j < N; ++j)
                r.overlap = fmax(r.overlap, 1.0 - hypot(p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]) /
                                                      (2.0 * st.radius));
        if (step >= steps - window) {
            for (int i = 0; i < N; ++i) {
                r.speed += hypot(v[2 * i], v[2 * i + 1]);
                r.accel += hypot(v[2 * i] - prev[2 * i], v[2 * i + 1] - prev[2 * i + 1]) / (double)st.dt;
            }
            samples += N;
        }
        memcpy(prev, v, sizeof prev);
    }
    const float *p = rvo_world_positions_view(w), *v = rvo_world_velocities_view(w);
    for (int i = 0; i < N; ++i)
        r.moving += hypot(v[2 * i], v[2 * i + 1]) > 0.2;
    r.speed /= (double)samples;
    r.accel /= (double)samples;
    r.hash = 1469598103934665603ull;
    for (int i = 0; i < 2 * N; ++i) {
        uint32_t b;
        memcpy(&b, &p[i], sizeof b);
        r.hash = (r.hash ^ b) * 1099511628211ull;
    }
    rvo_world_destroy(w);
    return r;
}

/* Does a run miss issue 16's done-when: a mean speed above 0.05 m/s over
 * its last 20 s, more than one agent above 0.2 m/s at the end, or an
 * overlap above 1% of the radius sum? */
static inline bool rally_missed(rest r) { return r.speed > 0.05 || r.moving > 1 || r.overlap > 0.01; }

/* The default setting at another time horizon. */
static inline rest rally_at(int scene, float arrive, int threads, unsigned seed, int mode, float horizon) {
    rally_setting st = rally_default;
    st.horizon = horizon;
    return rally_in(scene, arrive, threads, seed, mode, st);
}

/* The default setting. */
static inline rest rally(int scene, float arrive, int threads, unsigned seed, int mode) {
    return rally_in(scene, arrive, threads, seed, mode, rally_default);
}

#endif
