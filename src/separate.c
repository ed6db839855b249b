/* Overlap resolution after integrate: ORCA lets agents overlap when a crowd
 * is too dense for every constraint to hold (RVO2 reaches 25% of the radius
 * sum on a circle of 250). Two variants, both moving each agent by its
 * responsibility share (locked agents, and weight-0 agents against movable
 * ones, stay put) and then out of obstacle clearance, which wins:
 *   strict (hard bodies, the default; rvo_world_set_strict_overlap): each
 *     overlapping pair projected apart, over-relaxed (a jammed crowd
 *     converges in far fewer passes), until no pair overlaps by more than
 *     RVO_SEPARATION_TOLERANCE or RVO_SEPARATION_MAX_PASSES ran; an agent
 *     that gives way (rvo__gives_way: idle, or the loser of a jam) takes
 *     RVO_GIVE_WAY_SHARE of the pair's correction; velocities then take up
 *     the correction;
 *   soft (strict overlap off): four Gauss-Seidel passes in the world's
 *     agent order, each agent pushed out of everything it overlaps at once.
 * The pairs are visited in index order (each agent's candidates sorted by
 * index) on one thread, so results stay deterministic. */
#include "rvo_internal.h"

#include <string.h>
#include <stdio.h>

/* i's share of separating from j; 0 when i is locked or ignores j. Strict
 * overlap: RVO_GIVE_WAY_SHARE when i gives way to j (rvo__gives_way), the
 * rest when j gives way. */
static float pair_share(const rvo_world *w, int32_t i, int32_t j) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    if (me->locked || !(me->mask & other->groups)) return 0.0f;
    const int gives = rvo__gives_way(w, i, j);
    if (gives != 0) return gives > 0 ? RVO_GIVE_WAY_SHARE : 1.0f - RVO_GIVE_WAY_SHARE;
    return rvo__share(me, other);
}

typedef struct push_ctx {
    const rvo_world *w;
    rvo_vec2 p;
    float radius;
    float z, height;
} push_ctx;

/* Moves p out of an obstacle edge it overlaps from the outside. */
static void push_from_edge(void *ctx, int32_t e) {
    push_ctx *c = ctx;
    const obst_vertex *v1 = &c->w->verts[e], *v2p = &c->w->verts[v1->next];
    const obstacle *ob = &c->w->obst[v1->obstacle];
    const float m = c->w->height_margin;
    if (!(c->z <= ob->zmax + m && ob->zmin <= c->z + c->height + m)) return;
    const rvo_vec2 a = v1->point, b = v2p->point, ab = v2_sub(b, a);
    /* outside is the right side of each edge (RVO2's convention) */
    if (v2_det(v2_sub(a, c->p), ab) >= 0.0f) return;
    float t = v2_dot(v2_sub(c->p, a), ab) / v2_abs_sq(ab);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    const rvo_vec2 q = v2_add(a, v2_scale(t, ab));
    const rvo_vec2 d = v2_sub(c->p, q);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= sqrf(c->radius)) return;
    const float dist = sqrtf(dist_sq);
    const rvo_vec2 n = dist > 1e-12f ? v2_scale(1.0f / dist, d) : v2(ab.y / sqrtf(v2_abs_sq(ab)), -ab.x / sqrtf(v2_abs_sq(ab)));
    c->p = v2_add(q, v2_scale(c->radius, n));
}

/* Collects, for every agent i, the agents j near enough to touch it during
 * the passes (within 1.6 times the radius sum, same floor), in CSR form: the
 * partners of i are sep_cand[sep_start[i] .. sep_start[i + 1]). pairs: each
 * pair once (j > i) where either yields, sorted by j; otherwise every j that
 * i yields to, in grid order (the soft passes). */
