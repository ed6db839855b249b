/* Game semantics: responsibility weights, avoidance groups, locks, height,
 * the avoiding report, ray casts. */
#include "check.h"
#include "rvo.h"

#include <string.h>

static rvo_world *world(void) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    return rvo_world_create(&wd, NULL);
}

static double dist(rvo_world *w, rvo_agent_id a, rvo_agent_id b) {
    rvo_vec2 p, q;
    rvo_agent_position(w, a, &p);
    rvo_agent_position(w, b, &q);
    return hypot((double)p.x - q.x, (double)p.y - q.y);
}

/* Steers every agent of ids towards goals (x, y pairs) at speed 1.5. */
static void steer(rvo_world *w, const rvo_agent_id *ids, const float *goals, int n) {
    for (int i = 0; i < n; ++i) {
        rvo_vec2 p;
        rvo_agent_position(w, ids[i], &p);
        float dx = goals[2 * i] - p.x, dy = goals[2 * i + 1] - p.y;
        const float d = sqrtf(dx * dx + dy * dy);
        if (d > 1.5f)
            dx *= 1.5f / d, dy *= 1.5f / d;
        rvo_agent_set_pref_velocity(w, ids[i], dx, dy);
    }
}

static void hero_is_not_pushed(void) {
    rvo_world *w = world();
    const rvo_agent_id hero =
        rvo_world_add_agent(w, 0, 0.1f, NULL); /* off the middle row: exact head-on stalls */
    CHECK(rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, 0.0) == RVO_OK);
    rvo_agent_id crowd[30];
    float goals[60];
    for (int i = 0; i < 30; ++i) {
        /* a column walking right through the hero's spot */
        crowd[i] = rvo_world_add_agent(w, -8.0f - 1.2f * (float)(i / 3), (float)(i % 3) - 1.0f, NULL);
        goals[2 * i] = 30;
        goals[2 * i + 1] = (float)(i % 3) - 1.0f;
    }
    double min_gap = INFINITY;
    for (int s = 0; s < 500; ++s) {
        steer(w, crowd, goals, 30);
        rvo_world_step(w, 0);
        for (int i = 0; i < 30; ++i) {
            const double g = dist(w, hero, crowd[i]) - 1.0;
            if (g < min_gap)
                min_gap = g;
        }
    }
    rvo_vec2 p;
    rvo_agent_position(w, hero, &p);
    int passed = 0;
    for (int i = 0; i < 30; ++i) {
        rvo_vec2 q;
        rvo_agent_position(w, crowd[i], &q);
        passed += q.x > 5;
    }
    printf("weight 0 hero: moved (%.2g, %.2g), %d of 30 passed, smallest gap %.3f\n", p.x, p.y, passed,
           min_gap);
    CHECK(fabs(p.x) <= 1e-6 && fabs(p.y - 0.1) <= 1e-6);
    CHECK(passed == 30);
    CHECK(min_gap > -0.05);
    /* bad weights are refused and change nothing */
    CHECK(rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, 1.5) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, -0.1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, hero, RVO_PARAM_WEIGHT, NAN) == RVO_ERR_INVALID_ARGUMENT);
    double wt;
    CHECK(rvo_agent_param(w, hero, RVO_PARAM_WEIGHT, &wt) == RVO_OK && wt == 0.0);
    rvo_world_destroy(w);
}

/* Equal weights split evenly; a 0.25/0.75 pair splits about 1:3, at every
 * time horizon: the one with the higher weight does the most sideways. (At
 * horizons of 3 s and more the 0.25 one once did it all: the pair starts
 * far apart, and the room to close in was split by the same shares as a
 * correction, so the 0.25 one was slowed first and met the other head-on.) */
