/* Obstacle cases of ORCA (seed 001): edge, convex vertex, oblique view,
 * concave corner, collisions with a segment and a vertex, open polylines,
 * clockwise enclosures, and add/remove at any time. Each case moves one
 * agent and checks that it keeps its clearance (and arrives where it can). */
#include "check.h"
#include "rvo.h"

#include <stdlib.h>
#include <string.h>

typedef struct poly {
    const float *xy;
    int n;
    bool closed;
} poly;

static double seg_dist(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy;
    double t = len > 0 ? ((px - ax) * dx + (py - ay) * dy) / len : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(ax + t * dx - px, ay + t * dy - py);
}

static double clearance(const poly *ps, int np, rvo_vec2 p) {
    double best = INFINITY;
    for (int k = 0; k < np; ++k) {
        const int segs = ps[k].closed ? ps[k].n : ps[k].n - 1;
        for (int i = 0; i < segs; ++i) {
            const float *a = &ps[k].xy[2 * i], *b = &ps[k].xy[2 * ((i + 1) % ps[k].n)];
            const double d = seg_dist(p.x, p.y, a[0], a[1], b[0], b[1]);
            if (d < best)
                best = d;
        }
    }
    return best;
}

/* Walks an agent of radius 0.5 from start to goal; returns the smallest
 * clearance seen, and whether it arrived (within 0.1) in max_steps. */
static double walk(const poly *ps, int np, float sx, float sy, float gx, float gy, int max_steps,
                   bool *arrived) {
    rvo_world_def wd = rvo_world_def_default();
    wd.time_step = 0.1f;
    rvo_world *w = rvo_world_create(&wd, NULL);
    for (int k = 0; k < np; ++k)
        CHECK(rvo_world_add_obstacle(w, ps[k].xy, ps[k].n, ps[k].closed) != 0);
    const rvo_agent_id a = rvo_world_add_agent(w, sx, sy, NULL);
    double worst = INFINITY;
    *arrived = false;
    for (int s = 0; s < max_steps; ++s) {
        rvo_vec2 p;
        rvo_agent_position(w, a, &p);
        const double c = clearance(ps, np, p);
        if (c < worst)
            worst = c;
        float dx = gx - p.x, dy = gy - p.y;
        const float d = sqrtf(dx * dx + dy * dy);
        if (d < 0.1f) {
            *arrived = true;
            break;
        }
        if (d > 2.0f)
            dx *= 2.0f / d, dy *= 2.0f / d;
        rvo_agent_set_pref_velocity(w, a, dx, dy);
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    }
    rvo_world_destroy(w);
    return worst;
}

static const float box[] = {-1, -1, 1, -1, 1, 1, -1, 1};         /* CCW square */
static const float ell[] = {0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4}; /* CCW L: concave at (1,1) */
static const float wall[] = {-3, 0, 3, 0};                       /* open segment */
static const float zig[] = {-4, 0, -1, 1, 1, -1, 4, 0};          /* open polyline */
static const float room[] = {-5, -5, -5, 5, 5, 5, 5, -5};        /* CW: enclosure */

