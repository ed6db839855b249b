/* Avoidance quality: the default mode (overlap resolution after integrate)
 * against the RVO2-compatible mode on a dense circle; locked and weight-0
 * agents are never pushed by it; obstacles keep their clearance. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>

typedef struct result {
    double worst;  /* worst overlap as a fraction of ri + rj */
    int makespan;  /* steps until all are home, -1 if not */
} result;

static result circle(int n, bool compat) {
    rvo_world_def wd = rvo_default_world_def();
    wd.time_step = 0.25f;
    wd.agent.neighbor_dist = 15;
    wd.agent.max_neighbors = 10;
    wd.agent.time_horizon = 10;
    wd.agent.time_horizon_obst = 10;
    wd.agent.radius = 1.5f;
    wd.agent.max_speed = 2;
    rvo_world *w = rvo_world_create(&wd);
    CHECK(rvo_world_set_rvo2_compat(w, compat) == RVO_OK);
    CHECK(rvo_world_rvo2_compat(w) == compat);
    const float R = 80.0f;
    float *goal = malloc(sizeof(float) * 2 * (size_t)n), *pref = malloc(sizeof(float) * 2 * (size_t)n);
    for (int i = 0; i < n; ++i) {
        const float a = (float)i * 6.2831853f / (float)n;
        rvo_world_add_agent(w, R * cosf(a), R * sinf(a), NULL);
        goal[2 * i] = -R * cosf(a);
        goal[2 * i + 1] = -R * sinf(a);
    }
    result r = {0, -1};
    rvo_agent_id hits[32];
    for (int step = 0; step < 3000; ++step) {
        const float *p = rvo_world_positions_view(w);
        bool home = true;
        for (int i = 0; i < n; ++i) {
            float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d2 = dx * dx + dy * dy;
            if (d2 > 1.5f * 1.5f) home = false;
            if (d2 > 4.0f) dx *= 2.0f / sqrtf(d2), dy *= 2.0f / sqrtf(d2);
            pref[2 * i] = dx, pref[2 * i + 1] = dy;
        }
        if (home) {
            r.makespan = step;
            break;
        }
        rvo_world_set_pref_velocities(w, pref, n);
        rvo_world_step(w, 0);
        p = rvo_world_positions_view(w);
        for (int i = 0; i < n; ++i) {
            const int32_t k = rvo_world_query_radius(w, p[2 * i], p[2 * i + 1], 3.0f, hits, 32);
            for (int32_t m = 0; m < k && m < 32; ++m) {
                const int j = (int)hits[m] - 1;
                if (j == i) continue;
                const double ov = (3.0 - hypot((double)p[2 * i] - p[2 * j], (double)p[2 * i + 1] - p[2 * j + 1])) / 3.0;
                if (ov > r.worst) r.worst = ov;
            }
        }
    }
    rvo_world_destroy(w);
    free(goal);
    free(pref);
    return r;
}

int main(void) {
    const result plain = circle(120, true), def = circle(120, false);
    printf("circle 120: rvo2 mode worst overlap %.1f%%, makespan %d; default %.1f%%, makespan %d\n",
           100 * plain.worst, plain.makespan, 100 * def.worst, def.makespan);
    CHECK(plain.makespan > 0 && def.makespan > 0);
    CHECK(def.worst < 0.6 * plain.worst);            /* clearly less overlap */
    CHECK(def.makespan <= plain.makespan * 11 / 10); /* and not slower */

    /* Separation never moves a locked agent or a weight-0 one, and pushes a
     * movable agent out of it. */
    rvo_world_def wd = rvo_default_world_def();
    rvo_world *w = rvo_world_create(&wd);
    const rvo_agent_id locked = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id hero = rvo_world_add_agent(w, 5, 0, NULL);
    const rvo_agent_id a = rvo_world_add_agent(w, 0.3f, 0, NULL), b = rvo_world_add_agent(w, 5.2f, 0.1f, NULL);
    rvo_agent_lock(w, locked, 0, 0);
    rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, 0);
    rvo_world_step(w, 0);
    rvo_vec2 pl, ph, pa, pb;
    rvo_agent_get_position(w, locked, &pl);
    rvo_agent_get_position(w, hero, &ph);
    rvo_agent_get_position(w, a, &pa);
    rvo_agent_get_position(w, b, &pb);
    CHECK(pl.x == 0 && pl.y == 0);
    CHECK(ph.x == 5 && ph.y == 0);
    CHECK(hypot(pa.x - pl.x, pa.y - pl.y) >= 1.0 - 1e-4);
    CHECK(hypot(pb.x - ph.x, pb.y - ph.y) >= 1.0 - 1e-4);

    /* Pushed against a wall by a crowd, nobody enters its clearance. */
    const float wall[] = {-10, -1, 10, -1};
    rvo_world_add_obstacle(w, wall, 2, false);
    rvo_agent_id crowd[40];
    for (int i = 0; i < 40; ++i) crowd[i] = rvo_world_add_agent(w, -5.0f + 0.5f * (float)(i % 20), 3.0f + (float)(i / 20), NULL);
    double worst = 0;
    for (int s = 0; s < 200; ++s) {
        for (int i = 0; i < 40; ++i) rvo_agent_set_pref_velocity(w, crowd[i], 0, -2);
        rvo_world_step(w, 0);
        for (int i = 0; i < 40; ++i) {
            rvo_vec2 p;
            rvo_agent_get_position(w, crowd[i], &p);
            if (p.x > -10 && p.x < 10 && p.y > -1) {
                const double intrusion = 0.5 - (p.y + 1.0);
                if (intrusion > worst) worst = intrusion;
            }
        }
    }
    printf("crowd against a wall: deepest intrusion into clearance %.4f (radius 0.5)\n", worst);
    CHECK(worst <= 0.01 * 0.5);
    rvo_world_destroy(w);
    return check_finish("quality");
}
