/* Obstacles: polygons and polylines stored as RVO2's rings of vertices,
 * added and removed at any time. Vertices stay in insertion order so that
 * ties between equally distant edges break the same way in every run. */
#include "world/world.h"

#include <string.h>

#define RVO_MIN_EDGE 1e-6f /* obstacle points closer than this [m] are merged */

/* RVO2's leftOf: > 0 when c is left of the line a->b. */
static float left_of(rvo_vec2 a, rvo_vec2 b, rvo_vec2 c) { return v2_det(v2_sub(a, c), v2_sub(b, a)); }

/* Points closer than RVO_MIN_EDGE count as one (an edge whose
 * squared length underflows has no direction). */
static bool too_close(rvo_vec2 a, rvo_vec2 b) {
    return v2_abs_sq(v2_sub(a, b)) < RVO_MIN_EDGE * RVO_MIN_EDGE;
}

rvo_obstacle_id rvo_world_add_obstacle(rvo_world *w, const float *xy, int32_t n, bool closed) {
    return rvo_world_add_obstacle_side(w, xy, n, closed, RVO_SIDE_WINDING);
}

/* A ring built from the caller's points: merged, checked, wound for its
 * side, an open polyline doubled back. pts holds m points (pts_size bytes,
 * freed by the caller). */
typedef struct ring {
    rvo_vec2 *pts;
    size_t pts_size;
    int32_t m;
    bool closed, enclosure;
} ring;

/* Builds the ring of n points at xy (argument xy_arg of the failing call);
 * a failing status (and the world's error set) when they make no obstacle. */
static rvo_status build_ring(rvo_world *w, const float *xy, int32_t n, bool closed, rvo_obstacle_side side,
                             int xy_arg, ring *r) {
    r->pts = NULL;
    r->pts_size = 0;
    if (!xy || n < 0) {
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, xy_arg, "points are missing");
    }
    for (int32_t k = 0; k < 2 * n; ++k) {
        if (!rvo_isfinitef(xy[k]) || fabsf(xy[k]) > RVO_MAX_COORD) {
            return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, xy_arg,
                             "coordinate %d must be finite and within [-1e9, 1e9]", (int)k + 1);
        }
    }
    /* Merge repeated consecutive points (and a closing repeat of the first). */
    int32_t m = 0;
    const size_t pts_size = sizeof(rvo_vec2) * (size_t)(2 * (n > 0 ? n : 1)); /* freed with its size */
    rvo_vec2 *pts = rvo__realloc(w, NULL, 0, pts_size);
    if (!pts) {
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    for (int32_t k = 0; k < n; ++k) {
        rvo_vec2 p = v2(xy[2 * k], xy[2 * k + 1]);
        if (m > 0 && too_close(p, pts[m - 1]))
            continue;
        pts[m++] = p;
    }
    if (closed && m > 1 && too_close(pts[0], pts[m - 1]))
        --m;
    if (m < 2) {
        rvo__realloc(w, pts, pts_size, 0);
        return rvo__fail(w, RVO_ERR_DEGENERATE, xy_arg, "an obstacle needs at least 2 distinct points");
    }
    if (m == 2)
        closed = false; /* a segment, blocking from both sides (as RVO2) */
    bool enclosure = false;
    if (closed) {
        double area2 = 0; /* shoelace, in double so that thin polygons are judged fairly */
        for (int32_t k = 0; k < m; ++k) {
            const rvo_vec2 a = pts[k], b = pts[(k + 1) % m];
            area2 += (double)a.x * b.y - (double)b.x * a.y;
        }
        if (area2 == 0) {
            rvo__realloc(w, pts, pts_size, 0);
            return rvo__fail(w, RVO_ERR_DEGENERATE, xy_arg,
                             "a closed obstacle needs a non-zero area (use closed = false for a line)");
        }
        /* Edges block from their right: a solid runs counter-clockwise, an
         * enclosure clockwise. Reversed after the first point, which stays. */
        if ((side == RVO_SIDE_SOLID && area2 < 0) || (side == RVO_SIDE_ENCLOSURE && area2 > 0)) {
            for (int32_t i = 1, j = m - 1; i < j; ++i, --j) {
                const rvo_vec2 t = pts[i];
                pts[i] = pts[j];
                pts[j] = t;
            }
        }
        enclosure = side == RVO_SIDE_ENCLOSURE || (side == RVO_SIDE_WINDING && area2 < 0);
    } else if (m > 2) {
        /* An open polyline is the closed ring p0..pm-1, pm-2..p1. */
        for (int32_t k = m - 2; k >= 1; --k)
            pts[2 * m - 2 - k] = pts[k];
        m = 2 * m - 2;
    }
    r->pts = pts;
    r->pts_size = pts_size;
    r->m = m;
    r->closed = closed;
    r->enclosure = enclosure;
    return RVO_OK;
}

