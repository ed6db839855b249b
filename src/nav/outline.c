/* Navmesh outline: the boundary of a 2D polygon mesh as closed loops for
 * rvo_world_add_obstacle (an edge used by one face lies on the
 * outline, one shared by two faces is inside).
 *
 * 1. vertices closer than epsilon become one (meshes repeat vertices);
 * 2. every face is wound counter-clockwise and gives its directed edges;
 *    an interior edge appears once in each direction and cancels;
 * 3. edges left over are split at the left-over vertices lying on them
 *    (T-junctions: one long edge against several short ones) and counted
 *    again, so that only true boundary edges stay;
 * 4. boundary edges are chained into loops with the walkable area on their
 *    left, choosing at a vertex shared by several loops the edge that keeps
 *    the loop around one wedge of area (first edge clockwise);
 * 5. points on straight runs are dropped and each loop is reversed: the
 *    outer boundary turns clockwise (an enclosure), holes counter-clockwise
 *    (solid), which is how rvo_world_add_obstacle reads winding.
 * Everything runs in input order, so the same mesh gives the same loops. */
#include "base/alloc.h"
#include "base/math.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VERTS_PER_POLY 32
#define PI_D 3.14159265358979323846

struct rvo_outline {
    float *xy;      /* all loops' points */
    int32_t *start; /* loop i is points start[i] .. start[i + 1] - 1 */
    uint8_t *hole;  /* 1 for holes */
    int32_t nloops;
};

typedef struct edge {
    int32_t a, b;
} edge;

typedef struct keyed_edge {
    int32_t lo, hi; /* the edge's vertices, ordered */
    int32_t dir;    /* +1 when it runs lo -> hi */
    int32_t order;  /* position in input order, for stable sorting */
} keyed_edge;

typedef struct cell_entry {
    int64_t cx, cy;
    int32_t v;
} cell_entry;

/* A sorted list of points by grid cell: the cheap spatial index used for
 * merging vertices and for finding T-junction vertices along edges. */
typedef struct point_grid {
    cell_entry *e;
    int32_t n;
    double cs;
} point_grid;

/* Growing array of edges. */
typedef struct edge_list {
    edge *e;
    int32_t n, cap;
} edge_list;

static bool push_edge(edge_list *l, int32_t a, int32_t b) {
    if (l->n == l->cap) {
        const int32_t cap = l->cap ? 2 * l->cap : 64;
        edge *e = realloc(l->e, sizeof *e * (size_t)cap);
        if (!e)
            return false;
        l->e = e;
        l->cap = cap;
    }
    l->e[l->n].a = a;
    l->e[l->n].b = b;
    ++l->n;
    return true;
}

static int64_t cell_of(double c, double cs) {
    double q = floor(c / cs);
    if (q > 4e18)
        q = 4e18;
    if (q < -4e18)
        q = -4e18;
    return (int64_t)q;
}

