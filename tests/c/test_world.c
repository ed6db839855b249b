/* World behaviour: definitions, bad input, phases, head-on pass,
 * coincident agents, determinism across thread counts. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_positions(rvo_world *w) {
    const int32_t n = rvo_world_agent_count(w);
    float *xy = malloc(sizeof(float) * 2 * (size_t)(n > 0 ? n : 1));
    rvo_world_positions(w, xy, n);
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)xy;
    for (size_t i = 0; i < sizeof(float) * 2 * (size_t)n; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    free(xy);
    return h;
}

/* A random crossing with obstacles and churn, on the given thread count. */
static uint64_t crossing(int threads, int n, int steps) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 0.1f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    const float pillar[] = {-2, -2, 2, -2, 2, 2, -2, 2};
    rvo_world_add_obstacle(w, pillar, 4, true);
    unsigned seed = 7;
    float *goal = malloc(sizeof(float) * 2 * (size_t)n);
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)n);
    for (int i = 0; i < n; ++i) {
        seed = seed * 1103515245u + 12345u;
        const float a = (float)(seed >> 8) / 16777216.0f * 6.2831853f;
        const float r = 20.0f + (float)(i % 7);
        ids[i] = rvo_world_add_agent(w, r * cosf(a), r * sinf(a), NULL);
        goal[2 * i] = -r * cosf(a);
        goal[2 * i + 1] = -r * sinf(a);
    }
    for (int s = 0; s < steps; ++s) {
        for (int i = 0; i < n; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[i], &p);
            float dx = goal[2 * i] - p.x, dy = goal[2 * i + 1] - p.y;
            const float d = sqrtf(dx * dx + dy * dy);
            if (d > 2.0f)
                dx *= 2.0f / d, dy *= 2.0f / d;
            rvo_agent_set_pref_velocity(w, ids[i], dx, dy);
        }
        rvo_world_step(w, 0);
    }
    const uint64_t h = hash_positions(w);
    rvo_world_destroy(w);
    free(goal);
    free(ids);
    return h;
}

