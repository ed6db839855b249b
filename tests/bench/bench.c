/* Named benchmark scenes (Box2D style): prints scenario,n,threads,ms/step,
 * us/agent-step. Circle: radius max(200, N*1.5*2.2/(2 pi)), agents swap to the
 * antipode; random crossing: agents in a square walk to random goals. RVO2's
 * parameters: dt 0.25, neighbor_dist 15, max_neighbors 10, horizons 10,
 * radius 1.5, max_speed 2.
 * Usage: bench [scenario [n [threads [warm [steps [solver [mode]]]]]]]; with a
 * solver name (orca, ue, rvo) it is selected and appended to the line.
 * mode: "default" (overlap resolution on), "plain" (rvo2_compat: exactly
 * RVO2's work) or "features" (rvo2_compat, with weights 0.3..0.7, a group
 * mask and finite heights on every agent, so every game check runs). */
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

static void set_prefs(scene *s) {
    const float *p = rvo_world_positions_view(s->w);
    for (int i = 0; i < s->n; ++i) {
        float dx = s->goal[2 * i] - p[2 * i], dy = s->goal[2 * i + 1] - p[2 * i + 1];
        const float d2 = dx * dx + dy * dy;
        if (d2 > 4.0f) {
            const float k = 2.0f / sqrtf(d2);
            dx *= k;
            dy *= k;
        }
        s->pref[2 * i] = dx;
        s->pref[2 * i + 1] = dy;
    }
    rvo_world_set_pref_velocities(s->w, s->pref, s->n);
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n = argc > 2 ? atoi(argv[2]) : 1000;
    const int threads = argc > 3 ? atoi(argv[3]) : 1;
    const int warm = argc > 4 ? atoi(argv[4]) : 100;
    const int steps = argc > 5 ? atoi(argv[5]) : 200;
    const char *solver = argc > 6 ? argv[6] : NULL; /* orca (default), ue or rvo */
    if (solver && rvo_solver_from_name(solver) < 0) {
        fprintf(stderr, "unknown solver '%s' (orca, ue, rvo)\n", solver);
        return 2;
    }
    const char *mode = argc > 7 ? argv[7] : "default";
    if (strcmp(mode, "default") != 0 && strcmp(mode, "plain") != 0 && strcmp(mode, "features") != 0) {
        fprintf(stderr, "unknown mode '%s' (default, plain, features)\n", mode);
        return 2;
    }
    scene s = make(name, n, threads);
    if (solver) rvo_world_set_solver(s.w, (rvo_solver)rvo_solver_from_name(solver));
    if (strcmp(mode, "default") != 0) rvo_world_set_rvo2_compat(s.w, true);
    if (strcmp(mode, "features") == 0) {
        for (int i = 0; i < n; ++i) {
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_WEIGHT, 0.3 + 0.1 * (i % 5));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_GROUPS, 1 + (i % 2));
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_MASK, 3);
            rvo_agent_set_param(s.w, s.ids[i], RVO_PARAM_HEIGHT, 2.0);
        }
    }
    for (int k = 0; k < warm; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const double t0 = now_ms();
    for (int k = 0; k < steps; ++k) {
        set_prefs(&s);
        rvo_world_step(s.w, 0);
    }
    const double ms = (now_ms() - t0) / steps;
    printf("%s,%d,%d,%.4f,%.4f,%s,%s\n", name, n, threads, ms, ms * 1000.0 / n, solver ? solver : "orca", mode);
    rvo_world_destroy(s.w);
    free(s.ids);
    free(s.goal);
    free(s.pref);
    return 0;
}
