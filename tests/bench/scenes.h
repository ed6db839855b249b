/* The named benchmark scenes, shared by bench.c, quality.c and the
 * DetourCrowd peer (detour_peer.cpp); tests/bench/lua_bench.lua builds the
 * same scenes from Lua (same generator, same numbers).
 *
 *   circle N  RVO2's circle: radius max(200, N*1.5*2.2/(2 pi)), agents swap
 *             to the antipode.
 *   random N  random crossing: agents in a square of side 6*sqrt(N) (36 m^2
 *             per agent) walk to random goals in it.
 *   plaza N   the random crossing with 4x4 m pillars every 24 m (agents
 *             start and end at least 3 m from a pillar).
 *   blocks    RVO2's Blocks example: 100 agents, four square obstacles.
 * Agents: neighbor_dist 15, max_neighbors 10, horizons 10, radius 1.5,
 * max_speed 2, dt 0.25 (blocks: horizons 5, radius 2, as RVO2's example).
 * Preferred velocity: towards the goal at max_speed, the goal offset itself
 * when closer than max_speed (blocks: unit speed, as RVO2's example).
 *
 * Define SCENES_GEOMETRY_ONLY to get the scene data (scene_spec) without
 * the rvo parts, for peers that link another library. */
#ifndef RVO_BENCH_SCENES_H
#define RVO_BENCH_SCENES_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU time of the process: on a shared machine the fair clock for one
 * thread (time spent waiting for a core is not counted). */
static inline double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#define SCENE_PI 3.14159265358979323846
#define PLAZA_SPACING 24.0
#define PLAZA_PILLAR 4.0

typedef struct scene_spec {
    int n;
    float dt, neighbor_dist, time_horizon, time_horizon_obst, radius, max_speed;
    float pref_speed; /* speed of the preferred velocity */
    int max_neighbors;
    float *start, *goal; /* 2n each */
    float *obst;         /* all obstacle points, x,y pairs, counter-clockwise */
    int *obst_count;     /* points per obstacle */
    int nobst;
} scene_spec;

/* 32-bit LCG; lua_bench.lua computes the same numbers. */
static inline double scene_rand(unsigned *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return (double)(*seed >> 8) / 16777216.0;
}

static inline bool scene_known(const char *name) {
    return strcmp(name, "circle") == 0 || strcmp(name, "random") == 0 || strcmp(name, "plaza") == 0 ||
           strcmp(name, "blocks") == 0;
}

/* Is (x, y) within margin of a plaza pillar? */
static inline bool plaza_blocked(double x, double y, double side, double margin) {
    const double half = PLAZA_PILLAR / 2 + margin;
    const double cx = floor((x + side / 2) / PLAZA_SPACING) * PLAZA_SPACING - side / 2 + PLAZA_SPACING / 2;
    const double cy = floor((y + side / 2) / PLAZA_SPACING) * PLAZA_SPACING - side / 2 + PLAZA_SPACING / 2;
    return fabs(x - cx) < half && fabs(y - cy) < half;
}

static inline void plaza_point(unsigned *seed, double side, float *x, float *y) {
    double px, py;
    do {
        px = (scene_rand(seed) - 0.5) * side;
        py = (scene_rand(seed) - 0.5) * side;
    } while (plaza_blocked(px, py, side, 3.0));
    *x = (float)px;
    *y = (float)py;
}

static inline void spec_add_square(scene_spec *s, int *cap, double x0, double y0, double x1, double y1) {
    if (s->nobst == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        s->obst = (float *)realloc(s->obst, sizeof(float) * 8 * (size_t)*cap);
        s->obst_count = (int *)realloc(s->obst_count, sizeof(int) * (size_t)*cap);
    }
    float *p = s->obst + 8 * s->nobst;
    const float q[8] = {(float)x0, (float)y0, (float)x1, (float)y0,
                        (float)x1, (float)y1, (float)x0, (float)y1};
    memcpy(p, q, sizeof q);
    s->obst_count[s->nobst++] = 4;
}