static bool collect_candidates(rvo_world *w, bool pairs) {
    const agent_grid *g = &w->grid;
    int32_t cap = w->sep_start_cap;
    if (!rvo__grow(w, (void **)&w->sep_start, &cap, w->count + 1, sizeof *w->sep_start)) return false;
    w->sep_start_cap = cap;
    int32_t n = 0;
    for (int32_t i = 0; i < w->count; ++i) {
        w->sep_start[i] = n;
        const agent_params *me = &w->prm[i];
        if (!pairs && me->locked) continue;
        const rvo_vec2 p = w->pos[i];
        const float reach = 1.6f * (me->radius + g->max_radius);
        const int32_t cx0 = (int32_t)fmaxf(0.0f, fminf((float)(g->nx - 1), floorf((p.x - reach - g->ox) * g->inv_cell)));
        const int32_t cx1 = (int32_t)fmaxf(0.0f, fminf((float)(g->nx - 1), floorf((p.x + reach - g->ox) * g->inv_cell)));
        const int32_t cy0 = (int32_t)fmaxf(0.0f, fminf((float)(g->ny - 1), floorf((p.y - reach - g->oy) * g->inv_cell)));
        const int32_t cy1 = (int32_t)fmaxf(0.0f, fminf((float)(g->ny - 1), floorf((p.y + reach - g->oy) * g->inv_cell)));
        for (int32_t cy = cy0; cy <= cy1; ++cy)
            for (int32_t cx = cx0; cx <= cx1; ++cx) {
                const int32_t c = cy * g->nx + cx;
                for (int32_t t = g->start[c]; t < g->start[c + 1]; ++t) {
                    const int32_t j = g->items[t];
                    if (pairs ? j <= i : j == i) continue;
                    const agent_params *other = &w->prm[j];
                    const float near = 1.6f * (me->radius + other->radius);
                    if (v2_abs_sq(v2_sub(p, g->item_pos[t])) >= near * near) continue;
                    if (!z_overlap(me->z, me->height, other->z, other->height, w->height_margin)) continue;
                    if (pair_share(w, i, j) == 0.0f && (!pairs || pair_share(w, j, i) == 0.0f)) continue;
                    if (n == w->sep_cand_cap &&
                        !rvo__grow(w, (void **)&w->sep_cand, &w->sep_cand_cap, n + 1, sizeof *w->sep_cand))
                        return false;
                    w->sep_cand[n++] = j;
                }
            }
        /* cells are visited in grid order: sort partners so the pass order
         * depends on the agent order only */
        for (int32_t a = w->sep_start[i] + 1; pairs && a < n; ++a) {
            const int32_t v = w->sep_cand[a];
            int32_t b = a;
            while (b > w->sep_start[i] && w->sep_cand[b - 1] > v) {
                w->sep_cand[b] = w->sep_cand[b - 1];
                --b;
            }
            w->sep_cand[b] = v;
        }
    }
    w->sep_start[w->count] = n;
    return true;
}

/* Moves agent i out of agent j by i's share of their overlap, into delta. */
static void push_from_agent(const rvo_world *w, int32_t i, int32_t j, rvo_vec2 p, rvo_vec2 *delta) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    const float comb = me->radius + other->radius;
    const rvo_vec2 d = v2_sub(p, w->pos[j]);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= comb * comb) return;
    const float share = pair_share(w, i, j);
    if (share == 0.0f) return;
    const float dist = sqrtf(dist_sq);
    /* same spot: split along a direction fixed by the ids */
    const rvo_vec2 n = dist > 1e-6f * comb ? v2_scale(1.0f / dist, d) : rvo__split_direction(w->ids[i], w->ids[j]);
    *delta = v2_add(*delta, v2_scale(share * (comb - dist), n));
}

static void separate_soft(rvo_world *w) {
    scratch *s = &w->scratch[0];
    for (int32_t pass = 0; pass < RVO_SEPARATION_SOFT_PASSES; ++pass) {
        bool moved = false;
        for (int32_t i = 0; i < w->count; ++i) {
            const agent_params *me = &w->prm[i];
            if (me->locked) continue;
            const rvo_vec2 p = w->pos[i];
            rvo_vec2 delta = v2(0.0f, 0.0f);
            for (int32_t k = w->sep_start[i]; k < w->sep_start[i + 1]; ++k) push_from_agent(w, i, w->sep_cand[k], p, &delta);
            rvo_vec2 np = v2_add(p, delta);
            /* Obstacles win: back out of edge clearance. */
            if (w->nverts > 0) {
                push_ctx c = {w, np, me->radius, me->z, me->height};
                const float r = me->radius;
                rvo__edge_grid_visit(w, s, c.p.x - r, c.p.y - r, c.p.x + r, c.p.y + r, push_from_edge, &c);
                np = c.p;
            }
            if (np.x != p.x || np.y != p.y) moved = true;
            w->pos[i] = np;
        }
        if (!moved) break;
    }
}

