/* Writes the committed seed corpus of the two fuzz harnesses:
 *   seeds OPS_DIR SNAPSHOT_DIR
 * Ops seeds are small programs in fuzz_ops.c's encoding (scenes that step,
 * churn, lock, query and round-trip snapshots); snapshot seeds are valid
 * snapshots of a few worlds, each once as is and once in repair mode
 * (see fuzz_snapshot.c). Run by hand when an encoding changes. */
#include "rvo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
    uint8_t b[4096];
    size_t n;
} out;

static void byte(out *o, int v) {
    if (o->n < sizeof o->b)
        o->b[o->n++] = (uint8_t)v;
}
/* A small number v (a multiple of 0.25 in [-32, 31.75]) in num()'s encoding. */
static void small(out *o, float v) {
    byte(o, 64);
    byte(o, (int)(v * 4.0f) & 0xff);
}
static void header(out *o, int threads) {
    byte(o, threads - 1);
    small(o, 0.25f); /* time_step */
    for (int k = 0; k < 4; ++k)
        byte(o, 7 * k + 1); /* seed */
}
static void add_agent(out *o, float x, float y) {
    byte(o, 0);
    small(o, x);
    small(o, y);
    byte(o, 1); /* world defaults */
}
static void add_box(out *o, int x, int y) {
    byte(o, 5);
    byte(o, 4);
    byte(o, 3); /* shape: half-integers from bytes */
    const int pts[8] = {x, y, x + 4, y, x + 4, y + 4, x, y + 4};
    for (int k = 0; k < 8; ++k)
        byte(o, pts[k]);
    byte(o, 1); /* closed */
}
static void steps(out *o, int n) {
    for (int k = 0; k < n; ++k) {
        byte(o, 12);
        byte(o, 1); /* the world's time step */
    }
}
static void set_pref(out *o, int agent_index, float vx, float vy) {
    byte(o, 3);
    byte(o, agent_index);
    small(o, vx);
    small(o, vy);
    byte(o, 2); /* pref velocity */
}

static void write_file(const char *dir, const char *name, const uint8_t *b, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) {
        fprintf(stderr, "seeds: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static void ops_seeds(const char *dir) {
    out o = {{0}, 0};
    /* 1: a crossing with an obstacle */
    header(&o, 1);
    for (int i = 0; i < 8; ++i)
        add_agent(&o, (float)(i - 4) * 2.0f, i % 2 ? -10.0f : 10.0f);
    add_box(&o, -4, -4);
    for (int i = 0; i < 8; ++i)
        set_pref(&o, i, 0, i % 2 ? 1.0f : -1.0f);
    steps(&o, 20);
    write_file(dir, "crossing", o.b, o.n);
    /* 2: churn with snapshot round trips, two threads */
    o.n = 0;
    header(&o, 2);
    for (int i = 0; i < 6; ++i)
        add_agent(&o, (float)i, 0);
    for (int r = 0; r < 6; ++r) {
        byte(&o, 2); /* remove */
        byte(&o, r);
        add_agent(&o, 0, (float)r);
        byte(&o, 22); /* churn */
        steps(&o, 2);
        byte(&o, 20); /* snapshot round trip */
    }
    write_file(dir, "churn", o.b, o.n);
    /* 3: phases: solve, post-process, lock, query, integrate; wrong phase calls */
    o.n = 0;
    header(&o, 1);
    for (int i = 0; i < 5; ++i)
        add_agent(&o, 0, 0); /* coincident */
    byte(&o, 11);
    small(&o, 0.25f); /* integrate before solve */
    byte(&o, 9);
    small(&o, 0.25f); /* solve */
    byte(&o, 14);
    byte(&o, 1);
    small(&o, 3);
    small(&o, 4);
    byte(&o, 15);
    byte(&o, 2);
    byte(&o, 1);
    small(&o, 0.5f);
    small(&o, 0);
    byte(&o, 16);
    byte(&o, 0);
    for (int k = 0; k < 5; ++k)
        small(&o, 1);
    byte(&o, 0);
    byte(&o, 20);
    byte(&o, 11);
    small(&o, 0.25f);
    steps(&o, 5);
    write_file(dir, "phases", o.b, o.n);
    /* 4: every operation once, with nasty values */
    o.n = 0;
    header(&o, 1);
    for (int i = 0; i < 3; ++i)
        add_agent(&o, (float)i, 1);
    for (int code = 0; code < 24; ++code) {
        byte(&o, code);
        for (int k = 0; k < 12; ++k)
            byte(&o, (code * 37 + k * 11) % 48); /* nasty constants */
    }
    write_file(dir, "all-ops", o.b, o.n);
}

static void snapshot_seed(const char *dir, const char *name, rvo_world *w) {
    const size_t n = rvo_world_save(w, NULL, 0);
    uint8_t *b = malloc(n + 1);
    rvo_world_save(w, b + 1, n);
    char file[256];
    b[0] = 0; /* as is */
    snprintf(file, sizeof file, "%s-raw", name);
    write_file(dir, file, b, n + 1);
    b[0] = 1; /* repair mode */
    snprintf(file, sizeof file, "%s-repair", name);
    write_file(dir, file, b, n + 1);
    free(b);
}

static void snapshot_seeds(const char *dir) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    snapshot_seed(dir, "empty", w);
    for (int i = 0; i < 4; ++i)
        rvo_world_add_agent(w, (float)i, 0, NULL);
    const float box[] = {-1, 3, 1, 3, 1, 5, -1, 5}, wall[] = {4, -2, 4, 2, 6, 3};
    rvo_world_add_obstacle(w, box, 4, true);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, wall, 3, false);
    rvo_obstacle_set_z_range(w, o, 0, 2);
    rvo_world_remove_agent(w, 2);
    rvo_agent_lock(w, 1, 0.5f, 0);
    rvo_agent_set_param(w, 3, RVO_PARAM_WEIGHT, 0.25);
    rvo_agent_set_param(w, 3, RVO_PARAM_HEIGHT, 2);
    for (int s = 0; s < 3; ++s)
        rvo_world_step(w, 0);
    rvo_agent_set_auto_lock(w, 4, false); /* lock timers (version 3) */
    rvo_world_solve(w, 0);
    rvo_world_lock_solved(w, 1e-4f, 0.2, 0.3, 0.5, 0xffffffffu);
    rvo_world_integrate(w, 0);
    snapshot_seed(dir, "small", w);
    rvo_world_set_solver(w, RVO_SOLVER_RVO);
    rvo_world_set_sampling(w, 16, 2);
    rvo_world_solve(w, 0.1f);
    snapshot_seed(dir, "solved-rvo", w);
    rvo_world_destroy(w);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: seeds OPS_DIR SNAPSHOT_DIR\n");
        return 2;
    }
    ops_seeds(argv[1]);
    snapshot_seeds(argv[2]);
    return 0;
}
