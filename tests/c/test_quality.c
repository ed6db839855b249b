/* Avoidance quality: the default mode (hard bodies: strict overlap) and the
 * soft mode against the RVO2-compatible mode on a dense circle; locked and
 * weight-0 agents are never pushed by the overlap resolution; obstacles keep
 * their clearance; the small symmetric scenes of quality_scenes.h finish
 * with jitter; moving agents push idle ones aside (an agent whose goal is
 * inside a parked squad gets home) unless weights, locks or groups say
 * otherwise; stall events (rvo_world_stalled); snapshots keep strict
 * overlap and the stall state. */
#include "../bench/quality_world.h"
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

typedef struct result {
    double worst; /* worst overlap as a fraction of ri + rj */
    int makespan; /* steps until all are home, -1 if not */
} result;

/* mode: 0 the default (nothing set), 1 soft (strict overlap off), 2 RVO2. */
static result circle(int n, int mode) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.25f;
    wd.agent.neighbor_dist = 15;
    wd.agent.max_neighbors = 10;
    wd.agent.time_horizon = 10;
    wd.agent.time_horizon_obst = 10;
    wd.agent.radius = 1.5f;
    wd.agent.max_speed = 2;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_strict_overlap(w) && !rvo_world_rvo2_compat(w)); /* the default */
    if (mode == 2)
        CHECK(rvo_world_set_rvo2_compat(w, true) == RVO_OK && rvo_world_rvo2_compat(w));
    if (mode == 1)
        CHECK(rvo_world_set_strict_overlap(w, false) == RVO_OK && !rvo_world_strict_overlap(w));
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
            if (d2 > 1.5f * 1.5f)
                home = false;
            if (d2 > 4.0f)
                dx *= 2.0f / sqrtf(d2), dy *= 2.0f / sqrtf(d2);
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
                if (j == i)
                    continue;
                const double ov =
                    (3.0 - hypot((double)p[2 * i] - p[2 * j], (double)p[2 * i + 1] - p[2 * j + 1])) / 3.0;
                if (ov > r.worst)
                    r.worst = ov;
            }
        }
    }
    rvo_world_destroy(w);
    free(goal);
    free(pref);
    return r;
}

/* The small scenes of the quality suite, with jitter (0.1 rad, 3 seeds),
 * the default mode: everyone home within 2 x the free-walking time, no
 * overlap above 1%, no intrusion into obstacle clearance above 1% of the
 * radius. */
static void symmetric_scenes(void) {
    static const char *const names[] = {"headon", "cross4", "corridor"};
    for (int k = 0; k < 3; ++k)
        for (unsigned seed = 1; seed <= 3; ++seed) {
            qscene s = qs_make(names[k], 0);
            rvo_world_def wd = rvo_world_def_default();
            wd.time_step = s.dt;
            wd.agent.radius = s.radius;
            wd.agent.max_speed = s.max_speed;
            rvo_world *w = rvo_world_create(&wd, NULL);
            const float *op = s.obst;
            for (int o = 0; o < s.nobst; op += 2 * s.obst_count[o], ++o)
                CHECK(rvo_world_add_obstacle(w, op, s.obst_count[o], s.obst_closed[o]) != 0);
            for (int i = 0; i < s.n; ++i)
                rvo_world_add_agent(w, s.start[2 * i], s.start[2 * i + 1], NULL);
            float pref[64];
            qs_grid g = {0};
            double overlap = 0, intrusion = 0;
            int steps = 0, limit = 2 * qs_free_steps(&s);
            unsigned rs = seed;
            for (; steps <= limit; ++steps) {
                const float *p = rvo_world_positions_view(w);
                int home = 0;
                for (int i = 0; i < s.n; ++i)
                    home += qs_pref(&s, i, p[2 * i], p[2 * i + 1], (float)((qs_rand(&rs) * 2 - 1) * 0.1),
                                    &pref[2 * i], &pref[2 * i + 1]);
                if (home == s.n)
                    break;
                rvo_world_set_pref_velocities(w, pref, s.n);
                rvo_world_step(w, 0);
                overlap = fmax(overlap, qs_worst_overlap(&s, rvo_world_positions_view(w), &g));
                intrusion = fmax(intrusion, qs_worst_intrusion(&s, rvo_world_positions_view(w)));
            }
            if (steps > limit)
                printf("%s seed %u: not home within %d steps\n", names[k], seed, limit);
            CHECK(steps <= limit);
            CHECK(overlap <= 0.01);
            CHECK(intrusion <= 0.01);
            free(g.head);
            free(g.next);
            rvo_world_destroy(w);
            qs_free(&s);
        }
}

