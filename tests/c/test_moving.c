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
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK);
    float xy[8];
    box_xy(xy, 8, 0.3f, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_obstacle_set_velocity(w, o, -1.5f, 0) == RVO_OK);
    rvo_vec2 v;
    CHECK(rvo_obstacle_velocity(w, o, &v) == RVO_OK && v.x == -1.5f && v.y == 0);
    const rvo_agent_id idle = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id walker = rvo_world_add_agent(w, 4, -6, NULL);
    double worst = INFINITY;
    for (int s = 0; s < 60 * 12; ++s) {
        rvo_agent_set_pref_velocity(w, walker, 0, 1.2f); /* across the box's way */
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const float cx = 8 - 1.5f * (float)(s + 1) / 60.0f;
        rvo_vec2 p;
        rvo_agent_position(w, idle, &p);
        double d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
        rvo_agent_position(w, walker, &p);
        d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
    }
    printf("orca: closest approach to the moving box %.4f (radius 0.5)\n", worst);
    CHECK(worst >= 0.5 - 0.02);
    /* the box really moved: 12 s at 1.5 m/s */
    float got[8];
    CHECK(rvo_obstacle_points(w, o, got, 4, NULL) == 4);
    CHECK_NEAR(got[0], 7 - 18, 1e-3);
    rvo_world_destroy(w);
}

/* A 10 m wall sweeping through a block of idle agents at speed [m/s]: no
 * agent's centre is ever inside it or left behind it. Returns the world's
 * hash at the end. */
static uint64_t sweep_mode(float speed, int threads, bool save_midway, bool strict) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_strict_overlap(w, strict) == RVO_OK);
    float xy[8];
    box_xy(xy, 0, 0, 0.1f, 5);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_obstacle_set_velocity(w, o, speed, 0) == RVO_OK);
    for (int k = 0; k < 24; ++k)
        rvo_world_add_agent(w, 2.0f + 1.1f * (float)(k % 4), -3.3f + 1.2f * (float)(k / 4), NULL);
    const int steps = (int)(6.0f / speed * 60.0f) + 1; /* 6 m */
    int inside = 0, behind = 0;
    for (int s = 0; s < steps; ++s) {
        if (save_midway && s == steps / 2) {
            rvo_world *l = check_copy(w);
            if (l) {
                rvo_world_destroy(w);
                w = l; /* go on with the loaded copy */
            }
        }
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        float pts[8];
        rvo_obstacle_points(w, o, pts, 4, NULL);
        const float cx = (pts[0] + pts[2]) / 2;
        rvo_agent_id ids[24];
        rvo_world_agent_ids(w, ids, 24);
        for (int k = 0; k < 24; ++k) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[k], &p);
            if (box_dist(cx, 0, 0.1f, 5, p) < 0)
                ++inside;
            if (p.x < cx && fabsf(p.y) < 5.0f)
                ++behind;
        }
    }
    printf("sweep at %5.1f m/s on %d thread(s)%s%s: %d inside, %d behind\n", speed, threads,
           save_midway ? ", reloaded midway" : "", strict ? "" : ", soft", inside, behind);
    CHECK(inside == 0);
    CHECK(behind == 0);
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

static uint64_t sweep(float speed, int threads, bool save_midway) {
    return sweep_mode(speed, threads, save_midway, true);
}

/* The ue and rvo solvers anticipate a moving obstacle (relative velocity,
 * time_horizon_obst) as ORCA does, with rvo2_compat (no overlap passes)
 * so that only the solver keeps the agents clear: a walker facing a 2 m
 * box coming at it, another crossing its way. Returns the closest approach
 * of an agent's centre to the box (radius 0.5). */
