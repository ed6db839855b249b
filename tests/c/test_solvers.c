/* The three solvers (orca, ue, rvo) on the same scenes: head-on pass,
 * 4-way crossing, a box obstacle, weights, locks, determinism over thread
 * counts, degenerate input; the sampling parameters; the solver API's bad
 * input. The worlds run
 * in RVO2 compatibility mode, without the separation passes after
 * integrate, so the solvers alone must keep the gaps. */
#include "check.h"
#include "rvo.h"

#include <stdint.h>
#include <string.h>

static const rvo_solver solvers[3] = {RVO_SOLVER_ORCA, RVO_SOLVER_UE, RVO_SOLVER_RVO};

static rvo_world *world(rvo_solver solver, int threads) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    wd.threads = threads;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(w != NULL);
    CHECK(rvo_world_set_solver(w, solver) == RVO_OK);
    CHECK(rvo_world_solver(w) == solver);
    CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK); /* no separation: the solver alone */
    return w;
}

static rvo_vec2 pos(rvo_world *w, rvo_agent_id a) {
    rvo_vec2 p = {0, 0};
    rvo_agent_position(w, a, &p);
    return p;
}

static double dist(rvo_world *w, rvo_agent_id a, rvo_agent_id b) {
    const rvo_vec2 p = pos(w, a), q = pos(w, b);
    return hypot((double)p.x - q.x, (double)p.y - q.y);
}

/* Steers every agent of ids towards goals (x, y pairs) at speed 1.5. */
static void steer(rvo_world *w, const rvo_agent_id *ids, const float *goals, int n) {
    for (int i = 0; i < n; ++i) {
        const rvo_vec2 p = pos(w, ids[i]);
        float dx = goals[2 * i] - p.x, dy = goals[2 * i + 1] - p.y;
        const float d = sqrtf(dx * dx + dy * dy);
        if (d > 1.5f)
            dx *= 1.5f / d, dy *= 1.5f / d;
        rvo_agent_set_pref_velocity(w, ids[i], dx, dy);
    }
}

/* Smallest centre distance minus radius sum (radius 0.5 each) over all pairs. */
static double min_gap(rvo_world *w, const rvo_agent_id *ids, int n) {
    double g = INFINITY;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const double d = dist(w, ids[i], ids[j]) - 1.0;
            if (d < g)
                g = d;
        }
    return g;
}

static void head_on(rvo_solver solver) {
    rvo_world *w = world(solver, 1);
    rvo_agent_id ids[2] = {rvo_world_add_agent(w, -6, 0, NULL), rvo_world_add_agent(w, 6, 0.1f, NULL)};
    const float goals[4] = {6, 0, -6, 0.1f};
    double gap = INFINITY;
    for (int s = 0; s < 150; ++s) {
        steer(w, ids, goals, 2);
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const double g = min_gap(w, ids, 2);
        if (g < gap)
            gap = g;
    }
    const rvo_vec2 a = pos(w, ids[0]), b = pos(w, ids[1]);
    printf("%-4s head-on: smallest gap %.3f, ends at (%.2f, %.2f) and (%.2f, %.2f)\n",
           rvo_solver_name(solver), gap, a.x, a.y, b.x, b.y);
    CHECK(gap > -0.05); /* 5% of the radius sum */
    CHECK(hypot(a.x - 6, a.y) < 0.5 && hypot(b.x + 6, b.y - 0.1) < 0.5);
    rvo_world_destroy(w);
}