/* One run of a quality_scene as tests/bench/quality.c runs it (the scene's
 * parameters, jitter 0.1 rad from seed), the doorway steered through its
 * door by rvo_door_steer (lanes) or by qs_pref's naive follower. Returns
 * the makespan (steps until everyone is home; -1 if not within
 * max_steps); worst overlap and intrusion as fractions. */
static int run_scene(qscene *s, int mode, unsigned seed, bool lanes, int max_steps, double *overlap,
                     double *intrusion) {
    const rvo_world_def wd = qs_world_def(s);
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_rvo2_compat(w, mode == 2);
    rvo_world_set_strict_overlap(w, mode == 1);
    const float *op = s->obst;
    for (int o = 0; o < s->nobst; op += 2 * s->obst_count[o], ++o)
        CHECK(rvo_world_add_obstacle(w, op, s->obst_count[o], s->obst_closed[o]) != 0);
    for (int i = 0; i < s->n; ++i)
        rvo_world_add_agent(w, s->start[2 * i], s->start[2 * i + 1], NULL);
    const rvo_door door =
        rvo_door_make(s->door_ab[0], s->door_ab[1], s->door_ab[2], s->door_ab[3], s->door_thickness);
    float pref[64], way[64], radii[32];
    for (int i = 0; i < s->n; ++i)
        radii[i] = s->radius;
    qs_grid g = {0};
    *overlap = *intrusion = 0;
    int makespan = -1;
    for (int step = 0; step < max_steps; ++step) {
        const float *p = rvo_world_positions_view(w);
        int home = 0;
        if (lanes)
            CHECK(rvo_door_steer(&door, s->n, p, radii, s->goal, way, NULL) >= 0);
        for (int i = 0; i < s->n; ++i) {
            const float a = (float)((qs_rand(&seed) * 2 - 1) * 0.1);
            home += lanes ? qs_pref_to(s, i, p[2 * i], p[2 * i + 1], way[2 * i], way[2 * i + 1], a,
                                       &pref[2 * i], &pref[2 * i + 1])
                          : qs_pref(s, i, p[2 * i], p[2 * i + 1], a, &pref[2 * i], &pref[2 * i + 1]);
        }
        if (home == s->n) {
            makespan = step;
            break;
        }
        rvo_world_set_pref_velocities(w, pref, s->n);
        rvo_world_step(w, 0);
        *overlap = fmax(*overlap, qs_worst_overlap(s, rvo_world_positions_view(w), &g));
        *intrusion = fmax(*intrusion, qs_worst_intrusion(s, rvo_world_positions_view(w)));
    }
    free(g.head);
    free(g.next);
    rvo_world_destroy(w);
    return makespan;
}

/* Two crowds of 12 through one 3 m door from both sides, with jitter
 * (issue 6): steered through the door by rvo_door_steer (two-way door
 * lanes, as a game's path follower would), everyone is home within 2 x the
 * free-walking time in the soft, default and RVO2 modes in at least 35 of
 * jitter seeds 1-40 (at 79fec37: 39, 37 and 39; which seeds miss moves
 * with any change of the default mode, so three fixed seeds made the test
 * a draw), no agent enters obstacle clearance by more than 1% of its
 * radius, and the soft and default modes keep overlaps within 1% of ri +
 * rj. The naive follower (head for the far side of the door) is not home
 * within 3 x in any of them (seeds 1-3): the crowds fill the opening from
 * both sides. */
static void doorway_lanes(void) {
    static const char *const modes[] = {"soft", "default", "rvo2"};
    qscene s = qs_make("doorway", 0);
    const int free_steps = qs_free_steps(&s);
    for (int mode = 0; mode < 3; ++mode) {
        int within = 0, worst = 0;
        for (unsigned seed = 1; seed <= 40; ++seed) {
            double overlap, intrusion;
            const int lanes = run_scene(&s, mode, seed, true, 3 * free_steps, &overlap, &intrusion);
            within += lanes > 0 && lanes <= 2 * free_steps;
            worst = lanes < 0 || worst < 0 ? -1 : lanes > worst ? lanes : worst;
            CHECK(intrusion <= 0.01);
            if (mode < 2)
                CHECK(overlap <= 0.01);
            if (seed <= 3) {
                const int naive = run_scene(&s, mode, seed, false, 3 * free_steps, &overlap, &intrusion);
                CHECK(naive < 0); /* the deadlock the lanes resolve */
            }
        }
        printf("doorway %s: door lanes home within 2 x free (%d steps) in %d of 40 seeds, slowest %d\n",
               modes[mode], 2 * free_steps, within, worst);
        CHECK(within >= 35);
        CHECK(worst > 0); /* every seed home within 3 x */
    }
    qs_free(&s);
}

