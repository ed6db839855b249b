/* Queries on the current positions: neighbours, agents in a radius, line
 * of sight against obstacles. They reuse the first worker's scratch and
 * rebuild an index only when something moved since it was built. */
#include "index/grid.h"
#include "index/scratch.h"
#include "world/world.h"

#include <stdlib.h>
#include <string.h>

int32_t rvo_world_query_neighbors(rvo_world *w, rvo_agent_id id, rvo_agent_id *out, int32_t cap) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t i = rvo__slot_lookup(&w->agent_slots, id);
    if (i < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed agent id");
    if (cap < 0 || (cap > 0 && !out))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "bad output buffer");
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    neighbor *nb = w->scratch[0].agents;
    const int32_t n = rvo__agent_neighbors(w, i, nb);
    for (int32_t k = 0; k < n && k < cap; ++k)
        out[k] = w->ids[nb[k].index];
    rvo__ok(w);
    return n;
}

static int cmp_neighbor(const void *a, const void *b) {
    const neighbor *x = a, *y = b;
    if (x->dist_sq != y->dist_sq)
        return x->dist_sq < y->dist_sq ? -1 : 1;
    return x->mark < y->mark ? -1 : x->mark > y->mark; /* (the ids) */
}

/* The arguments of a query around (x, y) within r into a buffer of cap;
 * RVO_OK, or the failure reported. */