static double solver_clearance(rvo_solver solver, float box_speed) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK);
    CHECK(rvo_world_set_solver(w, solver) == RVO_OK);
    float xy[8];
    box_xy(xy, 8, 0.3f, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    CHECK(rvo_obstacle_set_velocity(w, o, -box_speed, 0) == RVO_OK);
    const rvo_agent_id facing = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id crossing = rvo_world_add_agent(w, 4, -6, NULL);
    double worst = INFINITY;
    for (int s = 0; s < 60 * 8; ++s) {
        rvo_agent_set_pref_velocity(w, facing, 1.0f, 0);   /* towards the box */
        rvo_agent_set_pref_velocity(w, crossing, 0, 1.2f); /* across its way */
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const float cx = 8 - box_speed * (float)(s + 1) / 60.0f;
        rvo_vec2 p;
        rvo_agent_position(w, facing, &p);
        double d = box_dist(cx, 0.3f, 1, 1, p);
        worst = d < worst ? d : worst;
        rvo_agent_position(w, crossing, &p);
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

/* The worst intrusion [m] of the agents into a box obstacle's clearance:
 * radius less the distance of the centre from the outline on the free side
 * (outside a solid, inside an enclosure); 0 when all are clear. */
static double box_intrusion(rvo_world *w, float cx, float cy, float hw, float hh, bool enclosure) {
    rvo_agent_id ids[64];
    const int32_t n = rvo_world_agent_ids(w, ids, 64);
    double worst = 0;
    for (int32_t k = 0; k < n; ++k) {
        rvo_vec2 p;
        double r;
        rvo_agent_position(w, ids[k], &p);
        rvo_agent_param(w, ids[k], RVO_PARAM_RADIUS, &r);
        const double d = box_dist(cx, cy, hw, hh, p), clear = enclosure ? -d : d;
        worst = r - clear > worst ? r - clear : worst;
    }
    return worst;
}

/* set_obstacle_points over idle agents: a solid grown over a block of 16
 * (some centres deep inside), an enclosure shrunk round a block of 16 (some
 * left outside); strict (default) and soft overlap. The hard-body pass puts
 * every agent on the free side, a radius clear, within a few steps;
 * rvo2_compat leaves them where they are. */
static void reshape_over(bool enclosure, bool strict, bool compat) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_strict_overlap(w, strict) == RVO_OK);
    CHECK(rvo_world_set_rvo2_compat(w, compat) == RVO_OK);
    float xy[8];
    box_xy(xy, enclosure ? 0 : 20, 0, enclosure ? 10 : 1, enclosure ? 10 : 1);
    const rvo_obstacle_id o =
        rvo_world_add_obstacle_side(w, xy, 4, true, enclosure ? RVO_SIDE_ENCLOSURE : RVO_SIDE_SOLID);
    const float gap = enclosure ? 1.5f : 1.2f;
    for (int k = 0; k < 16; ++k)
        rvo_world_add_agent(w, gap * ((float)(k % 4) - 1.5f), gap * ((float)(k / 4) - 1.5f), NULL);
    for (int s = 0; s < 3; ++s)
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    /* solid: 5 m square over the 4.8 m block; enclosure: 4.4 m square in
     * the 5.5 m block (a row and a column of centres outside it) */
    const float h = enclosure ? 2.2f : 2.5f;
    box_xy(xy, 0.1f, 0.05f, h, h);
    CHECK(rvo_obstacle_set_points(w, o, xy, 4) == RVO_OK);
    const double at0 = box_intrusion(w, 0.1f, 0.05f, h, h, enclosure);
    double after[4];
    for (int s = 0; s < 4; ++s) {
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        after[s] = box_intrusion(w, 0.1f, 0.05f, h, h, enclosure);
    }
    printf("reshaped %s over agents (%s%s): worst intrusion %.3f, after 1..4 steps %.4f %.4f %.4f %.4f\n",
           enclosure ? "enclosure" : "solid", strict ? "strict" : "soft", compat ? ", rvo2_compat" : "", at0,
           after[0], after[1], after[2], after[3]);
    CHECK(at0 > (enclosure ? 0.6 : 2.0)); /* the scene does put agents on the wrong side */
    if (compat)
        CHECK(after[3] > 0.5);
    else
        CHECK(after[3] <= 0.01);
    rvo_world_destroy(w);
}

/* Moving by its velocity, a solid sweeping through idle agents and an
 * enclosure carrying idle agents along, strict and soft: after every step
 * no agent intrudes into the clearance by more than the tolerance. Also a
 * solid added over an agent puts it out. */
