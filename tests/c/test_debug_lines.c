/* The debug query rvo_agent_orca_lines: the lines it returns are the
 * ones the solve used (the LP over them gives the solved velocity, bit for
 * bit), obstacle lines come first, buffers and bad input are handled. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "rvo_internal.h"

#define CAP 64

/* Solves ORCA's LP over lines from the query, as rvo__orca_new_velocity does. */
static rvo_vec2 lp_velocity(const float *buf, int32_t n, int32_t nobst, float max_speed, rvo_vec2 pref) {
    orca_line lines[CAP], proj[CAP];
    for (int32_t k = 0; k < n; ++k) {
        lines[k].point = v2(buf[4 * k], buf[4 * k + 1]);
        lines[k].direction = v2(buf[4 * k + 2], buf[4 * k + 3]);
    }
    rvo_vec2 r;
    const int32_t fail = rvo__lp2(lines, n, max_speed, pref, false, &r);
    if (fail < n)
        rvo__lp3(lines, n, nobst, fail, max_speed, &r, proj);
    return r;
}

/* A small crowd around a block; returns the world (threads as given).
 * weighted: weights 0.25, 0.5, 0.75 and 1 in turn (pairs that split other
 * than 50/50: the vectorised lines against agent_lines'). */
static rvo_world *scene(int32_t threads, rvo_agent_id *ids, int32_t n, bool weighted) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.25f;
    wd.threads = threads;
    wd.agent.radius = 0.5f;
    wd.agent.neighbor_dist = 6;
    wd.agent.time_horizon = 3;
    rvo_world *w = rvo_world_create(&wd, NULL);
    const float block[] = {-1, 2, 1, 2, 1, 3, -1, 3};
    rvo_world_add_obstacle(w, block, 4, true);
    for (int32_t i = 0; i < n; ++i) {
        const float x = (float)(i % 4) * 1.3f - 2, y = (float)(i / 4) * 1.2f - 1;
        ids[i] = rvo_world_add_agent(w, x, y, NULL);
        rvo_agent_set_pref_velocity(w, ids[i], 0.3f - 0.1f * (float)(i % 3),
                                    weighted && i % 2 ? -1.5f : 1.5f);
        if (weighted)
            rvo_agent_set_param(w, ids[i], RVO_PARAM_WEIGHT, 0.25 * (1 + i % 4));
    }
    for (int s = 0; s < 3; ++s)
        rvo_world_step(w, 0);
    return w;
}

enum { N = 12 };

/* The lines of the query give the solved velocity of each of the agents
 * ids[0 .. count), bit for bit, from the solve's aim (rvo__aim; these
 * scenes have no obstacle detour); counts the obstacle lines and all
 * lines. */
static void solved_from_lines(rvo_world *w, const rvo_agent_id *ids, int32_t count, int32_t *total_obst,
                              int32_t *total_lines) {
    float buf[4 * CAP];
    *total_obst = *total_lines = 0;
    for (int32_t i = 0; i < count; ++i) {
        int32_t nobst = -1;
        const int32_t n = rvo_agent_orca_lines(w, ids[i], 0, buf, CAP, &nobst);
        CHECK(n >= 0 && n <= CAP && nobst >= 0 && nobst <= n);
        *total_obst += nobst;
        *total_lines += n;
        for (int32_t k = 0; k < n; ++k) /* unit directions */
            CHECK_NEAR(hypot(buf[4 * k + 2], buf[4 * k + 3]), 1.0, 1e-5);
        rvo_vec2 pref, got;
        rvo_agent_pref_velocity(w, ids[i], &pref);
        pref = rvo__aim(w, rvo__slot_lookup(&w->agent_slots, ids[i]), pref);
        rvo_agent_new_velocity(w, ids[i], &got);
        double max_speed;
        rvo_agent_param(w, ids[i], RVO_PARAM_MAX_SPEED, &max_speed);
        const rvo_vec2 v = lp_velocity(buf, n, nobst, (float)max_speed, pref);
        CHECK(v.x == got.x && v.y == got.y); /* exactly the lines the solve used */
    }
}

/* A huddle: 24 agents from a ring of 4 m sent to its centre (arrived
 * within 1.5 m) for 40 s, those outside at rest by then. Two resting
 * agents that touch and stand still build their lines as if both stood
 * still (rvo__anchored); the
 * query, asked after the solve, builds those too. */