static rvo_status check_circle(rvo_world *w, float x, float y, float r, int32_t cap, bool has_out) {
    char buf[64];
    const char *e;
    if ((e = rvo__check_coord("x", x, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "%s", e);
    if ((e = rvo__check_coord("y", y, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "%s", e);
    if (!isfinite(r) || r < 0 || r > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "radius must be within [0, 1e9]");
    if (cap < 0 || (cap > 0 && !has_out))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "bad output buffer");
    return RVO_OK;
}

int32_t rvo_world_query_radius(rvo_world *w, float x, float y, float r, rvo_agent_id *out, int32_t cap) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const rvo_status bad = check_circle(w, x, y, r, cap, out != NULL);
    if (bad != RVO_OK)
        return bad;
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    const agent_grid *g = &w->grid;
    const rvo_vec2 p = v2(x, y);
    const float r_sq = r * r;
    /* Collect into the first worker's neighbour buffer, grown as needed. */
    scratch *s = &w->scratch[0];
    int32_t n = 0;
    if (w->count > 0) {
        const grid_cells b = rvo__grid_cells(g, x, y, r); /* agents may be filed up to slack away */
        for (int32_t cy = b.cy0; cy <= b.cy1; ++cy) {
            for (int32_t cx = b.cx0; cx <= b.cx1; ++cx) {
                const int32_t c = cy * g->nx + cx;
                for (int32_t t = g->start[c]; t < g->start[c + 1]; ++t) {
                    const float d = v2_abs_sq(v2_sub(g->item_pos[t], p));
                    if (!(d <= r_sq))
                        continue;
                    if (n == s->agents_cap &&
                        !rvo__grow(w, (void **)&s->agents, &s->agents_cap, n + 1, sizeof *s->agents))
                        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
                    s->agents[n].dist_sq = d;
                    s->agents[n].index = g->items[t];
                    s->agents[n].mark = w->ids[g->items[t]];
                    ++n;
                }
            }
        }
    }
    qsort(s->agents, (size_t)n, sizeof *s->agents, cmp_neighbor);
    for (int32_t k = 0; k < n && k < cap; ++k)
        out[k] = s->agents[k].mark;
    rvo__ok(w);
    return n;
}

/* ---- line of sight --------------------------------------------------------- */

/* ---- obstacles near a point ------------------------------------------------ */

typedef struct obst_hit {
    double dist_sq; /* to the obstacle's nearest edge */
    rvo_obstacle_id id;
} obst_hit;

typedef struct obst_near_query {
    const rvo_world *w;
    double x, y;
    obst_hit *best; /* per obstacle, dense order */
} obst_near_query;

static void visit_obst_near(void *ctx, int32_t e) {
    obst_near_query *q = ctx;
    const obst_vertex *v = &q->w->verts[e];
    const rvo_vec2 a = v->point, b = q->w->verts[v->next].point;
    const double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    const double px = q->x - a.x, py = q->y - a.y, len = dx * dx + dy * dy;
    double t = len > 0 ? (px * dx + py * dy) / len : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const double ex = px - t * dx, ey = py - t * dy, d = ex * ex + ey * ey;
    if (d < q->best[v->obstacle].dist_sq)
        q->best[v->obstacle].dist_sq = d;
}

static int cmp_obst_hit(const void *a, const void *b) {
    const obst_hit *x = a, *y = b;
    if (x->dist_sq != y->dist_sq)
        return x->dist_sq < y->dist_sq ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

int32_t rvo_world_query_obstacles(rvo_world *w, float x, float y, float r, rvo_obstacle_id *out,
                                  int32_t cap) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const rvo_status bad = check_circle(w, x, y, r, cap, out != NULL);
    if (bad != RVO_OK)
        return bad;
    if (w->obst_count == 0) {
        rvo__ok(w);
        return 0;
    }
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    const size_t size = sizeof(obst_hit) * (size_t)w->obst_count;
    obst_hit *best = rvo__realloc(w, NULL, 0, size);
    if (!best)
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (int32_t k = 0; k < w->obst_count; ++k) {
        best[k].dist_sq = INFINITY;
        best[k].id = w->obst[k].id;
    }
    obst_near_query q = {w, x, y, best};
    rvo__edge_grid_visit(w, &w->scratch[0], x - r, y - r, x + r, y + r, visit_obst_near, &q);
    const double r_sq = (double)r * r;
    int32_t n = 0;
    for (int32_t k = 0; k < w->obst_count; ++k)
        if (best[k].dist_sq <= r_sq)
            best[n++] = best[k];
    qsort(best, (size_t)n, sizeof *best, cmp_obst_hit);
    for (int32_t k = 0; k < n && k < cap; ++k)
        out[k] = best[k].id;
    rvo__realloc(w, best, size, 0);
    rvo__ok(w);
    return n;
}

/* Squared distance between segments p1-q1 and p2-q2 (0 when they cross),
 * in double: the answer decides visibility and should not flicker. */
static double seg_seg_dist_sq(double p1x, double p1y, double q1x, double q1y, double p2x, double p2y,
                              double q2x, double q2y) {
    const double d1x = q1x - p1x, d1y = q1y - p1y, d2x = q2x - p2x, d2y = q2y - p2y;
    const double rx = p1x - p2x, ry = p1y - p2y;
    /* proper crossing */
    const double den = d1x * d2y - d1y * d2x;
    if (den != 0) {
        /* p1 + s d1 = p2 + t d2, solved with cross products */
        const double s = -(rx * d2y - ry * d2x) / den;
        const double t = -(rx * d1y - ry * d1x) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1)
            return 0;
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
        if (d < best)
            best = d;
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
    if (q->blocked)
        return;
    const rvo_vec2 a = q->w->verts[e].point, b = q->w->verts[q->w->verts[e].next].point;
    const double d = seg_seg_dist_sq(q->x1, q->y1, q->x2, q->y2, a.x, a.y, b.x, b.y);
    /* touching at exactly the clearance counts as visible (RVO2 uses >=) */
    if (q->clear_sq > 0 ? d < q->clear_sq : d == 0)
        q->blocked = true;
}

int rvo_world_line_of_sight(rvo_world *w, float x1, float y1, float x2, float y2, float clearance) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    char buf[64];
    const char *e;
    const float v[4] = {x1, y1, x2, y2};
    const char *names[4] = {"x1", "y1", "x2", "y2"};
    for (int k = 0; k < 4; ++k)
        if ((e = rvo__check_coord(names[k], v[k], buf, sizeof buf)))
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, k + 1, "%s", e);
    if (!isfinite(clearance) || clearance < 0 || clearance > RVO_MAX_COORD)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 5, "clearance must be within [0, 1e9]");
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    los_query q = {w, x1, y1, x2, y2, (double)clearance * clearance, false};
    const float x0 = (x1 < x2 ? x1 : x2) - clearance, xh = (x1 < x2 ? x2 : x1) + clearance;
    const float y0 = (y1 < y2 ? y1 : y2) - clearance, yh = (y1 < y2 ? y2 : y1) + clearance;
    rvo__edge_grid_visit(w, &w->scratch[0], x0, y0, xh, yh, visit_los, &q);
    rvo__ok(w);
    return q.blocked ? 0 : 1;
}

