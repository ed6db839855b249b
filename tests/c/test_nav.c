/* librvo_nav (src/nav/nav.cpp): navmesh building from a triangle soup, path
 * search around an obstacle, nearest point, unreachable goals, the outline
 * of the built mesh, and bad input. Recast frame: y up, ground plane x, z. */
#include "check.h"
#include "rvo.h"
#include "rvo_nav.h"

#include <stdlib.h>
#include <string.h>

typedef struct soup {
    float v[3 * 256];
    int32_t t[3 * 256];
    int32_t nv, nt;
} soup;

static int32_t vert(soup *s, float x, float y, float z) {
    s->v[3 * s->nv] = x;
    s->v[3 * s->nv + 1] = y;
    s->v[3 * s->nv + 2] = z;
    return s->nv++;
}

static void tri(soup *s, int32_t a, int32_t b, int32_t c) {
    s->t[3 * s->nt] = a;
    s->t[3 * s->nt + 1] = b;
    s->t[3 * s->nt + 2] = c;
    s->nt++;
}

/* An upward floor quad [x0, x1] x [z0, z1] at height y. */
static void floor_quad(soup *s, float x0, float z0, float x1, float z1, float y) {
    const int32_t a = vert(s, x0, y, z0), b = vert(s, x1, y, z0), c = vert(s, x1, y, z1),
                  d = vert(s, x0, y, z1);
    tri(s, a, d, b);
    tri(s, b, d, c);
}

/* Four vertical walls around [x0, x1] x [z0, z1], h high, no top. */
static void open_box(soup *s, float x0, float z0, float x1, float z1, float h) {
    const float xs[5] = {x0, x1, x1, x0, x0}, zs[5] = {z0, z0, z1, z1, z0};
    for (int k = 0; k < 4; ++k) {
        const int32_t a = vert(s, xs[k], 0, zs[k]), b = vert(s, xs[k + 1], 0, zs[k + 1]);
        const int32_t c = vert(s, xs[k + 1], h, zs[k + 1]), d = vert(s, xs[k], h, zs[k]);
        tri(s, a, b, c);
        tri(s, a, c, d);
    }
}

static rvo_nav_config test_config(void) {
    rvo_nav_config c = rvo_nav_config_default();
    c.cell_size = 0.2f;
    c.agent_radius = 0.4f;
    return c;
}

static double seg_dist_to_box(double ax, double az, double bx, double bz, double x0, double z0, double x1,
                              double z1) {
    /* sampled: fine for a test */
    double best = INFINITY;
    for (int i = 0; i <= 200; ++i) {
        const double t = i / 200.0, x = ax + t * (bx - ax), z = az + t * (bz - az);
        const double dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0, dz = z < z0 ? z0 - z : z > z1 ? z - z1 : 0;
        const double d = (dx == 0 && dz == 0) ? -1 : sqrt(dx * dx + dz * dz);
        if (d < best)
            best = d;
    }
    return best;
}

