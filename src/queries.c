/* Queries on the current positions: neighbours, agents in a radius, line
 * of sight against obstacles. They reuse the first worker's scratch and
 * rebuild an index only when something moved since it was built. */
#include "rvo_internal.h"

#include <stdlib.h>
#include <string.h>


int32_t rvo_world_query_neighbors(rvo_world *w, rvo_agent_id id, rvo_agent_id *out, int32_t cap) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0) return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id");
    if (cap < 0 || (cap > 0 && !out)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "bad output buffer");
    if (!rvo__prepare(w)) return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    neighbor *nb = w->scratch[0].agents;
    const int32_t n = rvo__agent_neighbors(w, i, nb);
    for (int32_t k = 0; k < n && k < cap; ++k) out[k] = nb[k].id;
    rvo__ok(w);
    return n;
}

static int cmp_neighbor(const void *a, const void *b) {
    const neighbor *x = a, *y = b;
    if (x->dist_sq != y->dist_sq) return x->dist_sq < y->dist_sq ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

int32_t rvo_world_query_radius(rvo_world *w, float x, float y, float r, rvo_agent_id *out, int32_t cap) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    char buf[64];
    const char *e;
    if ((e = rvo__check_coord("x", x, buf, sizeof buf))) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "%s", e);
    if ((e = rvo__check_coord("y", y, buf, sizeof buf))) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "%s", e);
    if (!isfinite(r) || r < 0 || r > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "radius must be finite and >= 0");
    if (cap < 0 || (cap > 0 && !out)) return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "bad output buffer");
    if (!rvo__prepare(w)) return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    const agent_grid *g = &w->grid;
    const rvo_vec2 p = v2(x, y);
    const float r_sq = r * r;
    /* Collect into the first worker's neighbour buffer, grown as needed. */
    scratch *s = &w->scratch[0];
    int32_t n = 0;
    if (w->count > 0) {
        const float fx0 = (x - r - g->ox) * g->inv_cell, fx1 = (x + r - g->ox) * g->inv_cell;
        const float fy0 = (y - r - g->oy) * g->inv_cell, fy1 = (y + r - g->oy) * g->inv_cell;
        const int32_t cx0 = fx0 < 0 ? 0 : fx0 >= (float)g->nx ? g->nx : (int32_t)fx0;
        const int32_t cx1 = fx1 < 0 ? -1 : fx1 >= (float)g->nx ? g->nx - 1 : (int32_t)fx1;
        const int32_t cy0 = fy0 < 0 ? 0 : fy0 >= (float)g->ny ? g->ny : (int32_t)fy0;
        const int32_t cy1 = fy1 < 0 ? -1 : fy1 >= (float)g->ny ? g->ny - 1 : (int32_t)fy1;
        for (int32_t cy = cy0; cy <= cy1; ++cy) {
            for (int32_t cx = cx0; cx <= cx1; ++cx) {
                const int32_t c = cy * g->nx + cx;
                for (int32_t t = g->start[c]; t < g->start[c + 1]; ++t) {
                    const float d = v2_abs_sq(v2_sub(g->item_pos[t], p));
                    if (!(d <= r_sq)) continue;
                    if (n == s->agents_cap &&
                        !rvo__grow(w, (void **)&s->agents, &s->agents_cap, n + 1, sizeof *s->agents))
                        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
                    s->agents[n].dist_sq = d;
                    s->agents[n].index = g->items[t];
                    s->agents[n].id = w->ids[g->items[t]];
                    ++n;
                }
            }
        }
    }
    qsort(s->agents, (size_t)n, sizeof *s->agents, cmp_neighbor);
    for (int32_t k = 0; k < n && k < cap; ++k) out[k] = s->agents[k].id;
    rvo__ok(w);
    return n;
}

/* ---- line of sight --------------------------------------------------------- */

/* Squared distance between segments p1-q1 and p2-q2 (0 when they cross),
 * in double: the answer decides visibility and should not flicker. */
static double seg_seg_dist_sq(double p1x, double p1y, double q1x, double q1y, double p2x, double p2y, double q2x,
                              double q2y) {
    const double d1x = q1x - p1x, d1y = q1y - p1y, d2x = q2x - p2x, d2y = q2y - p2y;
    const double rx = p1x - p2x, ry = p1y - p2y;
    /* proper crossing */
    const double den = d1x * d2y - d1y * d2x;
    if (den != 0) {
        /* p1 + s d1 = p2 + t d2, solved with cross products */
        const double s = -(rx * d2y - ry * d2x) / den;
        const double t = -(rx * d1y - ry * d1x) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) return 0;
    }
    /* otherwise the closest pair involves an endpoint */
    double best = INFINITY;
    const double pts[4][2] = {{p1x, p1y}, {q1x, q1y}, {p2x, p2y}, {q2x, q2y}};
    for (int k = 0; k < 4; ++k) {
        const double ax = k < 2 ? p2x : p1x, ay = k < 2 ? p2y : p1y;
        const double dx = k < 2 ? d2x : d1x, dy = k < 2 ? d2y : d1y;
        const double len = dx * dx + dy * dy;
        double t = len > 0 ? ((pts[k][0] - ax) * dx + (pts[k][1] - ay) * dy) / len : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const double ex = ax + t * dx - pts[k][0], ey = ay + t * dy - pts[k][1];
        const double d = ex * ex + ey * ey;
        if (d < best) best = d;
    }
    return best;
}

typedef struct los_query {
    const rvo_world *w;
    double x1, y1, x2, y2, clear_sq;
    bool blocked;
} los_query;

static void visit_los(void *ctx, int32_t e) {
    los_query *q = ctx;
    if (q->blocked) return;
    const rvo_vec2 a = q->w->verts[e].point, b = q->w->verts[q->w->verts[e].next].point;
    const double d = seg_seg_dist_sq(q->x1, q->y1, q->x2, q->y2, a.x, a.y, b.x, b.y);
    /* touching at exactly the clearance counts as visible (RVO2 uses >=) */
    if (q->clear_sq > 0 ? d < q->clear_sq : d == 0) q->blocked = true;
}

int rvo_world_line_of_sight(rvo_world *w, float x1, float y1, float x2, float y2, float clearance) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    char buf[64];
    const char *e;
    const float v[4] = {x1, y1, x2, y2};
    const char *names[4] = {"x1", "y1", "x2", "y2"};
    for (int k = 0; k < 4; ++k)
        if ((e = rvo__check_coord(names[k], v[k], buf, sizeof buf)))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, k + 1, "%s", e);
    if (!isfinite(clearance) || clearance < 0 || clearance > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 5, "clearance must be finite and >= 0");
    if (!rvo__prepare(w)) return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    los_query q = {w, x1, y1, x2, y2, (double)clearance * clearance, false};
    const float x0 = (x1 < x2 ? x1 : x2) - clearance, xh = (x1 < x2 ? x2 : x1) + clearance;
    const float y0 = (y1 < y2 ? y1 : y2) - clearance, yh = (y1 < y2 ? y2 : y1) + clearance;
    rvo__edge_grid_visit(w, &w->scratch[0], x0, y0, xh, yh, visit_los, &q);
    rvo__ok(w);
    return q.blocked ? 0 : 1;
}
