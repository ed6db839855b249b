/* Degenerate input: each case has a defined behaviour (docs/reference.md, "Degenerate
 * input") with finite results, on every solver and in both modes
 * (rvo2_compat on and off):
 *   coincident agents            separate along a direction fixed by their ids
 *                                (ue with rvo2_compat: stay stacked)
 *   agent spawned in an obstacle walks out (edges block from outside only), then stays out
 *   points closer than 1e-6 m    merged; nothing left -> RVO_ERR_DEGENERATE
 *   collinear closed polygon     RVO_ERR_DEGENERATE (zero area); fine as an open polyline
 *   self-intersecting polygon    accepted as given: each edge blocks from its right side
 *   clockwise polygon            an enclosure: agents inside stay inside
 *   max_neighbors 0              other agents ignored by the solver (obstacles are not)
 *   tiny time horizon (1e-30 s)  finite velocities; avoidance only at contact
 *   huge dt (1e30 s, FLT_MAX)    positions clamped to [-1e9, 1e9]
 *   tiny dt (1e-45 s)            finite; agents barely move
 *   agents at the +-1e9 border   finite */
#include "check.h"
#include "rvo.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static const rvo_solver solvers[] = {RVO_SOLVER_ORCA, RVO_SOLVER_UE, RVO_SOLVER_RVO};

static rvo_world *world(rvo_solver solver, bool compat, const rvo_agent_def *agent) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    if (agent)
        wd.agent = *agent;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_solver(w, solver);
    rvo_world_set_rvo2_compat(w, compat);
    return w;
}

/* Every position, velocity and new velocity of w is finite. */
static bool all_finite(const rvo_world *w) {
    const int32_t n = rvo_world_agent_count(w);
    float *xy = malloc(sizeof(float) * 2 * (size_t)(n + 1));
    bool ok = true;
    rvo_world_positions(w, xy, n);
    for (int32_t k = 0; k < 2 * n; ++k)
        ok = ok && isfinite(xy[k]);
    rvo_world_velocities(w, xy, n);
    for (int32_t k = 0; k < 2 * n; ++k)
        ok = ok && isfinite(xy[k]);
    rvo_world_new_velocities(w, xy, n);
    for (int32_t k = 0; k < 2 * n; ++k)
        ok = ok && isfinite(xy[k]);
    free(xy);
    return ok;
}

static rvo_vec2 pos(const rvo_world *w, rvo_agent_id id) {
    rvo_vec2 p = {NAN, NAN};
    rvo_agent_position(w, id, &p);
    return p;
}

static bool run(rvo_world *w, int steps) {
    bool ok = true;
    for (int s = 0; s < steps; ++s)
        ok = ok && rvo_world_step(w, 0) == RVO_OK && all_finite(w);
    return ok;
}