static void test_path_around_box(void) {
    soup s = {0};
    /* the floor has a hole where the box stands, as level geometry often
     * has (a floor under the box would make its inside walkable) */
    floor_quad(&s, 0, 0, 20, 6, 0);
    floor_quad(&s, 0, 14, 20, 20, 0);
    floor_quad(&s, 0, 6, 8, 14, 0);
    floor_quad(&s, 12, 6, 20, 14, 0);
    open_box(&s, 8, 6, 12, 14, 3);
    const rvo_nav_config cfg = test_config();
    rvo_error err;
    rvo_navmesh *m = rvo_nav_build(s.v, s.nv, s.t, s.nt, &cfg, &err);
    CHECK(m != NULL);
    CHECK(err.status == RVO_OK);
    int32_t nv = 0, np = 0, nvp = 0;
    const float *verts = rvo_nav_verts(m, &nv);
    const int32_t *polys = rvo_nav_polys(m, &np, &nvp);
    CHECK(nv > 0 && np > 0 && nvp == 6 && verts && polys);
    float bmin[3], bmax[3];
    rvo_nav_bounds(m, bmin, bmax);
    CHECK(bmin[0] >= -0.01f && bmin[0] < 1 && bmax[0] > 19 && bmax[0] <= 20.01f);

    const float a[3] = {2, 0, 10}, b[3] = {18, 0, 10};
    float corners[3 * 16];
    int partial = -1;
    const int32_t n = rvo_nav_find_path(m, a, b, NULL, corners, 16, &partial, &err);
    CHECK(n >= 3 && n <= 16);
    CHECK(partial == 0);
    CHECK_NEAR(corners[0], 2, 0.3);
    CHECK_NEAR(corners[2], 10, 0.3);
    CHECK_NEAR(corners[3 * (n - 1)], 18, 0.3);
    CHECK_NEAR(corners[3 * (n - 1) + 2], 10, 0.3);
    double len = 0, clearance = INFINITY;
    for (int32_t i = 0; i + 1 < n && i < 15; ++i) {
        const float *p = &corners[3 * i], *q = &corners[3 * i + 3];
        len += hypot(q[0] - p[0], q[2] - p[2]);
        const double c = seg_dist_to_box(p[0], p[2], q[0], q[2], 8, 6, 12, 14);
        if (c < clearance)
            clearance = c;
    }
    printf("path around the box: %d corners, length %.2f (straight 16), clearance %.2f (agent radius 0.4)\n",
           (int)n, len, clearance);
    CHECK(len > 16.5);                    /* goes around, not through */
    CHECK(clearance >= 0.4 - 0.2 - 1e-3); /* kept off the box by the radius, within a cell */
    /* asking with too little room still counts the corners */
    CHECK(rvo_nav_find_path(m, a, b, NULL, corners, 1, NULL, NULL) == n);
    CHECK(rvo_nav_find_path(m, a, b, NULL, NULL, 0, NULL, NULL) == n);

    /* nearest: a point inside the box lands on its rim; one far away finds nothing */
    const float inside[3] = {10, 0, 10}, far[3] = {50, 0, 50};
    float out[3];
    const float big[3] = {3, 4, 5};
    CHECK(rvo_nav_nearest(m, inside, big, out, &err) == 1);
    CHECK(out[0] <= 8 - 0.2f || out[0] >= 12 + 0.2f || out[2] <= 6 - 0.2f || out[2] >= 14 + 0.2f);
    CHECK(rvo_nav_nearest(m, far, NULL, out, &err) == 0);
    CHECK(err.status == RVO_OK);

    /* off the mesh: 0 corners and which end it was */
    CHECK(rvo_nav_find_path(m, far, b, NULL, corners, 16, &partial, &err) == 0);
    CHECK(err.arg == 1 && strcmp(err.message, "start is not on the navmesh") == 0);
    CHECK(rvo_nav_find_path(m, a, far, NULL, corners, 16, &partial, &err) == 0);
    CHECK(err.arg == 2 && strcmp(err.message, "end is not on the navmesh") == 0);
    /* bad input */
    const float nan3[3] = {NAN, 0, 0}, neg[3] = {1, -1, 1};
    CHECK(rvo_nav_find_path(m, nan3, b, NULL, corners, 16, NULL, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(err.arg == 1 && strcmp(err.message, "start must be finite") == 0);
    CHECK(rvo_nav_find_path(m, a, nan3, NULL, corners, 16, NULL, &err) == RVO_ERR_INVALID_ARGUMENT &&
          err.arg == 2);
    CHECK(rvo_nav_find_path(m, a, b, neg, corners, 16, NULL, &err) == RVO_ERR_INVALID_ARGUMENT &&
          err.arg == 3);
    CHECK(rvo_nav_find_path(m, a, b, NULL, NULL, 4, NULL, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 4);
    CHECK(rvo_nav_find_path(m, a, b, NULL, corners, -1, NULL, &err) == RVO_ERR_INVALID_ARGUMENT &&
          err.arg == 5);
    CHECK(rvo_nav_find_path(NULL, a, b, NULL, corners, 16, NULL, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_nav_nearest(m, nan3, NULL, out, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 1);
    CHECK(rvo_nav_nearest(m, a, neg, out, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 2);

    /* the outline of the polygons (x, z): the floor's edge and the box */
    float *xz = malloc(sizeof *xz * 2 * (size_t)nv);
    for (int32_t i = 0; i < nv; ++i) {
        xz[2 * i] = verts[3 * i];
        xz[2 * i + 1] = verts[3 * i + 2];
    }
    rvo_outline *o = rvo_outline_build(xz, nv, polys, np, nvp, 1e-3f, &err);
    CHECK(o != NULL);
    CHECK(rvo_outline_loop_count(o) == 2);
    int holes = 0;
    for (int32_t i = 0; i < rvo_outline_loop_count(o); ++i)
        holes += rvo_outline_loop_is_hole(o, i);
    CHECK(holes == 1);
    rvo_outline_destroy(o);
    free(xz);
    rvo_nav_destroy(m);
}

/* Two floors with a gap: the far one is unreachable. */
static void test_partial(void) {
    soup s = {0};
    floor_quad(&s, 0, 0, 8, 8, 0);
    floor_quad(&s, 12, 0, 20, 8, 0);
    const rvo_nav_config cfg = test_config();
    rvo_navmesh *m = rvo_nav_build(s.v, s.nv, s.t, s.nt, &cfg, NULL);
    CHECK(m != NULL);
    const float a[3] = {2, 0, 4}, b[3] = {18, 0, 4};
    float corners[3 * 8];
    int partial = 0;
    const int32_t n = rvo_nav_find_path(m, a, b, NULL, corners, 8, &partial, NULL);
    CHECK(n >= 2 && n <= 8);
    CHECK(partial == 1);
    CHECK(corners[3 * (n - 1)] < 8.01f); /* ends on the near floor, at its edge towards b */
    CHECK(corners[3 * (n - 1)] > 7);
    rvo_nav_destroy(m);
}

static void expect_build_error(const float *v, int32_t nv, const int32_t *t, int32_t nt,
                               const rvo_nav_config *cfg, rvo_status st, int arg, const char *msg) {
    rvo_error err;
    rvo_navmesh *m = rvo_nav_build(v, nv, t, nt, cfg, &err);
    CHECK(m == NULL);
    CHECK(err.status == st);
    CHECK(err.arg == arg);
    if (strncmp(err.message, msg, strlen(msg)) != 0) {
        fprintf(stderr, "expected '%s', got '%s'\n", msg, err.message);
        CHECK(0);
    }
    rvo_nav_destroy(m);
}

static void test_bad_build(void) {
    soup s = {0};
    floor_quad(&s, 0, 0, 10, 10, 0);
    rvo_nav_config cfg = test_config();
    expect_build_error(s.v, 0, s.t, 0, &cfg, RVO_ERR_DEGENERATE, 0, "the mesh is empty");
    expect_build_error(NULL, 4, s.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 1, "points are missing");
    expect_build_error(s.v, -1, s.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 2, "vertex count must be >= 0");
    expect_build_error(s.v, 4, NULL, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 3, "triangles are missing");
    expect_build_error(s.v, 4, s.t, -2, &cfg, RVO_ERR_INVALID_ARGUMENT, 4, "triangle count must be >= 0");
    soup bad = s;
    bad.v[4] = NAN;
    expect_build_error(bad.v, 4, bad.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 1,
                       "coordinate 5 must be finite and within [-1e9, 1e9]");
    bad = s;
    bad.t[5] = 4;
    expect_build_error(bad.v, 4, bad.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 3,
                       "index 6 refers to no vertex (there are 4)");
    cfg.cell_size = 0;
    expect_build_error(s.v, 4, s.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 5, "cell_size must be finite and > 0");
    cfg = test_config();
    cfg.agent_max_slope = NAN;
    expect_build_error(s.v, 4, s.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 5,
                       "agent_max_slope must be in [0, 90]");
    cfg = test_config();
    cfg.verts_per_poly = 7;
    expect_build_error(s.v, 4, s.t, 2, &cfg, RVO_ERR_INVALID_ARGUMENT, 5, "verts_per_poly must be in [3, 6]");
    cfg = test_config();
    cfg.cell_size = 1e-4f;
    cfg.agent_radius = 0;
    expect_build_error(s.v, 4, s.t, 2, &cfg, RVO_ERR_CAPACITY, 5, "the voxel grid would be ");
    /* a floor facing down is not walkable; nor is one smaller than the agent */
    cfg = test_config();
    soup down = s;
    for (int32_t i = 0; i < down.nt; ++i) {
        const int32_t k = down.t[3 * i];
        down.t[3 * i] = down.t[3 * i + 1];
        down.t[3 * i + 1] = k;
    }
    expect_build_error(down.v, 4, down.t, 2, &cfg, RVO_ERR_DEGENERATE, 0, "nothing is walkable");
    soup tiny = {0};
    floor_quad(&tiny, 0, 0, 0.5f, 0.5f, 0);
    expect_build_error(tiny.v, 4, tiny.t, 2, &cfg, RVO_ERR_DEGENERATE, 0, "nothing is walkable");
    rvo_nav_destroy(NULL);
    rvo_error err;
    CHECK(rvo_nav_config_check(NULL, &err) == RVO_ERR_INVALID_ARGUMENT && err.arg == 1 && err.message[0]);
    rvo_nav_config def = rvo_nav_config_default();
    CHECK(rvo_nav_config_check(&def, &err) == RVO_OK && err.status == RVO_OK && err.message[0] == 0);
    def.cell_size = -1;
    CHECK(rvo_nav_config_check(&def, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_nav_config_check(&def, &err) == RVO_ERR_INVALID_ARGUMENT &&
          strcmp(err.message, "cell_size must be finite and > 0") == 0);
}

int main(void) {
    test_path_around_box();
    test_partial();
    test_bad_build();
    return check_finish("nav");
}
