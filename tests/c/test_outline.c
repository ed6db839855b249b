/* Navmesh outline (src/nav/outline.c): a square with a hole, an L corridor,
 * T-junctions with duplicated vertices, two islands, loops touching at a
 * point, bad input; and agents in a corridor walled by the outline never
 * leave it. */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

/* True when loop i of o is exactly the points exp (n pairs), starting
 * anywhere. */
static bool loop_is(const rvo_outline *o, int32_t i, const float *exp, int32_t n) {
    int32_t m = 0;
    const float *p = rvo_outline_loop(o, i, &m);
    if (!p || m != n)
        return false;
    for (int32_t s = 0; s < n; ++s) {
        bool same = true;
        for (int32_t k = 0; k < n && same; ++k) {
            const int32_t j = (s + k) % n;
            same = fabsf(p[2 * j] - exp[2 * k]) < 1e-5f && fabsf(p[2 * j + 1] - exp[2 * k + 1]) < 1e-5f;
        }
        if (same)
            return true;
    }
    return false;
}

static double signed_area(const rvo_outline *o, int32_t i) {
    int32_t n = 0;
    const float *p = rvo_outline_loop(o, i, &n);
    double a = 0;
    for (int32_t k = 0; k < n; ++k) {
        const int32_t j = (k + 1) % n;
        a += (double)p[2 * k] * p[2 * j + 1] - (double)p[2 * j] * p[2 * k + 1];
    }
    return a / 2;
}

/* Index of the loop equal to exp, or -1. */
static int32_t find_loop(const rvo_outline *o, const float *exp, int32_t n) {
    for (int32_t i = 0; i < rvo_outline_loop_count(o); ++i)
        if (loop_is(o, i, exp, n))
            return i;
    return -1;
}