static float cross(rvo_vec2 o, rvo_vec2 a, rvo_vec2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Does the move p -> q cross the segment a-b (strictly)? */
static bool crosses(rvo_vec2 p, rvo_vec2 q, rvo_vec2 a, rvo_vec2 b) {
    return cross(a, b, p) * cross(a, b, q) < 0 && cross(p, q, a) * cross(p, q, b) < 0;
}

/* Steps agent id's world, failing when it is not finite or when a step
 * carries id across the segment a-b. */
static bool run_blocked(rvo_world *w, rvo_agent_id id, int steps, rvo_vec2 a, rvo_vec2 b) {
    bool ok = true;
    for (int s = 0; s < steps; ++s) {
        const rvo_vec2 p = pos(w, id);
        ok = ok && rvo_world_step(w, 0) == RVO_OK && all_finite(w) && !crosses(p, pos(w, id), a, b);
    }
    return ok;
}

/* With the ue solver and rvo2_compat on, nothing separates a stack: its
 * cones have no direction for two agents at one spot (the overlap
 * resolution, on by default, does it). */
static void coincident(rvo_solver solver, bool compat) {
    rvo_world *w = world(solver, compat, NULL);
    const rvo_agent_id a = rvo_world_add_agent(w, 1, 1, NULL), b = rvo_world_add_agent(w, 1, 1, NULL);
    const rvo_agent_id c = rvo_world_add_agent(w, 1, 1, NULL);
    CHECK(run(w, 40));
    const rvo_vec2 pa = pos(w, a), pb = pos(w, b), pc = pos(w, c);
    const float ab = hypotf(pa.x - pb.x, pa.y - pb.y), ac = hypotf(pa.x - pc.x, pa.y - pc.y);
    /* apart: at least most of the way to touching (radius sum 1) */
    if (solver == RVO_SOLVER_UE && compat)
        CHECK(ab == 0.0f && ac == 0.0f);
    else
        CHECK(ab > 0.5f && ac > 0.5f);
    rvo_world_destroy(w);
}

static void inside_obstacle(rvo_solver solver, bool compat) {
    rvo_world *w = world(solver, compat, NULL);
    const float box[] = {-2, -2, 2, -2, 2, 2, -2, 2};
    rvo_world_add_obstacle(w, box, 4, true);
    const rvo_agent_id a = rvo_world_add_agent(w, 0, 0, NULL);
    rvo_agent_set_pref_velocity(w, a, 1, 0);
    CHECK(run(w, 100));
    const rvo_vec2 p = pos(w, a);
    CHECK(p.x > 2.0f); /* walked out */
    /* and cannot walk back in through the edge it left by (it may go round) */
    rvo_agent_set_pref_velocity(w, a, -1, 0);
    CHECK(run_blocked(w, a, 100, (rvo_vec2){2, -2}, (rvo_vec2){2, 2}));
    const rvo_vec2 q = pos(w, a);
    CHECK(!(fabsf(q.x) < 2.0f && fabsf(q.y) < 2.0f));
    rvo_world_destroy(w);
}

static void geometry(void) {
    rvo_world *w = world(RVO_SOLVER_ORCA, false, NULL);
    /* zero-length edges are merged: a square with repeated and 1e-7-close
     * points is the plain square (same snapshot as the plain square's world) */
    const float noisy[] = {0, 0, 1e-7f, 0, 4, 0, 4, 0, 4, 4, 0, 4, 0, 1e-8f};
    const float plain[] = {0, 0, 4, 0, 4, 4, 0, 4};
    CHECK(rvo_world_add_obstacle(w, noisy, 7, true) != 0);
    rvo_world *w2 = world(RVO_SOLVER_ORCA, false, NULL);
    CHECK(rvo_world_add_obstacle(w2, plain, 4, true) != 0);
    CHECK(rvo_world_save(w, NULL, 0) == rvo_world_save(w2, NULL, 0));
    rvo_world_destroy(w2);
    /* everything within 1e-6 m: no obstacle */
    const float speck[] = {0, 0, 1e-45f, 0, 0, 1e-45f, 5e-7f, 5e-7f};
    CHECK(rvo_world_add_obstacle(w, speck, 4, true) == 0);
    CHECK(strcmp(rvo_world_last_error(w), "an obstacle needs at least 2 distinct points") == 0);
    CHECK(rvo_world_add_obstacle(w, speck, 2, false) == 0);
    /* collinear: not a polygon, fine as a polyline */
    const float line[] = {0, 10, 1, 10, 3, 10};
    CHECK(rvo_world_add_obstacle(w, line, 3, true) == 0);
    CHECK(strstr(rvo_world_last_error(w), "non-zero area") != NULL);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_add_obstacle(w, line, 3, false) != 0);
    /* a symmetric bow tie has zero signed area: rejected */
    const float bow_sym[] = {10, 0, 14, 4, 14, 0, 10, 4};
    CHECK(rvo_world_add_obstacle(w, bow_sym, 4, true) == 0);
    CHECK(rvo_world_obstacle_count(w) == 2);
    rvo_world_destroy(w);

    /* an asymmetric self-intersecting polygon is accepted and blocks */
    for (size_t s = 0; s < 3; ++s)
        for (int compat = 0; compat < 2; ++compat) {
            w = world(solvers[s], compat, NULL);
            const float bow[] = {0, 0, 4, 4, 4, 0, 0, 5};
            CHECK(rvo_world_add_obstacle(w, bow, 4, true) != 0);
            const rvo_agent_id a = rvo_world_add_agent(w, -3, 2, NULL);
            rvo_agent_set_pref_velocity(w, a, 2, 0);
            /* never through the edge from (0,5) to (0,0) (it may go round) */
            CHECK(run_blocked(w, a, 100, (rvo_vec2){0, 5}, (rvo_vec2){0, 0}));
            rvo_world_destroy(w);
        }
}

static void enclosure(rvo_solver solver, bool compat) {
    rvo_world *w = world(solver, compat, NULL);
    const float room[] = {-3, -3, -3, 3, 3, 3, 3, -3}; /* clockwise */
    rvo_world_add_obstacle(w, room, 4, true);
    const rvo_agent_id a = rvo_world_add_agent(w, 0, 0, NULL);
    rvo_agent_set_pref_velocity(w, a, 2, 0.3f);
    CHECK(run(w, 100));
    const rvo_vec2 p = pos(w, a);
    CHECK(fabsf(p.x) < 3.0f && fabsf(p.y) < 3.0f); /* still inside */
    rvo_world_destroy(w);
}

