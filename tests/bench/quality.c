/* Avoidance quality on named scenes: worst overlap (ri + rj - distance, as a
 * fraction of ri + rj, over every step and pair) and makespan (steps until
 * every agent is within its radius of its goal), for the RVO2 mode
 * (rvo2_compat 1) and the default (0). Usage:
 *   quality <circle|random> <n> [rvo2_compat] [max_steps]
 * Prints: scenario,n,rvo2_compat,worst_overlap_pct,makespan_steps,ms_per_step */
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

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n = argc > 2 ? atoi(argv[2]) : 250;
    const int compat = argc > 3 ? atoi(argv[3]) : 0;
    const int max_steps = argc > 4 ? atoi(argv[4]) : 20000;
    rvo_world_def wd = rvo_default_world_def();
    wd.time_step = 0.25f;
    wd.agent.neighbor_dist = 15;
    wd.agent.max_neighbors = 10;
    wd.agent.time_horizon = 10;
    wd.agent.time_horizon_obst = 10;
    wd.agent.radius = 1.5f;
    wd.agent.max_speed = 2;
    rvo_world *w = rvo_world_create(&wd);
    rvo_world_set_rvo2_compat(w, compat != 0);
    float *goal = malloc(sizeof(float) * 2 * (size_t)n), *pref = malloc(sizeof(float) * 2 * (size_t)n);
    unsigned seed = 42;
    const double side = sqrt((double)n) * 6.0;
    for (int i = 0; i < n; ++i) {
        float x, y, gx, gy;
        if (strcmp(name, "circle") == 0) {
            double R = n * 1.5 * 2.2 / (2 * 3.14159265358979323846);
            if (R < 200) R = 200;
            const double a = i * 2 * 3.14159265358979323846 / n;
            x = (float)(R * cos(a)), y = (float)(R * sin(a)), gx = -x, gy = -y;
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
        rvo_world_add_agent(w, x, y, NULL);
        goal[2 * i] = gx, goal[2 * i + 1] = gy;
    }
    double worst = 0, ms = 0;
    int steps = 0;
    rvo_agent_id hits[64];
    for (; steps < max_steps; ++steps) {
        const float *p = rvo_world_positions_view(w);
        bool home = true;
        for (int i = 0; i < n; ++i) {
            float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d2 = dx * dx + dy * dy;
            if (d2 > 1.5f * 1.5f) home = false;
            if (d2 > 4.0f) {
                const float k = 2.0f / sqrtf(d2);
                dx *= k, dy *= k;
            }
            pref[2 * i] = dx, pref[2 * i + 1] = dy;
        }
        if (home) break;
        rvo_world_set_pref_velocities(w, pref, n);
        const double t0 = now_ms();
        rvo_world_step(w, 0);
        ms += now_ms() - t0;
        p = rvo_world_positions_view(w);
        for (int i = 0; i < n; ++i) {
            const int32_t k = rvo_world_query_radius(w, p[2 * i], p[2 * i + 1], 3.0f, hits, 64);
            for (int32_t m = 0; m < k && m < 64; ++m) {
                /* ids are 1..n in a world without removals: index = id - 1 */
                const int j = (int)hits[m] - 1;
                if (j <= i) continue;
                const double ov = (3.0 - hypot((double)p[2 * i] - p[2 * j], (double)p[2 * i + 1] - p[2 * j + 1])) / 3.0;
                if (ov > worst) worst = ov;
            }
        }
    }
    printf("%s,%d,%d,%.3f,%d,%.3f\n", name, n, compat, 100.0 * worst, steps < max_steps ? steps : -1,
           steps ? ms / steps : 0.0);
    rvo_world_destroy(w);
    free(goal);
    free(pref);
    return 0;
}
