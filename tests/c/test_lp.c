/* The linear programs of ORCA: feasible, infeasible (LP3), parallel lines. */
#include "check.h"
#include "rvo_internal.h"

static orca_line line(float px, float py, float dx, float dy) {
    orca_line l = {{px, py}, {dx, dy}};
    return l;
}

/* Allowed side of a line: det(direction, point - v) <= 0 (left of direction). */
static bool satisfies(const orca_line *l, rvo_vec2 v, float tol) {
    return v2_det(l->direction, v2_sub(l->point, v)) <= tol;
}

int main(void) {
    rvo_vec2 r;
    /* No lines: the preferred velocity, clamped to the circle. */
    CHECK(rvo__lp2(NULL, 0, 2.0f, v2(1, 0), false, &r) == 0);
    CHECK(r.x == 1 && r.y == 0);
    CHECK(rvo__lp2(NULL, 0, 2.0f, v2(3, 4), false, &r) == 0);
    CHECK_NEAR(r.x, 1.2, 1e-6);
    CHECK_NEAR(r.y, 1.6, 1e-6);

    /* One line x <= 0.5 (direction +y, allowed on its left): optimum projects. */
    orca_line one[1] = {line(0.5f, 0, 0, 1)};
    CHECK(rvo__lp2(one, 1, 2.0f, v2(1, 1), false, &r) == 1);
    CHECK_NEAR(r.x, 0.5, 1e-6);
    CHECK_NEAR(r.y, 1.0, 1e-6);
    CHECK(satisfies(&one[0], r, 1e-6f));

    /* Two lines forming a corner: x <= 0.5 and y <= 0.25. */
    orca_line two[2] = {line(0.5f, 0, 0, 1), line(0, 0.25f, -1, 0)};
    CHECK(rvo__lp2(two, 2, 2.0f, v2(1, 1), false, &r) == 2);
    CHECK_NEAR(r.x, 0.5, 1e-6);
    CHECK_NEAR(r.y, 0.25, 1e-6);

    /* Parallel lines, same direction: the tighter one wins. */
    orca_line par[2] = {line(0.5f, 0, 0, 1), line(0.2f, 0, 0, 1)};
    CHECK(rvo__lp2(par, 2, 2.0f, v2(1, 0), false, &r) == 2);
    CHECK_NEAR(r.x, 0.2, 1e-6);
    /* Opposite parallel lines with an empty gap (x <= -0.5 and x >= 0.5): infeasible. */
    orca_line gap[2] = {line(-0.5f, 0, 0, 1), line(0.5f, 0, 0, -1)};
    const int32_t fail = rvo__lp2(gap, 2, 2.0f, v2(0, 0), false, &r);
    CHECK(fail == 1);
    /* LP3 minimises the largest violation: the middle, x = 0. */
    orca_line proj[4];
    rvo__lp3(gap, 2, 0, fail, 2.0f, &r, proj);
    CHECK_NEAR(r.x, 0.0, 1e-5);

    /* A line the speed circle cannot reach (x >= 3 with max speed 2): infeasible. */
    orca_line far[1] = {line(3, 0, 0, -1)};
    CHECK(rvo__lp2(far, 1, 2.0f, v2(0, 0), false, &r) == 0);
    rvo__lp3(far, 1, 0, 0, 2.0f, &r, proj);
    CHECK_NEAR(r.x, 2.0, 1e-5); /* as close as the circle allows */
    CHECK_NEAR(r.y, 0.0, 1e-5);

    /* LP3 keeps obstacle lines hard: obstacle x <= 0 (first), agent x >= 1. */
    orca_line mixed[2] = {line(0, 0, 0, 1), line(1, 0, 0, -1)};
    CHECK(rvo__lp2(mixed, 2, 2.0f, v2(0.5f, 0), false, &r) == 1);
    rvo__lp3(mixed, 2, 1, 1, 2.0f, &r, proj);
    CHECK(r.x <= 1e-6f);
    CHECK(satisfies(&mixed[0], r, 1e-6f));

    /* LP1 rejects a line when an earlier parallel line excludes it. */
    CHECK(!rvo__lp1(gap, 1, 2.0f, v2(0, 0), false, &r));
    /* Direction optimisation takes the extreme point along the line. */
    CHECK(rvo__lp1(one, 0, 2.0f, v2(0, 1), true, &r));
    CHECK_NEAR(r.x, 0.5, 1e-6);
    CHECK_NEAR(r.y, sqrt(4 - 0.25), 1e-5);
    return check_finish("lp");
}