static void no_neighbors(rvo_solver solver) {
    rvo_agent_def ad = rvo_agent_def_default();
    ad.max_neighbors = 0;
    rvo_world *w = world(solver, true, &ad);
    const rvo_agent_id a = rvo_world_add_agent(w, -2, 0, NULL), b = rvo_world_add_agent(w, 2, 0, NULL);
    rvo_agent_set_pref_velocity(w, a, 1, 0);
    rvo_agent_set_pref_velocity(w, b, -1, 0);
    rvo_agent_id out[4];
    CHECK(rvo_world_query_neighbors(w, a, out, 4) == 0);
    CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
    rvo_vec2 v;
    rvo_agent_new_velocity(w, a, &v);
    CHECK(v.x == 1.0f && v.y == 0.0f); /* its preferred velocity: b is ignored */
    CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
    CHECK(run(w, 40));
    CHECK(pos(w, a).x > 1.5f && pos(w, b).x < -1.5f); /* passed through each other */
    /* obstacles still count */
    const float wall[] = {5, -5, 5, 5};
    rvo_world_add_obstacle(w, wall, 2, false);
    CHECK(run_blocked(w, a, 100, (rvo_vec2){5, -5}, (rvo_vec2){5, 5}));
    rvo_world_destroy(w);
}

static void tiny_horizon(rvo_solver solver, bool compat) {
    rvo_agent_def ad = rvo_agent_def_default();
    ad.time_horizon = 1e-30f;
    ad.time_horizon_obst = 1e-30f;
    rvo_world *w = world(solver, compat, &ad);
    const float box[] = {-0.5f, 3, 0.5f, 3, 0.5f, 4, -0.5f, 4};
    rvo_world_add_obstacle(w, box, 4, true);
    const rvo_agent_id a = rvo_world_add_agent(w, -2, 0, NULL), b = rvo_world_add_agent(w, 2, 0.1f, NULL);
    rvo_world_add_agent(w, 0, 0, NULL);
    rvo_world_add_agent(w, 0, 0, NULL); /* coincident too */
    rvo_agent_set_pref_velocity(w, a, 1, 0);
    rvo_agent_set_pref_velocity(w, b, -1, 0);
    CHECK(run(w, 60));
    rvo_world_destroy(w);
}

static void extreme_dt(rvo_solver solver, bool compat) {
    rvo_world *w = world(solver, compat, NULL);
    const rvo_agent_id a = rvo_world_add_agent(w, 0, 0, NULL), b = rvo_world_add_agent(w, 5, 0, NULL);
    rvo_world_add_agent(w, 5, 0, NULL);
    rvo_agent_set_pref_velocity(w, a, 2, 0);
    rvo_agent_set_pref_velocity(w, b, -2, 0);
    const float wall[] = {20, -5, 20, 5};
    rvo_world_add_obstacle(w, wall, 2, false);
    CHECK(rvo_world_step(w, 1e30f) == RVO_OK);
    CHECK(all_finite(w));
    const rvo_vec2 pa = pos(w, a);
    CHECK(fabsf(pa.x) <= 1e9f && fabsf(pa.y) <= 1e9f);
    CHECK(rvo_world_step(w, FLT_MAX) == RVO_OK);
    CHECK(all_finite(w));
    CHECK(fabsf(pos(w, b).x) <= 1e9f);
    const rvo_vec2 before = pos(w, a);
    CHECK(rvo_world_step(w, 1e-45f) == RVO_OK); /* the smallest float */
    CHECK(all_finite(w));
    const rvo_vec2 after = pos(w, a);
    CHECK(fabsf(after.x - before.x) < 1.0f && fabsf(after.y - before.y) < 1.0f);
    /* agents at the border of the coordinate range, pushing outwards */
    const rvo_agent_id e = rvo_world_add_agent(w, 1e9f, -1e9f, NULL);
    rvo_world_add_agent(w, 1e9f, -1e9f, NULL);
    rvo_agent_set_pref_velocity(w, e, 2, -2);
    CHECK(run(w, 5));
    CHECK(pos(w, e).x <= 1e9f && pos(w, e).y >= -1e9f); /* held at the border, even when pushed */
    rvo_world_destroy(w);
}

/* Runs one case, naming it when it fails. */
#define CASE(call, fmt, ...)                                                                                 \
    do {                                                                                                     \
        const int before_ = check_failures;                                                                  \
        call;                                                                                                \
        if (check_failures > before_)                                                                        \
            fprintf(stderr, "  ^ in %s (" fmt ")\n", #call, __VA_ARGS__);                                    \
    } while (0)

int main(void) {
    for (size_t s = 0; s < 3; ++s)
        for (int compat = 0; compat < 2; ++compat) {
            const char *sn = rvo_solver_name(solvers[s]);
            CASE(coincident(solvers[s], compat), "%s, compat %d", sn, compat);
            CASE(inside_obstacle(solvers[s], compat), "%s, compat %d", sn, compat);
            CASE(enclosure(solvers[s], compat), "%s, compat %d", sn, compat);
            CASE(tiny_horizon(solvers[s], compat), "%s, compat %d", sn, compat);
            CASE(extreme_dt(solvers[s], compat), "%s, compat %d", sn, compat);
        }
    for (size_t s = 0; s < 3; ++s)
        CASE(no_neighbors(solvers[s]), "%s", rvo_solver_name(solvers[s]));
    geometry();
    return check_finish("degenerate");
}