/* n is ignored for blocks (100 agents). */
static inline scene_spec spec_make(const char *name, int n) {
    scene_spec s;
    memset(&s, 0, sizeof s);
    s.dt = 0.25f;
    s.neighbor_dist = 15;
    s.max_neighbors = 10;
    s.time_horizon = s.time_horizon_obst = 10;
    s.radius = 1.5f;
    s.max_speed = 2;
    s.pref_speed = 2;
    if (strcmp(name, "blocks") == 0) {
        n = 100;
        s.time_horizon = s.time_horizon_obst = 5;
        s.radius = 2;
        s.pref_speed = 1;
    }
    s.n = n;
    s.start = (float *)malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1));
    s.goal = (float *)malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1));
    unsigned seed = 42;
    const double side = sqrt((double)n) * 6.0;
    int cap = 0;
    if (strcmp(name, "blocks") == 0) {
        static const float corner[4][4] = {
            {1, 1, -75, -75}, {-1, 1, 75, -75}, {1, -1, -75, 75}, {-1, -1, 75, 75}};
        int k = 0;
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j)
                for (int c = 0; c < 4; ++c, ++k) {
                    s.start[2 * k] = corner[c][0] * (55.0f + (float)i * 10.0f);
                    s.start[2 * k + 1] = corner[c][1] * (55.0f + (float)j * 10.0f);
                    s.goal[2 * k] = corner[c][2];
                    s.goal[2 * k + 1] = corner[c][3];
                }
        spec_add_square(&s, &cap, -40, 10, -10, 40);
        spec_add_square(&s, &cap, 10, 10, 40, 40);
        spec_add_square(&s, &cap, 10, -40, 40, -10);
        spec_add_square(&s, &cap, -40, -40, -10, -10);
        return s;
    }
    if (strcmp(name, "plaza") == 0) {
        const int cells = (int)floor(side / PLAZA_SPACING);
        for (int j = 0; j < cells; ++j)
            for (int i = 0; i < cells; ++i) {
                const double cx = -side / 2 + PLAZA_SPACING / 2 + i * PLAZA_SPACING;
                const double cy = -side / 2 + PLAZA_SPACING / 2 + j * PLAZA_SPACING;
                spec_add_square(&s, &cap, cx - PLAZA_PILLAR / 2, cy - PLAZA_PILLAR / 2, cx + PLAZA_PILLAR / 2,
                                cy + PLAZA_PILLAR / 2);
            }
    }
    for (int i = 0; i < n; ++i) {
        if (strcmp(name, "circle") == 0) {
            double R = n * 1.5 * 2.2 / (2 * SCENE_PI);
            if (R < 200)
                R = 200;
            const double a = i * 2 * SCENE_PI / n;
            s.start[2 * i] = (float)(R * cos(a));
            s.start[2 * i + 1] = (float)(R * sin(a));
            s.goal[2 * i] = -s.start[2 * i];
            s.goal[2 * i + 1] = -s.start[2 * i + 1];
        } else if (strcmp(name, "plaza") == 0) {
            plaza_point(&seed, side, &s.start[2 * i], &s.start[2 * i + 1]);
            plaza_point(&seed, side, &s.goal[2 * i], &s.goal[2 * i + 1]);
        } else {
            s.start[2 * i] = (float)((scene_rand(&seed) - 0.5) * side);
            s.start[2 * i + 1] = (float)((scene_rand(&seed) - 0.5) * side);
            s.goal[2 * i] = (float)((scene_rand(&seed) - 0.5) * side);
            s.goal[2 * i + 1] = (float)((scene_rand(&seed) - 0.5) * side);
        }
    }
    return s;
}

static inline void spec_free(scene_spec *s) {
    free(s->start);
    free(s->goal);
    free(s->obst);
    free(s->obst_count);
    memset(s, 0, sizeof *s);
}

/* Preferred velocity of an agent at p with goal g: towards g at speed,
 * the offset itself when shorter. True when p is within reach of g. */
