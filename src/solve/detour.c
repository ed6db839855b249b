/* A way around obstacles: see detour.h. Per agent, from the frozen state
 * and its own detour side only, so any thread count gives the same result. */
#include "solve/detour.h"

#include "index/grid.h"

typedef struct near_query {
    const rvo_world *w;
    rvo_vec2 p;
    float z, height;
    float best_sq; /* squared distance to the nearest edge so far */
    int32_t best;  /* its edge (first vertex), -1 for none */
    rvo_vec2 q;    /* the nearest point on it */
} near_query;

/* Does edge e count: the obstacle is not an enclosure (whose walls are
 * followed by nobody), its z range meets the agent's, and p is on the
 * edge's outer (right) side. */
static bool edge_counts(const rvo_world *w, int32_t e, rvo_vec2 p, float z, float height) {
    const obst_vertex *v = &w->verts[e];
    const obstacle *ob = &w->obst[v->obstacle];
    if (ob->enclosure || !obst_on_floor(ob, z, height, w->height_margin))
        return false;
    return v2_det(v2_sub(v->point, p), v2_sub(w->verts[v->next].point, v->point)) < 0.0f;
}

static void visit_near(void *ctx, int32_t e) {
    near_query *c = ctx;
    if (!edge_counts(c->w, e, c->p, c->z, c->height))
        return;
    const rvo_vec2 a = c->w->verts[e].point, ab = v2_sub(c->w->verts[c->w->verts[e].next].point, a);
    const rvo_vec2 q = v2_nearest_on_segment(c->p, a, ab);
    const float d = v2_abs_sq(v2_sub(c->p, q));
    /* ties by edge index: the grid's visiting order is not part of the answer */
    if (d < c->best_sq || (d == c->best_sq && e < c->best)) {
        c->best_sq = d;
        c->best = e;
        c->q = q;
    }
}

typedef struct sweep_query {
    const rvo_world *w;
    rvo_vec2 p, d; /* from p to p + d */
    float z, height, clear_sq;
    bool blocked;
} sweep_query;

/* Squared distance from point c to segment a-b. */
static float point_seg_sq(rvo_vec2 c, rvo_vec2 a, rvo_vec2 b) {
    const rvo_vec2 ab = v2_sub(b, a);
    const float len = v2_abs_sq(ab);
    float t = len > 0.0f ? v2_dot(v2_sub(c, a), ab) / len : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return v2_abs_sq(v2_sub(c, v2_add(a, v2_scale(t, ab))));
}

static void visit_sweep(void *ctx, int32_t e) {
    sweep_query *c = ctx;
    if (c->blocked || !edge_counts(c->w, e, c->p, c->z, c->height))
        return;
    const rvo_vec2 a = c->w->verts[e].point, b = c->w->verts[c->w->verts[e].next].point;
    const rvo_vec2 p2 = v2_add(c->p, c->d);
    /* segments p-p2 and a-b: crossing, or an end within the clearance */
    const float d1 = v2_det(v2_sub(b, a), v2_sub(c->p, a)), d2 = v2_det(v2_sub(b, a), v2_sub(p2, a));
    const float d3 = v2_det(c->d, v2_sub(a, c->p)), d4 = v2_det(c->d, v2_sub(b, c->p));
    if (((d1 < 0.0f) != (d2 < 0.0f)) && ((d3 < 0.0f) != (d4 < 0.0f))) {
        c->blocked = true;
        return;
    }
    if (point_seg_sq(a, c->p, p2) < c->clear_sq || point_seg_sq(b, c->p, p2) < c->clear_sq ||
        point_seg_sq(c->p, a, b) < c->clear_sq || point_seg_sq(p2, a, b) < c->clear_sq)
        c->blocked = true;
}

/* The side to go round obstacle ob (+1: left, -1: right) for an agent at p
 * heading h: the side where the obstacle ends nearer the line of h, ties
 * to the right. */