static void weights_split(void) {
    const double weights[2][2] = {{0.5, 0.5}, {0.25, 0.75}};
    const float horizons[] = {1, 2, 3, 5, 10};
    for (int c = 0; c < 2; ++c)
        for (int t = 0; t < 5; ++t) {
            rvo_world *w = world();
            const rvo_agent_id a = rvo_world_add_agent(w, -3, 0, NULL),
                               b = rvo_world_add_agent(w, 3, 0.3f, NULL);
            rvo_agent_set_param(w, a, RVO_PARAM_WEIGHT, weights[c][0]);
            rvo_agent_set_param(w, b, RVO_PARAM_WEIGHT, weights[c][1]);
            rvo_agent_set_param(w, a, RVO_PARAM_TIME_HORIZON, horizons[t]);
            rvo_agent_set_param(w, b, RVO_PARAM_TIME_HORIZON, horizons[t]);
            double dev_a = 0, dev_b = 0;
            for (int s = 0; s < 80; ++s) {
                rvo_agent_set_pref_velocity(w, a, 1, 0);
                rvo_agent_set_pref_velocity(w, b, -1, 0);
                rvo_world_solve(w, 0.1f);
                rvo_vec2 va, vb;
                rvo_agent_new_velocity(w, a, &va);
                rvo_agent_new_velocity(w, b, &vb);
                dev_a += fabs(va.y);
                dev_b += fabs(vb.y);
                rvo_world_integrate(w, 0.1f);
            }
            printf("weights %.2f/%.2f, horizon %g s: sideways effort %.3f / %.3f\n", weights[c][0],
                   weights[c][1], horizons[t], dev_a, dev_b);
            if (c == 0)
                CHECK(fabs(dev_a - dev_b) <= 0.1 * (dev_a + dev_b));
            else
                CHECK(dev_b > 2.0 * dev_a);
            rvo_world_destroy(w);
        }
}

static void groups(void) {
    rvo_world *w = world();
    /* squads 1 and 2 ignore each other; both avoid group 4 */
    rvo_agent_id s1[4], s2[4], g4;
    float goals1[8], goals2[8];
    for (int i = 0; i < 4; ++i) {
        s1[i] = rvo_world_add_agent(w, -6, (float)i * 1.5f, NULL);
        s2[i] = rvo_world_add_agent(w, 6, (float)i * 1.5f, NULL);
        rvo_agent_set_param(w, s1[i], RVO_PARAM_GROUPS, 1);
        rvo_agent_set_param(w, s1[i], RVO_PARAM_MASK, 1 | 4);
        rvo_agent_set_param(w, s2[i], RVO_PARAM_GROUPS, 2);
        rvo_agent_set_param(w, s2[i], RVO_PARAM_MASK, 2 | 4);
        goals1[2 * i] = 6, goals1[2 * i + 1] = (float)i * 1.5f;
        goals2[2 * i] = -6, goals2[2 * i + 1] = (float)i * 1.5f;
    }
    g4 = rvo_world_add_agent(w, 0, -3, NULL);
    rvo_agent_set_param(w, g4, RVO_PARAM_GROUPS, 4);
    rvo_agent_set_param(w, g4, RVO_PARAM_MASK, 4);
    double min_cross = INFINITY, min_third = INFINITY;
    for (int s = 0; s < 120; ++s) {
        steer(w, s1, goals1, 4);
        steer(w, s2, goals2, 4);
        rvo_agent_set_pref_velocity(w, g4, 0, 1.0f); /* walks up through the crossing */
        rvo_world_step(w, 0);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                const double d = dist(w, s1[i], s2[j]);
                if (d < min_cross)
                    min_cross = d;
            }
        for (int i = 0; i < 4; ++i) {
            const double d1 = dist(w, s1[i], g4), d2 = dist(w, s2[i], g4);
            if (d1 < min_third)
                min_third = d1;
            if (d2 < min_third)
                min_third = d2;
        }
    }
    printf("groups: squads came within %.3f of each other (ignored), within %.3f of group 4 (avoided)\n",
           min_cross, min_third);
    CHECK(min_cross < 0.5);        /* walked through each other */
    CHECK(min_third > 1.0 - 0.05); /* but not through group 4 */
    /* the neighbour query honours the mask */
    rvo_agent_id out[16];
    const int32_t n = rvo_world_query_neighbors(w, s1[0], out, 16);
    for (int32_t k = 0; k < n; ++k)
        for (int j = 0; j < 4; ++j)
            CHECK(out[k] != s2[j]);
    CHECK(rvo_agent_set_param(w, g4, RVO_PARAM_MASK, -1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, g4, RVO_PARAM_GROUPS, 1.5) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, g4, RVO_PARAM_GROUPS, 4294967296.0) == RVO_ERR_INVALID_ARGUMENT);
    rvo_world_destroy(w);

    /* Asymmetric: A avoids B, B ignores A: A takes the whole correction. */
    w = world();
    const rvo_agent_id a = rvo_world_add_agent(w, -3, 0, NULL), b = rvo_world_add_agent(w, 3, 0.2f, NULL);
    rvo_agent_set_param(w, b, RVO_PARAM_MASK, 0);
    double min_gap = INFINITY, b_dev = 0;
    for (int s = 0; s < 80; ++s) {
        rvo_agent_set_pref_velocity(w, a, 1, 0);
        rvo_agent_set_pref_velocity(w, b, -1, 0);
        rvo_world_solve(w, 0.1f);
        rvo_vec2 vb;
        rvo_agent_new_velocity(w, b, &vb);
        b_dev += fabs(vb.y) + fabs(vb.x + 1);
        rvo_world_integrate(w, 0.1f);
        const double g = dist(w, a, b) - 1.0;
        if (g < min_gap)
            min_gap = g;
    }
    printf("asymmetric pair: B's deviation %.3g, smallest gap %.3f\n", b_dev, min_gap);
    CHECK(b_dev == 0.0);
    CHECK(min_gap > -0.01);
    rvo_world_destroy(w);
}