static int cmp_cell(const void *pa, const void *pb) {
    const cell_entry *a = pa, *b = pb;
    if (a->cx != b->cx)
        return a->cx < b->cx ? -1 : 1;
    if (a->cy != b->cy)
        return a->cy < b->cy ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Builds the grid over the points listed in vs (n of them). */
static bool grid_build(point_grid *g, const float *xy, const int32_t *vs, int32_t n, double cs) {
    g->n = n;
    g->cs = cs;
    g->e = malloc(sizeof *g->e * (size_t)(n > 0 ? n : 1));
    if (!g->e)
        return false;
    for (int32_t k = 0; k < n; ++k) {
        const int32_t v = vs ? vs[k] : k;
        g->e[k].cx = cell_of(xy[2 * v], cs);
        g->e[k].cy = cell_of(xy[2 * v + 1], cs);
        g->e[k].v = v;
    }
    qsort(g->e, (size_t)n, sizeof *g->e, cmp_cell);
    return true;
}

/* First entry of cell (cx, cy), or the index where it would be. */
static int32_t grid_find(const point_grid *g, int64_t cx, int64_t cy) {
    int32_t lo = 0, hi = g->n;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        const cell_entry *c = &g->e[mid];
        if (c->cx < cx || (c->cx == cx && c->cy < cy))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double dist_sq(const float *xy, int32_t i, int32_t j) {
    const double dx = (double)xy[2 * i] - xy[2 * j], dy = (double)xy[2 * i + 1] - xy[2 * j + 1];
    return dx * dx + dy * dy;
}

/* rep[i]: the vertex that stands for i, the lowest-numbered one within
 * epsilon of it (a vertex stands for itself when none is). */
static bool merge_vertices(const float *xy, int32_t n, double eps, int32_t *rep) {
    point_grid g;
    if (!grid_build(&g, xy, NULL, n, eps > 0 ? eps : 1.0))
        return false;
    const double eps2 = eps * eps;
    for (int32_t i = 0; i < n; ++i) {
        const int64_t cx = cell_of(xy[2 * i], g.cs), cy = cell_of(xy[2 * i + 1], g.cs);
        int32_t best = -1;
        for (int dx = -1; dx <= 1; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
                for (int32_t k = grid_find(&g, cx + dx, cy + dy);
                     k < g.n && g.e[k].cx == cx + dx && g.e[k].cy == cy + dy && g.e[k].v < i; ++k) {
                    const int32_t j = g.e[k].v;
                    if ((best < 0 || j < best) && dist_sq(xy, i, j) <= eps2)
                        best = j;
                }
            }
        }
        rep[i] = best < 0 ? i : rep[best];
    }
    free(g.e);
    return true;
}

static int cmp_keyed(const void *pa, const void *pb) {
    const keyed_edge *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Sorts the edges by their vertex pair. Returns NULL when out of memory. */
static keyed_edge *key_edges(const edge_list *l) {
    keyed_edge *k = malloc(sizeof *k * (size_t)(l->n > 0 ? l->n : 1));
    if (!k)
        return NULL;
    for (int32_t i = 0; i < l->n; ++i) {
        const int32_t a = l->e[i].a, b = l->e[i].b;
        k[i].lo = a < b ? a : b;
        k[i].hi = a < b ? b : a;
        k[i].dir = a < b ? 1 : -1;
        k[i].order = i;
    }
    qsort(k, (size_t)l->n, sizeof *k, cmp_keyed);
    return k;
}

typedef struct split_point {
    double t;
    int32_t v;
} split_point;

static int cmp_split(const void *pa, const void *pb) {
    const split_point *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Appends a -> b to out, split at every vertex of cand (n of them, indexed
 * by g) that lies on it within eps. sp is scratch for n split points. */
static bool split_edge(const float *xy, int32_t a, int32_t b, const int32_t *cand, int32_t ncand,
                       const point_grid *g, double eps, split_point *sp, edge_list *out) {
    const double ax = xy[2 * a], ay = xy[2 * a + 1], bx = xy[2 * b], by = xy[2 * b + 1];
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    int32_t nsp = 0;
    const int64_t cx0 = cell_of((ax < bx ? ax : bx) - eps, g->cs),
                  cx1 = cell_of((ax < bx ? bx : ax) + eps, g->cs);
    const int64_t cy0 = cell_of((ay < by ? ay : by) - eps, g->cs),
                  cy1 = cell_of((ay < by ? by : ay) + eps, g->cs);
    const double cells = ((double)cx1 - (double)cx0 + 1) * ((double)cy1 - (double)cy0 + 1);
    const bool scan_all = cells > (double)ncand; /* a long edge: cheaper to test every candidate */
    int64_t cx = cx0, cy = cy0;
    int32_t k = scan_all ? 0 : grid_find(g, cx, cy);
    for (;;) {
        int32_t v;
        if (scan_all) {
            if (k >= ncand)
                break;
            v = cand[k++];
        } else {
            if (k >= g->n || g->e[k].cx != cx || g->e[k].cy != cy) {
                if (++cy > cy1) {
                    cy = cy0;
                    if (++cx > cx1)
                        break;
                }
                k = grid_find(g, cx, cy);
                continue;
            }
            v = g->e[k++].v;
        }
        if (v == a || v == b || len2 <= 0)
            continue;
        const double px = xy[2 * v] - ax, py = xy[2 * v + 1] - ay;
        const double t = (px * dx + py * dy) / len2;
        if (!(t > 0 && t < 1))
            continue;
        const double cross = px * dy - py * dx; /* distance to the line times its length */
        if (cross * cross > eps * eps * len2)
            continue;
        sp[nsp].t = t;
        sp[nsp].v = v;
        ++nsp;
    }
    qsort(sp, (size_t)nsp, sizeof *sp, cmp_split);
    int32_t from = a;
    for (int32_t i = 0; i < nsp; ++i) {
        if (sp[i].v == from)
            continue;
        if (!push_edge(out, from, sp[i].v))
            return false;
        from = sp[i].v;
    }
    return push_edge(out, from, b);
}

static int cmp_edge(const void *pa, const void *pb) {
    const edge *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Clockwise angle (0, 2pi] from direction d0 to direction d1. */
static double cw_angle(double d0x, double d0y, double d1x, double d1y) {
    const double ccw = atan2(d0x * d1y - d0y * d1x, d0x * d1x + d0y * d1y);
    double cw = -ccw;
    if (cw <= 0)
        cw += 2 * PI_D;
    return cw;
}

static double loop_area2(const float *pts, int32_t n) {
    double a = 0;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t j = i + 1 == n ? 0 : i + 1;
        a += (double)pts[2 * i] * pts[2 * j + 1] - (double)pts[2 * j] * pts[2 * i + 1];
    }
    return a;
}

/* Drops points within eps of the line through their neighbours (and
 * between them), in place; returns the points left. */
static int32_t drop_collinear(float *pts, int32_t n, double eps) {
    bool changed = true;
    while (changed && n >= 3) {
        changed = false;
        int32_t m = 0;
        for (int32_t i = 0; i < n; ++i) {
            /* Neighbours: the last kept point and the next original one. */
            const float *p = m > 0 ? &pts[2 * (m - 1)] : &pts[2 * (n - 1)];
            const float *q = &pts[2 * (i + 1 == n ? 0 : i + 1)];
            const float *v = &pts[2 * i];
            const double ex = (double)q[0] - p[0], ey = (double)q[1] - p[1];
            const double vx = (double)v[0] - p[0], vy = (double)v[1] - p[1];
            const double len2 = ex * ex + ey * ey;
            const double cross = vx * ey - vy * ex, along = vx * ex + vy * ey;
            const bool drop = len2 == 0 || (cross * cross <= eps * eps * len2 && along >= 0 && along <= len2);
            if (drop && n - (i - m) > 3) {
                changed = true;
                continue;
            }
            pts[2 * m] = v[0];
            pts[2 * m + 1] = v[1];
            ++m;
        }
        n = m;
    }
    return n;
}

/* Checks every input; returns false with err filled. */
static bool check_input(const float *xy, int32_t nverts, const int32_t *polys, int32_t npolys, int32_t nvp,
                        float eps, rvo_error *err) {
    if (nverts < 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 2, "vertex count must be >= 0");
        return false;
    }
    if (nverts > INT32_MAX / 2) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 2, "too many vertices");
        return false;
    }
    if (!xy && nverts > 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1, "points are missing");
        return false;
    }
    if (npolys < 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 4, "polygon count must be >= 0");
        return false;
    }
    if (!polys && npolys > 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3, "polygons are missing");
        return false;
    }
    if (nvp < 3 || nvp > MAX_VERTS_PER_POLY) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 5, "verts_per_poly must be in [3, %d]",
                       MAX_VERTS_PER_POLY);
        return false;
    }
    if ((int64_t)npolys * nvp > INT32_MAX / 4) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 4, "too many polygons");
        return false;
    }
    if (!isfinite(eps) || eps < 0) {
        rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 6, "epsilon must be finite and >= 0");
        return false;
    }
    for (int32_t k = 0; k < 2 * nverts; ++k) {
        if (!rvo_isfinitef(xy[k]) || fabsf(xy[k]) > RVO_MAX_COORD) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 1,
                           "coordinate %d must be finite and within [-1e9, 1e9]", (int)k + 1);
            return false;
        }
    }
    for (int32_t p = 0; p < npolys; ++p) {
        int32_t used = 0;
        for (int32_t c = 0; c < nvp; ++c) {
            const int32_t k = p * nvp + c, v = polys[k];
            if (v == -1)
                continue;
            if (v < 0 || v >= nverts) {
                rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3,
                               "index %d refers to no vertex (there are %d)", (int)k + 1, (int)nverts);
                return false;
            }
            if (used != c) {
                rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3,
                               "polygon %d has padding before its last vertex", (int)p + 1);
                return false;
            }
            ++used;
        }
        if (used < 3) {
            rvo__error_set(err, RVO_ERR_INVALID_ARGUMENT, 3, "polygon %d has fewer than 3 vertices",
                           (int)p + 1);
            return false;
        }
    }
    if (nverts == 0 || npolys == 0) {
        rvo__error_set(err, RVO_ERR_DEGENERATE, 0, "the mesh is empty");
        return false;
    }
    return true;
}