int main(void) {
    bool arrived;
    const double r = 0.5, tol = 0.01 * r;
    poly sq = {box, 4, true};
    /* Head-on into an edge: ORCA has no planner and stops in front of it
     * (a local minimum); it must still keep its clearance. */
    CHECK(walk(&sq, 1, -6, 0, 6, 0, 300, &arrived) >= r - tol);
    /* Into an edge at an angle: slides along it and around the box. */
    CHECK(walk(&sq, 1, -6, -0.5f, 6, 3, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    /* Towards a convex vertex, slightly off the diagonal. */
    CHECK(walk(&sq, 1, -5, -5, 5, 5.5f, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    /* Obliquely, sliding along an edge. */
    CHECK(walk(&sq, 1, -6, 1.4f, 6, 1.4f, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    /* Into the concave corner of an L, from inside the notch. */
    poly l = {ell, 6, true};
    CHECK(walk(&l, 1, 3, 3, 0.8f, 0.8f, 400, &arrived) >= r - tol);
    /* Across a two-sided wall from either side. */
    poly wa = {wall, 2, false};
    CHECK(walk(&wa, 1, 0, -3, 5, 3, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    CHECK(walk(&wa, 1, 0, 3, -5, -3, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    /* head-on: never crosses; in the default mode it goes round an end */
    CHECK(walk(&wa, 1, 0, -3, 0, 3, 300, &arrived) >= r - tol);
    CHECK(arrived);
    poly zz = {zig, 4, false};
    CHECK(walk(&zz, 1, -1, -4, 6, 4, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    CHECK(walk(&zz, 1, 1, 4, -6, -4, 2000, &arrived) >= r - tol);
    CHECK(arrived);
    /* A clockwise polygon is an enclosure: the agent stays inside. */
    poly rm = {room, 4, true};
    CHECK(walk(&rm, 1, 0, 0, 20, 0, 300, &arrived) >= r - tol);
    CHECK(!arrived);

    /* Collisions: an agent overlapping an edge or a vertex is pushed out. */
    {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        rvo_world_add_obstacle(w, box, 4, true);
        const rvo_agent_id e = rvo_world_add_agent(w, 0, 1.3f, NULL);     /* 0.3 from the top edge */
        const rvo_agent_id v = rvo_world_add_agent(w, 1.2f, -1.2f, NULL); /* 0.28 from a corner */
        rvo_agent_set_pref_velocity(w, e, 0, -1);                         /* pushing into it */
        rvo_agent_set_pref_velocity(w, v, -1, 1);
        CHECK(rvo_world_solve(w, 0) != RVO_OK); /* dt 0 is not a solve step */
        CHECK(rvo_world_solve(w, 1.0f / 60) == RVO_OK);
        rvo_vec2 ve, vv;
        rvo_agent_new_velocity(w, e, &ve);
        rvo_agent_new_velocity(w, v, &vv);
        CHECK(ve.y >= 0.0f);        /* not further into the edge */
        CHECK(vv.x - vv.y >= 0.0f); /* not further into the corner */
        rvo_world_destroy(w);
    }

    /* Obstacles come and go at any time; ids are checked. */
    {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        const rvo_obstacle_id o1 = rvo_world_add_obstacle(w, box, 4, true);
        const rvo_obstacle_id o2 = rvo_world_add_obstacle(w, wall, 2, false);
        CHECK(o1 != 0 && o2 != 0 && o1 != o2);
        CHECK(rvo_world_obstacle_count(w) == 2);
        const rvo_agent_id a = rvo_world_add_agent(w, 0, -3, NULL);
        rvo_agent_set_pref_velocity(w, a, 0, 2);
        for (int s = 0; s < 30; ++s)
            rvo_world_step(w, 0);
        CHECK(rvo_world_remove_obstacle(w, o2) == RVO_OK);
        CHECK(!rvo_obstacle_is_valid(w, o2));
        CHECK(rvo_world_remove_obstacle(w, o2) == RVO_ERR_UNKNOWN_ID);
        CHECK(rvo_obstacle_is_valid(w, o1));
        rvo_vec2 p;
        double worst = INFINITY;
        for (int s = 0; s < 600; ++s) {
            rvo_world_step(w, 0);
            rvo_agent_position(w, a, &p);
            const double c = clearance(&sq, 1, p);
            worst = c < worst ? c : worst;
        }
        CHECK(worst >= r - tol); /* the box still blocks (the agent goes round it) */
        CHECK(rvo_world_remove_obstacle(w, o1) == RVO_OK);
        for (int s = 0; s < 300; ++s)
            rvo_world_step(w, 0);
        rvo_agent_position(w, a, &p);
        CHECK(p.y > 5.0f); /* nothing blocks any more */
        const rvo_obstacle_id o3 = rvo_world_add_obstacle(w, box, 4, true);
        CHECK(o3 != o1 && o3 != o2);

        /* Bad polygons: rejected, world unchanged. */
        const float nan_xy[] = {0, 0, NAN, 1, 1, 1};
        const float dup[] = {1, 1, 1, 1, 1, 1};
        const float line3[] = {0, 0, 1, 1, 2, 2};
        CHECK(rvo_world_add_obstacle(w, nan_xy, 3, true) == 0);
        CHECK(rvo_world_last_error_arg(w) == 1);
        CHECK(rvo_world_add_obstacle(w, dup, 3, true) == 0);
        CHECK(rvo_world_add_obstacle(w, box, 1, true) == 0);
        CHECK(rvo_world_add_obstacle(w, NULL, 3, true) == 0);
        CHECK(rvo_world_add_obstacle(w, line3, 3, true) == 0);  /* zero area */
        CHECK(rvo_world_add_obstacle(w, line3, 3, false) != 0); /* fine as a polyline */
        CHECK(rvo_world_obstacle_count(w) == 2);
        rvo_world_destroy(w);
    }
    /* Reading obstacles back: ids, points, nearby ones; bad input rejected. */
    {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        const float open3[] = {0, 5, 1, 6, 2, 5};
        const rvo_obstacle_id o1 = rvo_world_add_obstacle(w, box, 4, true);
        const rvo_obstacle_id o2 = rvo_world_add_obstacle(w, open3, 3, false);
        rvo_obstacle_id ids[4] = {0};
        CHECK(rvo_world_obstacle_ids(w, ids, 4) == 2 && ids[0] == o1 && ids[1] == o2);
        CHECK(rvo_world_obstacle_ids(w, NULL, 0) == 2);
        float xy[8];
        bool closed = false;
        CHECK(rvo_obstacle_points(w, o1, xy, 4, &closed) == 4 && closed);
        CHECK(memcmp(xy, box, sizeof xy) == 0);
        CHECK(rvo_obstacle_points(w, o2, xy, 1, &closed) == 3 && !closed); /* cap 1: one point */
        CHECK(xy[0] == 0 && xy[1] == 5);
        CHECK(rvo_obstacle_points(w, o2, xy, 4, NULL) == 3 && xy[4] == 2 && xy[5] == 5);
        CHECK(rvo_obstacle_points(w, o2 + (1ull << 24), xy, 4, NULL) == RVO_ERR_UNKNOWN_ID);
        CHECK(rvo_obstacle_points(w, o1, NULL, 4, NULL) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 2);
        CHECK(rvo_obstacle_points(w, o1, NULL, 0, NULL) == 4); /* asks the size */
        CHECK(rvo_world_query_obstacles(w, 0, 3.9f, 1.0f, ids, 4) == 0);
        CHECK(rvo_world_query_obstacles(w, 0, 3.9f, 2.8f, ids, 4) == 1 && ids[0] == o2);
        CHECK(rvo_world_query_obstacles(w, 0, 3.9f, 3.0f, ids, 4) == 2 && ids[0] == o2 && ids[1] == o1);
        CHECK(rvo_world_query_obstacles(w, 0, 3.9f, 3.0f, ids, 1) == 2 && ids[0] == o2);
        CHECK(rvo_world_query_obstacles(w, NAN, 0, 1, ids, 4) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_query_obstacles(w, 0, 0, -1, ids, 4) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 3);
        CHECK(rvo_world_query_obstacles(w, 0, 0, 1, NULL, 4) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_query_obstacles(w, 0, 0, 1, ids, -1) == RVO_ERR_INVALID_ARGUMENT);
        rvo_world_destroy(w);
    }
    /* An explicit side: the winding no longer decides; bad sides rejected. */
    {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        const float cw[] = {-1, -1, -1, 1, 1, 1, 1, -1};
        float xy[8];
        const rvo_obstacle_id s1 = rvo_world_add_obstacle_side(w, cw, 4, true, RVO_SIDE_SOLID);
        CHECK(rvo_obstacle_points(w, s1, xy, 4, NULL) == 4);
        CHECK(memcmp(xy, box, sizeof xy) == 0); /* counter-clockwise, from the same first point */
        const rvo_obstacle_id s2 = rvo_world_add_obstacle_side(w, box, 4, true, RVO_SIDE_ENCLOSURE);
        CHECK(rvo_obstacle_points(w, s2, xy, 4, NULL) == 4);
        CHECK(memcmp(xy, cw, sizeof xy) == 0);
        const rvo_obstacle_id s3 = rvo_world_add_obstacle_side(w, box, 4, true, RVO_SIDE_SOLID);
        CHECK(rvo_obstacle_points(w, s3, xy, 4, NULL) == 4);
        CHECK(memcmp(xy, box, sizeof xy) == 0); /* already counter-clockwise: as given */
        CHECK(rvo_world_add_obstacle_side(w, box, 4, true, (rvo_obstacle_side)3) == 0);
        CHECK(rvo_world_last_error_arg(w) == 4);
        CHECK(rvo_world_add_obstacle_side(w, box, 4, false, RVO_SIDE_SOLID) == 0);
        CHECK(rvo_world_last_error_arg(w) == 4);
        CHECK(rvo_world_add_obstacle_side(w, box, 4, false, RVO_SIDE_WINDING) != 0);
        CHECK(rvo_world_obstacle_count(w) == 4);
        rvo_world_destroy(w);
    }
    /* Reshaping keeps the id; bad points leave the obstacle as it was. */
    {
        rvo_world_def wd = rvo_world_def_default();
        rvo_world *w = rvo_world_create(&wd, NULL);
        const rvo_obstacle_id o1 = rvo_world_add_obstacle(w, box, 4, true);
        const rvo_obstacle_id o2 = rvo_world_add_obstacle(w, wall, 2, false);
        const float tri[] = {5, 5, 7, 5, 6, 7};
        const float hexa[] = {0, 0, 2, 0, 3, 1, 2, 2, 0, 2, -1, 1};
        float xy[16];
        bool closed;
        CHECK(rvo_obstacle_set_points(w, o1, hexa, 6) == RVO_OK);
        CHECK(rvo_obstacle_points(w, o1, xy, 8, &closed) == 6 && closed);
        CHECK(memcmp(xy, hexa, sizeof hexa) == 0);
        CHECK(rvo_obstacle_points(w, o2, xy, 8, &closed) == 2 && !closed && xy[0] == -3 && xy[2] == 3);
        CHECK(rvo_obstacle_set_points(w, o1, tri, 3) == RVO_OK);
        CHECK(rvo_obstacle_points(w, o1, xy, 8, NULL) == 3 && memcmp(xy, tri, sizeof tri) == 0);
        CHECK(rvo_obstacle_points(w, o2, xy, 8, NULL) == 2 && xy[0] == -3 && xy[2] == 3);
        CHECK(rvo_obstacle_set_points(w, o1 + (1ull << 24), tri, 3) == RVO_ERR_UNKNOWN_ID);
        CHECK(rvo_obstacle_set_points(w, o1, NULL, 3) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 2);
        const float flat[] = {0, 0, 1, 1, 2, 2};
        CHECK(rvo_obstacle_set_points(w, o1, flat, 3) == RVO_ERR_DEGENERATE);
        CHECK(rvo_obstacle_points(w, o1, xy, 8, NULL) == 3 && memcmp(xy, tri, sizeof tri) == 0);
        /* an agent walking through where the box was, into the wall's new place */
        CHECK(rvo_obstacle_set_points(w, o2, (const float[]){-3, 3, 3, 3}, 2) == RVO_OK);
        const rvo_agent_id a = rvo_world_add_agent(w, 0, 0, NULL);
        double worst = INFINITY;
        poly nw = {(const float[]){-3, 3, 3, 3}, 2, false};
        for (int s = 0; s < 300; ++s) {
            rvo_agent_set_pref_velocity(w, a, 0.0f, 2.0f);
            rvo_world_step(w, 0);
            rvo_vec2 p;
            rvo_agent_position(w, a, &p);
            const double c = clearance(&nw, 1, p);
            worst = c < worst ? c : worst;
        }
        CHECK(worst >= r - tol);
        rvo_world_destroy(w);
    }
    return check_finish("obstacles");
}
