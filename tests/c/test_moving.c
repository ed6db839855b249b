/* Moving obstacles: the step moves them, ORCA avoids them as it avoids a
 * moving agent, the hard-body pass never leaves an agent inside one (even
 * one that moves more than a radius per step), results are bit-identical on
 * any thread count and survive a snapshot. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

static void box_xy(float *xy, float cx, float cy, float hw, float hh) {
    const float b[8] = {cx - hw, cy - hh, cx + hw, cy - hh, cx + hw, cy + hh, cx - hw, cy + hh};
    memcpy(xy, b, sizeof b);
}

/* Distance from p to the box's outline, negative inside. */
static double box_dist(float cx, float cy, float hw, float hh, rvo_vec2 p) {
    const double dx = fabs(p.x - cx) - hw, dy = fabs(p.y - cy) - hh;
    if (dx < 0 && dy < 0)
        return dx > dy ? dx : dy;
    const double ox = dx > 0 ? dx : 0, oy = dy > 0 ? dy : 0;
    return sqrt(ox * ox + oy * oy);
}

/* An idle agent and a walking one, a 2 m box coming at them at 1 m/s:
 * ORCA alone (rvo2_compat, no overlap passes) keeps them clear of it. */
static void orca_avoids(void) {
    rvo_world_def wd = rvo_default_world_def();
    rvo_world *w = rvo_world_create(&wd);
    CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK);
    float xy[8];
    box_xy(xy, 8, 0.3f, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_world_set_obstacle_velocity(w, o, -1.5f, 0) == RVO_OK);
    rvo_vec2 v;
    CHECK(rvo_world_obstacle_velocity(w, o, &v) == RVO_OK && v.x == -1.5f && v.y == 0);
    const rvo_agent_id idle = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id walker = rvo_world_add_agent(w, 4, -6, NULL);
    double worst = INFINITY;
    for (int s = 0; s < 60 * 12; ++s) {
        rvo_agent_set_pref_velocity(w, walker, 0, 1.2f); /* across the box's way */
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const float cx = 8 - 1.5f * (float)(s + 1) / 60.0f;
        rvo_vec2 p;
        rvo_agent_get_position(w, idle, &p);
        double d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
        rvo_agent_get_position(w, walker, &p);
        d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
    }
    printf("orca: closest approach to the moving box %.4f (radius 0.5)\n", worst);
    CHECK(worst >= 0.5 - 0.02);
    /* the box really moved: 12 s at 1.5 m/s */
    float got[8];
    CHECK(rvo_world_obstacle_points(w, o, got, 4, NULL) == 4);
    CHECK_NEAR(got[0], 7 - 18, 1e-3);
    rvo_world_destroy(w);
}

/* A 10 m wall sweeping through a block of idle agents at speed [m/s]: no
 * agent's centre is ever inside it or left behind it. Returns the world's
 * hash at the end. */
static uint64_t sweep(float speed, int threads, bool save_midway) {
    rvo_world_def wd = rvo_default_world_def();
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd);
    float xy[8];
    box_xy(xy, 0, 0, 0.1f, 5);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_world_set_obstacle_velocity(w, o, speed, 0) == RVO_OK);
    for (int k = 0; k < 24; ++k)
        rvo_world_add_agent(w, 2.0f + 1.1f * (float)(k % 4), -3.3f + 1.2f * (float)(k / 4), NULL);
    const int steps = (int)(6.0f / speed * 60.0f) + 1; /* 6 m */
    int inside = 0, behind = 0;
    for (int s = 0; s < steps; ++s) {
        if (save_midway && s == steps / 2) {
            const size_t n = rvo_world_save(w, NULL, 0);
            void *buf = malloc(n);
            rvo_world_save(w, buf, n);
            rvo_world *l = NULL;
            CHECK(rvo_world_load(buf, n, NULL, &l, NULL, 0) == RVO_OK);
            free(buf);
            if (l) {
                rvo_world_destroy(w);
                w = l; /* go on with the loaded copy */
            }
        }
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        float pts[8];
        rvo_world_obstacle_points(w, o, pts, 4, NULL);
        const float cx = (pts[0] + pts[2]) / 2;
        rvo_agent_id ids[24];
        rvo_world_agent_ids(w, ids, 24);
        for (int k = 0; k < 24; ++k) {
            rvo_vec2 p;
            rvo_agent_get_position(w, ids[k], &p);
            if (box_dist(cx, 0, 0.1f, 5, p) < 0)
                ++inside;
            if (p.x < cx && fabsf(p.y) < 5.0f)
                ++behind;
        }
    }
    printf("sweep at %5.1f m/s on %d thread(s)%s: %d inside, %d behind\n", speed, threads,
           save_midway ? ", reloaded midway" : "", inside, behind);
    CHECK(inside == 0);
    CHECK(behind == 0);
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