/* Step 2: the directed edges of every face with area, wound
 * counter-clockwise. Returns the number of faces with area, -1 when out of
 * memory. */
static int32_t face_edges(const float *xy, const int32_t *polys, int32_t npolys, int32_t nvp,
                          const int32_t *rep, edge_list *out) {
    int32_t faces = 0;
    for (int32_t p = 0; p < npolys; ++p) {
        int32_t f[MAX_VERTS_PER_POLY], n = 0;
        for (int32_t c = 0; c < nvp && polys[p * nvp + c] != -1; ++c) {
            const int32_t v = rep[polys[p * nvp + c]];
            if (n == 0 || f[n - 1] != v)
                f[n++] = v;
        }
        while (n > 1 && f[n - 1] == f[0])
            --n;
        if (n < 3)
            continue;
        double area2 = 0;
        for (int32_t i = 0; i < n; ++i) {
            const int32_t a = f[i], b = f[i + 1 == n ? 0 : i + 1];
            area2 += (double)xy[2 * a] * xy[2 * b + 1] - (double)xy[2 * b] * xy[2 * a + 1];
        }
        if (area2 == 0)
            continue;
        ++faces;
        for (int32_t i = 0; i < n; ++i) {
            const int32_t a = f[i], b = f[i + 1 == n ? 0 : i + 1];
            if (!(area2 > 0 ? push_edge(out, a, b) : push_edge(out, b, a)))
                return -1;
        }
    }
    return faces;
}