/* Projects pair (i, j) apart by their shares, over-relaxed; returns the
 * overlap it found as a fraction of the radius sum (0 if none). */
static float project_pair(rvo_world *w, int32_t i, int32_t j) {
    const agent_params *a = &w->prm[i], *b = &w->prm[j];
    const float comb = a->radius + b->radius;
    const rvo_vec2 d = v2_sub(w->pos[i], w->pos[j]);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= comb * comb) return 0.0f;
    const float dist = sqrtf(dist_sq);
    /* same spot: split along a direction fixed by the ids */
    const rvo_vec2 n = dist > 1e-6f * comb ? v2_scale(1.0f / dist, d) : rvo__split_direction(w->ids[i], w->ids[j]);
    const float push = RVO_SEPARATION_RELAX * (comb - dist);
    w->pos[i] = v2_add(w->pos[i], v2_scale(pair_share(w, i, j) * push, n));
    w->pos[j] = v2_sub(w->pos[j], v2_scale(pair_share(w, j, i) * push, n));
    return (comb - dist) / comb;
}

bool rvo__separate(rvo_world *w, float dt) {
    if (w->rvo2_compat || w->count == 0) return true;
    if (!rvo__prepare(w)) return false; /* grid of the integrated positions */
    if (!collect_candidates(w, w->strict_overlap)) return false;
    if (!w->strict_overlap) {
        separate_soft(w);
        w->grid.valid = false;
        return true;
    }
    if (!rvo__grow(w, (void **)&w->sep_before, &w->sep_before_cap, w->count, sizeof *w->sep_before)) return false;
    memcpy(w->sep_before, w->pos, sizeof *w->pos * (size_t)w->count);
    scratch *s = &w->scratch[0];
    for (int32_t pass = 0; pass < RVO_SEPARATION_MAX_PASSES; ++pass) {
        float worst = 0.0f;
        for (int32_t i = 0; i < w->count; ++i)
            for (int32_t k = w->sep_start[i]; k < w->sep_start[i + 1]; ++k) {
                const float f = project_pair(w, i, w->sep_cand[k]);
                if (f > worst) worst = f;
            }
        /* Obstacles win: back out of edge clearance. */
        if (w->nverts > 0)
            for (int32_t i = 0; i < w->count; ++i) {
                const agent_params *me = &w->prm[i];
                if (me->locked) continue;
                push_ctx c = {w, w->pos[i], me->radius, me->z, me->height};
                const float r = me->radius;
                rvo__edge_grid_visit(w, s, c.p.x - r, c.p.y - r, c.p.x + r, c.p.y + r, push_from_edge, &c);
                w->pos[i] = c.p;
            }
        if (worst <= RVO_SEPARATION_TOLERANCE) break;
    }
    /* The velocity is the motion the agent really made: the next solve then
     * sees a pushed-back agent as slower, not as still pressing on. */
    const float inv_dt = 1.0f / rvo__min_time(dt);
    for (int32_t i = 0; i < w->count; ++i) {
        const rvo_vec2 moved = v2_sub(w->pos[i], w->sep_before[i]);
        if (moved.x != 0.0f || moved.y != 0.0f) w->vel[i] = v2_add(w->vel[i], v2_scale(inv_dt, moved));
    }
    w->grid.valid = false;
    return true;
}

rvo_status rvo_world_set_strict_overlap(rvo_world *w, bool on) {
    if (!w) return RVO_ERR_INVALID_ARGUMENT;
    w->strict_overlap = on;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_strict_overlap(const rvo_world *w) { return w && w->strict_overlap; }