/* Four squads of four cross a square from N, S, E and W. */
static void four_way(rvo_solver solver) {
    rvo_world *w = world(solver, 1);
    rvo_agent_id ids[16];
    float goals[32];
    const float dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int g = 0; g < 4; ++g)
        for (int m = 0; m < 4; ++m) {
            const int i = 4 * g + m;
            /* a little irregular: a perfectly symmetric crossing is a tie no solver should need to break */
            const float along = -8.0f - 1.3f * (float)(m / 2) - 0.07f * (float)((5 * i) % 7);
            const float side = 1.3f * (float)(m % 2) - 0.65f + 0.05f * (float)((3 * i) % 5) - 0.1f;
            const float x = dirs[g][0] * along - dirs[g][1] * side,
                        y = dirs[g][1] * along + dirs[g][0] * side;
            ids[i] = rvo_world_add_agent(w, x, y, NULL);
            /* across, in the same formation spread out twice as wide */
            const float ga = along + 18.0f, gs = 2.0f * side;
            goals[2 * i] = dirs[g][0] * ga - dirs[g][1] * gs;
            goals[2 * i + 1] = dirs[g][1] * ga + dirs[g][0] * gs;
        }
    double gap = INFINITY;
    int steps = 0, arrived = 0;
    for (; steps < 600 && arrived < 16; ++steps) {
        steer(w, ids, goals, 16);
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        const double g = min_gap(w, ids, 16);
        if (g < gap)
            gap = g;
        arrived = 0;
        for (int i = 0; i < 16; ++i) {
            const rvo_vec2 p = pos(w, ids[i]);
            arrived += hypot(p.x - goals[2 * i], p.y - goals[2 * i + 1]) < 0.5;
        }
    }
    printf("%-4s 4-way crossing: %d of 16 arrived in %d steps, smallest gap %.3f\n", rvo_solver_name(solver),
           arrived, steps, gap);
    CHECK(arrived == 16);
    CHECK(gap > -0.1);
    rvo_world_destroy(w);
}

/* Distance from p to the box [-1, 1]^2, negative inside. */
static double box_dist(rvo_vec2 p) {
    const double dx = fabs(p.x) - 1.0, dy = fabs(p.y) - 1.0;
    if (dx <= 0 && dy <= 0)
        return dx > dy ? dx : dy;
    const double ox = dx > 0 ? dx : 0, oy = dy > 0 ? dy : 0;
    return hypot(ox, oy);
}

static void box(rvo_solver solver) {
    const float sq[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    const float starts[3][4] = {{-6, 0.3f, 6, 0.3f}, {-6, -1.2f, 6, -1.2f}, {-5, -5, 5, 5}};
    for (int c = 0; c < 3; ++c) {
        rvo_world *w = world(solver, 1);
        CHECK(rvo_world_add_obstacle(w, sq, 4, true) != 0);
        rvo_agent_id a = rvo_world_add_agent(w, starts[c][0], starts[c][1], NULL);
        const float goal[2] = {starts[c][2], starts[c][3]};
        double clearance = INFINITY;
        int s = 0;
        for (; s < 400; ++s) {
            steer(w, &a, goal, 1);
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            const double d = box_dist(pos(w, a)) - 0.5;
            if (d < clearance)
                clearance = d;
            const rvo_vec2 p = pos(w, a);
            if (hypot(p.x - goal[0], p.y - goal[1]) < 0.1)
                break;
        }
        const rvo_vec2 p = pos(w, a);
        printf("%-4s box %d: smallest clearance %.3f, at (%.2f, %.2f) after %d steps\n",
               rvo_solver_name(solver), c, clearance, p.x, p.y, s);
        CHECK(clearance > -0.02); /* never into the box (radius 0.5) */
        /* Walking straight at a face or corner, ORCA stops there as RVO2
         * does (a local minimum for the path planner to avoid); the
         * sampling solvers turn and go round. */
        if (c == 1 || solver != RVO_SOLVER_ORCA)
            CHECK(hypot(p.x - goal[0], p.y - goal[1]) < 0.1);
        rvo_world_destroy(w);
    }
}

/* A weight-0 hero standing still is not pushed and a walking one keeps its
 * preferred velocity; the crowd goes around. */
static void weights(rvo_solver solver) {
    for (int walking = 0; walking < 2; ++walking) {
        rvo_world *w = world(solver, 1);
        /* off the middle row: an exactly head-on pair stalls in ORCA */
        const rvo_agent_id hero = rvo_world_add_agent(w, 0, 0.1f, NULL);
        CHECK(rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, 0.0) == RVO_OK);
        rvo_agent_id crowd[12];
        float goals[24];
        for (int i = 0; i < 12; ++i) {
            crowd[i] =
                rvo_world_add_agent(w, -6.0f - 1.3f * (float)(i / 3), 1.3f * (float)(i % 3) - 1.3f, NULL);
            goals[2 * i] = 30;
            goals[2 * i + 1] = 1.3f * (float)(i % 3) - 1.3f;
        }
        double gap = INFINITY;
        bool kept = true;
        for (int s = 0; s < 300; ++s) {
            steer(w, crowd, goals, 12);
            rvo_agent_set_pref_velocity(w, hero, walking ? -0.5f : 0.0f, 0.0f);
            CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
            rvo_vec2 v;
            rvo_agent_new_velocity(w, hero, &v);
            kept &= v.x == (walking ? -0.5f : 0.0f) && v.y == 0.0f;
            CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
            for (int i = 0; i < 12; ++i) {
                const double g = dist(w, hero, crowd[i]) - 1.0;
                if (g < gap)
                    gap = g;
            }
        }
        int passed = 0;
        for (int i = 0; i < 12; ++i)
            passed += pos(w, crowd[i]).x > 3;
        const rvo_vec2 p = pos(w, hero);
        printf("%-4s weight-0 hero %s: at (%.3g, %.3g), %d of 12 passed, smallest gap %.3f\n",
               rvo_solver_name(solver), walking ? "walking" : "standing", p.x, p.y, passed, gap);
        CHECK(kept);
        CHECK(walking || (p.x == 0.0f && p.y == 0.1f));
        CHECK(passed == 12);
        CHECK(gap > -0.05);
        rvo_world_destroy(w);
    }
}

