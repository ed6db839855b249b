/* The named scenes shared by bench.c and quality.c, with RVO2's
 * parameters: dt 0.25, neighbor_dist 15, max_neighbors 10, horizons 10,
 * radius 1.5, max_speed 2. "circle": radius max(200, N*1.5*2.2/(2 pi)),
 * agents swap to the antipode; "random": agents in a square (~36 m^2 per
 * agent) walk to random goals. */
#ifndef RVO_BENCH_SCENES_H
#define RVO_BENCH_SCENES_H

#define _POSIX_C_SOURCE 200809L
#include "rvo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct scene {
    rvo_world *w;
    int n;
    rvo_agent_id *ids;
    float *goal;
    float *pref;
} scene;

static scene make(const char *name, int n, int threads) {
    scene s = {0};
    rvo_world_def wd = rvo_default_world_def();
    wd.time_step = 0.25f;
    wd.threads = threads;
    wd.agent.neighbor_dist = 15;
    wd.agent.max_neighbors = 10;
    wd.agent.time_horizon = 10;
    wd.agent.time_horizon_obst = 10;
    wd.agent.radius = 1.5f;
    wd.agent.max_speed = 2;
    s.w = rvo_world_create(&wd);
    s.n = n;
    s.ids = malloc(sizeof *s.ids * (size_t)n);
    s.goal = malloc(sizeof(float) * 2 * (size_t)n);
    s.pref = malloc(sizeof(float) * 2 * (size_t)n);
    unsigned seed = 42;
    const double side = sqrt((double)n) * 6.0; /* ~36 m^2 per agent */
    for (int i = 0; i < n; ++i) {
        float x, y, gx, gy;
        if (strcmp(name, "circle") == 0) {
            double R = n * 1.5 * 2.2 / (2 * 3.14159265358979323846);
            if (R < 200) R = 200;
            const double a = i * 2 * 3.14159265358979323846 / n;
            x = (float)(R * cos(a));
            y = (float)(R * sin(a));
            gx = -x;
            gy = -y;
        } else {
            seed = seed * 1103515245u + 12345u;
            x = (float)(((seed >> 8) / 16777216.0 - 0.5) * side);
            seed = seed * 1103515245u + 12345u;
            y = (float)(((seed >> 8) / 16777216.0 - 0.5) * side);
            seed = seed * 1103515245u + 12345u;
            gx = (float)(((seed >> 8) / 16777216.0 - 0.5) * side);
            seed = seed * 1103515245u + 12345u;
            gy = (float)(((seed >> 8) / 16777216.0 - 0.5) * side);
        }
        s.ids[i] = rvo_world_add_agent(s.w, x, y, NULL);
        s.goal[2 * i] = gx;
        s.goal[2 * i + 1] = gy;
    }
    return s;
}

/* Preferred velocities towards the goals at speed 2 (slower within 2 m);
 * returns true when every agent is within its radius (1.5) of its goal. */
static bool set_prefs(scene *s) {
    const float *p = rvo_world_positions_view(s->w);
    bool home = true;
    for (int i = 0; i < s->n; ++i) {
        float dx = s->goal[2 * i] - p[2 * i], dy = s->goal[2 * i + 1] - p[2 * i + 1];
        const float d2 = dx * dx + dy * dy;
        if (d2 > 1.5f * 1.5f) home = false;
        if (d2 > 4.0f) {
            const float k = 2.0f / sqrtf(d2);
            dx *= k;
            dy *= k;
        }
        s->pref[2 * i] = dx;
        s->pref[2 * i + 1] = dy;
    }
    rvo_world_set_pref_velocities(s->w, s->pref, s->n);
    return home;
}

static void free_scene(scene *s) {
    rvo_world_destroy(s->w);
    free(s->ids);
    free(s->goal);
    free(s->pref);
}

#endif