/* ---- ray cast ---------------------------------------------------------------- */

/* Smallest t in [0, tmax] where o + t d (|d| = 1) is within r of c, with
 * o outside that disc; -1 when none. */
static double ray_circle(double ox, double oy, double dx, double dy, double cx, double cy, double r,
                         double tmax) {
    const double fx = ox - cx, fy = oy - cy;
    const double b = fx * dx + fy * dy, c = fx * fx + fy * fy - r * r;
    if (c <= 0)
        return -1; /* starts inside */
    const double disc = b * b - c;
    if (disc < 0)
        return -1;
    const double t = -b - sqrt(disc);
    return t >= 0 && t <= tmax ? t : -1;
}

typedef struct ray_query {
    const rvo_world *w;
    double ox, oy, dx, dy, tmax, clear;
    double best;
    rvo_ray_hit *hit;
    bool found;
} ray_query;

static void ray_take(ray_query *q, double t, double nx, double ny, rvo_agent_id agent, rvo_obstacle_id obst) {
    /* nearest wins; ties: obstacles before agents, then lower id */
    if (q->found) {
        if (t > q->best)
            return;
        if (t == q->best) {
            const bool better = (obst && !q->hit->obstacle) ||
                                (obst && q->hit->obstacle && obst < q->hit->obstacle) ||
                                (!obst && !q->hit->obstacle && agent < q->hit->agent);
            if (!better)
                return;
        }
    }
    const double len = sqrt(nx * nx + ny * ny);
    q->found = true;
    q->best = t;
    q->hit->distance = (float)t;
    q->hit->point = v2((float)(q->ox + t * q->dx), (float)(q->oy + t * q->dy));
    q->hit->normal = len > 0 ? v2((float)(nx / len), (float)(ny / len)) : v2((float)-q->dx, (float)-q->dy);
    q->hit->agent = agent;
    q->hit->obstacle = obst;
}

static void visit_ray_edge(void *ctx, int32_t e) {
    ray_query *q = ctx;
    const obst_vertex *v = &q->w->verts[e];
    const rvo_vec2 a = v->point, b = q->w->verts[v->next].point;
    const rvo_obstacle_id oid = q->w->obst[v->obstacle].id;
    const double ax = a.x, ay = a.y, ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    const double len = sqrt(ex * ex + ey * ey);
    if (!(len > 0))
        return;
    /* Already within the clearance at the start: hit at 0. */
    {
        double t = ((q->ox - ax) * ex + (q->oy - ay) * ey) / (len * len);
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const double px = q->ox - (ax + t * ex), py = q->oy - (ay + t * ey);
        if (px * px + py * py <= q->clear * q->clear) {
            ray_take(q, 0, px, py, 0, oid);
            return;
        }
    }
    /* The two sides of the capsule: the segment offset by the clearance. */
    double nx = -ey / len, ny = ex / len;
    if (nx * (q->ox - ax) + ny * (q->oy - ay) < 0)
        nx = -nx, ny = -ny; /* side facing the start */
    const double sx = ax + nx * q->clear, sy = ay + ny * q->clear;
    const double den = q->dx * ey - q->dy * ex;
    if (den != 0) {
        /* o + t d = s + u e */
        const double rx = sx - q->ox, ry = sy - q->oy;
        const double t = (rx * ey - ry * ex) / den;
        const double u = (rx * q->dy - ry * q->dx) / den;
        if (t >= 0 && t <= q->tmax && u >= 0 && u <= 1)
            ray_take(q, t, nx, ny, 0, oid);
    }
    /* The two round ends. */
    if (q->clear > 0) {
        const double ends[2][2] = {{ax, ay}, {(double)b.x, (double)b.y}};
        for (int k = 0; k < 2; ++k) {
            const double t =
                ray_circle(q->ox, q->oy, q->dx, q->dy, ends[k][0], ends[k][1], q->clear, q->tmax);
            if (t >= 0)
                ray_take(q, t, q->ox + t * q->dx - ends[k][0], q->oy + t * q->dy - ends[k][1], 0, oid);
        }
    }
}