static int8_t pick_side(const rvo_world *w, const obstacle *ob, rvo_vec2 p, rvo_vec2 h) {
    float left = 0.0f, right = 0.0f;
    for (int32_t k = ob->first; k < ob->first + ob->count; ++k) {
        const float s = v2_det(h, v2_sub(w->verts[k].point, p));
        left = s > left ? s : left;
        right = -s > right ? -s : right;
    }
    return left < right ? 1 : -1;
}

/* Is agent i held up by an agent ahead of it (touching, within 60 degrees
 * of heading h)? Then the jam rules (give_way.h) are the ones to free it:
 * going round the obstacle would walk it away from a crowded door. */
static bool agent_ahead(const rvo_world *w, int32_t i, rvo_vec2 h, scratch *s) {
    const int32_t nn = rvo__agent_neighbors(w, i, s->agents);
    const float reach = RVO_DETOUR_CLEARANCE * w->prm[i].radius * RVO_DETOUR_AHEAD;
    for (int32_t k = 0; k < nn; ++k) {
        const int32_t j = s->agents[k].index;
        const rvo_vec2 rel = v2_sub(w->pos[j], w->pos[i]);
        const float gap = w->prm[i].radius + w->prm[j].radius + reach;
        const float along = v2_dot(rel, h);
        if (s->agents[k].dist_sq < gap * gap && along > 0.0f && 4.0f * along * along > s->agents[k].dist_sq)
            return true;
    }
    return false;
}

rvo_vec2 rvo__detour_pref_slow(rvo_world *w, int32_t i, scratch *s) {
    const rvo_vec2 pref = w->pref[i];
    int8_t side = w->detour[i];
    const agent_params *a = &w->prm[i];
    if (rvo__idle(pref, a) || w->nverts == 0) {
        w->detour[i] = 0;
        return pref;
    }
    const float r = a->radius, reach = r + RVO_DETOUR_REACH * r;
    const rvo_vec2 p = w->pos[i];
    near_query nq = {w, p, a->z, a->height, reach * reach, -1, p};
    rvo__edge_grid_visit(w, s, p.x - reach, p.y - reach, p.x + reach, p.y + reach, visit_near, &nq);
    if (nq.best < 0 || !(nq.best_sq > 0.0f)) {
        w->detour[i] = 0; /* nothing near, or on the outline itself (no normal) */
        return pref;
    }
    const float speed = sqrtf(v2_abs_sq(pref));
    const rvo_vec2 h = v2_scale(1.0f / speed, pref);
    const float dist = sqrtf(nq.best_sq);
    const rvo_vec2 n = v2_scale(1.0f / dist, v2_sub(p, nq.q)); /* from the outline to the agent */
    /* a detour starts only for an agent walking into the outline (at a
     * shallower angle ORCA slides along it by itself); cheapest test first */
    if (side == 0 && v2_dot(h, n) > -RVO_DETOUR_FACING)
        return pref;
    /* is the way ahead blocked? */
    const float ahead = RVO_DETOUR_AHEAD * r, clear = RVO_DETOUR_CLEARANCE * r;
    sweep_query sq = {w, p, v2_scale(ahead, h), a->z, a->height, clear * clear, false};
    const rvo_vec2 end = v2_add(p, sq.d);
    rvo__edge_grid_visit(w, s, (p.x < end.x ? p.x : end.x) - clear, (p.y < end.y ? p.y : end.y) - clear,
                         (p.x < end.x ? end.x : p.x) + clear, (p.y < end.y ? end.y : p.y) + clear,
                         visit_sweep, &sq);
    if (!sq.blocked) {
        w->detour[i] = 0;
        return pref;
    }
    if (side == 0) {
        if (agent_ahead(w, i, h, s))
            return pref;
        side = pick_side(w, &w->obst[w->verts[nq.best].obstacle], p, h);
    }
    w->detour[i] = side;
    /* the tangent to that side, pulled back towards the outline when the
     * agent drifts off it (rounding a corner) */
    rvo_vec2 t = side > 0 ? v2(n.y, -n.x) : v2(-n.y, n.x);
    const float drift = (dist - 1.05f * r) / r;
    if (drift > 0.0f)
        t = v2_normalize(v2_sub(t, v2_scale(drift < 1.0f ? drift : 1.0f, n)));
    return v2_scale(speed, t);
}