static inline bool scene_pref(const scene_spec *s, float px, float py, int i, float *vx, float *vy,
                              float reach) {
    float dx = s->goal[2 * i] - px, dy = s->goal[2 * i + 1] - py;
    const float d2 = dx * dx + dy * dy;
    const float speed = s->pref_speed;
    if (d2 > speed * speed) {
        const float k = speed / sqrtf(d2);
        dx *= k;
        dy *= k;
    }
    *vx = dx;
    *vy = dy;
    return d2 <= reach * reach;
}

#ifndef SCENES_GEOMETRY_ONLY
#include "rvo.h"

typedef struct scene {
    rvo_world *w;
    int n;
    scene_spec spec;
    rvo_agent_id *ids;
    float *goal; /* = spec.goal */
    float *pref;
} scene;

/* Counting allocator (bytes_per_agent in the bench output). */
typedef struct alloc_count {
    size_t live, peak;
} alloc_count;

static inline void *counting_alloc(void *user, void *ptr, size_t old_size, size_t new_size) {
    alloc_count *c = (alloc_count *)user;
    if (new_size == 0) {
        c->live -= old_size;
        free(ptr);
        return NULL;
    }
    void *q = realloc(ptr, new_size);
    if (!q)
        return NULL;
    c->live += new_size - old_size;
    if (c->live > c->peak)
        c->peak = c->live;
    return q;
}

/* counter may be NULL (the C library's allocator); enqueue/finish/user
 * set the host task hook (NULL: the built-in pool). */
static inline scene make_hooked(const char *name, int n, int threads, alloc_count *counter,
                                rvo_enqueue_task_fn *enqueue, rvo_finish_task_fn *finish, void *user) {
    scene s;
    memset(&s, 0, sizeof s);
    s.spec = spec_make(name, n);
    n = s.spec.n;
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = s.spec.dt;
    wd.threads = threads;
    wd.agent.neighbor_dist = s.spec.neighbor_dist;
    wd.agent.max_neighbors = s.spec.max_neighbors;
    wd.agent.time_horizon = s.spec.time_horizon;
    wd.agent.time_horizon_obst = s.spec.time_horizon_obst;
    wd.agent.radius = s.spec.radius;
    wd.agent.max_speed = s.spec.max_speed;
    wd.enqueue_task = enqueue;
    wd.finish_task = finish;
    wd.task_user = user;
    if (counter) {
        wd.alloc = counting_alloc;
        wd.alloc_user = counter;
    }
    s.w = rvo_world_create(&wd, NULL);
    if (!s.w) {
        fprintf(stderr, "scene: cannot create a world\n");
        exit(1);
    }
    s.n = n;
    s.ids = (rvo_agent_id *)malloc(sizeof *s.ids * (size_t)(n > 0 ? n : 1));
    s.goal = s.spec.goal;
    s.pref = (float *)malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1));
    const float *p = s.spec.obst;
    for (int k = 0; k < s.spec.nobst; p += 2 * s.spec.obst_count[k], ++k)
        rvo_world_add_obstacle(s.w, p, s.spec.obst_count[k], true);
    for (int i = 0; i < n; ++i)
        s.ids[i] = rvo_world_add_agent(s.w, s.spec.start[2 * i], s.spec.start[2 * i + 1], NULL);
    return s;
}

static inline scene make(const char *name, int n, int threads) {
    return make_hooked(name, n, threads, NULL, NULL, NULL, NULL);
}

/* Sets every preferred velocity in one bulk call; returns true when every
 * agent is within its radius of its goal. */
static inline bool set_prefs(scene *s) {
    const float *p = rvo_world_positions_view(s->w);
    bool home = true;
    for (int i = 0; i < s->n; ++i)
        if (!scene_pref(&s->spec, p[2 * i], p[2 * i + 1], i, &s->pref[2 * i], &s->pref[2 * i + 1],
                        s->spec.radius))
            home = false;
    rvo_world_set_pref_velocities(s->w, s->pref, s->n);
    return home;
}

static inline void free_scene(scene *s) {
    rvo_world_destroy(s->w);
    free(s->ids);
    free(s->pref);
    spec_free(&s->spec);
}
#endif

#endif