/* floor(v) clamped to [lo, hi] without overflowing the cast. */
static int32_t cell_clamp(double v, int32_t lo, int32_t hi) {
    const double f = floor(v);
    return f < lo ? lo : f > hi ? hi : (int32_t)f;
}

/* What is wrong with a ray's numbers (NULL: nothing); *arg: which one
 * (x 1, y 2, dx 3, dy 4, max_dist 5, clearance 6). */
static const char *ray_fault(float x, float y, float dx, float dy, float max_dist, float clearance, int *arg,
                             char *buf, size_t n) {
    const char *e;
    const float v[4] = {x, y, dx, dy};
    const char *names[4] = {"x", "y", "dx", "dy"};
    for (int k = 0; k < 4; ++k)
        if ((e = rvo__check_coord(names[k], v[k], buf, n))) {
            *arg = k + 1;
            return e;
        }
    *arg = 3;
    if (!(sqrt((double)dx * dx + (double)dy * dy) > 0))
        return "direction must not be zero";
    *arg = 5;
    if (!isfinite(max_dist) || max_dist < 0 || max_dist > RVO_MAX_COORD)
        return "max_dist must be within [0, 1e9]";
    *arg = 6;
    if (!isfinite(clearance) || clearance < 0 || clearance > RVO_MAX_COORD)
        return "clearance must be within [0, 1e9]";
    return NULL;
}

/* One cast of a checked ray in a prepared world: 1 hit, 0 none.
 * point_blank: agents whose (grown) disc holds the start are hit at 0, all
 * but `ignore`; otherwise they are all skipped (the caster's own disc). */