int main(void) {
    /* Definitions and their checks. */
    rvo_world_def wd = rvo_world_def_default();
    rvo_error err;
    CHECK(rvo_world_def_check(&wd, &err) == RVO_OK && err.status == RVO_OK && err.message[0] == 0);
    CHECK(rvo_world_def_check(&wd, NULL) == RVO_OK);
    rvo_world_def zero;
    memset(&zero, 0, sizeof zero);
    CHECK(rvo_world_create(&zero, &err) == NULL); /* cookie catches {0} */
    CHECK(err.status == RVO_ERR_INVALID_ARGUMENT && err.arg == 1 &&
          strstr(err.message, "rvo_world_def_default"));
    CHECK(rvo_world_create(&zero, NULL) == NULL);
    rvo_world *dflt = rvo_world_create(NULL, &err); /* NULL: the defaults */
    CHECK(dflt != NULL && err.status == RVO_OK &&
          rvo_world_time_step(dflt) == rvo_world_def_default().time_step);
    rvo_world_destroy(dflt);
    rvo_world_def bad = wd;
    bad.agent.radius = -1;
    CHECK(rvo_world_def_check(&bad, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "radius must be > 0") == 0 && err.arg == 1);
    CHECK(rvo_world_create(&bad, &err) == NULL && strcmp(err.message, "radius must be > 0") == 0);
    bad = wd;
    bad.time_step = NAN;
    CHECK(rvo_world_def_check(&bad, &err) == RVO_ERR_INVALID_ARGUMENT);
    bad = wd;
    bad.threads = 0;
    CHECK(rvo_world_def_check(&bad, NULL) == RVO_ERR_INVALID_ARGUMENT);

    /* Agent defs: checked and set through the same report. */
    rvo_agent_def ad0 = rvo_agent_def_default();
    CHECK(rvo_agent_def_check(&ad0, &err) == RVO_OK);
    CHECK(rvo_agent_def_set_param(&ad0, RVO_PARAM_WEIGHT, 2.0, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(err.arg == 3 && strcmp(err.message, "weight must be in [0, 1]") == 0 && ad0.weight == 0.5f);
    CHECK(rvo_agent_def_set_param(&ad0, RVO_PARAM_COUNT, 1.0, &err) == RVO_ERR_INVALID_ARGUMENT &&
          err.arg == 2);
    CHECK(rvo_agent_def_set_param(NULL, RVO_PARAM_WEIGHT, 1.0, &err) == RVO_ERR_INVALID_ARGUMENT &&
          err.arg == 1);
    CHECK(rvo_agent_def_set_param(&ad0, RVO_PARAM_WEIGHT, 0.25, &err) == RVO_OK && err.status == RVO_OK);
    CHECK(rvo_agent_def_param(&ad0, RVO_PARAM_WEIGHT) == 0.25);
    ad0.radius = 0;
    CHECK(rvo_agent_def_check(&ad0, &err) == RVO_ERR_INVALID_ARGUMENT &&
          strcmp(err.message, "radius must be > 0") == 0);

    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    rvo_agent_def ad = rvo_agent_def_default();
    ad.radius = 0;
    CHECK(rvo_world_add_agent(w, 0, 0, &ad) == 0);
    CHECK(strcmp(rvo_world_last_error(w), "radius must be > 0") == 0);
    CHECK(rvo_world_last_error_arg(w) == 3);
    CHECK(rvo_world_add_agent(w, NAN, 0, NULL) == 0);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_add_agent(w, 0, INFINITY, NULL) == 0);
    CHECK(rvo_world_last_error_arg(w) == 2);
    ad = rvo_agent_def_default();
    ad.max_neighbors = -1;
    CHECK(rvo_world_add_agent(w, 0, 0, &ad) == 0);
    CHECK(rvo_world_agent_count(w) == 0); /* nothing half-added */

    /* Two agents head-on (off by 1 cm: exactly symmetric ones stall in ORCA,
     * see below) pass each other without overlapping. */
    const rvo_agent_id a = rvo_world_add_agent(w, -5, 0.01f, NULL);
    const rvo_agent_id b = rvo_world_add_agent(w, 5, 0, NULL);
    CHECK(rvo_agent_set_param(w, a, RVO_PARAM_RADIUS, -2) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, a, RVO_PARAM_MAX_NEIGHBORS, 2.5) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, a, (rvo_param)99, 1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_pref_velocity(w, a, NAN, 0) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_integrate(w, 0.1f) == RVO_ERR_PHASE); /* no solve yet */
    rvo_vec2 v;
    CHECK(rvo_agent_new_velocity(w, a, &v) == RVO_ERR_PHASE);
    double min_gap = INFINITY;
    for (int s = 0; s < 600; ++s) {
        rvo_vec2 pa, pb;
        rvo_agent_position(w, a, &pa);
        rvo_agent_position(w, b, &pb);
        rvo_agent_set_pref_velocity(w, a, pa.x < 5 ? 1.0f : 0.0f, 0);
        rvo_agent_set_pref_velocity(w, b, pb.x > -5 ? -1.0f : 0.0f, 0);
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
        CHECK(rvo_world_is_solved(w));
        CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
        const double gap = hypot((double)pa.x - pb.x, (double)pa.y - pb.y) - 1.0;
        if (gap < min_gap)
            min_gap = gap;
    }
    rvo_vec2 pa, pb;
    rvo_agent_position(w, a, &pa);
    rvo_agent_position(w, b, &pb);
    printf("head-on: a at %.3f, b at %.3f, smallest gap %.4f\n", pa.x, pb.x, min_gap);
    CHECK(min_gap >= -0.01);
    CHECK(pa.x > 4.5f && pb.x < -4.5f); /* they did pass */

    /* Post-processing between solve and integrate, clamped to max_speed. */
    CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
    CHECK(rvo_agent_set_new_velocity(w, a, 30, 40) == RVO_OK);
    CHECK(rvo_agent_new_velocity(w, a, &v) == RVO_OK);
    CHECK_NEAR(v.x, 1.2, 1e-5);
    CHECK_NEAR(v.y, 1.6, 1e-5);
    CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
    CHECK(rvo_agent_set_new_velocity(w, a, 0, 0) == RVO_ERR_PHASE);
    rvo_world_destroy(w);

    /* Exactly head-on: ORCA (and RVO2, and the soft mode) stops both short
     * of each other; the cure is jitter on the preferred velocities
     * (rvo.jitter). They must not overlap and must stay finite. The default
     * mode's hard bodies let two stalled agents that want opposite ways take
     * turns: they pass once they have stood for the stall time. */
    for (int soft = 1; soft >= 0; --soft) {
        w = rvo_world_create(&wd, NULL);
        if (soft)
            CHECK(rvo_world_set_strict_overlap(w, false) == RVO_OK);
        const rvo_agent_id c = rvo_world_add_agent(w, -5, 0, NULL), e = rvo_world_add_agent(w, 5, 0, NULL);
        float gap = INFINITY;
        for (int s = 0; s < 300; ++s) {
            rvo_agent_set_pref_velocity(w, c, 1, 0);
            rvo_agent_set_pref_velocity(w, e, -1, 0);
            rvo_world_step(w, 0.1f);
            rvo_agent_position(w, c, &pa);
            rvo_agent_position(w, e, &pb);
            gap = fminf(gap, hypotf(pb.x - pa.x, pb.y - pa.y));
        }
        printf("exactly head-on (%s): ended at %.3f and %.3f, closest %.4f\n", soft ? "soft" : "default",
               pa.x, pb.x, gap);
        CHECK(isfinite(pa.x) && isfinite(pb.x) && gap >= 1.0f - 0.01f);
        if (soft)
            CHECK(pb.x - pa.x >= 1.0f - 0.01f); /* stalled face to face */
        else
            CHECK(pa.x > pb.x); /* passed */
        rvo_world_destroy(w);
    }

    /* Coincident agents separate with finite velocities. */
    w = rvo_world_create(&wd, NULL);
    rvo_agent_id stack[5];
    for (int i = 0; i < 5; ++i)
        stack[i] = rvo_world_add_agent(w, 3, 3, NULL);
    for (int s = 0; s < 120; ++s)
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    double closest = INFINITY;
    for (int i = 0; i < 5; ++i) {
        rvo_vec2 p, q;
        rvo_agent_position(w, stack[i], &p);
        CHECK(isfinite(p.x) && isfinite(p.y));
        for (int j = i + 1; j < 5; ++j) {
            rvo_agent_position(w, stack[j], &q);
            const double d = hypot((double)p.x - q.x, (double)p.y - q.y);
            if (d < closest)
                closest = d;
        }
    }
    printf("coincident stack of 5: closest pair after 2 s at %.3f (radius sum 1)\n", closest);
    CHECK(closest > 0.9);
    /* Bulk calls. */
    float xy[10];
    CHECK(rvo_world_positions(w, xy, 5) == 5);
    CHECK(rvo_world_set_pref_velocities(w, xy, 4) == RVO_ERR_INVALID_ARGUMENT);
    xy[3] = NAN;
    CHECK(rvo_world_set_pref_velocities(w, xy, 5) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_pref_velocity(w, stack[0], &v) == RVO_OK && v.x == 0 && v.y == 0); /* unchanged */
    /* Bulk calls for a list of ids: in the list's order, every id and value
     * checked before anything is written. */
    {
        rvo_vec2 p3, p1;
        rvo_agent_position(w, stack[3], &p3);
        rvo_agent_position(w, stack[1], &p1);
        const rvo_agent_id two[2] = {stack[3], stack[1]};
        float got[4] = {0}, r[2] = {0};
        CHECK(rvo_world_positions_of(w, two, 2, got) == RVO_OK);
        CHECK(got[0] == p3.x && got[1] == p3.y && got[2] == p1.x && got[3] == p1.y);
        CHECK(rvo_world_radii_of(w, two, 2, r) == RVO_OK && r[0] == 0.5f && r[1] == 0.5f);
        CHECK(rvo_world_max_speeds_of(w, two, 2, r) == RVO_OK && r[0] == 2.0f);
        CHECK(rvo_world_new_velocities_of(w, two, 2, got) == RVO_ERR_PHASE);
        const float vel[4] = {1, 0, 0, -1}, nan_vel[4] = {1, 0, 0, NAN};
        CHECK(rvo_world_set_pref_velocities_of(w, two, 2, nan_vel) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 3);
        CHECK(rvo_agent_pref_velocity(w, stack[3], &v) == RVO_OK && v.x == 0 && v.y == 0); /* unchanged */
        CHECK(rvo_world_set_pref_velocities_of(w, two, 2, vel) == RVO_OK);
        CHECK(rvo_agent_pref_velocity(w, stack[1], &v) == RVO_OK && v.x == 0 && v.y == -1);
        rvo_world_remove_agent(w, stack[4]);
        const rvo_agent_id stale[2] = {stack[0], stack[4]};
        got[0] = 42;
        CHECK(rvo_world_positions_of(w, stale, 2, got) == RVO_ERR_UNKNOWN_ID && got[0] == 42);
        CHECK(strstr(rvo_world_last_error(w), "number 2 in ids") != NULL);
        CHECK(rvo_world_set_pref_velocities_of(w, stale, 2, vel) == RVO_ERR_UNKNOWN_ID);
        CHECK(rvo_agent_pref_velocity(w, stack[0], &v) == RVO_OK && v.x == 0 && v.y == 0); /* unchanged */
        CHECK(rvo_world_positions_of(w, two, -1, got) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_positions_of(w, NULL, 0, NULL) == RVO_OK);
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
        const float fast[2] = {100, 0};
        CHECK(rvo_world_set_new_velocities_of(w, two, 1, fast) == RVO_OK);
        CHECK(rvo_world_new_velocities_of(w, two, 1, got) == RVO_OK && got[0] == 2.0f && got[1] == 0);
    }
    rvo_world_destroy(w);

    /* Determinism: same hash on 1, 2 and 4 threads, and run to run. */
    const uint64_t h1 = crossing(1, 600, 150), h1b = crossing(1, 600, 150);
    const uint64_t h2 = crossing(2, 600, 150), h4 = crossing(4, 600, 150);
    printf("determinism hash 1 thread %016llx, 2 threads %016llx, 4 threads %016llx\n",
           (unsigned long long)h1, (unsigned long long)h2, (unsigned long long)h4);
    CHECK(h1 == h1b);
    CHECK(h1 == h2);
    CHECK(h1 == h4);
    return check_finish("world");
}