/* Writes ring r into verts[first ..] for the obstacle of dense index oi. */
static void write_ring(rvo_world *w, const ring *r, int32_t first, int32_t oi) {
    const int32_t m = r->m;
    const rvo_vec2 *pts = r->pts;
    for (int32_t k = 0; k < m; ++k) {
        obst_vertex *v = &w->verts[first + k];
        const int32_t kn = k == m - 1 ? 0 : k + 1, kp = k == 0 ? m - 1 : k - 1;
        v->point = pts[k];
        v->next = first + kn;
        v->prev = first + kp;
        v->obstacle = oi;
        v->unit_dir = v2_normalize(v2_sub(pts[kn], pts[k]));
        v->convex = m == 2 ? 1 : left_of(pts[kp], pts[k], pts[kn]) >= 0.0f;
    }
}

/* Is p inside the polygon of m points at pts (crossing number; either
 * winding)? */
static bool inside_points(const rvo_vec2 *pts, int32_t m, rvo_vec2 p) {
    bool in = false;
    for (int32_t k = 0, j = m - 1; k < m; j = k++) {
        const rvo_vec2 a = pts[j], b = pts[k];
        if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x))
            in = !in;
    }
    return in;
}

bool rvo__obstacle_contains(const rvo_world *w, const obstacle *ob, rvo_vec2 p) {
    bool in = false;
    for (int32_t k = ob->first; k < ob->first + ob->count; ++k) {
        const rvo_vec2 a = w->verts[k].point, b = w->verts[w->verts[k].next].point;
        if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x))
            in = !in;
    }
    return in;
}

/* Would agent i be on the blocked side of closed obstacle o once its ring
 * is r: inside a solid, or outside an enclosure it is inside now? */
static bool left_blocked(const rvo_world *w, const obstacle *o, const ring *r, const float box[4],
                         int32_t i) {
    const rvo_vec2 p = w->pos[i];
    if (p.x < box[0] || p.y < box[1] || p.x > box[2] || p.y > box[3] ||
        !obst_on_floor(o, w->prm[i].z, w->prm[i].height, w->height_margin))
        return false;
    const bool in_new = inside_points(r->pts, r->m, p);
    return r->enclosure ? !in_new && rvo__obstacle_contains(w, o, p) : in_new;
}

/* Files the agents that obstacle o's new ring r leaves on its blocked side
 * as traps (w->traps), once each; false (nothing changed) when out of
 * memory. */
static bool file_traps(rvo_world *w, const obstacle *o, const ring *r) {
    if (!r->closed || w->count == 0)
        return true;
    /* only agents within the new ring's box (a solid) or the old one's (an
     * enclosure) can be left on the blocked side */
    float box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (int32_t k = 0; k < (r->enclosure ? o->count : r->m); ++k) {
        const rvo_vec2 p = r->enclosure ? w->verts[o->first + k].point : r->pts[k];
        box[0] = fminf(box[0], p.x), box[1] = fminf(box[1], p.y);
        box[2] = fmaxf(box[2], p.x), box[3] = fmaxf(box[3], p.y);
    }
    int32_t found = 0;
    for (int32_t i = 0; i < w->count; ++i)
        found += left_blocked(w, o, r, box, i);
    if (found == 0)
        return true;
    int32_t cap = w->traps_cap;
    if (!rvo__grow(w, (void **)&w->traps, &cap, w->ntraps + found, sizeof *w->traps)) {
        w->traps_cap = cap < w->traps_cap ? w->traps_cap : cap;
        return false;
    }
    w->traps_cap = cap;
    const int32_t before = w->ntraps;
    for (int32_t i = 0; i < w->count; ++i) {
        if (!left_blocked(w, o, r, box, i))
            continue;
        bool filed = false;
        for (int32_t k = 0; k < before && !filed; ++k)
            filed = w->traps[k].agent == w->ids[i] && w->traps[k].obstacle == o->id;
        if (!filed)
            w->traps[w->ntraps++] = (obst_trap){w->ids[i], o->id};
    }
    return true;
}