static void locks(rvo_solver solver) {
    rvo_world *w = world(solver, 1);
    const rvo_agent_id a = rvo_world_add_agent(w, -4, 0.2f, NULL), b = rvo_world_add_agent(w, 4, 0, NULL);
    CHECK(rvo_agent_lock(w, b, -1, 0) == RVO_OK);
    double gap = INFINITY;
    bool kept = true;
    for (int s = 0; s < 100; ++s) {
        rvo_agent_set_pref_velocity(w, a, 1, 0);
        rvo_agent_set_pref_velocity(w, b, 0, 1); /* ignored while locked */
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        rvo_vec2 vb;
        rvo_agent_velocity(w, b, &vb);
        kept &= vb.x == -1.0f && vb.y == 0.0f;
        const double g = dist(w, a, b) - 1.0;
        if (g < gap)
            gap = g;
    }
    printf("%-4s lock: smallest gap %.3f, a at x = %.2f\n", rvo_solver_name(solver), gap, pos(w, a).x);
    CHECK(kept);
    CHECK(gap > -0.05);
    CHECK(pos(w, a).x > 4); /* got past */
    rvo_world_destroy(w);
}

/* FNV-1a over the bits of every position. */
static uint64_t hash_positions(rvo_world *w) {
    const int32_t n = rvo_world_agent_count(w);
    const float *xy = rvo_world_positions_view(w);
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)xy;
    for (size_t k = 0; k < sizeof(float) * 2 * (size_t)n; ++k)
        h = (h ^ b[k]) * 1099511628211ull;
    return h;
}

static uint64_t crowd_run(rvo_solver solver, int threads) {
    rvo_world *w = world(solver, threads);
    const float pillar[8] = {-2, -2, 2, -2, 2, 2, -2, 2};
    rvo_world_add_obstacle(w, pillar, 4, true);
    enum { N = 300 };
    static rvo_agent_id ids[N];
    static float goals[2 * N];
    for (int i = 0; i < N; ++i) {
        /* a 20 x 15 block, everyone heading for the mirror spot across the pillar */
        const float x = 1.6f * (float)(i % 20) - 15.2f + 0.03f * (float)(i % 7);
        const float y = 1.6f * (float)(i / 20) - 11.2f + 0.02f * (float)(i % 5);
        ids[i] = rvo_world_add_agent(w, x, y, NULL);
        goals[2 * i] = -x;
        goals[2 * i + 1] = -y;
    }
    const uint64_t h0 = hash_positions(w);
    for (int s = 0; s < 60; ++s) {
        steer(w, ids, goals, N);
        rvo_world_step(w, 0);
    }
    const uint64_t h = hash_positions(w);
    CHECK(h != h0);
    rvo_world_destroy(w);
    return h;
}