static int ray_run(rvo_world *w, float x, float y, float dx, float dy, float max_dist, float clearance,
                   uint32_t mask, bool point_blank, rvo_agent_id ignore, rvo_ray_hit *hit) {
    const double dlen = sqrt((double)dx * dx + (double)dy * dy);
    ray_query q = {w, x, y, dx / dlen, dy / dlen, max_dist, clearance, INFINITY, hit, false};
    memset(hit, 0, sizeof *hit);
    const double ex = x + q.dx * max_dist, ey = y + q.dy * max_dist;
    const float pad =
        clearance + w->grid.max_radius + w->grid.slack; /* (slack: agents filed where they were) */
    const float bx0 = (float)(x < ex ? x : ex) - pad, bx1 = (float)(x < ex ? ex : x) + pad;
    const float by0 = (float)(y < ey ? y : ey) - pad, by1 = (float)(y < ey ? ey : y) + pad;
    rvo__edge_grid_visit(w, &w->scratch[0], bx0, by0, bx1, by1, visit_ray_edge, &q);
    const agent_grid *g = &w->grid;
    if (mask != 0 && w->count > 0) {
        /* a box beyond an edge of the grid gives an empty range */
        const int32_t cx0 = cell_clamp((bx0 - g->ox) * g->inv_cell, 0, g->nx);
        const int32_t cx1 = cell_clamp((bx1 - g->ox) * g->inv_cell, -1, g->nx - 1);
        const int32_t cy0 = cell_clamp((by0 - g->oy) * g->inv_cell, 0, g->ny);
        const int32_t cy1 = cell_clamp((by1 - g->oy) * g->inv_cell, -1, g->ny - 1);
        for (int32_t cy = cy0; cy <= cy1; ++cy)
            for (int32_t cx = cx0; cx <= cx1; ++cx) {
                const int32_t c = cy * g->nx + cx;
                for (int32_t t = g->start[c]; t < g->start[c + 1]; ++t) {
                    const int32_t j = g->items[t];
                    if (!(w->prm[j].groups & mask))
                        continue;
                    const rvo_vec2 p = g->item_pos[t];
                    const double reach = (double)w->prm[j].radius + clearance;
                    if (point_blank) {
                        if (w->ids[j] == ignore)
                            continue;
                        const double fx = q.ox - p.x, fy = q.oy - p.y;
                        if (fx * fx + fy * fy <= reach * reach) { /* touching at the start */
                            ray_take(&q, 0, fx, fy, w->ids[j], 0);
                            continue;
                        }
                    }
                    const double tt = ray_circle(q.ox, q.oy, q.dx, q.dy, p.x, p.y, reach, q.tmax);
                    if (tt >= 0)
                        ray_take(&q, tt, q.ox + tt * q.dx - p.x, q.oy + tt * q.dy - p.y, w->ids[j], 0);
                }
            }
    }
    return q.found ? 1 : 0;
}

static int ray_cast(rvo_world *w, float x, float y, float dx, float dy, float max_dist, float clearance,
                    uint32_t mask, bool point_blank, rvo_agent_id ignore, rvo_ray_hit *hit) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    char buf[64];
    int arg;
    const char *e = ray_fault(x, y, dx, dy, max_dist, clearance, &arg, buf, sizeof buf);
    if (e)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, arg, "%s", e);
    if (!hit)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, point_blank ? 9 : 8, "hit is NULL");
    if (point_blank && ignore && rvo__slot_lookup(&w->agent_slots, ignore) < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 8, "unknown or removed agent id");
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    const int r = ray_run(w, x, y, dx, dy, max_dist, clearance, mask, point_blank, ignore, hit);
    rvo__ok(w);
    return r;
}

int rvo_world_ray_cast(rvo_world *w, float x, float y, float dx, float dy, float max_dist, float clearance,
                       uint32_t mask, rvo_ray_hit *hit) {
    return ray_cast(w, x, y, dx, dy, max_dist, clearance, mask, false, 0, hit);
}

int rvo_world_ray_cast_from(rvo_world *w, float x, float y, float dx, float dy, float max_dist,
                            float clearance, uint32_t mask, rvo_agent_id ignore, rvo_ray_hit *hit) {
    return ray_cast(w, x, y, dx, dy, max_dist, clearance, mask, true, ignore, hit);
}

int32_t rvo_world_ray_casts(rvo_world *w, const float *rays, int32_t n, uint32_t mask, rvo_ray_hit *hits) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    if (n < 0)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "n must be >= 0");
    if (n > 0 && !rays)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "rays is NULL");
    if (n > 0 && !hits)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "hits is NULL");
    char buf[64];
    for (int32_t k = 0; k < n; ++k) {
        const float *r = rays + 6 * (size_t)k;
        int arg;
        const char *e = ray_fault(r[0], r[1], r[2], r[3], r[4], r[5], &arg, buf, sizeof buf);
        if (e)
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 1, "ray %ld: %s", (long)k + 1, e);
    }
    if (!rvo__prepare(w))
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    int32_t found = 0;
    for (int32_t k = 0; k < n; ++k) {
        const float *r = rays + 6 * (size_t)k;
        found += ray_run(w, r[0], r[1], r[2], r[3], r[4], r[5], mask, false, 0, &hits[k]);
    }
    rvo__ok(w);
    return found;
}