static void moving_modes(void) {
    for (int k = 0; k < 4; ++k) {
        const bool enclosure = k & 1, strict = !(k & 2);
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        CHECK(rvo_world_set_strict_overlap(w, strict) == RVO_OK);
        float xy[8];
        const float hw = enclosure ? 3 : 0.2f, hh = enclosure ? 3 : 4;
        box_xy(xy, enclosure ? 0 : -3, 0, hw, hh);
        const rvo_obstacle_id o =
            rvo_world_add_obstacle_side(w, xy, 4, true, enclosure ? RVO_SIDE_ENCLOSURE : RVO_SIDE_SOLID);
        CHECK(rvo_obstacle_set_velocity(w, o, 2.0f, 0.5f) == RVO_OK);
        for (int a = 0; a < 9; ++a)
            rvo_world_add_agent(w, 1.5f * (float)(a % 3 - 1), 1.5f * (float)(a / 3 - 1), NULL);
        double worst = 0;
        for (int s = 0; s < 120; ++s) {
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            float pts[8];
            rvo_obstacle_points(w, o, pts, 4, NULL);
            float cx = 0, cy = 0; /* (an enclosure's points are stored clockwise) */
            for (int v = 0; v < 4; ++v)
                cx += pts[2 * v] / 4, cy += pts[2 * v + 1] / 4;
            const double d = box_intrusion(w, cx, cy, hw, hh, enclosure);
            worst = d > worst ? d : worst;
        }
        printf("moving %s (%s): worst intrusion over 2 s %.4f\n", enclosure ? "enclosure" : "solid",
               strict ? "strict" : "soft", worst);
        CHECK(worst <= 0.01);
        rvo_world_destroy(w);
    }
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_add_agent(w, 0.3f, 0.2f, NULL);
    float xy[8];
    box_xy(xy, 0, 0, 1, 1);
    CHECK(rvo_world_add_obstacle(w, xy, 4, true) != 0);
    CHECK(box_intrusion(w, 0, 0, 1, 1, false) > 1.0);
    CHECK(rvo_world_step(w, 0) == RVO_OK);
    CHECK(box_intrusion(w, 0, 0, 1, 1, false) <= 0.01);
    rvo_world_destroy(w);
}

/* A solid reshaped over a dense block of 40 agents (strict and soft; it
 * once squeezed some back in through its edges): out within 3 steps. The
 * same world on 1 and 3 threads, and one
 * saved between the reshape and the next step and loaded, go on
 * bit-identically (the pending push-outs are state). */