/* The ue and rvo solvers anticipate a moving obstacle (relative velocity,
 * time_horizon_obst) as ORCA does, with rvo2_compat (no overlap passes)
 * so that only the solver keeps the agents clear: a walker facing a 2 m
 * box coming at it, another crossing its way. Returns the closest approach
 * of an agent's centre to the box (radius 0.5). */
static double solver_clearance(rvo_solver solver, float box_speed) {
    rvo_world_def wd = rvo_default_world_def();
    rvo_world *w = rvo_world_create(&wd);
    CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK);
    CHECK(rvo_world_set_solver(w, solver) == RVO_OK);
    float xy[8];
    box_xy(xy, 8, 0.3f, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_world_set_obstacle_velocity(w, o, -box_speed, 0) == RVO_OK);
    const rvo_agent_id facing = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id crossing = rvo_world_add_agent(w, 4, -6, NULL);
    double worst = INFINITY;
    for (int s = 0; s < 60 * 8; ++s) {
        rvo_agent_set_pref_velocity(w, facing, 1.0f, 0);   /* towards the box */
        rvo_agent_set_pref_velocity(w, crossing, 0, 1.2f); /* across its way */
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const float cx = 8 - box_speed * (float)(s + 1) / 60.0f;
        rvo_vec2 p;
        rvo_agent_get_position(w, facing, &p);
        double d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
        rvo_agent_get_position(w, crossing, &p);
        d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
    }
    rvo_world_destroy(w);
    return worst;
}

static void solvers_avoid(void) {
    const rvo_solver solvers[2] = {RVO_SOLVER_UE, RVO_SOLVER_RVO};
    const float speeds[4] = {0.0f, 0.75f, 1.5f, 2.5f};
    for (int k = 0; k < 2; ++k) {
        printf("%s: closest approach to the box (radius 0.5) at", rvo_solver_name(solvers[k]));
        for (int m = 0; m < 4; ++m) {
            const double d = solver_clearance(solvers[k], speeds[m]);
            printf(" %.2f m/s %.4f%s", speeds[m], d, m < 3 ? "," : "\n");
            CHECK(d >= 0.5 - 0.02);
        }
    }
}

static void bad_input(void) {
    rvo_world_def wd = rvo_default_world_def();
    rvo_world *w = rvo_world_create(&wd);
    float xy[8];
    box_xy(xy, 0, 0, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    rvo_vec2 v;
    CHECK(rvo_world_set_obstacle_velocity(w, o + (1ull << 24), 1, 0) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_set_obstacle_velocity(w, o, NAN, 0) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_world_set_obstacle_velocity(w, o, 0, 2e9f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 3);
    CHECK(rvo_world_obstacle_velocity(w, o, &v) == RVO_OK && v.x == 0 && v.y == 0);
    CHECK(rvo_world_obstacle_velocity(w, o, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_obstacle_velocity(w, 0, &v) == RVO_ERR_UNKNOWN_ID);
    /* a stopped obstacle stays put */
    CHECK(rvo_world_set_obstacle_velocity(w, o, 1, 0) == RVO_OK);
    CHECK(rvo_world_set_obstacle_velocity(w, o, -0.0f, 0) == RVO_OK);
    for (int s = 0; s < 10; ++s)
        rvo_world_step(w, 0);
    float got[8];
    rvo_world_obstacle_points(w, o, got, 4, NULL);
    CHECK(memcmp(got, xy, sizeof xy) == 0);
    rvo_world_destroy(w);
}

int main(void) {
    orca_avoids();
    solvers_avoid();
    const uint64_t h1 = sweep(3.0f, 1, false);
    CHECK(sweep(3.0f, 3, false) == h1);
    CHECK(sweep(3.0f, 1, true) == h1);
    /* faster than a radius per step (1 m per step) */
    const uint64_t f1 = sweep(60.0f, 1, false);
    CHECK(sweep(60.0f, 2, false) == f1);
    bad_input();
    return check_finish("moving");
}