/* 10 x 10 square with a 4 x 4 hole in its middle: 8 vertices, 8 triangles. */
static void test_square_with_hole(void) {
    const float xy[] = {0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 3, 7, 7, 3, 7};
    const int32_t tris[] = {0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
    rvo_error err;
    rvo_outline *o = rvo_outline_build(xy, 8, tris, 8, 3, 1e-4f, &err);
    CHECK(o != NULL);
    CHECK(err.status == RVO_OK);
    CHECK(rvo_outline_loop_count(o) == 2);
    const float outer_cw[] = {0, 0, 0, 10, 10, 10, 10, 0};
    const float hole_ccw[] = {3, 3, 7, 3, 7, 7, 3, 7};
    const int32_t io = find_loop(o, outer_cw, 4), ih = find_loop(o, hole_ccw, 4);
    CHECK(io >= 0 && ih >= 0);
    CHECK(rvo_outline_loop_is_hole(o, io) == 0);
    CHECK(rvo_outline_loop_is_hole(o, ih) == 1);
    CHECK_NEAR(signed_area(o, io), -100, 1e-9);
    CHECK_NEAR(signed_area(o, ih), 16, 1e-9);
    CHECK(rvo_outline_loop(o, 2, NULL) == NULL);
    CHECK(rvo_outline_loop_is_hole(o, -1) == -1);
    rvo_outline_destroy(o);
}

/* An L of three 4 x 4 cells, two triangles each, some wound clockwise: the
 * points along the straight sides are dropped. */
static void test_l_corridor(void) {
    const float xy[] = {0, 0, 4, 0, 8, 0, 0, 4, 4, 4, 8, 4, 0, 8, 4, 8};
    const int32_t tris[] = {0, 1, 4, 0, 4, 3,  /* cell (0,0) */
                            1, 5, 2, 1, 4, 5,  /* cell (1,0), clockwise then ccw */
                            3, 4, 7, 3, 7, 6}; /* cell (0,1) */
    rvo_outline *o = rvo_outline_build(xy, 8, tris, 6, 3, 1e-4f, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 1);
    const float l_cw[] = {0, 0, 0, 8, 4, 8, 4, 4, 8, 4, 8, 0};
    CHECK(loop_is(o, 0, l_cw, 6));
    CHECK(rvo_outline_loop_is_hole(o, 0) == 0);
    CHECK_NEAR(signed_area(o, 0), -48, 1e-9);
    rvo_outline_destroy(o);
}

/* A 2 x 2 square on the left, two 1 x 1 squares on its right: the square's
 * right edge is one long edge against two short ones (a T-junction at
 * (2, 1)). Every face has its own copies of its vertices, shifted by up to
 * 3e-5 (below epsilon). Quads, padded to 5 per polygon. */
static void test_t_junction_duplicates(void) {
    const float xy[] = {
        0,        0,        2, 0,        2, 2, 0,        2,        /* big square */
        2.00003f, 0,        3, 0,        3, 1, 2,        1.00002f, /* lower small */
        2,        0.99998f, 3, 1.00001f, 3, 2, 1.99997f, 2.00003f, /* upper small */
    };
    const int32_t quads[] = {0, 1, 2, 3, -1, 4, 5, 6, 7, -1, 8, 9, 10, 11, -1};
    rvo_outline *o = rvo_outline_build(xy, 12, quads, 3, 5, 1e-4f, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 1);
    const float rect_cw[] = {0, 0, 0, 2, 3, 2, 3, 0};
    CHECK(loop_is(o, 0, rect_cw, 4));
    rvo_outline_destroy(o);

    /* With epsilon 0 the copies stay apart and the faces do not connect:
     * three separate loops. */
    o = rvo_outline_build(xy, 12, quads, 3, 5, 0, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 3);
    rvo_outline_destroy(o);

    /* Exact coordinates and epsilon 0: the T-junction alone. */
    const float exact[] = {0, 0, 2, 0, 2, 2, 0, 2, 3, 0, 3, 1, 2, 1, 3, 2};
    const int32_t tq[] = {0, 1, 2, 3, 1, 4, 5, 6, 6, 5, 7, 2};
    o = rvo_outline_build(exact, 8, tq, 3, 4, 0, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 1);
    CHECK(loop_is(o, 0, rect_cw, 4));
    rvo_outline_destroy(o);
}

/* Two separate squares: two outer loops, no hole. Two squares touching at
 * one corner: still two loops (each keeps its own wedge at the corner). */
static void test_islands(void) {
    const float xy[] = {0, 0, 1, 0, 1, 1, 0, 1, 5, 5, 7, 5, 7, 7, 5, 7};
    const int32_t quads[] = {0, 1, 2, 3, 4, 5, 6, 7};
    rvo_outline *o = rvo_outline_build(xy, 8, quads, 2, 4, 1e-4f, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 2);
    for (int32_t i = 0; i < 2; ++i) {
        CHECK(rvo_outline_loop_is_hole(o, i) == 0);
        CHECK(signed_area(o, i) < 0);
    }
    const float a[] = {0, 0, 0, 1, 1, 1, 1, 0}, b[] = {5, 5, 5, 7, 7, 7, 7, 5};
    CHECK(find_loop(o, a, 4) >= 0 && find_loop(o, b, 4) >= 0);
    rvo_outline_destroy(o);

    const float touch[] = {0, 0, 1, 0, 1, 1, 0, 1, 2, 1, 2, 2, 1, 2};
    const int32_t tquads[] = {0, 1, 2, 3, 2, 4, 5, 6};
    o = rvo_outline_build(touch, 7, tquads, 2, 4, 1e-4f, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 2);
    const float c[] = {1, 1, 1, 2, 2, 2, 2, 1};
    CHECK(find_loop(o, a, 4) >= 0 && find_loop(o, c, 4) >= 0);
    rvo_outline_destroy(o);
}

static void expect_error(const float *xy, int32_t nv, const int32_t *p, int32_t np, int32_t nvp, float eps,
                         rvo_status st, int arg, const char *msg) {
    rvo_error err;
    memset(&err, 0x55, sizeof err);
    rvo_outline *o = rvo_outline_build(xy, nv, p, np, nvp, eps, &err);
    CHECK(o == NULL);
    CHECK(err.status == st);
    CHECK(err.arg == arg);
    if (strcmp(err.message, msg) != 0) {
        fprintf(stderr, "expected '%s', got '%s'\n", msg, err.message);
        CHECK(0);
    }
    rvo_outline_destroy(o);
    CHECK(rvo_outline_build(xy, nv, p, np, nvp, eps, NULL) == NULL); /* err may be NULL */
}

static void test_bad_input(void) {
    const float xy[] = {0, 0, 1, 0, 1, 1, 0, 1};
    const int32_t tris[] = {0, 1, 2, 0, 2, 3};
    float bad[8];
    memcpy(bad, xy, sizeof bad);
    bad[5] = NAN;
    expect_error(bad, 4, tris, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 1,
                 "coordinate 6 must be finite and within [-1e9, 1e9]");
    bad[5] = INFINITY;
    expect_error(bad, 4, tris, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 1,
                 "coordinate 6 must be finite and within [-1e9, 1e9]");
    expect_error(NULL, 4, tris, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 1, "points are missing");
    expect_error(xy, -1, tris, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 2, "vertex count must be >= 0");
    expect_error(xy, 4, NULL, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 3, "polygons are missing");
    expect_error(xy, 4, tris, -2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 4, "polygon count must be >= 0");
    expect_error(xy, 4, tris, 2, 2, 0, RVO_ERR_INVALID_ARGUMENT, 5, "verts_per_poly must be in [3, 32]");
    expect_error(xy, 4, tris, 2, 3, -1, RVO_ERR_INVALID_ARGUMENT, 6, "epsilon must be finite and >= 0");
    expect_error(xy, 4, tris, 2, 3, NAN, RVO_ERR_INVALID_ARGUMENT, 6, "epsilon must be finite and >= 0");
    const int32_t out_of_range[] = {0, 1, 2, 0, 2, 4};
    expect_error(xy, 4, out_of_range, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 3,
                 "index 6 refers to no vertex (there are 4)");
    const int32_t negative[] = {0, 1, 2, 0, -2, 3};
    expect_error(xy, 4, negative, 2, 3, 0, RVO_ERR_INVALID_ARGUMENT, 3,
                 "index 5 refers to no vertex (there are 4)");
    const int32_t padded[] = {0, -1, 1, 2};
    expect_error(xy, 4, padded, 1, 4, 0, RVO_ERR_INVALID_ARGUMENT, 3,
                 "polygon 1 has padding before its last vertex");
    const int32_t short_poly[] = {0, 1, 2, -1, 0, 1, -1, -1};
    expect_error(xy, 4, short_poly, 2, 4, 0, RVO_ERR_INVALID_ARGUMENT, 3,
                 "polygon 2 has fewer than 3 vertices");
    expect_error(xy, 0, tris, 0, 3, 0, RVO_ERR_DEGENERATE, 0, "the mesh is empty");
    expect_error(xy, 4, tris, 0, 3, 0, RVO_ERR_DEGENERATE, 0, "the mesh is empty");
    const float line[] = {0, 0, 1, 1, 2, 2};
    const int32_t flat[] = {0, 1, 2};
    expect_error(line, 3, flat, 1, 3, 0, RVO_ERR_DEGENERATE, 0, "no polygon has an area");
    /* every vertex within epsilon of the others: nothing left */
    expect_error(xy, 4, tris, 2, 3, 5, RVO_ERR_DEGENERATE, 0, "no polygon has an area");
    const int32_t twice[] = {0, 1, 2, 2, 1, 0};
    expect_error(xy, 4, twice, 2, 3, 0, RVO_ERR_DEGENERATE, 0,
                 "polygons overlap (an edge is covered twice from the same side)");
    rvo_outline_destroy(NULL);
    CHECK(rvo_outline_loop_count(NULL) == 0);
}

/* Whether (x, y) is inside the area the loops bound (even-odd rule). */
static bool inside(const rvo_outline *o, float x, float y) {
    bool in = false;
    for (int32_t i = 0; i < rvo_outline_loop_count(o); ++i) {
        int32_t n = 0;
        const float *p = rvo_outline_loop(o, i, &n);
        for (int32_t k = 0, j = n - 1; k < n; j = k++) {
            const float xk = p[2 * k], yk = p[2 * k + 1], xj = p[2 * j], yj = p[2 * j + 1];
            if ((yk > y) != (yj > y) && x < (xj - xk) * (y - yk) / (yj - yk) + xk)
                in = !in;
        }
    }
    return in;
}

static double min_edge_dist(const rvo_outline *o, float x, float y) {
    double best = INFINITY;
    for (int32_t i = 0; i < rvo_outline_loop_count(o); ++i) {
        int32_t n = 0;
        const float *p = rvo_outline_loop(o, i, &n);
        for (int32_t k = 0; k < n; ++k) {
            const int32_t j = (k + 1) % n;
            const double ax = p[2 * k], ay = p[2 * k + 1], dx = p[2 * j] - ax, dy = p[2 * j + 1] - ay;
            double t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            const double d = hypot(ax + t * dx - x, ay + t * dy - y);
            if (d < best)
                best = d;
        }
    }
    return best;
}

/* An L corridor 4 m wide (legs 24 m) with a 1 x 1 pillar in its corner
 * cell, as a triangle mesh with duplicated vertices; its outline walls a
 * world. Two groups of agents cross it in opposite directions through the
 * corner: every agent stays inside the mesh and clear of its walls. */
static void test_corridor_agents(void) {
    /* cells of 4 x 4 along x (y in [0, 4]) and along y (x in [0, 4]) */
    float xy[2 * 4 * 64];
    int32_t tris[3 * 2 * 64];
    int32_t nv = 0, nt = 0;
    for (int c = 0; c < 11; ++c) {
        const float x0 = c < 6 ? 4.0f * (float)c : 0, y0 = c < 6 ? 0 : 4.0f * (float)(c - 5);
        const float q[8] = {x0, y0, x0 + 4, y0, x0 + 4, y0 + 4, x0, y0 + 4};
        memcpy(&xy[2 * nv], q, sizeof q);
        const int32_t t[6] = {nv, nv + 1, nv + 2, nv, nv + 2, nv + 3};
        if (c != 0) { /* the corner cell holds the pillar: a ring of four quads around it */
            memcpy(&tris[3 * nt], t, sizeof t);
            nt += 2;
        }
        nv += 4;
    }
    /* corner cell with a pillar [1.5, 2.5]^2: ring quads as triangles */
    const float ring[16] = {0, 0, 4, 0, 4, 4, 0, 4, 1.5f, 1.5f, 2.5f, 1.5f, 2.5f, 2.5f, 1.5f, 2.5f};
    memcpy(&xy[2 * nv], ring, sizeof ring);
    const int32_t rt[24] = {0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
    for (int k = 0; k < 24; ++k)
        tris[3 * nt + k] = nv + rt[k];
    nt += 8;
    nv += 8;
    rvo_outline *o = rvo_outline_build(xy, nv, tris, nt, 3, 1e-4f, NULL);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 2); /* the L and the pillar */

    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    wd.agent.radius = 0.4f;
    wd.agent.max_speed = 1.5f;
    wd.agent.neighbor_dist = 5;
    wd.agent.time_horizon = 2;
    wd.agent.time_horizon_obst = 1;
    rvo_world *w = rvo_world_create(&wd, NULL);
    for (int32_t i = 0; i < rvo_outline_loop_count(o); ++i) {
        int32_t n = 0;
        const float *p = rvo_outline_loop(o, i, &n);
        CHECK(rvo_world_add_obstacle(w, p, n, true) != 0);
    }
    /* way points: westbound agents pass the pillar on its outer side,
     * southbound ones on its inner side, then on to the other leg's end */
    enum { N = 24 };
    rvo_agent_id ids[N];
    float goal[N][2];
    int leg[N];
    for (int i = 0; i < N; ++i) {
        const bool east = i < N / 2;
        const float lane = 0.8f + 0.8f * (float)(i % 4), depth = 2.0f * (float)((i % (N / 2)) / 4);
        ids[i] = east ? rvo_world_add_agent(w, 22 - depth, lane, NULL)
                      : rvo_world_add_agent(w, lane, 22 - depth, NULL);
        goal[i][0] = goal[i][1] = east ? 0.75f : 3.25f;
        leg[i] = 0;
    }
    double worst = INFINITY;
    int outside = 0;
    for (int step = 0; step < 900; ++step) {
        for (int i = 0; i < N; ++i) {
            rvo_vec2 p;
            rvo_agent_is_valid(w, ids[i]);
            rvo_agent_position(w, ids[i], &p);
            float dx = goal[i][0] - p.x, dy = goal[i][1] - p.y;
            const float d = sqrtf(dx * dx + dy * dy);
            if (d < 1.0f && leg[i] == 0) { /* through the corner: on to the other leg's end */
                leg[i] = 1;
                goal[i][0] = i < N / 2 ? 2.0f : 22.0f;
                goal[i][1] = i < N / 2 ? 22.0f : 2.0f;
            }
            if (d > 1.5f) {
                dx *= 1.5f / d;
                dy *= 1.5f / d;
            }
            rvo_agent_set_pref_velocity(w, ids[i], dx, dy);
        }
        CHECK(rvo_world_step(w, 0) == RVO_OK);
        for (int i = 0; i < N; ++i) {
            rvo_vec2 p;
            rvo_agent_position(w, ids[i], &p);
            if (!inside(o, p.x, p.y))
                ++outside;
            const double c = min_edge_dist(o, p.x, p.y);
            if (c < worst)
                worst = c;
        }
    }
    CHECK(outside == 0);
    CHECK(worst > 0.4 * 0.9); /* discs stay clear of the walls (within 10% of the radius) */
    int arrived = 0;
    for (int i = 0; i < N; ++i) {
        rvo_vec2 p;
        rvo_agent_position(w, ids[i], &p);
        if (leg[i] == 1 && fabsf(p.x - goal[i][0]) < 3 && fabsf(p.y - goal[i][1]) < 3)
            ++arrived;
    }
    printf("corridor: %d agent-steps outside, smallest wall clearance %.3f (radius 0.4), %d of %d arrived\n",
           outside, worst, arrived, N);
    CHECK(arrived >= N * 3 / 4);
    rvo_world_destroy(w);
    rvo_outline_destroy(o);
}

int main(void) {
    test_square_with_hole();
    test_l_corridor();
    test_t_junction_duplicates();
    test_islands();
    test_bad_input();
    test_corridor_agents();
    return check_finish("outline");
}