static void locks(void) {
    rvo_world *w = world();
    const rvo_agent_id a = rvo_world_add_agent(w, -3, 0.2f, NULL), b = rvo_world_add_agent(w, 3, 0, NULL);
    CHECK(rvo_agent_lock(w, b, -1, 0) == RVO_OK);
    CHECK(rvo_agent_is_locked(w, b) == 1);
    double min_gap = INFINITY;
    for (int s = 0; s < 80; ++s) {
        rvo_agent_set_pref_velocity(w, a, 1, 0);
        rvo_agent_set_pref_velocity(w, b, 0, 1); /* ignored while locked */
        rvo_world_step(w, 0);
        rvo_vec2 vb;
        rvo_agent_velocity(w, b, &vb);
        CHECK(vb.x == -1 && vb.y == 0);
        const double g = dist(w, a, b) - 1.0;
        if (g < min_gap)
            min_gap = g;
    }
    CHECK(min_gap > -0.01);
    rvo_agent_id out[4];
    const int32_t n = rvo_world_avoiding(w, 1e-4f, out, 4);
    CHECK(n >= 0 && n <= 1); /* b is locked, never reported */
    for (int32_t k = 0; k < n; ++k)
        CHECK(out[k] == a);
    CHECK(rvo_agent_unlock(w, b) == RVO_OK);
    CHECK(rvo_agent_is_locked(w, b) == 0);
    rvo_world_step(w, 0);
    rvo_vec2 vb;
    rvo_agent_velocity(w, b, &vb);
    CHECK(vb.y > 0); /* follows its preferred velocity again */
    /* misuse */
    CHECK(rvo_agent_lock(w, b, NAN, 0) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_remove_agent(w, b) == RVO_OK);
    CHECK(rvo_agent_lock(w, b, 1, 0) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_agent_is_locked(w, b) == RVO_ERR_UNKNOWN_ID);
    rvo_world_destroy(w);

    /* the avoiding report: before any solve it is a phase error */
    w = world();
    const rvo_agent_id c = rvo_world_add_agent(w, -1, 0, NULL), d = rvo_world_add_agent(w, 1, 0, NULL);
    const rvo_agent_id e = rvo_world_add_agent(w, 50, 50, NULL);
    CHECK(rvo_world_avoiding(w, 0, out, 4) == RVO_ERR_PHASE);
    rvo_agent_set_pref_velocity(w, c, 1, 0);
    rvo_agent_set_pref_velocity(w, d, -1, 0);
    rvo_agent_set_pref_velocity(w, e, 1, 0);
    rvo_world_solve(w, 0.1f);
    CHECK(rvo_world_avoiding(w, 1e-3f, out, 4) == 2);
    CHECK(out[0] == c && out[1] == d);
    CHECK(rvo_world_avoiding(w, -1, out, 4) == RVO_ERR_INVALID_ARGUMENT);
    rvo_world_destroy(w);
}