/* rvo_door_steer's rules on a door from (0, -1.5) to (0, 1.5) in a wall 1 m
 * thick, agents of radius 0.5 heading for x = +-10. */
static void door_steer_rules(void) {
    const rvo_door d = rvo_door_make(0, -1.5f, 0, 1.5f, 1);
    CHECK(d.depth == 2 && d.widen == 1 && d.reach == 8 && d.thickness == 1);
    const float r[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    float out[8];
    /* a: before the wall on its right side (y < 0 going +x): its lane is
     * 0.75..1 m right of the centre line up to 2 m past the far face, so its
     * path bends at that lane's left edge (2.5, -0.75); b: beside the door
     * on the other flow's side: falls in behind a (1.2 m, on the lane's
     * outer edge); c: past the lanes: its target; d: going -x on its right
     * side (y > 0): the mirror image of a */
    const float pos[8] = {-4, -1, -3, 2, 4, 0, 4, 1}, tgt[8] = {10, 0, 10, 0, 10, 0, -10, 0};
    CHECK(rvo_door_steer(&d, 4, pos, r, tgt, out, NULL) == 3);
    CHECK_NEAR(out[0], 2.5f, 1e-5); /* a: its lane's corner */
    CHECK_NEAR(out[1], -0.75f, 1e-5);
    CHECK_NEAR(out[2], -4 - 1.2f, 1e-5); /* b: behind a */
    CHECK_NEAR(out[3], -1.0f, 1e-5);
    CHECK(out[4] == 10 && out[5] == 0); /* c: untouched, bit for bit */
    CHECK_NEAR(out[6], -2.5f, 1e-5);
    CHECK_NEAR(out[7], 0.75f, 1e-5);
    /* one flow alone has the whole opening: a's straight way fits it */
    CHECK(rvo_door_steer(&d, 1, pos, r, tgt, out, NULL) == 0 && out[0] == 10 && out[1] == 0);
    /* a way that crosses the wall 6 m off the opening (another door): untouched */
    const float far_pos[2] = {-4, 6}, far_tgt[2] = {10, 6};
    CHECK(rvo_door_steer(&d, 1, far_pos, r, far_tgt, out, NULL) == 0 && out[0] == 10 && out[1] == 6);
    /* target inside the doorway, or an agent out of reach: untouched */
    const float pos2[4] = {-4, 0, -20, 0}, tgt2[4] = {0.2f, 0, 10, 0};
    CHECK(rvo_door_steer(&d, 2, pos2, r, tgt2, out, NULL) == 0);
    CHECK(out[0] == 0.2f && out[1] == 0 && out[2] == 10 && out[3] == 0);
    /* a door narrower than 4 radii has one lane: the whole opening */
    const rvo_door narrow = rvo_door_make(0, -0.9f, 0, 0.9f, 0);
    const float pos3[2] = {-3, 1.5f}, tgt3[2] = {6, 1.5f};
    CHECK(rvo_door_steer(&narrow, 1, pos3, r, tgt3, out, NULL) == 1);
    CHECK_NEAR(out[1], 0.4f, 1e-5); /* its upper corner, a radius off the jamb */
    /* bad input: an error, out untouched */
    rvo_error err;
    float keep[2] = {7, 7};
    rvo_door bad = d;
    bad.depth = 0;
    CHECK(rvo_door_steer(&bad, 1, pos, r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 1);
    bad = d;
    bad.b = bad.a;
    CHECK(rvo_door_steer(&bad, 1, pos, r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 1);
    CHECK(rvo_door_steer(NULL, 1, pos, r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 1);
    CHECK(rvo_door_steer(&d, -1, pos, r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 2);
    const float nanpos[2] = {NAN, 0}, zero_r[1] = {0};
    CHECK(rvo_door_steer(&d, 1, nanpos, r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 3);
    CHECK(rvo_door_steer(&d, 1, pos, zero_r, tgt, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 4);
    CHECK(rvo_door_steer(&d, 1, pos, r, nanpos, keep, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 5);
    CHECK(rvo_door_steer(&d, 1, pos, r, tgt, NULL, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 6);
    CHECK(keep[0] == 7 && keep[1] == 7 && err.message[0] != '\0');
    CHECK(rvo_door_steer(&d, 0, NULL, NULL, NULL, NULL, &err) == 0 && err.status == RVO_OK);
}

/* An agent whose goal lies inside a parked squad gets home (issue 6): a
 * side x side squad (radius 0.5, spacing apart, dt 1/30, max speed 1.5) is
 * parked on its spots; the agents of slots [first, first + late) start 10 m
 * to the west and walk in. Every agent steers as rvo.jitter does (toward its
 * spot at full speed, a seeded sideways nudge of up to 10%, the last step
 * landing on the spot), so a pushed-aside squad-mate walks back. Returns
 * the steps until everyone is within 5 cm of its spot (-1: not within
 * max_steps), the worst overlap (fraction of ri + rj) and how far a parked
 * agent was pushed off its spot. */
typedef struct arrival {
    int steps;
    double worst, pushed;
} arrival;

static arrival formation_arrival(int side, float spacing, int first, int late, int max_steps) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 1.0f / 30.0f;
    wd.agent.radius = 0.5f;
    wd.agent.max_speed = 1.5f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    const int n = side * side;
    float spot[2 * 64];
    rvo_agent_id id[64];
    for (int k = 0; k < n; ++k) {
        spot[2 * k] = (float)(k % side) * spacing;
        spot[2 * k + 1] = (float)(k / side) * spacing;
        const bool is_late = k >= first && k < first + late;
        id[k] = rvo_world_add_agent(w, is_late ? -10.0f - 1.2f * (float)(k - first) : spot[2 * k],
                                    is_late ? 0.3f * spot[2 * k + 1] : spot[2 * k + 1], NULL);
    }
    arrival r = {-1, 0, 0};
    unsigned seed = 7;
    for (int step = 0; step < max_steps; ++step) {
        bool home = true;
        for (int k = 0; k < n; ++k) {
            rvo_vec2 p;
            rvo_agent_position(w, id[k], &p);
            const float dx = spot[2 * k] - p.x, dy = spot[2 * k + 1] - p.y, d = sqrtf(dx * dx + dy * dy);
            if (d > 0.05f)
                home = false;
            if (d == 0.0f) {
                rvo_agent_set_pref_velocity(w, id[k], 0, 0);
                continue;
            }
            const float ux = dx / d, uy = dy / d, last = d / wd.time_step;
            if (last <= 1.5f) { /* lands on the spot this step */
                rvo_agent_set_pref_velocity(w, id[k], ux * last, uy * last);
                continue;
            }
            const float e = 0.1f * (float)(2.0 * qs_rand(&seed) - 1.0);
            const float vx = ux - uy * e, vy = uy + ux * e, s = 1.5f / sqrtf(vx * vx + vy * vy);
            rvo_agent_set_pref_velocity(w, id[k], vx * s, vy * s);
        }
        if (home) {
            r.steps = step;
            break;
        }
        rvo_world_step(w, 0);
        for (int a = 0; a < n; ++a) {
            rvo_vec2 p, q;
            rvo_agent_position(w, id[a], &p);
            if (a < first || a >= first + late)
                r.pushed = fmax(r.pushed, hypot(p.x - spot[2 * a], p.y - spot[2 * a + 1]));
            for (int b = a + 1; b < n; ++b) {
                rvo_agent_position(w, id[b], &q);
                r.worst = fmax(r.worst, 1.0 - hypot(p.x - q.x, p.y - q.y));
            }
        }
    }
    rvo_world_destroy(w);
    return r;
}

static void formation_arrivals(void) {
    static const struct {
        int side;
        float spacing;
        int first, late, limit;
    } cases[] = {
        {3, 1.5f, 4, 1, 900},   /* into the middle of a 3 x 3 squad, 0.5 m gaps */
        {5, 1.5f, 12, 1, 900},  /* through two rings of a 5 x 5 squad */
        {5, 1.2f, 12, 1, 1500}, /* 0.2 m gaps */
        {5, 1.5f, 7, 3, 1500},  /* three late agents, into the squad's middle row */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        const arrival r =
            formation_arrival(cases[c].side, cases[c].spacing, cases[c].first, cases[c].late, cases[c].limit);
        printf("formation %dx%d, spacing %.1f, %d late: home after %d steps, worst overlap %.2f%%, parked "
               "pushed up to %.2f m\n",
               cases[c].side, cases[c].side, cases[c].spacing, cases[c].late, r.steps, 100 * r.worst,
               r.pushed);
        CHECK(r.steps > 0);     /* everyone home, the late ones on their spots inside the squad */
        CHECK(r.worst <= 0.01); /* without walking through the parked agents */
        CHECK(r.pushed > 0.05); /* they made room: pushed aside, then walked back */
    }
}

/* Exactly symmetric jams, no jitter: k agents on a ring swap sides (they
 * meet at the centre and stand in a ring of touching bodies), away from the
 * origin and turned, so rounding does not break the symmetry for them.
 * Steps until everyone is home (within 0.05 m), -1 if not within max. */
static int ring_swap(int k, float ox, float oy, float turn, int mode, int max_steps) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    wd.agent.radius = 0.5f;
    wd.agent.max_speed = 1.5f;
    wd.agent.neighbor_dist = 10;
    wd.agent.time_horizon = 2;
    wd.agent.time_horizon_obst = 1;
    rvo_world *w = rvo_world_create(&wd, NULL);
    if (mode == 1)
        rvo_world_set_strict_overlap(w, false);
    if (mode == 2)
        rvo_world_set_rvo2_compat(w, true);
    const float R = k * 1.2f / 3.14159265f > 6 ? k * 1.2f / 3.14159265f : 6;
    float goal[64], pref[64];
    for (int i = 0; i < k; ++i) {
        const float a = turn + 6.2831853f * (float)i / (float)k, x = R * cosf(a), y = R * sinf(a);
        rvo_world_add_agent(w, ox + x, oy + y, NULL);
        goal[2 * i] = ox - x, goal[2 * i + 1] = oy - y;
    }
    int steps = -1;
    for (int step = 0; step <= max_steps; ++step) {
        const float *p = rvo_world_positions_view(w);
        bool home = true;
        for (int i = 0; i < k; ++i) {
            float dx = goal[2 * i] - p[2 * i], dy = goal[2 * i + 1] - p[2 * i + 1];
            const float d = sqrtf(dx * dx + dy * dy);
            if (d > 0.05f)
                home = false;
            if (d > 1.5f)
                dx *= 1.5f / d, dy *= 1.5f / d;
            pref[2 * i] = dx, pref[2 * i + 1] = dy;
        }
        if (home) {
            steps = step;
            break;
        }
        rvo_world_set_pref_velocities(w, pref, k);
        rvo_world_step(w, 0);
    }
    rvo_world_destroy(w);
    return steps;
}

/* The default mode breaks them by itself: two stalled agents that each
 * want to go where the other stands take turns (rvo__gives_way). RVO2 and
 * the soft mode stand there forever. */
static void symmetric_jams(void) {
    static const int ks[] = {2, 3, 4, 5, 6, 8, 12, 16, 24, 32};
    static const float at[][3] = {{0, 0, 0}, {20, 10, 0}, {-33.7f, 51.1f, 0.3f}, {7, -19, 0.7853982f}};
    int fewest = 1 << 30, most = 0;
    for (size_t a = 0; a < sizeof at / sizeof at[0]; ++a)
        for (size_t m = 0; m < sizeof ks / sizeof ks[0]; ++m) {
            const int steps = ring_swap(ks[m], at[a][0], at[a][1], at[a][2], 0, 1000);
            if (steps < 0 || steps > 600)
                printf("ring of %d at (%g, %g) turned %g: %d steps\n", ks[m], at[a][0], at[a][1], at[a][2],
                       steps);
            CHECK(steps > 0 && steps <= 600); /* straight walks take about 80-130 */
            fewest = steps < fewest ? steps : fewest;
            most = steps > most ? steps : most;
        }
    printf("symmetric jams: rings of 2 to 32 swapping sides, no jitter, home after %d to %d steps\n", fewest,
           most);
    /* the jam these rules break is real: RVO2 and soft mode stay in it */
    CHECK(ring_swap(8, 20, 10, 0, 2, 1000) < 0);
    CHECK(ring_swap(8, 20, 10, 0, 1, 1000) < 0);
}

/* Who gets pushed (the default mode): an agent walks at 1 m/s straight
 * through the spot of an idle one (no preferred velocity). Returns how far
 * the idle one was moved, and whether the walker got past (x > 5 after
 * 10 s).
 * setup: 0 plain, 1 the idle one locked, 2 its weight 0, 3 both ignore each
 * other (groups), 4 its weight below the walker's (0.2 against 0.5), 5 soft
 * mode. */
static double pushed_aside(int setup, bool *passed) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    const rvo_agent_id idle = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id walker = rvo_world_add_agent(w, -3, 0.05f, NULL);
    if (setup == 1)
        rvo_agent_lock(w, idle, 0, 0);
    if (setup == 2)
        rvo_agent_set_param(w, idle, RVO_PARAM_WEIGHT, 0);
    if (setup == 3) {
        rvo_agent_set_param(w, idle, RVO_PARAM_MASK, 1);
        rvo_agent_set_param(w, walker, RVO_PARAM_GROUPS, 2);
        rvo_agent_set_param(w, walker, RVO_PARAM_MASK, 2);
    }
    if (setup == 4)
        rvo_agent_set_param(w, idle, RVO_PARAM_WEIGHT, 0.2);
    if (setup == 5)
        rvo_world_set_strict_overlap(w, false);
    double moved = 0;
    rvo_vec2 p;
    for (int k = 0; k < 100; ++k) {
        rvo_agent_set_pref_velocity(w, walker, 1, 0);
        rvo_world_step(w, 0);
        rvo_agent_position(w, idle, &p);
        moved = fmax(moved, hypot(p.x, p.y));
    }
    rvo_agent_position(w, walker, &p);
    *passed = p.x > 5.0f;
    rvo_world_destroy(w);
    return moved;
}

static void give_way_rules(void) {
    bool passed[6];
    double moved[6];
    for (int k = 0; k < 6; ++k)
        moved[k] = pushed_aside(k, &passed[k]);
    printf(
        "walker through an idle agent: moved it %.3f m (plain), %.3f (locked), %.3f (weight 0), %.3f (groups "
        "ignore), %.3f (weight 0.2), %.3f (soft mode)\n",
        moved[0], moved[1], moved[2], moved[3], moved[4], moved[5]);
    for (int k = 0; k < 6; ++k)
        CHECK(passed[k]);
    CHECK(moved[1] == 0 && moved[2] == 0 && moved[3] == 0); /* never pushed */
    CHECK(moved[0] > 0.3);                                  /* pushed aside */
    CHECK(moved[4] < 0.5 * moved[0]);                       /* a lower weight: it keeps its share */
    CHECK(moved[5] < 0.5 * moved[0]);                       /* soft mode: both avoid, as RVO2 */
}

/* Stall times grow while an agent is held, reset when it moves on, follow
 * their agent through a removal, and bad input changes nothing. */
static void stall_events(void) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.25f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    float progress = -1, min_time = -1;
    rvo_world_stall_threshold(w, &progress, &min_time);
    CHECK(progress == RVO_DEFAULT_STALL_PROGRESS && min_time == RVO_DEFAULT_STALL_MIN_TIME);
    const rvo_agent_id first = rvo_world_add_agent(w, -30, 0, NULL);
    const rvo_agent_id held = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id idle = rvo_world_add_agent(w, 0, 10, NULL);
    const float wall[] = {1, -5, 2, -5, 2, 5, 1, 5};
    CHECK(rvo_world_add_obstacle(w, wall, 4, true) != 0);
    rvo_agent_id ids[4];
    float times[4];
    for (int k = 0; k < 12; ++k) {
        rvo_agent_set_pref_velocity(w, held, 2, 0);
        rvo_agent_set_pref_velocity(w, first, 0, 1); /* free to go */
        rvo_world_step(w, 0);
    }
    float t = 0;
    CHECK(rvo_agent_stall_time(w, held, &t) == RVO_OK && t >= 1.5f);
    CHECK(rvo_agent_stall_time(w, idle, &t) == RVO_OK && t == 0);
    CHECK(rvo_agent_stall_time(w, first, &t) == RVO_OK && t == 0);
    CHECK(rvo_world_stalled(w, ids, times, 4) == 1 && ids[0] == held && times[0] >= 1.5f);
    CHECK(rvo_world_stalled(w, NULL, NULL, 0) == 1); /* count only */
    /* removal moves the last agent into the hole; the time moves with it */
    rvo_agent_stall_time(w, held, &t);
    CHECK(rvo_world_remove_agent(w, first) == RVO_OK);
    float t2 = 0;
    CHECK(rvo_agent_stall_time(w, held, &t2) == RVO_OK && t2 == t);
    CHECK(rvo_world_stalled(w, ids, times, 4) == 1 && ids[0] == held);
    /* bad input */
    CHECK(rvo_world_set_stall_threshold(w, -0.1f, 1) == RVO_ERR_INVALID_ARGUMENT &&
          rvo_world_last_error_arg(w) == 1);
    CHECK(rvo_world_set_stall_threshold(w, NAN, 1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_set_stall_threshold(w, 0.1f, INFINITY) == RVO_ERR_INVALID_ARGUMENT &&
          rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_world_stalled(w, NULL, times, 4) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_stalled(w, ids, times, -1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_stall_time(w, first, &t) == RVO_ERR_UNKNOWN_ID);
    rvo_world_stall_threshold(w, &progress, &min_time);
    CHECK(progress == RVO_DEFAULT_STALL_PROGRESS && min_time == RVO_DEFAULT_STALL_MIN_TIME);
    /* a threshold that hides it, then progress resets it */
    CHECK(rvo_world_set_stall_threshold(w, 0.1f, 100) == RVO_OK);
    CHECK(rvo_world_stalled(w, ids, times, 4) == 0);
    rvo_agent_set_pref_velocity(w, held, 0, 2);
    rvo_world_step(w, 0);
    CHECK(rvo_agent_stall_time(w, held, &t) == RVO_OK && t == 0);
    /* the RVO2 mode tracks stalls too */
    rvo_world_set_rvo2_compat(w, true);
    for (int k = 0; k < 8; ++k) {
        rvo_agent_set_pref_velocity(w, held, 2, 0);
        rvo_world_step(w, 0);
    }
    CHECK(rvo_agent_stall_time(w, held, &t) == RVO_OK && t > 0);
    rvo_world_destroy(w);
}

/* A snapshot keeps strict overlap (with its keep-right), the stall
 * threshold and every agent's stall time: the loaded world of a jammed
 * strict doorway continues bit-identically and reports the same stalls. */
static void snapshot_keeps_quality_state(void) {
    qscene s = qs_make("doorway", 0);
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = s.dt;
    rvo_world *w = rvo_world_create(&wd, NULL);
    CHECK(rvo_world_set_strict_overlap(w, true) == RVO_OK);
    CHECK(rvo_world_set_stall_threshold(w, 0.3f, 0.5f) == RVO_OK);
    const float *op = s.obst;
    for (int k = 0; k < s.nobst; op += 2 * s.obst_count[k], ++k)
        rvo_world_add_obstacle(w, op, s.obst_count[k], true);
    for (int i = 0; i < s.n; ++i)
        rvo_world_add_agent(w, s.start[2 * i], s.start[2 * i + 1], NULL);
    float pref[48];
    unsigned seed = 5;
    for (int k = 0; k < 60; ++k) { /* into the jam */
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < s.n; ++i)
            qs_pref(&s, i, p[2 * i], p[2 * i + 1], (float)((qs_rand(&seed) * 2 - 1) * 0.1), &pref[2 * i],
                    &pref[2 * i + 1]);
        rvo_world_set_pref_velocities(w, pref, s.n);
        rvo_world_step(w, 0);
    }
    CHECK(rvo_world_stalled(w, NULL, NULL, 0) > 0);
    const size_t size = rvo_world_save(w, NULL, 0);
    void *buf = malloc(size);
    CHECK(rvo_world_save(w, buf, size) == size);
    rvo_world *twin = NULL;
    CHECK(rvo_world_load(buf, size, NULL, &twin, NULL) == RVO_OK && twin);
    free(buf);
    if (!twin)
        return;
    CHECK(rvo_world_strict_overlap(twin));
    float progress = 0, min_time = 0;
    rvo_world_stall_threshold(twin, &progress, &min_time);
    CHECK(progress == 0.3f && min_time == 0.5f);
    for (int k = 0; k < 40; ++k) {
        const float *p = rvo_world_positions_view(w);
        for (int i = 0; i < s.n; ++i)
            qs_pref(&s, i, p[2 * i], p[2 * i + 1], (float)((qs_rand(&seed) * 2 - 1) * 0.1), &pref[2 * i],
                    &pref[2 * i + 1]);
        rvo_world_set_pref_velocities(w, pref, s.n);
        rvo_world_set_pref_velocities(twin, pref, s.n);
        rvo_world_step(w, 0);
        rvo_world_step(twin, 0);
    }
    CHECK(memcmp(rvo_world_positions_view(w), rvo_world_positions_view(twin),
                 sizeof(float) * 2 * (size_t)s.n) == 0);
    rvo_agent_id ids_a[24], ids_b[24];
    float times_a[24], times_b[24];
    const int32_t na = rvo_world_stalled(w, ids_a, times_a, 24),
                  nb = rvo_world_stalled(twin, ids_b, times_b, 24);
    CHECK(na > 0 && na == nb);
    for (int32_t i = 0; i < na && i < nb; ++i)
        CHECK(ids_a[i] == ids_b[i] && times_a[i] == times_b[i]);
    rvo_world_destroy(twin);
    rvo_world_destroy(w);
    qs_free(&s);
}

int main(void) {
    const result plain = circle(120, 2), soft = circle(120, 1), def = circle(120, 0);
    printf("circle 120: rvo2 mode worst overlap %.1f%%, makespan %d; soft %.1f%%, makespan %d; "
           "default %.2f%%, makespan %d\n",
           100 * plain.worst, plain.makespan, 100 * soft.worst, soft.makespan, 100 * def.worst, def.makespan);
    CHECK(plain.makespan > 0 && soft.makespan > 0 && def.makespan > 0);
    CHECK(plain.worst > 0.05);                        /* RVO2 overlaps here */
    CHECK(soft.worst < 0.6 * plain.worst);            /* the soft mode: clearly less */
    CHECK(soft.makespan <= plain.makespan * 11 / 10); /* and not slower */
    CHECK(def.worst <= 0.01);                         /* hard bodies: at most 1% of ri + rj */
    CHECK(def.makespan <= plain.makespan);            /* and no slower than RVO2 */

    /* Separation never moves a locked agent or a weight-0 one, and pushes a
     * movable agent out of it. */
    for (int strict_mode = 0; strict_mode < 2; ++strict_mode) {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        rvo_world_set_strict_overlap(w, strict_mode == 1);
        const rvo_agent_id locked = rvo_world_add_agent(w, 0, 0, NULL);
        const rvo_agent_id hero = rvo_world_add_agent(w, 5, 0, NULL);
        const rvo_agent_id a = rvo_world_add_agent(w, 0.3f, 0, NULL),
                           b = rvo_world_add_agent(w, 5.2f, 0.1f, NULL);
        rvo_agent_lock(w, locked, 0, 0);
        rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, 0);
        rvo_world_step(w, 0);
        rvo_vec2 pl, ph, pa, pb;
        rvo_agent_position(w, locked, &pl);
        rvo_agent_position(w, hero, &ph);
        rvo_agent_position(w, a, &pa);
        rvo_agent_position(w, b, &pb);
        CHECK(pl.x == 0 && pl.y == 0);
        CHECK(ph.x == 5 && ph.y == 0);
        CHECK(hypot(pa.x - pl.x, pa.y - pl.y) >= 1.0 - 1e-4);
        CHECK(hypot(pb.x - ph.x, pb.y - ph.y) >= 1.0 - 1e-4);

        /* Pushed against a wall by a crowd, nobody enters its clearance. */
        const float wall[] = {-10, -1, 10, -1};
        rvo_world_add_obstacle(w, wall, 2, false);
        rvo_agent_id crowd[40];
        for (int i = 0; i < 40; ++i)
            crowd[i] = rvo_world_add_agent(w, -5.0f + 0.5f * (float)(i % 20), 3.0f + (float)(i / 20), NULL);
        double worst = 0;
        for (int s = 0; s < 200; ++s) {
            for (int i = 0; i < 40; ++i)
                rvo_agent_set_pref_velocity(w, crowd[i], 0, -2);
            rvo_world_step(w, 0);
            for (int i = 0; i < 40; ++i) {
                rvo_vec2 p;
                rvo_agent_position(w, crowd[i], &p);
                if (p.x > -10 && p.x < 10 && p.y > -1) {
                    const double intrusion = 0.5 - (p.y + 1.0);
                    if (intrusion > worst)
                        worst = intrusion;
                }
            }
        }
        printf("crowd against a wall: deepest intrusion into clearance %.4f (radius 0.5)\n", worst);
        CHECK(worst <= 0.01 * 0.5);
        rvo_world_destroy(w);
    }

    symmetric_scenes();
    doorway_lanes();
    door_steer_rules();
    formation_arrivals();
    give_way_rules();
    symmetric_jams();
    stall_events();
    snapshot_keeps_quality_state();
    return check_finish("quality");
}