static bool check_side(rvo_world *w, bool closed, rvo_obstacle_side side) {
    if (side != RVO_SIDE_WINDING && side != RVO_SIDE_SOLID && side != RVO_SIDE_ENCLOSURE) {
        rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4, "side must be winding, solid or enclosure");
        return false;
    }
    if (!closed && side != RVO_SIDE_WINDING) {
        rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 4,
                  "an open polyline blocks both sides: side needs closed = true");
        return false;
    }
    return true;
}

rvo_obstacle_id rvo_world_add_obstacle_side(rvo_world *w, const float *xy, int32_t n, bool closed,
                                            rvo_obstacle_side side) {
    if (!w || !check_side(w, closed, side))
        return 0;
    ring r;
    if (build_ring(w, xy, n, closed, side, 1, &r) != RVO_OK)
        return 0;
    const int32_t m = r.m;
    int32_t vcap = w->verts_cap, ocap = w->obst_cap;
    if (!rvo__grow(w, (void **)&w->verts, &vcap, w->nverts + m, sizeof *w->verts) ||
        !rvo__grow(w, (void **)&w->obst, &ocap, w->obst_count + 1, sizeof *w->obst)) {
        w->verts_cap = vcap < w->verts_cap ? w->verts_cap : vcap;
        w->obst_cap = ocap < w->obst_cap ? w->obst_cap : ocap;
        rvo__realloc(w, r.pts, r.pts_size, 0);
        rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        return 0;
    }
    w->verts_cap = vcap;
    w->obst_cap = ocap;
    rvo_obstacle_id id;
    rvo_status s = rvo__slot_alloc(&w->base, &w->obst_slots, w->obst_count, &id);
    if (s != RVO_OK) {
        rvo__realloc(w, r.pts, r.pts_size, 0);
        rvo__fail(w, s, 0, s == RVO_ERR_CAPACITY ? "too many obstacles" : "out of memory");
        return 0;
    }
    /* a solid added over agents: they go out of it (an enclosure has no
     * agents that were inside it) */
    const obstacle fresh = {.id = id, .zmin = -INFINITY, .zmax = INFINITY};
    if (!file_traps(w, &fresh, &r)) {
        rvo__slot_release(&w->obst_slots, id);
        rvo__realloc(w, r.pts, r.pts_size, 0);
        rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        return 0;
    }
    write_ring(w, &r, w->nverts, w->obst_count);
    obstacle *o = &w->obst[w->obst_count];
    o->id = id;
    o->first = w->nverts;
    o->count = m;
    o->closed = r.closed;
    o->enclosure = r.enclosure;
    o->asked_closed = closed;
    o->side = (int8_t)side;
    o->vel = v2(0.0f, 0.0f);
    o->zmin = -INFINITY;
    o->zmax = INFINITY;
    w->nverts += m;
    w->obst_count += 1;
    w->egrid.valid = false;
    rvo__realloc(w, r.pts, r.pts_size, 0);
    rvo__ok(w);
    return id;
}