static void height(void) {
    rvo_world *w = world();
    rvo_agent_id f0[6], f1[6];
    float g0[12], g1[12];
    for (int i = 0; i < 6; ++i) {
        f0[i] = rvo_world_add_agent(w, -5, (float)i * 1.2f, NULL);
        f1[i] = rvo_world_add_agent(w, 5, (float)i * 1.2f, NULL);
        rvo_agent_set_param(w, f0[i], RVO_PARAM_HEIGHT, 2);
        rvo_agent_set_param(w, f1[i], RVO_PARAM_HEIGHT, 2);
        rvo_agent_set_param(w, f1[i], RVO_PARAM_Z, 4); /* the floor above */
        g0[2 * i] = 5, g0[2 * i + 1] = (float)i * 1.2f;
        g1[2 * i] = -5, g1[2 * i + 1] = (float)i * 1.2f;
    }
    /* a wall on floor 0 only */
    const float wall[] = {0, 10, 0, 20};
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, wall, 2, false);
    CHECK(rvo_obstacle_set_z_range(w, o, -1, 3) == RVO_OK);
    CHECK(rvo_obstacle_set_z_range(w, o, 3, -1) == RVO_ERR_INVALID_ARGUMENT);
    rvo_vec2 zr;
    CHECK(rvo_obstacle_z_range(w, o, &zr) == RVO_OK && zr.x == -1 && zr.y == 3); /* the failed set kept it */
    CHECK(rvo_obstacle_z_range(w, o + 1, &zr) == RVO_ERR_UNKNOWN_ID && rvo_world_last_error_arg(w) == 1);
    double min_cross = INFINITY;
    for (int s = 0; s < 100; ++s) {
        steer(w, f0, g0, 6);
        steer(w, f1, g1, 6);
        rvo_world_step(w, 0);
        for (int i = 0; i < 6; ++i) {
            const double d = dist(w, f0[i], f1[i]);
            if (d < min_cross)
                min_cross = d;
        }
    }
    printf("height: floors crossed within %.3f of each other\n", min_cross);
    CHECK(min_cross < 0.3);                             /* straight through: no interaction between floors */
    CHECK(rvo_world_set_height_margin(w, 3) == RVO_OK); /* now 4 - 2 = 2 < 3: they interact */
    CHECK(rvo_world_set_height_margin(w, -1) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, f0[0], RVO_PARAM_HEIGHT, 0) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_param(w, f0[0], RVO_PARAM_HEIGHT, INFINITY) == RVO_OK);
    rvo_world_destroy(w);

    /* an obstacle above the agents' heads does not block them */
    w = world();
    const rvo_agent_id a = rvo_world_add_agent(w, 0, -3, NULL);
    rvo_agent_set_param(w, a, RVO_PARAM_HEIGHT, 2);
    const float bar[] = {-5, 0, 5, 0};
    const rvo_obstacle_id ob = rvo_world_add_obstacle(w, bar, 2, false);
    rvo_obstacle_set_z_range(w, ob, 2.5f, 3);
    for (int s = 0; s < 100; ++s) {
        rvo_agent_set_pref_velocity(w, a, 0, 1);
        rvo_world_step(w, 0);
    }
    rvo_vec2 p;
    rvo_agent_position(w, a, &p);
    CHECK(p.y > 5);
    rvo_world_destroy(w);
}

