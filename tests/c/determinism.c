/* The same bits on every platform: a fixed scene through the public API,
 * its final positions hashed and compared with the hash checked in beside
 * it (tests/c/determinism.hash). The native build and scripts/windows (under
 * Wine) run it; both must print that hash.
 *
 * 400 agents in two blocks of 20 x 10 that cross at right angles, a box
 * obstacle in the northbound block's way, 300 steps of 0.1 s, once with one
 * thread and once with two. The program itself calls no libm function, so
 * only the library's arithmetic is compared.
 *
 * Usage: determinism [HASH_FILE]   (without a file: print the hash only) */
#include "rvo.h"

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

int main(int argc, char **argv) {
    const uint64_t one = run(1), two = run(2);
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