static uint64_t reshape_run(int threads, bool reload, bool strict) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_strict_overlap(w, strict) == RVO_OK);
    float xy[8];
    box_xy(xy, 20, 0, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    for (int k = 0; k < 40; ++k)
        rvo_world_add_agent(w, 0.9f * (float)(k % 8) - 3, 0.9f * (float)(k / 8) - 2, NULL);
    CHECK(rvo_world_step(w, 0) == RVO_OK);
    box_xy(xy, 0, 0, 2, 1.5f);
    CHECK(rvo_obstacle_set_points(w, o, xy, 4) == RVO_OK);
    if (reload) {
        rvo_world *l = check_copy(w);
        if (l) {
            rvo_world_destroy(w);
            w = l;
        }
    }
    for (int s = 0; s < 3; ++s)
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    CHECK(box_intrusion(w, 0, 0, 2, 1.5f, false) <= 0.01);
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

/* A moving obstacle far away leaves the agents among standing ones as in a
 * world where it is moved by set_obstacle_points (nothing moves): the
 * standing edges an agent avoids do not depend on other obstacles' speeds
 * (they did: every agent's obstacle query reached further by the fastest
 * one's speed x time_horizon_obst, and legs of far edges bound). A plaza of
 * 4 m pillars every 24 m, 60 agents crossing it to random points (horizons
 * 10 s, radius 1.5, 2 m/s, dt 0.25, as the bench's plaza), a box 300 m off
 * at 1 m/s; every solver. */
static void far_mover_changes_nothing(void) {
    for (int solver = 0; solver < 3; ++solver) {
        uint64_t h[2];
        for (int by_points = 0; by_points < 2; ++by_points) {
            rvo_world_def wd = rvo_world_def_default();
            wd.time_step = 0.25f;
            wd.agent.radius = 1.5f;
            wd.agent.max_speed = 2;
            wd.agent.neighbor_dist = 15;
            wd.agent.time_horizon = wd.agent.time_horizon_obst = 10;
            rvo_world *w = rvo_world_create(&wd, NULL);
            CHECK(rvo_world_set_solver(w, (rvo_solver)solver) == RVO_OK);
            float xy[8];
            for (int k = 0; k < 16; ++k) {
                box_xy(xy, -36 + 24 * (float)(k % 4), -36 + 24 * (float)(k / 4), 2, 2);
                rvo_world_add_obstacle(w, xy, 4, true);
            }
            float far[8];
            box_xy(far, 300, 0, 1, 1);
            const rvo_obstacle_id o = rvo_world_add_obstacle(w, far, 4, true);
            if (!by_points)
                CHECK(rvo_obstacle_set_velocity(w, o, 1, 0) == RVO_OK);
            rvo_agent_id ids[60];
            float goal[60][2];
            unsigned seed = 7;
            for (int k = 0; k < 60; ++k) {
                float pt[4];
                for (int c = 0; c < 4; ++c) { /* off the pillars' rows and columns */
                    seed = seed * 1103515245u + 12345u;
                    pt[c] = -46 + 24 * (float)((seed >> 16) % 4) + 4 + 16 * (float)((seed >> 8) & 255) / 255;
                }
                ids[k] = rvo_world_add_agent(w, pt[0], pt[1], NULL);
                goal[k][0] = pt[2], goal[k][1] = pt[3];
            }
            for (int s = 0; s < 200; ++s) {
                for (int k = 0; k < 60; ++k) {
                    rvo_vec2 p;
                    rvo_agent_position(w, ids[k], &p);
                    float vx = goal[k][0] - p.x, vy = goal[k][1] - p.y;
                    const float d = sqrtf(vx * vx + vy * vy);
                    if (d > 2)
                        vx *= 2 / d, vy *= 2 / d;
                    rvo_agent_set_pref_velocity(w, ids[k], vx, vy);
                }
                CHECK(rvo_world_step(w, 0) == RVO_OK);
                if (by_points) { /* as the step moves it: each point plus dt * velocity */
                    for (int k = 0; k < 8; k += 2)
                        far[k] = far[k] + wd.time_step * 1.0f;
                    CHECK(rvo_obstacle_set_points(w, o, far, 4) == RVO_OK);
                }
            }
            float got[8];
            rvo_obstacle_points(w, o, got, 4, NULL);
            CHECK(!by_points || memcmp(got, far, sizeof far) == 0);
            h[by_points] = check_hash_world(w);
            rvo_world_destroy(w);
        }
        printf("%s: far mover %016llx, moved by points %016llx\n", rvo_solver_name((rvo_solver)solver),
               (unsigned long long)h[0], (unsigned long long)h[1]);
        CHECK(h[0] == h[1]);
    }
}

static void bad_input(void) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    float xy[8];
    box_xy(xy, 0, 0, 1, 1);
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, xy, 4, true);
    rvo_vec2 v;
    CHECK(rvo_obstacle_set_velocity(w, o + (1ull << 24), 1, 0) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_obstacle_set_velocity(w, o, NAN, 0) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_obstacle_set_velocity(w, o, 0, 2e9f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 3);
    CHECK(rvo_obstacle_velocity(w, o, &v) == RVO_OK && v.x == 0 && v.y == 0);
    CHECK(rvo_obstacle_velocity(w, o, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_obstacle_velocity(w, 0, &v) == RVO_ERR_UNKNOWN_ID);
    /* a stopped obstacle stays put */
    CHECK(rvo_obstacle_set_velocity(w, o, 1, 0) == RVO_OK);
    CHECK(rvo_obstacle_set_velocity(w, o, -0.0f, 0) == RVO_OK);
    for (int s = 0; s < 10; ++s)
        rvo_world_step(w, 0);
    float got[8];
    rvo_obstacle_points(w, o, got, 4, NULL);
    CHECK(memcmp(got, xy, sizeof xy) == 0);
    rvo_world_destroy(w);
}

int main(void) {
    orca_avoids();
    solvers_avoid();
    for (int k = 0; k < 4; ++k)
        reshape_over(k & 1, !(k & 2), false);
    reshape_over(false, true, true);
    reshape_over(true, true, true);
    moving_modes();
    far_mover_changes_nothing();
    for (int k = 0; k < 2; ++k) {
        const uint64_t r1 = reshape_run(1, false, k == 0);
        CHECK(reshape_run(3, false, k == 0) == r1);
        CHECK(reshape_run(1, true, k == 0) == r1);
    }
    const uint64_t h1 = sweep(3.0f, 1, false);
    CHECK(sweep(3.0f, 3, false) == h1);
    CHECK(sweep(3.0f, 1, true) == h1);
    /* faster than a radius per step (1 m per step) */
    const uint64_t f1 = sweep(60.0f, 1, false);
    CHECK(sweep(60.0f, 2, false) == f1);
    /* the soft mode too */
    const uint64_t s1 = sweep_mode(60.0f, 1, false, false);
    CHECK(sweep_mode(60.0f, 2, false, false) == s1);
    sweep_mode(3.0f, 1, false, false);
    bad_input();
    return check_finish("moving");
}