static void ray_cast(void) {
    rvo_world *w = world();
    const float box[] = {4, -1, 6, -1, 6, 1, 4, 1};
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, box, 4, true);
    const rvo_agent_id caster = rvo_world_add_agent(w, 0, 0, NULL);
    const rvo_agent_id other = rvo_world_add_agent(w, 2, 3, NULL);
    rvo_agent_set_param(w, other, RVO_PARAM_GROUPS, 2);
    rvo_ray_hit hit;
    /* straight at the box: face at x = 4, the caster's own disc ignored */
    CHECK(rvo_world_ray_cast(w, 0, 0, 1, 0, 20, 0, 0xffffffffu, &hit) == 1);
    CHECK_NEAR(hit.distance, 4.0, 1e-5);
    CHECK(hit.obstacle == o && hit.agent == 0);
    CHECK_NEAR(hit.normal.x, -1.0, 1e-6);
    /* with clearance 0.5 the disc touches at 3.5 */
    CHECK(rvo_world_ray_cast(w, 0, 0, 2, 0, 20, 0.5f, 0, &hit) == 1);
    CHECK_NEAR(hit.distance, 3.5, 1e-5);
    /* too short */
    CHECK(rvo_world_ray_cast(w, 0, 0, 1, 0, 3, 0, 0, &hit) == 0);
    /* upwards at the other agent (radius 0.5 at (2, 3)) from (2, 0) */
    CHECK(rvo_world_ray_cast(w, 2, 0, 0, 1, 20, 0, 2, &hit) == 1);
    CHECK(hit.agent == other);
    CHECK_NEAR(hit.distance, 2.5, 1e-5);
    CHECK_NEAR(hit.normal.y, -1.0, 1e-5);
    /* the mask filters agents */
    CHECK(rvo_world_ray_cast(w, 2, 0, 0, 1, 20, 0, 1, &hit) == 0);
    /* past the box's corner with clearance: the round end */
    CHECK(rvo_world_ray_cast(w, 0, 1.3f, 1, 0, 20, 0.5f, 0, &hit) == 1);
    CHECK(hit.distance > 3.5f && hit.distance < 4.0f);
    /* bad input */
    CHECK(rvo_world_ray_cast(w, 0, 0, 0, 0, 20, 0, 0, &hit) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 3);
    CHECK(rvo_world_ray_cast(w, NAN, 0, 1, 0, 20, 0, 0, &hit) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_ray_cast(w, 0, 0, 1, 0, -1, 0, 0, &hit) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_ray_cast(w, 0, 0, 1, 0, 1, -1, 0, &hit) == RVO_ERR_INVALID_ARGUMENT);
    (void)caster;
    rvo_world_destroy(w);
}