rvo_status rvo_obstacle_set_points(rvo_world *w, rvo_obstacle_id id, const float *xy, int32_t n) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    obstacle *o = &w->obst[oi];
    ring r;
    const rvo_status st = build_ring(w, xy, n, o->asked_closed, (rvo_obstacle_side)o->side, 2, &r);
    if (st != RVO_OK)
        return st;
    const int32_t first = o->first, old = o->count, m = r.m, delta = m - old;
    if (delta > 0) {
        int32_t vcap = w->verts_cap;
        if (!rvo__grow(w, (void **)&w->verts, &vcap, w->nverts + delta, sizeof *w->verts)) {
            w->verts_cap = vcap < w->verts_cap ? w->verts_cap : vcap;
            rvo__realloc(w, r.pts, r.pts_size, 0);
            return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        }
        w->verts_cap = vcap;
    }
    if (!file_traps(w, o, &r)) {
        rvo__realloc(w, r.pts, r.pts_size, 0);
        return rvo__fail(w, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    if (delta != 0) {
        /* the later obstacles' rings move by delta, keeping their order */
        memmove(&w->verts[first + m], &w->verts[first + old],
                sizeof *w->verts * (size_t)(w->nverts - first - old));
        w->nverts += delta;
        for (int32_t k = first + m; k < w->nverts; ++k) {
            w->verts[k].next += delta;
            w->verts[k].prev += delta;
        }
        for (int32_t k = oi + 1; k < w->obst_count; ++k)
            w->obst[k].first += delta;
    }
    write_ring(w, &r, first, oi);
    o->count = m;
    o->closed = r.closed;
    o->enclosure = r.enclosure;
    w->egrid.valid = false;
    rvo__realloc(w, r.pts, r.pts_size, 0);
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_world_remove_obstacle(rvo_world *w, rvo_obstacle_id id) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    const int32_t first = w->obst[oi].first, m = w->obst[oi].count;
    /* Close the gap, keeping the order of what stays. */
    memmove(&w->verts[first], &w->verts[first + m], sizeof *w->verts * (size_t)(w->nverts - first - m));
    w->nverts -= m;
    for (int32_t k = first; k < w->nverts; ++k) {
        w->verts[k].next -= m;
        w->verts[k].prev -= m;
        w->verts[k].obstacle -= 1;
    }
    memmove(&w->obst[oi], &w->obst[oi + 1], sizeof *w->obst * (size_t)(w->obst_count - oi - 1));
    w->obst_count -= 1;
    for (int32_t k = oi; k < w->obst_count; ++k) {
        w->obst[k].first -= m;
        rvo__slot_set_index(&w->obst_slots, w->obst[k].id, k);
    }
    rvo__slot_release(&w->obst_slots, id);
    rvo__obstacles_moving_update(w);
    w->egrid.valid = false;
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_obstacle_set_z_range(rvo_world *w, rvo_obstacle_id id, float zmin, float zmax) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    if (isnan(zmin) || zmin == INFINITY)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "zmin must be a number < inf");
    if (isnan(zmax) || zmax == -INFINITY)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "zmax must be a number > -inf");
    if (zmin > zmax)
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "zmax must be >= zmin");
    w->obst[oi].zmin = zmin;
    w->obst[oi].zmax = zmax;
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_obstacle_z_range(const rvo_world *w, rvo_obstacle_id id, rvo_vec2 *out) {
    if (!w || !out)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    *out = v2(w->obst[oi].zmin, w->obst[oi].zmax);
    rvo__ok(w);
    return RVO_OK;
}

int32_t rvo_world_obstacle_ids(const rvo_world *w, rvo_obstacle_id *out, int32_t cap) {
    if (!w)
        return 0;
    for (int32_t k = 0; k < w->obst_count && k < cap && out; ++k)
        out[k] = w->obst[k].id;
    return w->obst_count;
}

int32_t rvo_obstacle_points(rvo_world *w, rvo_obstacle_id id, float *xy, int32_t cap, bool *closed) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    if (cap < 0 || (cap > 0 && !xy))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "bad output buffer");
    const obstacle *o = &w->obst[oi];
    /* An open polyline of m points is stored as the ring p0..pm-1..p1. */
    const int32_t m = o->closed || o->count == 2 ? o->count : o->count / 2 + 1;
    for (int32_t k = 0; k < m && k < cap; ++k) {
        xy[2 * k] = w->verts[o->first + k].point.x;
        xy[2 * k + 1] = w->verts[o->first + k].point.y;
    }
    if (closed)
        *closed = o->closed;
    rvo__ok(w);
    return m;
}

void rvo__obstacles_moving_update(rvo_world *w) {
    w->obst_moving = 0;
    w->obst_max_speed = 0.0f;
    for (int32_t k = 0; k < w->obst_count; ++k) {
        const rvo_vec2 v = w->obst[k].vel;
        if (v.x != 0.0f || v.y != 0.0f) {
            const float sp = v2_abs(v);
            w->obst_moving += 1;
            w->obst_max_speed = sp > w->obst_max_speed ? sp : w->obst_max_speed;
        }
    }
}

