/* The same bits on every platform: two fixed scenes through the public
 * API, their final positions hashed and compared with the hash checked in
 * beside it (tests/c/determinism.hash). The native build, the scalar build
 * of the core (RVO_NO_SIMD, tests/meson.build) and scripts/windows (under
 * Wine) run it; all must print that hash.
 *
 * 400 agents in two blocks of 20 x 10 that cross at right angles, a box
 * obstacle in the northbound block's way, 300 steps of 0.1 s; then a rally
 * (run_rally). Each once with one thread and once with two. The program
 * itself calls no libm function but sqrtf, which IEEE 754 rounds exactly,
 * so only the library's arithmetic is compared.
 *
 * Usage: determinism [HASH_FILE]   (without a file: print the hash only) */
#include "rvo.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { ROWS = 10, COLS = 20, AGENTS = 2 * ROWS * COLS, STEPS = 300 };

/* FNV-1a over the bit patterns of the floats (byte order independent). */
static uint64_t hash_floats(const float *v, int n) {
    uint64_t h = 14695981039346656037u;
    for (int i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        for (int b = 0; b < 32; b += 8) {
            h ^= (bits >> b) & 0xffu;
            h *= 1099511628211u;
        }
    }
    return h;
}

/* Runs the scene; 0 when the world refuses something. */
static uint64_t run(int32_t threads) {
    rvo_world_def def = rvo_world_def_default();
    def.threads = threads;
    def.time_step = 0.1f;
    def.agent.radius = 0.4f;
    def.agent.max_speed = 2.0f;
    def.agent.neighbor_dist = 5.0f;
    def.agent.max_neighbors = 10;
    def.agent.time_horizon = 2.0f;
    def.agent.time_horizon_obst = 2.0f;
    rvo_world *w = rvo_world_create(&def, NULL);
    if (!w)
        return 0;
    /* Eastbound block west of the crossing, northbound block south of it. */
    rvo_agent_id ids[AGENTS];
    int n = 0;
    for (int r = 0; r < ROWS; ++r) {
        for (int c = 0; c < COLS; ++c)
            ids[n++] = rvo_world_add_agent(w, -40.0f + 1.0f * (float)c, -5.0f + 1.0f * (float)r, NULL);
    }
    for (int r = 0; r < ROWS; ++r) {
        for (int c = 0; c < COLS; ++c)
            ids[n++] = rvo_world_add_agent(w, -10.0f + 1.0f * (float)c, -40.0f + 1.0f * (float)r, NULL);
    }
    /* A solid box (counter-clockwise) north of the crossing. */
    const float box[] = {-3.0f, 8.0f, 3.0f, 8.0f, 3.0f, 12.0f, -3.0f, 12.0f};
    if (rvo_world_add_obstacle(w, box, 4, true) == 0) {
        rvo_world_destroy(w);
        return 0;
    }
    for (int k = 0; k < STEPS; ++k) {
        for (int i = 0; i < AGENTS; ++i) {
            const bool east = i < AGENTS / 2;
            if (ids[i] == 0 ||
                rvo_agent_set_pref_velocity(w, ids[i], east ? 1.5f : 0.0f, east ? 0.0f : 1.5f) != RVO_OK) {
                rvo_world_destroy(w);
                return 0;
            }
        }
        if (rvo_world_step(w, 0.1f) != RVO_OK) {
            rvo_world_destroy(w);
            return 0;
        }
    }
    float xy[2 * AGENTS];
    for (int i = 0; i < AGENTS; ++i) {
        rvo_vec2 p;
        rvo_agent_position(w, ids[i], &p);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
    rvo_world_destroy(w);
    return hash_floats(xy, 2 * AGENTS);
}

/* The second scene: 60 agents on a ring of 25 m sent to slots drawn in a
 * 4 m x 4 m patch, at 60 steps a second and a 10 s horizon, each stopped
 * within 1.5 m of its slot (tests/lua/quality_spec.lua's rally, draw 8):
 * agents idle, stalled and resting, whose lines take capped horizons. For
 * 60 s; 0 when the world refuses something. */
enum { RALLY = 60, RALLY_STEPS = 3600 };
static uint64_t run_rally(int32_t threads) {
    rvo_world_def def = rvo_world_def_default();
    def.threads = threads;
    def.time_step = 1.0f / 60.0f;
    def.agent.radius = 0.5f;
    def.agent.max_speed = 2.0f;
    def.agent.neighbor_dist = 5.0f;
    def.agent.time_horizon = 10.0f;
    rvo_world *w = rvo_world_create(&def, NULL);
    if (!w)
        return 0;
    rvo_agent_id ids[RALLY];
    float slot[RALLY][2];
    uint64_t seed = 56;
    float x = 25.0f, y = 0.0f; /* the ring, turned 6 degrees an agent */
    for (int i = 0; i < RALLY; ++i) {
        ids[i] = rvo_world_add_agent(w, x, y, NULL);
        const float t = 0.994521895f * x - 0.104528463f * y;
        y = 0.104528463f * x + 0.994521895f * y, x = t;
        for (int k = 0; k < 2; ++k) {
            seed = seed * 16807u % 2147483647u;
            slot[i][k] = -2.0f + 4.0f * (float)seed / 2147483647.0f;
        }
    }
    float xy[2 * RALLY];
    for (int k = 0; k <= RALLY_STEPS; ++k) {
        for (int i = 0; i < RALLY; ++i) {
            rvo_vec2 p;
            if (ids[i] == 0 || rvo_agent_position(w, ids[i], &p) != RVO_OK) {
                rvo_world_destroy(w);
                return 0;
            }
            xy[2 * i] = p.x, xy[2 * i + 1] = p.y;
            const float dx = slot[i][0] - p.x, dy = slot[i][1] - p.y, d = sqrtf(dx * dx + dy * dy);
            const float vx = d <= 1.5f ? 0.0f : dx * 2.0f / d, vy = d <= 1.5f ? 0.0f : dy * 2.0f / d;
            if (rvo_agent_set_pref_velocity(w, ids[i], vx, vy) != RVO_OK) {
                rvo_world_destroy(w);
                return 0;
            }
        }
        if (k < RALLY_STEPS && rvo_world_step(w, 0.0f) != RVO_OK) {
            rvo_world_destroy(w);
            return 0;
        }
    }
    rvo_world_destroy(w);
    return hash_floats(xy, 2 * RALLY);
}

int main(int argc, char **argv) {
    const uint64_t cross1 = run(1), rally1 = run_rally(1), cross2 = run(2), rally2 = run_rally(2);
    /* (0 when a scene was refused: the test fails) */
    const uint64_t one = cross1 && rally1 ? cross1 ^ rally1 : 0, two = cross2 && rally2 ? cross2 ^ rally2 : 0;
    printf("determinism: %016llx (1 thread), %016llx (2 threads)\n", (unsigned long long)one,
           (unsigned long long)two);
    if (one == 0 || one != two) {
        printf("determinism: FAILED (%s)\n",
               one == 0 ? "the world refused the scene" : "thread counts differ");
        return 1;
    }
    if (argc < 2)
        return 0;
    FILE *f = fopen(argv[1], "r");
    char want[64] = "";
    if (!f || !fgets(want, sizeof want, f)) {
        printf("determinism: cannot read %s\n", argv[1]);
        if (f)
            fclose(f);
        return 1;
    }
    fclose(f);
    char got[17];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)one);
    if (strncmp(want, got, 16) != 0) {
        printf("determinism: FAILED: %s expects %.16s\n", argv[1], want);
        return 1;
    }
    printf("determinism: matches %s\n", argv[1]);
    return 0;
}