/* rvo_world_ray_casts: the same hits as one rvo_world_ray_cast a ray. */
static void ray_casts(void) {
    rvo_world *w = world();
    const float box[] = {4, -1, 6, -1, 6, 1, 4, 1};
    const rvo_obstacle_id o = rvo_world_add_obstacle(w, box, 4, true);
    for (int k = 0; k < 30; ++k)
        rvo_world_add_agent(w, 6 * sinf((float)k), 6 * cosf(1.3f * (float)k), NULL);
    float rays[6 * 40];
    for (int k = 0; k < 40; ++k) {
        const float r[6] = {7 * sinf(0.7f * (float)k), 7 * cosf((float)k), cosf(2.1f * (float)k),
                            sinf(2.1f * (float)k),     (float)(2 + k % 9), 0.3f * (float)(k % 3)};
        memcpy(rays + 6 * k, r, sizeof r);
    }
    rvo_ray_hit hits[40], one;
    const int32_t n = rvo_world_ray_casts(w, rays, 40, 0xffffffffu, hits);
    int32_t found = 0, on_box = 0;
    for (int k = 0; k < 40; ++k) {
        const float *r = rays + 6 * k;
        const int got = rvo_world_ray_cast(w, r[0], r[1], r[2], r[3], r[4], r[5], 0xffffffffu, &one);
        found += got;
        on_box += got && one.obstacle == o;
        const rvo_ray_hit *h = &hits[k];
        CHECK(h->distance == one.distance && h->agent == one.agent && h->obstacle == one.obstacle);
        CHECK(h->point.x == one.point.x && h->point.y == one.point.y);
        CHECK(h->normal.x == one.normal.x && h->normal.y == one.normal.y);
    }
    CHECK(n == found && n > 5 && n < 40 && on_box > 0);
    CHECK(rvo_world_ray_casts(w, rays, 0, 0, NULL) == 0);
    /* bad input: nothing cast, the ray named */
    rays[6 * 2 + 2] = 0, rays[6 * 2 + 3] = 0;
    hits[0].distance = -7;
    CHECK(rvo_world_ray_casts(w, rays, 40, 0, hits) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 1);
    CHECK(strcmp(rvo_world_last_error(w), "ray 3: direction must not be zero") == 0);
    CHECK(hits[0].distance == -7);
    CHECK(rvo_world_ray_casts(w, rays, -1, 0, hits) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_world_ray_casts(w, NULL, 1, 0, hits) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_ray_casts(w, rays, 1, 0, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 4);
    CHECK(rvo_world_ray_casts(NULL, rays, 1, 0, hits) == RVO_ERR_INVALID_ARGUMENT);
    rvo_world_destroy(w);
}

/* issue 16: a melee unit casting from inside a crowd sees the enemy it
 * touches (rvo_world_ray_cast skips every disc holding the start). */
static void ray_cast_point_blank(void) {
    rvo_world *w = world();
    const rvo_agent_id caster = rvo_world_add_agent(w, 0, 0, NULL);      /* radius 0.5 */
    const rvo_agent_id touching = rvo_world_add_agent(w, 0.4f, 0, NULL); /* its disc holds the start */
    const rvo_agent_id far = rvo_world_add_agent(w, 5, 0, NULL);
    rvo_ray_hit hit;
    /* the old cast sees through both discs that hold the start */
    CHECK(rvo_world_ray_cast(w, 0, 0, 1, 0, 20, 0, 0xffffffffu, &hit) == 1);
    CHECK(hit.agent == far);
    /* point-blank, ignoring the caster: the touching one at distance 0 */
    CHECK(rvo_world_ray_cast_from(w, 0, 0, 1, 0, 20, 0, 0xffffffffu, caster, &hit) == 1);
    CHECK(hit.agent == touching);
    CHECK(hit.distance == 0);
    CHECK_NEAR(hit.normal.x, -1.0, 1e-6); /* from its centre (0.4, 0) to the start */
    /* in any direction: it is hit where the ray starts */
    CHECK(rvo_world_ray_cast_from(w, 0, 0, -1, 0, 20, 0, 0xffffffffu, caster, &hit) == 1);
    CHECK(hit.agent == touching && hit.distance == 0);
    /* ignoring nobody: the lower id of the two at 0 (the caster) */
    CHECK(rvo_world_ray_cast_from(w, 0, 0, 1, 0, 20, 0, 0xffffffffu, 0, &hit) == 1);
    CHECK(hit.agent == caster && hit.distance == 0);
    /* the mask still filters: the touching one out of it, the far one is next */
    rvo_agent_set_param(w, touching, RVO_PARAM_GROUPS, 2);
    CHECK(rvo_world_ray_cast_from(w, 0, 0, 1, 0, 20, 0, 1, caster, &hit) == 1);
    CHECK(hit.agent == far);
    CHECK_NEAR(hit.distance, 4.5, 1e-5);
    /* a stale caster id is an error, named as argument 8 */
    rvo_world_remove_agent(w, far);
    CHECK(rvo_world_ray_cast_from(w, 0, 0, 1, 0, 20, 0, 1, far, &hit) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_last_error_arg(w) == 8);
    CHECK(rvo_world_ray_cast_from(w, 0, 0, 1, 0, -1, 0, 1, caster, &hit) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 5);
    rvo_world_destroy(w);
}

/* A light unit in contact with a heavy one (weight 0: it never yields)
 * that walks at it at full speed: with its speed capped at the heavy's
 * speed, ORCA had no velocity left but the heavy's own, and the light one
 * was carried back for good (the skirmish's escort, docs/quality.md). It
 * gets round, its own effort counted relative to the push. Head-on and
 * 0.2 m off, both sides. */
static void round_a_heavy(void) {
    for (int k = 0; k < 3; ++k) {
        rvo_world *w = world();
        const float off = k == 0 ? 0.0f : k == 1 ? 0.2f : -0.2f;
        rvo_agent_def d = rvo_world_agent_defaults(w);
        d.max_speed = 2;
        d.radius = 0.8f;
        d.weight = 0;
        d.pref_velocity = (rvo_vec2){2, 0};
        const rvo_agent_id heavy = rvo_world_add_agent(w, -1.3f, off, &d);
        d.radius = 0.5f;
        d.weight = 0.5f;
        d.pref_velocity = (rvo_vec2){-2, 0};
        const rvo_agent_id light = rvo_world_add_agent(w, 0, 0, &d);
        float back = 0, worst = 0;
        rvo_vec2 p = {0, 0};
        for (int step = 0; step < 60; ++step) {
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            CHECK(rvo_agent_position(w, light, &p) == RVO_OK);
            back = p.x > back ? p.x : back;
            const float ov = 1.0f - (float)dist(w, heavy, light) / 1.3f;
            worst = ov > worst ? ov : worst;
        }
        CHECK(back < 1.0f); /* (before: carried 12 m back, all the run) */
        CHECK(p.x < -5.0f); /* and on its way */
        CHECK(worst <= 0.01f);
        rvo_world_destroy(w);
    }
}

/* A light unit between two heavy ones (weight 0) that press into it from
 * both sides, in a corridor one body wide: the heavies stay put against it,
 * so the hard-body passes could not part them; late passes split such a
 * pair as if both could move. Locked heavies (a script's lock) likewise. */
static void no_pinch_between_heavies(void) {
    for (int locked = 0; locked < 2; ++locked) {
        rvo_world *w = world();
        const float top[] = {-5, 0.55f, 5, 0.55f, 5, 2, -5, 2},
                    bottom[] = {-5, -2, 5, -2, 5, -0.55f, -5, -0.55f};
        CHECK(rvo_world_add_obstacle(w, top, 4, true) != 0 &&
              rvo_world_add_obstacle(w, bottom, 4, true) != 0);
        rvo_agent_def d = rvo_world_agent_defaults(w);
        d.weight = 0;
        d.pref_velocity = (rvo_vec2){1, 0};
        const rvo_agent_id left = rvo_world_add_agent(w, -1.2f, 0, &d);
        d.pref_velocity = (rvo_vec2){-1, 0};
        const rvo_agent_id right = rvo_world_add_agent(w, 1.2f, 0, &d);
        const rvo_agent_id mid = rvo_world_add_agent(w, 0, 0, NULL);
        if (locked)
            CHECK(rvo_agent_lock(w, left, 1, 0) == RVO_OK && rvo_agent_lock(w, right, -1, 0) == RVO_OK);
        float worst = 0;
        for (int step = 0; step < 30; ++step) {
            CHECK(rvo_world_step(w, 0) == RVO_OK);
            const float a = 1.0f - (float)dist(w, left, mid), b = 1.0f - (float)dist(w, right, mid);
            worst = a > worst ? a : worst;
            worst = b > worst ? b : worst;
        }
        CHECK(worst <= 0.01f);
        rvo_world_destroy(w);
    }
}

int main(void) {
    round_a_heavy();
    no_pinch_between_heavies();
    hero_is_not_pushed();
    weights_split();
    groups();
    locks();
    height();
    ray_cast();
    ray_casts();
    ray_cast_point_blank();
    return check_finish("semantics");
}