/* Net count of each vertex pair in l. keep_all: add every edge of a pair
 * whose count does not cancel to out (for splitting); otherwise add the
 * pair once in its net direction (boundary edges). Returns 1, 0 when a
 * pair counts twice or more the same way (overlap), -1 when out of memory. */
static int net_edges(const edge_list *l, bool keep_all, edge_list *out) {
    keyed_edge *k = key_edges(l);
    if (!k)
        return -1;
    int result = 1;
    for (int32_t i = 0; i < l->n && result == 1;) {
        int32_t j = i, net = 0;
        while (j < l->n && k[j].lo == k[i].lo && k[j].hi == k[i].hi)
            net += k[j++].dir;
        if (net != 0) {
            if (keep_all) {
                for (int32_t m = i; m < j && result == 1; ++m)
                    if (!push_edge(out, l->e[k[m].order].a, l->e[k[m].order].b))
                        result = -1;
            } else if (net > 1 || net < -1) {
                result = 0;
            } else if (!push_edge(out, net > 0 ? k[i].lo : k[i].hi, net > 0 ? k[i].hi : k[i].lo)) {
                result = -1;
            }
        }
        i = j;
    }
    free(k);
    return result;
}

static int cmp_int32(const void *pa, const void *pb) {
    const int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* Step 3: open edges split at the open vertices lying on them. */
static bool split_open_edges(const float *xy, const edge_list *open, double eps, edge_list *out) {
    int32_t *cand = malloc(sizeof *cand * (size_t)(2 * open->n + 1));
    if (!cand)
        return false;
    double total_len = 0;
    for (int32_t i = 0; i < open->n; ++i) {
        cand[2 * i] = open->e[i].a;
        cand[2 * i + 1] = open->e[i].b;
        total_len += sqrt(dist_sq(xy, open->e[i].a, open->e[i].b));
    }
    qsort(cand, (size_t)(2 * open->n), sizeof *cand, cmp_int32);
    int32_t ncand = 0;
    for (int32_t i = 0; i < 2 * open->n; ++i)
        if (ncand == 0 || cand[ncand - 1] != cand[i])
            cand[ncand++] = cand[i];
    double cs = open->n > 0 ? total_len / open->n : 1.0;
    if (cs < eps)
        cs = eps;
    if (!(cs > 0))
        cs = 1.0;
    point_grid g;
    split_point *sp = malloc(sizeof *sp * (size_t)(ncand + 1));
    bool ok = sp && grid_build(&g, xy, cand, ncand, cs);
    if (ok) {
        for (int32_t i = 0; i < open->n && ok; ++i)
            ok = split_edge(xy, open->e[i].a, open->e[i].b, cand, ncand, &g, eps, sp, out);
        free(g.e);
    }
    free(sp);
    free(cand);
    return ok;
}

/* Step 4 and 5: loops from the boundary edges (sorted by start vertex). */
static bool chain_loops(const float *xy, int32_t nverts, edge_list *bnd, double eps, rvo_outline *o) {
    qsort(bnd->e, (size_t)bnd->n, sizeof *bnd->e, cmp_edge);
    int32_t *first =
        calloc((size_t)nverts + 1, sizeof *first); /* out-edges of v: first[v] .. first[v + 1] - 1 */
    uint8_t *used = calloc((size_t)bnd->n + 1, 1);
    float *pts = malloc(sizeof *pts * (size_t)(2 * bnd->n + 2));
    o->xy = malloc(sizeof *o->xy * (size_t)(2 * bnd->n + 2));
    o->start = malloc(sizeof *o->start * (size_t)(bnd->n + 2));
    o->hole = malloc((size_t)bnd->n + 1);
    bool ok = first && used && pts && o->xy && o->start && o->hole;
    if (ok) {
        for (int32_t i = 0; i < bnd->n; ++i)
            first[bnd->e[i].a + 1]++;
        for (int32_t v = 0; v < nverts; ++v)
            first[v + 1] += first[v];
        int32_t total = 0;
        o->start[0] = 0;
        for (int32_t s = 0; s < bnd->n; ++s) {
            if (used[s])
                continue;
            int32_t n = 0, e = s;
            bool closed = false;
            while (n <= bnd->n) {
                used[e] = 1;
                const int32_t from = bnd->e[e].a, v = bnd->e[e].b;
                pts[2 * n] = xy[2 * from];
                pts[2 * n + 1] = xy[2 * from + 1];
                ++n;
                const double bx = (double)xy[2 * from] - xy[2 * v],
                             by = (double)xy[2 * from + 1] - xy[2 * v + 1];
                int32_t next = -1;
                double best = 0;
                for (int32_t c = first[v]; c < first[v + 1]; ++c) {
                    if (used[c] && c != s)
                        continue;
                    const int32_t w = bnd->e[c].b;
                    const double ang = cw_angle(bx, by, (double)xy[2 * w] - xy[2 * v],
                                                (double)xy[2 * w + 1] - xy[2 * v + 1]);
                    if (next < 0 || ang < best) {
                        next = c;
                        best = ang;
                    }
                }
                if (next == s) {
                    closed = true;
                    break;
                }
                if (next < 0)
                    break; /* cannot happen with balanced counts; drop the chain */
                e = next;
            }
            if (!closed)
                continue;
            n = drop_collinear(pts, n, eps);
            if (n < 3)
                continue;
            const double area2 = loop_area2(pts, n);
            if (area2 == 0)
                continue;
            /* Reversed: walkable area on the right, as obstacles want it. */
            for (int32_t i = 0; i < n; ++i) {
                o->xy[2 * (total + i)] = pts[2 * (n - 1 - i)];
                o->xy[2 * (total + i) + 1] = pts[2 * (n - 1 - i) + 1];
            }
            o->hole[o->nloops] = area2 < 0; /* clockwise with the area on the left: a hole */
            total += n;
            o->start[++o->nloops] = total;
        }
    }
    free(first);
    free(used);
    free(pts);
    return ok;
}

rvo_outline *rvo_outline_build(const float *xy, int32_t nverts, const int32_t *polys, int32_t npolys,
                               int32_t verts_per_poly, float epsilon, rvo_error *err) {
    rvo__error_ok(err);
    if (!check_input(xy, nverts, polys, npolys, verts_per_poly, epsilon, err))
        return NULL;
    const double eps = epsilon;
    int32_t *rep = malloc(sizeof *rep * (size_t)nverts);
    edge_list faces = {0}, open = {0}, split = {0}, bnd = {0};
    rvo_outline *o = calloc(1, sizeof *o);
    rvo_status st = RVO_ERR_OUT_OF_MEMORY;
    const char *why = "out of memory";
    if (!rep || !o || !merge_vertices(xy, nverts, eps, rep))
        goto fail;
    const int32_t nfaces = face_edges(xy, polys, npolys, verts_per_poly, rep, &faces);
    if (nfaces < 0)
        goto fail;
    if (nfaces == 0) {
        st = RVO_ERR_DEGENERATE;
        why = "no polygon has an area";
        goto fail;
    }
    if (net_edges(&faces, true, &open) < 0 || !split_open_edges(xy, &open, eps, &split))
        goto fail;
    const int r = net_edges(&split, false, &bnd);
    if (r < 0)
        goto fail;
    if (r == 0) {
        st = RVO_ERR_DEGENERATE;
        why = "polygons overlap (an edge is covered twice from the same side)";
        goto fail;
    }
    if (!chain_loops(xy, nverts, &bnd, eps, o))
        goto fail;
    if (o->nloops == 0) {
        st = RVO_ERR_DEGENERATE;
        why = "the outline has no loop with an area";
        goto fail;
    }
    free(rep);
    free(faces.e);
    free(open.e);
    free(split.e);
    free(bnd.e);
    return o;
fail:
    rvo__error_set(err, st, 0, "%s", why);
    free(rep);
    free(faces.e);
    free(open.e);
    free(split.e);
    free(bnd.e);
    rvo_outline_destroy(o);
    return NULL;
}

void rvo_outline_destroy(rvo_outline *o) {
    if (!o)
        return;
    free(o->xy);
    free(o->start);
    free(o->hole);
    free(o);
}

int32_t rvo_outline_loop_count(const rvo_outline *o) { return o ? o->nloops : 0; }

const float *rvo_outline_loop(const rvo_outline *o, int32_t i, int32_t *n) {
    if (!o || i < 0 || i >= o->nloops) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = o->start[i + 1] - o->start[i];
    return &o->xy[2 * o->start[i]];
}

int rvo_outline_loop_is_hole(const rvo_outline *o, int32_t i) {
    if (!o || i < 0 || i >= o->nloops)
        return -1;
    return o->hole[i];
}