static void huddle_at_rest(void) {
    enum { H = 24 };
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    wd.agent.radius = 0.5f;
    wd.agent.max_speed = 1.0f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_agent_id ids[H];
    for (int32_t i = 0; i < H; ++i)
        ids[i] =
            rvo_world_add_agent(w, 4.0f * cosf(0.2618f * (float)i), 4.0f * sinf(0.2618f * (float)i), NULL);
    for (int32_t step = 0; step <= 400; ++step) {
        for (int32_t i = 0; i < H; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[i], &p);
            const float d = hypotf(p.x, p.y);
            const float k = d > 1.5f ? 1.0f / d : 0.0f; /* (arrived within 1.5 m) */
            rvo_agent_set_pref_velocity(w, ids[i], -p.x * k, -p.y * k);
        }
        if (step < 400)
            CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
    int32_t anchored = 0;
    for (int32_t i = 0; i < H; ++i) {
        const int32_t a = rvo__slot_lookup(&w->agent_slots, ids[i]);
        for (int32_t k = 0; rvo__rests_still(w, a) && k < H; ++k) {
            const int32_t b = rvo__slot_lookup(&w->agent_slots, ids[k]);
            anchored += k != i && rvo__anchored(w, a, b, v2_abs_sq(v2_sub(w->pos[a], w->pos[b])));
        }
    }
    printf("huddle: %d anchored pairs (of each agent's view)\n", anchored);
    CHECK(anchored > 0);
    int32_t total_obst = 0, total_lines = 0;
    solved_from_lines(w, ids, H, &total_obst, &total_lines);
    CHECK(total_lines > 0);
    rvo_world_destroy(w);
}

int main(void) {
    huddle_at_rest();
    rvo_agent_id ids[N];
    float buf[4 * CAP];
    int32_t total_obst = 0, total_lines = 0;
    rvo_world *weighted = scene(1, ids, N, true);
    CHECK(rvo_world_solve(weighted, 0.25f) == RVO_OK);
    solved_from_lines(weighted, ids, N, &total_obst, &total_lines);
    CHECK(total_lines > total_obst);
    rvo_world_destroy(weighted);
    rvo_world *w = scene(1, ids, N, false);
    CHECK(rvo_world_solve(w, 0.25f) == RVO_OK);
    solved_from_lines(w, ids, N, &total_obst, &total_lines);
    CHECK(total_obst > 0);           /* the block is near some agents */
    CHECK(total_lines > total_obst); /* and agents near each other */
    CHECK(rvo_world_is_solved(w));   /* the query does not change the phase */

    /* Same lines on 2 threads. */
    rvo_agent_id ids2[N];
    float buf2[4 * CAP];
    rvo_world *w2 = scene(2, ids2, N, false);
    rvo_world_solve(w2, 0.25f);
    for (int32_t i = 0; i < N; ++i) {
        int32_t a = 0, b = 0;
        const int32_t n1 = rvo_agent_orca_lines(w, ids[i], 0, buf, CAP, &a);
        const int32_t n2 = rvo_agent_orca_lines(w2, ids2[i], 0, buf2, CAP, &b);
        CHECK(n1 == n2 && a == b && memcmp(buf, buf2, sizeof(float) * 4 * (size_t)n1) == 0);
    }
    rvo_world_destroy(w2);

    /* A short buffer gets cap lines and the total; cap 0 with NULL counts. */
    int32_t most = 0, most_i = 0;
    for (int32_t i = 0; i < N; ++i) {
        const int32_t n = rvo_agent_orca_lines(w, ids[i], 0, NULL, 0, NULL);
        if (n > most)
            most = n, most_i = i;
    }
    CHECK(most >= 2);
    for (int32_t k = 0; k < 4 * CAP; ++k)
        buf[k] = -99.0f;
    CHECK(rvo_agent_orca_lines(w, ids[most_i], 0, buf, 1, NULL) == most);
    CHECK(buf[3] != -99.0f && buf[4] == -99.0f);

    /* An agent alone in open space has no lines. */
    const rvo_agent_id lone = rvo_world_add_agent(w, 500, 500, NULL);
    CHECK(rvo_agent_orca_lines(w, lone, 0, buf, CAP, NULL) == 0);

    /* Bad input: an error naming the argument, nothing changed. */
    rvo_vec2 before, after;
    rvo_agent_position(w, ids[0], &before);
    CHECK(rvo_agent_orca_lines(w, 999, 0, buf, CAP, NULL) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_last_error_arg(w) == 1);
    rvo_world_remove_agent(w, lone);
    CHECK(rvo_agent_orca_lines(w, lone, 0, buf, CAP, NULL) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_agent_orca_lines(w, ids[0], NAN, buf, CAP, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_agent_orca_lines(w, ids[0], -1, buf, CAP, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_orca_lines(w, ids[0], INFINITY, buf, CAP, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_orca_lines(w, ids[0], 0, buf, -1, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 3);
    CHECK(rvo_agent_orca_lines(w, ids[0], 0, NULL, 4, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_orca_lines(NULL, ids[0], 0, buf, CAP, NULL) == RVO_ERR_INVALID_ARGUMENT);
    rvo_agent_position(w, ids[0], &after);
    CHECK(before.x == after.x && before.y == after.y);
    CHECK(rvo_world_integrate(w, 0.25f) == RVO_OK); /* still in the solved phase */
    rvo_world_destroy(w);
    return check_finish("debug_lines");
}