rvo_status rvo_obstacle_set_velocity(rvo_world *w, rvo_obstacle_id id, float vx, float vy) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    char buf[64];
    const char *e;
    if ((e = rvo__check_coord("vx", vx, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 2, "%s", e);
    if ((e = rvo__check_coord("vy", vy, buf, sizeof buf)))
        return rvo__fail(w, RVO_ERR_INVALID_ARGUMENT, 3, "%s", e);
    w->obst[oi].vel = v2(vx + 0.0f, vy + 0.0f); /* -0 is 0: not moving */
    rvo__obstacles_moving_update(w);
    rvo__ok(w);
    return RVO_OK;
}

rvo_status rvo_obstacle_velocity(const rvo_world *w, rvo_obstacle_id id, rvo_vec2 *out) {
    if (!w || !out)
        return RVO_ERR_INVALID_ARGUMENT;
    const int32_t oi = rvo__slot_lookup(&w->obst_slots, id);
    if (oi < 0)
        return rvo__fail(w, RVO_ERR_UNKNOWN_ID, 1, "unknown or removed obstacle id");
    *out = w->obst[oi].vel;
    return RVO_OK;
}

/* Would obstacle o, moved by d, still be the obstacle add_obstacle made
 * (within [-1e9, 1e9], no two consecutive points merged by rounding, a
 * polygon's area not 0 nor of the other sign)? A snapshot re-adds it from
 * its points. */
static bool moves_intact(const rvo_world *w, const obstacle *o, rvo_vec2 d) {
    double area2 = 0;
    for (int32_t k = o->first; k < o->first + o->count; ++k) {
        const rvo_vec2 a = v2_add(w->verts[k].point, d), b = v2_add(w->verts[w->verts[k].next].point, d);
        if (!(fabsf(a.x) <= RVO_MAX_COORD && fabsf(a.y) <= RVO_MAX_COORD) || too_close(a, b))
            return false;
        area2 += (double)a.x * b.y - (double)b.x * a.y;
    }
    return !o->closed || (area2 != 0 && (area2 < 0) == o->enclosure);
}

/* Moves every moving obstacle by its velocity times dt (a translation:
 * directions and convexity stay). One that would leave the coordinate
 * range or be distorted by rounding stays where it is this step. */
void rvo__obstacles_move(rvo_world *w, float dt) {
    for (int32_t k = 0; k < w->obst_count; ++k) {
        const obstacle *o = &w->obst[k];
        if (o->vel.x == 0.0f && o->vel.y == 0.0f)
            continue;
        const rvo_vec2 d = v2_scale(dt, o->vel);
        if (!moves_intact(w, o, d))
            continue;
        for (int32_t v = o->first; v < o->first + o->count; ++v)
            w->verts[v].point = v2_add(w->verts[v].point, d);
        /* directions from the moved points, as add_obstacle computes them:
         * a snapshot's copy, built from the points, is then the same */
        for (int32_t v = o->first; v < o->first + o->count; ++v) {
            obst_vertex *x = &w->verts[v];
            const rvo_vec2 pp = w->verts[x->prev].point, pn = w->verts[x->next].point;
            x->unit_dir = v2_normalize(v2_sub(pn, x->point));
            x->convex = o->count == 2 ? 1 : left_of(pp, x->point, pn) >= 0.0f;
        }
    }
    w->egrid.valid = false;
}

bool rvo_obstacle_is_valid(const rvo_world *w, rvo_obstacle_id id) {
    return w && rvo__slot_lookup(&w->obst_slots, id) >= 0;
}

int32_t rvo_world_obstacle_count(const rvo_world *w) { return w ? w->obst_count : 0; }

void rvo__obstacles_free(rvo_world *w) {
    rvo__realloc(w, w->verts, sizeof *w->verts * (size_t)w->verts_cap, 0);
    rvo__realloc(w, w->obst, sizeof *w->obst * (size_t)w->obst_cap, 0);
    rvo__realloc(w, w->traps, sizeof *w->traps * (size_t)w->traps_cap, 0);
    w->traps = NULL;
    w->traps_cap = w->ntraps = 0;
    w->verts = NULL;
    w->obst = NULL;
    w->verts_cap = w->obst_cap = w->nverts = w->obst_count = 0;
    rvo__slot_free(&w->base, &w->obst_slots);
}