static void determinism(rvo_solver solver) {
    const uint64_t h1 = crowd_run(solver, 1), h2 = crowd_run(solver, 2), h3 = crowd_run(solver, 3);
    printf("%-4s 300 agents: hash %016llx on 1 thread, %016llx on 2, %016llx on 3\n", rvo_solver_name(solver),
           (unsigned long long)h1, (unsigned long long)h2, (unsigned long long)h3);
    CHECK(h1 == h2 && h1 == h3);
}

/* Coincident agents, zero velocities, max_speed 0, agents inside and on the
 * edge of an obstacle: every new velocity is finite and within max_speed. */
static void degenerate(rvo_solver solver) {
    rvo_world *w = world(solver, 1);
    const float sq[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    rvo_world_add_obstacle(w, sq, 4, true);
    const float wall[4] = {5, -3, 5, 3};
    rvo_world_add_obstacle(w, wall, 2, false);
    rvo_agent_id ids[16];
    int n = 0;
    for (int k = 0; k < 4; ++k)
        ids[n++] = rvo_world_add_agent(w, 3, 3, NULL); /* a stack */
    ids[n++] = rvo_world_add_agent(w, 0, 0, NULL);     /* inside the box */
    ids[n++] = rvo_world_add_agent(w, 1, 0, NULL);     /* on its edge */
    ids[n++] = rvo_world_add_agent(w, 1, 1, NULL);     /* on its corner */
    ids[n++] = rvo_world_add_agent(w, 5, 0, NULL);     /* on the open wall */
    ids[n++] = rvo_world_add_agent(w, 5.2f, 0, NULL);  /* overlapping it */
    ids[n++] = rvo_world_add_agent(w, 1.2f, 0, NULL);  /* overlapping the box */
    ids[n++] = rvo_world_add_agent(w, -3, -3, NULL);
    rvo_agent_set_param(w, ids[n - 1], RVO_PARAM_MAX_SPEED, 0.0);
    bool finite = true, slow = true;
    for (int s = 0; s < 40; ++s) {
        for (int i = 0; i < n; ++i) {
            /* zero, then towards the stack, then away */
            const float k = s < 10 ? 0.0f : s < 25 ? 1.0f : -1.0f;
            const rvo_vec2 p = pos(w, ids[i]);
            rvo_agent_set_pref_velocity(w, ids[i], k * (3 - p.x), k * (3 - p.y));
        }
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
        for (int i = 0; i < n; ++i) {
            rvo_vec2 v;
            rvo_agent_new_velocity(w, ids[i], &v);
            finite &= isfinite(v.x) && isfinite(v.y);
            double ms;
            rvo_agent_param(w, ids[i], RVO_PARAM_MAX_SPEED, &ms);
            slow &= hypot(v.x, v.y) <= ms * (1 + 1e-5);
        }
        CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
    }
    /* the stack has spread */
    const double spread = dist(w, ids[0], ids[1]) + dist(w, ids[0], ids[2]) + dist(w, ids[2], ids[3]);
    printf("%-4s degenerate: finite %d, within max_speed %d, stack spread %.3f\n", rvo_solver_name(solver),
           finite, slow, spread);
    CHECK(finite);
    CHECK(slow);
    rvo_world_destroy(w);
}

static void api(void) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_solver(w) == RVO_SOLVER_ORCA); /* the default */
    CHECK(rvo_world_set_solver(w, (rvo_solver)7) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(strstr(rvo_world_last_error(w), "solver") != NULL);
    CHECK(rvo_world_set_solver(w, (rvo_solver)-1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_solver(w) == RVO_SOLVER_ORCA);
    CHECK(rvo_world_set_solver(w, RVO_SOLVER_RVO) == RVO_OK);
    CHECK(rvo_world_last_error(w)[0] == 0);
    CHECK(rvo_world_set_solver(NULL, RVO_SOLVER_UE) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_solver(NULL) == RVO_SOLVER_ORCA);

    CHECK(rvo_world_set_sampling(w, 0, 1.0f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_set_sampling(w, 4097, 1.0f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_sampling(w, -5, 1.0f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_sampling(w, 100, NAN) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_world_set_sampling(w, 100, INFINITY) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_sampling(w, 100, -0.5f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_sampling(NULL, 100, 1.0f) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_sampling(w, 1, 0.0f) == RVO_OK);
    CHECK(rvo_world_set_sampling(w, 4096, 7.5f) == RVO_OK);

    for (int s = 0; s < 3; ++s) {
        const char *name = rvo_solver_name(solvers[s]);
        CHECK(name != NULL);
        CHECK(rvo_solver_from_name(name) == (int)solvers[s]);
    }
    CHECK(strcmp(rvo_solver_name(RVO_SOLVER_ORCA), "orca") == 0);
    CHECK(strcmp(rvo_solver_name(RVO_SOLVER_UE), "ue") == 0);
    CHECK(strcmp(rvo_solver_name(RVO_SOLVER_RVO), "rvo") == 0);
    CHECK(rvo_solver_name((rvo_solver)7) == NULL);
    CHECK(rvo_solver_from_name("ORCA") == -1);
    CHECK(rvo_solver_from_name("") == -1);
    CHECK(rvo_solver_from_name(NULL) == -1);
    rvo_world_destroy(w);
}

/* Switching to another solver and back leaves ORCA's results untouched. */
static void switch_back(void) {
    uint64_t h[2];
    for (int c = 0; c < 2; ++c) {
        rvo_world *w = world(RVO_SOLVER_ORCA, 1);
        rvo_agent_id ids[2] = {rvo_world_add_agent(w, -6, 0, NULL), rvo_world_add_agent(w, 6, 0.1f, NULL)};
        const float goals[4] = {6, 0, -6, 0.1f};
        if (c) {
            rvo_world_set_solver(w, RVO_SOLVER_UE);
            rvo_world_set_solver(w, RVO_SOLVER_RVO);
            rvo_world_set_sampling(w, 10, 3.0f);
            rvo_world_set_solver(w, RVO_SOLVER_ORCA);
        }
        for (int s = 0; s < 100; ++s) {
            steer(w, ids, goals, 2);
            rvo_world_step(w, 0);
        }
        h[c] = hash_positions(w);
        rvo_world_destroy(w);
    }
    CHECK(h[0] == h[1]);
}

/* The sampling parameters matter: weight 0 ignores coming collisions (an
 * overlap is still left), and fewer samples give other paths. */
static void sampling_params(void) {
    double gaps[3];
    uint64_t hashes[3];
    const int samples[3] = {250, 250, 16};
    const float weights[3] = {1.0f, 0.0f, 1.0f};
    for (int c = 0; c < 3; ++c) {
        rvo_world *w = world(RVO_SOLVER_RVO, 1);
        CHECK(rvo_world_set_sampling(w, samples[c], weights[c]) == RVO_OK);
        rvo_agent_id ids[2] = {rvo_world_add_agent(w, -6, 0, NULL), rvo_world_add_agent(w, 6, 0.1f, NULL)};
        const float goals[4] = {6, 0, -6, 0.1f};
        gaps[c] = INFINITY;
        for (int s = 0; s < 150; ++s) {
            steer(w, ids, goals, 2);
            rvo_world_step(w, 0);
            const double g = min_gap(w, ids, 2);
            if (g < gaps[c])
                gaps[c] = g;
        }
        hashes[c] = hash_positions(w);
        rvo_world_destroy(w);
    }
    printf("rvo  sampling: smallest gap %.3f (250 samples, w 1), %.3f (w 0), %.3f (16 samples)\n", gaps[0],
           gaps[1], gaps[2]);
    CHECK(gaps[0] > -0.05);
    CHECK(gaps[1] < -0.2); /* no anticipation: they meet, then only push apart */
    CHECK(hashes[2] != hashes[0]);
}

int main(void) {
    api();
    sampling_params();
    switch_back();
    for (int k = 0; k < 3; ++k) {
        head_on(solvers[k]);
        four_way(solvers[k]);
        box(solvers[k]);
        weights(solvers[k]);
        locks(solvers[k]);
        determinism(solvers[k]);
        degenerate(solvers[k]);
    }
    return check_finish("solvers");
}
