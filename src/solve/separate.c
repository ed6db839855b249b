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
 * Threads: the candidates are found in parallel (lists sorted, so their
 * content does not depend on the split), and so is the obstacle push-out
 * (each agent alone); the strict pairs are projected in index order on the
 * calling thread (Gauss-Seidel), skipping pairs that cannot change, so the
 * result is the same on any thread count. */
#include "solve/separate.h"
#include "base/pool.h"
#include "index/grid.h"
#include "index/scratch.h"
#include "solve/give_way.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

/* A locked agent keeps its velocity, but strict overlap still moves it out
 * of an agent it presses into (its velocity points at it): rvo.locks, which
 * locks whoever had to avoid, otherwise pressed locked agents into each
 * other (20% of ri + rj in a standard crossing). The soft passes never
 * move a locked agent. */
static inline bool yields_locked(const rvo_world *w, int32_t i, int32_t j) {
    return w->strict_overlap && v2_dot(w->vel[i], v2_sub(w->pos[j], w->pos[i])) > 0.0f;
}

/* pair_share where i or j is locked: against an unlocked agent, a locked
 * one that does not press into it stays put and the other takes it all;
 * otherwise the two split by weight (a weight-0 agent still never moves
 * against one above 0). Two locked agents always split: one of them may
 * have been pushed into the other by a third during the passes, where
 * neither presses. */
/* Locked by the script (rvo_agent_lock, no timer: the skirmish's ram), not
 * by rvo.locks' timers. */
static inline bool script_locked(const rvo_world *w, int32_t i) {
    return w->prm[i].locked && !(rvo__lock_left(w, i) > 0.0);
}

static float locked_share(const rvo_world *w, int32_t i, int32_t j) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    /* the other walks through me and the script drives me: neither moves;
     * pressing only a little, I was shoved along by whoever walked through
     * me from behind */
    if (!(other->mask & me->groups) && script_locked(w, i))
        return 0.0f;
    if (!(me->locked && other->locked)) {
        if (me->locked && !yields_locked(w, i, j))
            return 0.0f;
        if (other->locked && !yields_locked(w, j, i))
            return 1.0f;
    }
    if (!(other->mask & me->groups)) /* the other walks through me: I give way, locked only if I press */
        return me->locked && other->locked && !yields_locked(w, i, j) ? 0.0f : 1.0f;
    if (me->weight == other->weight)
        return 0.5f;
    return me->weight / (me->weight + other->weight);
}

/* i's share of separating from j; 0 when i ignores j. Strict
 * overlap: RVO_GIVE_WAY_SHARE when i gives way to j (rvo__gives_way, give_way.h),
 * the rest when j gives way. Here, not static inline in give_way.h: the
 * compiler then inlined it and rvo__separate doubled in size. */
static float pair_share(const rvo_world *w, int32_t i, int32_t j, bool pinch) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    if (!(me->mask & other->groups))
        return 0.0f;
    /* pinch (strict passes from RVO_PINCH_PASS on): a pair with a locked or
     * weight-0 agent still overlapping has someone pinched; it splits
     * evenly (walking through as before) */
    if (pinch && (me->locked | other->locked | (me->weight == 0.0f) | (other->weight == 0.0f))) {
        if (!(other->mask & me->groups))
            return script_locked(w, i) ? 0.0f : 1.0f;
        return 0.5f;
    }
    if (me->locked | other->locked)
        return locked_share(w, i, j);
    const int gives = rvo__gives_way(w, i, j);
    if (gives != 0)
        return gives > 0 ? RVO_GIVE_WAY_SHARE : 1.0f - RVO_GIVE_WAY_SHARE;
    return rvo__share(me, other);
}

/* For asserts: strictly ascending (sorted, no partner twice)? */
static inline bool ascending(const int32_t *e, int32_t n) {
    for (int32_t k = 1; k < n; ++k)
        if (!(e[k - 1] < e[k]))
            return false;
    return true;
}

typedef struct push_ctx {
    const rvo_world *w;
    rvo_vec2 p;
    float radius;
    float z, height;
    bool moved;
} push_ctx;

/* An agent the passes between agents squeezed into a moving solid, within
 * a radius of an edge that faces the motion: out in front of that edge
 * (else the obstacle would carry on with the agent inside it). */
static void push_ahead_of_moving(push_ctx *c, int32_t e, const obstacle *ob) {
    const obst_vertex *v1 = &c->w->verts[e];
    const rvo_vec2 out = v2(v1->unit_dir.y, -v1->unit_dir.x);
    if (!ob->closed || ob->enclosure || !(v2_dot(out, ob->vel) > 0.0f))
        return;
    const rvo_vec2 a = v1->point, ab = v2_sub(c->w->verts[v1->next].point, a);
    const rvo_vec2 q = v2_nearest_on_segment(c->p, a, ab);
    if (!(v2_abs_sq(v2_sub(c->p, q)) < sqrf(c->radius)) || !rvo__obstacle_contains(c->w, ob, c->p))
        return;
    c->p = v2_add(q, v2_scale(c->radius, out));
    c->moved = true;
}

/* Moves p out of an obstacle edge it overlaps from the outside. */
static void push_from_edge(void *ctx, int32_t e) {
    push_ctx *c = ctx;
    const obst_vertex *v1 = &c->w->verts[e], *v2p = &c->w->verts[v1->next];
    const obstacle *ob = &c->w->obst[v1->obstacle];
    if (!obst_on_floor(ob, c->z, c->height, c->w->height_margin))
        return;
    const rvo_vec2 a = v1->point, b = v2p->point, ab = v2_sub(b, a);
    /* outside is the right side of each edge (RVO2's convention) */
    if (v2_det(v2_sub(a, c->p), ab) >= 0.0f) {
        if (ob->vel.x != 0.0f || ob->vel.y != 0.0f)
            push_ahead_of_moving(c, e, ob);
        return;
    }
    const rvo_vec2 q = v2_nearest_on_segment(c->p, a, ab);
    const rvo_vec2 d = v2_sub(c->p, q);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= sqrf(c->radius))
        return;
    const float dist = sqrtf(dist_sq);
    const rvo_vec2 n = dist > 1e-12f ? v2_scale(1.0f / dist, d)
                                     : v2(ab.y / sqrtf(v2_abs_sq(ab)), -ab.x / sqrtf(v2_abs_sq(ab)));
    c->p = v2_add(q, v2_scale(c->radius, n));
    c->moved = true;
}

/* ---- candidates --------------------------------------------------------
 * For every agent i, the agents j near enough to touch it during the passes
 * (within SEP_REACH times the radius sum, same floor). Strict: every j > i of a
 * pair where either moves, and every j < i within the widest reach, sorted
 * by j, as [n, nb, j1 .. jn] (nb of them below i); a pair (i, j) is
 * projected from i's list, j > i. Soft: every j that i moves for, in grid
 * order, as [n, j1 .. jn].
 * Collected in parallel, agents in grid order (neighbours of consecutive
 * agents are mostly the same: fewer cache misses): a worker claims blocks
 * of w->sep_cand and writes each agent's list there, sep_start[t] pointing
 * at n for the agent in grid slot t (list_of; SEP_EMPTY: no partners).
 * Where a list lands depends on the split, its content does not. An agent
 * whose list found no room (or that a host never ran) stays SEP_PENDING
 * and is collected afterwards on the calling thread, which grows the
 * buffer. */
#define SEP_REACH 1.6f   /* partners: nearer than this many radius sums */
#define SEP_PENDING (-1) /* memset 0xff */
#define SEP_EMPTY (-2)
#define SEP_CHUNK 64 /* agents per work item */

/* pair_share(w, i, j) != 0, rvo__gives_way only where it can decide: it is
 * non-zero only between agents of weight above 0, where rvo__share is too
 * (unless the quotient underflows). */
static inline bool moves_for(const rvo_world *w, int32_t i, int32_t j) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    if (!(me->mask & other->groups))
        return false;
    if (me->locked | other->locked)
        return locked_share(w, i, j) != 0.0f;
    return rvo__share(me, other) != 0.0f || rvo__gives_way(w, i, j) != 0;
}

/* A worker's free slots of w->sep_cand, [next, end): first its own region
 * of the buffer's lower half (so that two workers rarely write the same
 * cache lines), then blocks it claims from the upper half. On a line of
 * its own. */
#define SEP_BLOCK 1024 /* slots claimed from the upper half at a time */
typedef struct cursor {
    _Alignas(64) int32_t next, end;
    bool full;      /* a list did not fit */
    float moved_sq; /* feedback_range: the farthest its agents moved in the passes, squared */
} cursor;

typedef struct sep_ctx {
    rvo_world *w;
    bool pairs;
    bool uniform;    /* strict, and every pair's test passes within the widest reach (see offer) */
    bool from_solve; /* uniform, and the solve's lists are there (collect_from_solve) */
    float comb_sq, reach_sq, need; /* from_solve: every pair's radius sum and reach squared; the bound a
                                      list needs */
    float inv_dt;
    uint8_t *later; /* the strict passes' marks for the next pass */
    uint8_t *moved; /* agents to push out of obstacles */
    uint8_t *hit;   /* by grid slot: the agent's list has a pair that overlaps now (workers writing
                       sep_active[i] in grid order would share its cache lines) */
    /* the counters the workers write, on a line of their own (next to the
     * fields every offer reads, each write would take that line away) */
    int32_t half;                 /* claims start here: the upper half of w->sep_cand, or its last quarter
                                     after the solve's lists */
    _Alignas(64) atomic_int done; /* agents run (candidates: agents with their list) */
    atomic_bool bad;              /* a range with a worker index out of bounds */
    atomic_int used;              /* slots claimed from the upper half */
    cursor cur[64];               /* per worker (threads <= 64) */
} sep_ctx;

/* Checks a range from the pool or a host: false (and c->bad) when it is
 * out of bounds, so that the caller can report the host's mistake. */
static bool range_ok(sep_ctx *c, int32_t begin, int32_t end, uint32_t worker) {
    if (worker < (uint32_t)c->w->threads && begin >= 0 && end <= c->w->count && begin <= end)
        return true;
    atomic_store(&c->bad, true);
    return false;
}

/* Slots of a list's head. */
static inline int32_t list_head(const sep_ctx *c) { return c->pairs ? 2 : 1; }

/* Room for one more partner after the used slots of the list at *at (after
 * its head): in parallel a block is claimed from the buffer's upper half
 * and the partners so far moved there; on the calling thread (serial) the
 * list is the buffer's tail and the buffer grows. False when there is no
 * room (parallel: the agent waits for the calling thread) or no memory. */
static bool make_room(sep_ctx *c, cursor *cur, bool serial, int32_t *at, int32_t used) {
    rvo_world *w = c->w;
    const int32_t head = list_head(c), m = head + used + 1;
    if (serial) {
        if (*at > INT32_MAX - m ||
            !rvo__grow(w, (void **)&w->sep_cand, &w->sep_cand_cap, *at + m, sizeof *w->sep_cand))
            return false;
        cur->end = w->sep_cand_cap;
        return true;
    }
    const int32_t need = m > SEP_BLOCK / 2 ? 2 * m : SEP_BLOCK, room = w->sep_cand_cap - c->half;
    if (room - atomic_load_explicit(&c->used, memory_order_relaxed) < need) {
        cur->full = true;
        return false;
    }
    const int32_t b = atomic_fetch_add_explicit(&c->used, need, memory_order_relaxed);
    if (b > room - need) {
        cur->full = true;
        return false;
    }
    memcpy(w->sep_cand + c->half + b + head, w->sep_cand + *at + head, sizeof *w->sep_cand * (size_t)used);
    *at = c->half + b;
    cur->end = c->half + b + need;
    return true;
}

/* Offers item t of the grid (squared distance d from agent i, below the
 * widest reach's square) to i's list at *at; false when there is no room
 * for it. uniform (c->uniform, strict lists): every agent has the grid's
 * largest radius, none is locked, all weigh the same, no group, mask or
 * height filters; then the tests below pass for every j within the widest
 * reach (near is that reach, the same float operations; z_overlap is true
 * between infinite heights; moves_for is rvo__share's 0.5), so they are
 * skipped: the same partners. */
RVO_ALWAYS_INLINE static inline bool offer(sep_ctx *c, cursor *cur, bool serial, int32_t i, int32_t t,
                                           float d, int32_t *at, int32_t *len, uint8_t *hit,
                                           const bool uniform) {
    rvo_world *w = c->w;
    const int32_t j = w->grid.items[t];
    if (j == i)
        return true;
    /* a partner below i only tells whose pairs i's moves concern: any j
     * within the widest reach will do (a superset of the pairs (j, i)) */
    const bool below = c->pairs && j < i;
    float comb = 0.0f;
    if (uniform) {
        comb = w->prm[i].radius + w->grid.max_radius; /* (= the radius sum: every radius is the largest) */
    } else if (!below) {
        const agent_params *me = &w->prm[i], *other = &w->prm[j];
        comb = me->radius + other->radius; /* as project_pair adds them */
        const float near = SEP_REACH * comb;
        if (d >= near * near)
            return true;
        if (!z_overlap(me->z, me->height, other->z, other->height, w->height_margin))
            return true;
        if (!moves_for(w, i, j) && (!c->pairs || !moves_for(w, j, i)))
            return true;
    }
    const int32_t head = list_head(c);
    if (head + *len + 1 > cur->end - *at && !make_room(c, cur, serial, at, *len))
        return false;
    w->sep_cand[*at + head + (*len)++] = j;
    /* overlapping now (project_pair's test, same operands): i's pairs are
     * looked at in the first pass */
    if (c->pairs && !below && d < comb * comb)
        *hit = 1;
    return true;
}

/* Sorts a strict list's partners e[0 .. len) by index (rows are visited in
 * grid order: the pass order then depends on the agent order only);
 * returns how many are below agent i. */
static inline int32_t sort_partners(int32_t *e, int32_t len, int32_t i) {
    for (int32_t k = 1; k < len; ++k) {
        const int32_t v = e[k];
        int32_t b = k;
        while (b > 0 && e[b - 1] > v) {
            e[b] = e[b - 1];
            --b;
        }
        e[b] = v;
    }
    RVO_ASSERT(ascending(e, len));
    int32_t below = 0;
    while (below < len && e[below] < i)
        ++below;
    return below;
}

/* Collects agent i's list at cur (see above); false when it found no room.
 * The cells of the reach box are scanned row by row (a row's cells are one
 * span of the grid's items), four squared distances at a time with SSE2
 * against the widest reach, by the same float operations as the scalar
 * test (so the same partners). */
RVO_ALWAYS_INLINE static inline bool collect_agent_with(sep_ctx *c, cursor *cur, bool serial, int32_t i,
                                                        int32_t slot, const bool uniform) {
    rvo_world *w = c->w;
    const agent_grid *g = &w->grid;
    const agent_params *me = &w->prm[i];
    if (!c->pairs && me->locked) {
        w->sep_start[slot] = SEP_EMPTY;
        return true;
    }
    const rvo_vec2 p = w->pos[i];
    const float reach = SEP_REACH * (me->radius + g->max_radius); /* >= every pair's reach */
    const float reach_sq = reach * reach, box = reach + g->slack; /* (slack: 0 on a fresh grid) */
    int32_t cells[4];
    rvo__grid_box(g, p, box, cells);
    const int32_t cx0 = cells[0], cx1 = cells[1], cy0 = cells[2], cy1 = cells[3];
    const rvo_vec2 *ip = g->item_pos; /* padded: 4 may be read past a span's end */
    int32_t at = cur->next, len = 0;  /* the list starts at sep_cand[at], head first */
    uint8_t hit = 0;                  /* a pair of i's overlaps now */
#if defined(RVO_SSE2)
    const __m128 px = _mm_set1_ps(p.x), py = _mm_set1_ps(p.y), range = _mm_set1_ps(reach_sq);
#endif
    for (int32_t cy = cy0; cy <= cy1; ++cy) {
        const int32_t t0 = g->start[cy * g->nx + cx0], t1 = g->start[cy * g->nx + cx1 + 1];
#if defined(RVO_SSE2)
        for (int32_t t = t0; t < t1; t += 4) {
            const __m128 d = grid_dist4_sq(ip, t, px, py);
            unsigned bits = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d, range));
            if (t1 - t < 4)
                bits &= (1u << (t1 - t)) - 1u;
            if (!bits)
                continue;
            float ds[4];
            _mm_storeu_ps(ds, d);
            do {
                const int l = __builtin_ctz(bits);
                bits &= bits - 1u;
                if (!offer(c, cur, serial, i, t + l, ds[l], &at, &len, &hit, uniform)) {
                    cur->next = cur->end; /* full: later agents claim afresh */
                    return false;
                }
            } while (bits);
        }
#else
        for (int32_t t = t0; t < t1; ++t) {
            const float d = v2_abs_sq(v2_sub(p, ip[t]));
            if (d < reach_sq && !offer(c, cur, serial, i, t, d, &at, &len, &hit, uniform)) {
                cur->next = cur->end;
                return false;
            }
        }
#endif
    }
    if (len == 0) {
        w->sep_start[slot] = SEP_EMPTY;
        return true;
    }
    int32_t *list = w->sep_cand + at;
    list[0] = len;
    if (c->pairs)
        list[1] = sort_partners(list + 2, len, i);
    cur->next = at + list_head(c) + len;
    w->sep_start[slot] = at;
    if (hit)
        c->hit[slot] = 1;
    return true;
}

/* Two copies: the uniform one (c->uniform) without the per-pair tests. */
static RVO_NOINLINE bool collect_agent_uniform(sep_ctx *c, cursor *cur, bool serial, int32_t i,
                                               int32_t slot) {
    return collect_agent_with(c, cur, serial, i, slot, true);
}
static RVO_NOINLINE bool collect_agent_any(sep_ctx *c, cursor *cur, bool serial, int32_t i, int32_t slot) {
    return collect_agent_with(c, cur, serial, i, slot, false);
}
static bool collect_agent(sep_ctx *c, cursor *cur, bool serial, int32_t i, int32_t slot) {
    return c->uniform ? collect_agent_uniform(c, cur, serial, i, slot)
                      : collect_agent_any(c, cur, serial, i, slot);
}

/* ---- candidates from the solve ---------------------------------------
 * An agent's neighbour list in the ORCA solve holds every agent nearer than
 * its cover: the neighbour distance, or once the list is full the k-th
 * distance. Of these the solve keeps those within a little more than the
 * widest reach plus twice the agent's step (rvo__solve_cand_keep): a list
 * per agent, [n, bound, j1 .. jn], in the first three quarters of
 * sep_cand, each range of the solve's agents in its share of them (so the
 * split does not matter). After the move, while the widest reach plus
 * twice the farthest any agent moved is below an agent's bound, every
 * partner within reach is in its list (each of the two moved at most that
 * far), and filtering it gives the list the grid search finds (the same
 * distances: the same float operations on the same positions), without
 * the search. Only in uniform worlds (collect_agent_uniform's), with lists
 * made without a filter (no groups, masks or heights when the solve ran),
 * for agents moved by integrate alone (rvo__agents_changed, carried
 * agents and traps end them). */

/* Distances and steps are rounded to the coordinates' float steps: a
 * margin of at least 8 of them (and 1e-4 of the reach), taken off the
 * bound and added to the range, keeps the bound below what a list holds. */
static inline float cover_margin(rvo_vec2 p, float reach) {
    return 1e-6f * (fabsf(p.x) + fabsf(p.y)) + 1e-4f * reach;
}

void rvo__solve_cand_begin(rvo_world *w, float dt) {
    w->solve_cand_ok = false;
    if (w->count == 0 || !w->strict_overlap || w->rvo2_compat || w->solver != RVO_SOLVER_ORCA ||
        w->n_filtering > 0 || rvo__no_shortcuts || w->sep_cand_cap < 2 || !w->grid.valid)
        return;
    if (!rvo__grow(w, (void **)&w->solve_cand_at, &w->solve_cand_cap, w->count, sizeof *w->solve_cand_at))
        return; /* (no lists: the grid search, as before) */
    /* the last solve's lists did not fit: room for what they took and an
     * eighth more in the solve's three quarters, at least a quarter more
     * (grown_cap; each range has its share; doubling held about three
     * times the lists: 106 bytes per agent in random 10k) */
    bool full = false;
    int64_t demand = 0;
    for (int32_t k = 0; k < w->threads; ++k) {
        full |= w->scratch[k].cand_full;
        demand += w->scratch[k].cand_demand;
        w->scratch[k].cand_full = false;
        w->scratch[k].cand_demand = 0;
    }
    int64_t room = demand + demand / 2;
    room = room > w->sep_cand_cap ? room : (int64_t)w->sep_cand_cap + 1;
    if (full && room < INT32_MAX)
        (void)rvo__grow(w, (void **)&w->sep_cand, &w->sep_cand_cap, (int32_t)room, sizeof *w->sep_cand);
    w->solve_cand_dt = fabsf(dt);
    w->solve_cand_ok = true;
}

/* The solve's lists fill the first three quarters of sep_cand (the lists
 * it makes are most of the candidates), the agents without one claim
 * blocks of the rest while collecting. */
static inline int32_t solve_share(const rvo_world *w) { return w->sep_cand_cap - w->sep_cand_cap / 4; }

void rvo__solve_cand_range(const rvo_world *w, scratch *s, int32_t begin, int32_t end) {
    const int64_t share = solve_share(w), n = w->count;
    s->cand_next = (int32_t)(share * begin / n);
    s->cand_end = (int32_t)(share * end / n);
}

void rvo__solve_cand_keep(rvo_world *w, scratch *s, int32_t i, bool listed) {
    const int32_t at = s->cand_next, n = s->n_agents;
    if (!listed || s->cand_end - at < 2 + n) {
        s->cand_full |= listed;
        s->cand_demand += listed ? 2 + n : 0;
        w->solve_cand_at[i] = -1; /* the grid search finds its partners */
        return;
    }
    const agent_params *me = &w->prm[i];
    const neighbor *nb = s->agents;
    const float reach = SEP_REACH * (me->radius + w->grid.max_radius);
    const float margin = cover_margin(w->pos[i], reach);
    const float range = 1.001f * reach + 2.1f * me->max_speed * w->solve_cand_dt + margin,
                range_sq = range * range;
    int32_t *list = w->sep_cand + at;
    int32_t m = 0;
    for (; m < n && nb[m].dist_sq < range_sq; ++m) /* (nearest first) */
        list[2 + m] = nb[m].index;
    const float cover = n < me->max_neighbors ? me->neighbor_dist : n > 0 ? sqrtf(nb[n - 1].dist_sq) : 0.0f;
    const float bound = (cover < range ? cover : range) - margin;
    list[0] = m;
    memcpy(&list[1], &bound, sizeof bound);
    w->solve_cand_at[i] = at;
    s->cand_next = at + 2 + m;
    s->cand_demand += 2 + m;
}

/* Agent i's strict list (see above) from the solve's, in place; false when
 * the solve made none or it may miss a partner (then the grid search). */
static bool collect_from_solve(sep_ctx *c, int32_t i, int32_t slot) {
    rvo_world *w = c->w;
    const int32_t at = w->solve_cand_at[i];
    if (at < 0)
        return false;
    int32_t *list = w->sep_cand + at, *e = list + 2;
    float bound;
    memcpy(&bound, &list[1], sizeof bound);
    if (!(c->need < bound))
        return false;
    const float reach_sq = c->reach_sq, comb_sq = c->comb_sq;
    const rvo_vec2 p = w->pos[i];
    int32_t len = 0;
    uint8_t hit = 0;
    for (int32_t k = 0; k < list[0]; ++k) {
        const int32_t j = e[k];
        const float dx = p.x - w->pos[j].x, dy = p.y - w->pos[j].y;
        const float d = dx * dx + dy * dy; /* (grid_dist4_sq's operations) */
        if (d < reach_sq) {
            e[len++] = j;
            hit |= j > i && d < comb_sq; /* offer's overlap test */
        }
    }
    if (len == 0) {
        w->sep_start[slot] = SEP_EMPTY;
        return true;
    }
    list[0] = len;
    list[1] = sort_partners(e, len, i); /* (as collect_agent sorts) */
    w->sep_start[slot] = at;
    if (hit)
        c->hit[slot] = 1;
    return true;
}

static void collect_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    sep_ctx *c = p;
    rvo_world *w = c->w;
    if (!range_ok(c, begin, end, worker))
        return; /* its agents stay pending */
    cursor *cur = &c->cur[worker];
    int32_t pending = 0;
    const int32_t *order = w->grid.items;
    for (int32_t t = begin; t < end; ++t) {
        if (t + 8 < end) { /* the agent's own data is in world order: fetch it ahead */
            RVO_PREFETCH(&w->pos[order[t + 8]]);
            RVO_PREFETCH(&w->prm[order[t + 8]]);
        }
        if (c->from_solve && collect_from_solve(c, order[t], t))
            continue;
        if (!collect_agent(c, cur, false, order[t], t)) {
            w->sep_start[t] = SEP_PENDING;
            ++pending;
        }
    }
    if (c->pairs) { /* the same range of indices (any split covers them once): */
        memcpy(w->sep_before + begin, w->pos + begin, sizeof *w->pos * (size_t)(end - begin)); /* start */
        memset(w->sep_active + 2 * w->count + begin, 1, (size_t)(end - begin)); /* not pushed out yet */
    }
    atomic_fetch_add(&c->done, end - begin - pending);
}

/* Where agent i's list is in w->sep_cand (negative: none). */
static inline int32_t list_of(const rvo_world *w, int32_t i) { return w->sep_start[w->grid.slot_of[i]]; }

/* Does a pair of agent i's (strict list, j > i) overlap now? */
static uint8_t first_pass_overlap(const rvo_world *w, int32_t i) {
    const int32_t at = list_of(w, i);
    if (at < 0)
        return 0;
    const int32_t *list = w->sep_cand + at, *e = list + 2;
    for (int32_t k = list[1]; k < list[0]; ++k) {
        const float comb = w->prm[i].radius + w->prm[e[k]].radius;
        if (v2_abs_sq(v2_sub(w->pos[i], w->pos[e[k]])) < comb * comb)
            return 1;
    }
    return 0;
}

/* Overlap flags by grid slot (c->hit) to the world's order. */
static void hits_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    (void)worker;
    const sep_ctx *c = p;
    rvo_world *w = c->w;
    for (int32_t i = begin; i < end; ++i)
        w->sep_active[i] = c->hit[w->grid.slot_of[i]];
}

static bool collect_candidates(rvo_world *w, sep_ctx *c) {
    const int32_t n = w->count;
    int32_t cap = w->sep_start_cap;
    if (!rvo__grow(w, (void **)&w->sep_start, &cap, n + 1, sizeof *w->sep_start))
        return false;
    w->sep_start_cap = cap;
    if (c->pairs) {
        void **const arrays[] = {(void **)&w->sep_before, (void **)&w->sep_active};
        const size_t elems[] = {sizeof *w->sep_before, 4 * sizeof *w->sep_active};
        if (!rvo__grow_arrays(w, &w->sep_before_cap, n, 2, arrays, elems))
            return false;
    }
    memset(w->sep_start, 0xff, sizeof *w->sep_start * (size_t)n); /* SEP_PENDING */
    c->hit = c->pairs ? w->sep_active + 3 * (size_t)n : NULL;     /* (soft mode: no sep_active) */
    /* (the flags of rvo__update_shares, which rvo__separate has just run) */
    c->uniform = c->pairs && w->n_filtering == 0 && w->n_params == 0 &&
                 w->grid.min_radius == w->grid.max_radius && !rvo__no_shortcuts;
    /* no pair to look at in the next pass yet (this pass's marks come from
     * the hits, below) */
    if (c->pairs)
        memset(w->sep_active + n, 0, (size_t)n), memset(c->hit, 0, (size_t)n);
    const int32_t cand_cap = w->sep_cand_cap, nt = w->threads;
    /* (the solve's lists: made for these agents, in the first three quarters) */
    c->from_solve = c->uniform && w->solve_cand_ok && w->solve_cand_cap >= n;
    w->solve_cand_ok = false; /* used once */
    c->half = c->from_solve ? solve_share(w) : cand_cap / 2;
    if (c->from_solve) { /* (uniform: every agent has the largest radius; collect_agent's float operations) */
        const float comb = w->grid.max_radius + w->grid.max_radius, reach = SEP_REACH * comb;
        c->comb_sq = comb * comb;
        c->reach_sq = reach * reach;
        c->need = reach + 2.0f * w->moved_max;
    }
    atomic_init(&c->bad, false);
    atomic_init(&c->used, 0);
    atomic_store(&c->done, 0);
    for (int32_t k = 0; k < nt; ++k) { /* the regions (with the solve's lists: none, only claims) */
        c->cur[k].next = c->from_solve ? 0 : (int32_t)((int64_t)c->half * k / nt);
        c->cur[k].end = c->from_solve ? 0 : (int32_t)((int64_t)c->half * (k + 1) / nt);
        c->cur[k].full = false;
    }
    rvo__parallel_for(&w->base, n, SEP_CHUNK, collect_range, c);
    /* what did not fit, or a host skipped, on this thread after the claims */
    if (atomic_load(&c->done) != n || atomic_load(&c->bad)) {
        /* no room: a quarter more on the next step (grown_cap; doubling
         * held about three times the lists). Even one worker that takes
         * every agent fits once its region and the upper half hold them
         * all, so the buffer stays within 2.5 times that. */
        bool full = false;
        for (int32_t k = 0; k < nt; ++k)
            full |= c->cur[k].full;
        if (full && cand_cap < INT32_MAX / 2 &&
            !rvo__grow(w, (void **)&w->sep_cand, &w->sep_cand_cap, cand_cap + 1, sizeof *w->sep_cand))
            return false;
        const int32_t used = atomic_load(&c->used), room = cand_cap - c->half;
        cursor tail = {c->half + (used < room ? used : room), w->sep_cand_cap, false,
                       0.0f}; /* after every list */
        if (c->pairs) {
            memcpy(w->sep_before, w->pos, sizeof *w->pos * (size_t)n); /* (a skipped range set none) */
            memset(w->sep_active + 2 * (size_t)n, 1, (size_t)n);
        }
        for (int32_t t = 0; t < n; ++t)
            if (w->sep_start[t] == SEP_PENDING && !collect_agent(c, &tail, true, w->grid.items[t], t))
                return false;
        if (c->pairs)
            for (int32_t i = 0; i < n; ++i)
                w->sep_active[i] = first_pass_overlap(w, i);
    } else if (c->pairs) {
        rvo__pool_for(&w->base, n, RVO_LOOP_CHUNK, hits_range, c);
    }
    return true;
}

/* Moves agent i out of agent j by i's share of their overlap, into delta. */
static void push_from_agent(const rvo_world *w, int32_t i, int32_t j, rvo_vec2 p, rvo_vec2 *delta) {
    const agent_params *me = &w->prm[i], *other = &w->prm[j];
    const float comb = me->radius + other->radius;
    const rvo_vec2 d = v2_sub(p, w->pos[j]);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= comb * comb)
        return;
    const float share = pair_share(w, i, j, false);
    if (share == 0.0f)
        return;
    const float dist = sqrtf(dist_sq);
    /* same spot: split along a direction fixed by the ids */
    const rvo_vec2 n =
        dist > 1e-6f * comb ? v2_scale(1.0f / dist, d) : rvo__split_direction(w->ids[i], w->ids[j]);
    *delta = v2_add(*delta, v2_scale(share * (comb - dist), n));
}

/* The partners of agent i (soft lists): list[0 .. n). */
static inline const int32_t *partners(const rvo_world *w, int32_t i, int32_t *n) {
    const int32_t at = list_of(w, i);
    if (at < 0) {
        *n = 0;
        return NULL;
    }
    *n = w->sep_cand[at];
    return w->sep_cand + at + 1;
}

static rvo_vec2 back_from_moving(const rvo_world *w, scratch *s, int32_t i, rvo_vec2 from, rvo_vec2 p,
                                 bool *moved);

static void separate_soft(rvo_world *w) {
    scratch *s = &w->scratch[0];
    for (int32_t pass = 0; pass < RVO_SEPARATION_SOFT_PASSES; ++pass) {
        bool moved = false;
        for (int32_t i = 0; i < w->count; ++i) {
            const agent_params *me = &w->prm[i];
            if (me->locked)
                continue;
            const rvo_vec2 p = w->pos[i];
            rvo_vec2 delta = v2(0.0f, 0.0f);
            int32_t n;
            const int32_t *list = partners(w, i, &n);
            for (int32_t k = 0; k < n; ++k)
                push_from_agent(w, i, list[k], p, &delta);
            rvo_vec2 np = v2_add(p, delta);
            /* Obstacles win: back out of edge clearance. */
            if (w->nverts > 0) {
                bool crossed = false;
                if (w->obst_moving > 0 || w->ntraps > 0) /* (see back_from_moving) */
                    np = back_from_moving(w, s, i, p, np, &crossed);
                push_ctx c = {w, np, me->radius, me->z, me->height, false};
                const float r = me->radius;
                rvo__edge_grid_visit(w, s, c.p.x - r, c.p.y - r, c.p.x + r, c.p.y + r, push_from_edge, &c);
                np = c.p;
            }
            if (np.x != p.x || np.y != p.y)
                moved = true;
            w->pos[i] = np;
        }
        if (!moved)
            break;
    }
}

/* Projects pair (i, j) apart by their shares, over-relaxed; returns the
 * overlap it found as a fraction of the radius sum (0 if none). */
/* A timed lock (rvo.locks) of an agent that presses into j but never moves
 * (weight 0) ends here: kept, its velocity pinched whoever was between it
 * and another such agent (docs/quality.md). A lock the script set stays. */
static void end_pressing_lock(rvo_world *w, int32_t i, int32_t j) {
    if (w->prm[i].locked && rvo__lock_left(w, i) > 0.0 && w->prm[i].weight == 0.0f &&
        yields_locked(w, i, j)) {
        w->prm[i].locked = 0;
        w->lock[i].left = 0.0;
    }
}

static float project_pair(rvo_world *w, int32_t i, int32_t j, bool pinch) {
    const float comb = w->prm[i].radius + w->prm[j].radius;
    const rvo_vec2 d = v2_sub(w->pos[i], w->pos[j]);
    const float dist_sq = v2_abs_sq(d);
    if (dist_sq >= comb * comb)
        return 0.0f;
    const float dist = sqrtf(dist_sq);
    /* same spot: split along a direction fixed by the ids */
    const rvo_vec2 n =
        dist > 1e-6f * comb ? v2_scale(1.0f / dist, d) : rvo__split_direction(w->ids[i], w->ids[j]);
    const float push = RVO_SEPARATION_RELAX * (comb - dist);
    if (w->prm[i].locked | w->prm[j].locked) {
        end_pressing_lock(w, i, j);
        end_pressing_lock(w, j, i);
    }
    /* two agents without a flag of rvo__update_shares (run before the
     * passes; a lock that ends here was flagged) split 50/50 (give_way.h) */
    const bool even = !(w->uneven[i] | w->uneven[j]) && !rvo__no_shortcuts;
    w->pos[i] = v2_add(w->pos[i], v2_scale((even ? 0.5f : pair_share(w, i, j, pinch)) * push, n));
    w->pos[j] = v2_sub(w->pos[j], v2_scale((even ? 0.5f : pair_share(w, j, i, pinch)) * push, n));
    return (comb - dist) / comb;
}

bool rvo__separate_reference = false;

/* ---- strict passes: only where something can happen ---------------------
 * A pass in index order looks at a pair only if it overlapped when last
 * looked at, or one of its agents moved since: any other pair still does
 * not overlap, and project_pair would leave it (and the pass's worst
 * overlap) alone, so skipping it changes nothing, bit for bit. The pairs
 * are tracked per agent: now[i] / later[i] = look at i's pairs (j > i) in
 * this pass / the next. When agent x moves while the pass is at agent i,
 * the pairs of x and of its partners below it (whose lists hold x) come
 * after i in pass order or not: those this pass, the rest the next. */
static inline void mark_moved(const rvo_world *w, uint8_t *now, uint8_t *later, int32_t x, int32_t i) {
    (x > i ? now : later)[x] = 1;
    const int32_t *list = w->sep_cand + list_of(w, x); /* x is in a pair: its list is not empty */
    for (int32_t k = 0; k < list[1]; ++k) {
        const int32_t h = list[2 + k];
        (h > i ? now : later)[h] = 1;
    }
}

/* One strict pass: the pairs of the agents marked in now, in index order;
 * clears now, marks later and the agents it moves; returns the worst
 * overlap (fraction of the radius sum) it found. */
static float strict_pass(rvo_world *w, uint8_t *now, uint8_t *later, uint8_t *moved, bool pinch) {
    float worst = 0.0f;
    const int32_t n = w->count;
    for (int32_t i = 0; i < n; ++i) {
        if ((i & 7) == 0 && n - i >= 8) { /* skip eight unmarked agents at once */
            uint64_t eight;
            memcpy(&eight, now + i, sizeof eight);
            if (eight == 0) {
                i += 7;
                continue;
            }
        }
        if (!now[i])
            continue;
        now[i] = 0;
        const int32_t at = list_of(w, i);
        if (at < 0)
            continue; /* marked as a partner below, with no pair of its own */
        const int32_t *list = w->sep_cand + at, *e = list + 2;
        for (int32_t k = list[1]; k < list[0]; ++k) {
            const int32_t j = e[k];
            const float f = project_pair(w, i, j, pinch);
            if (f > 0.0f) { /* both may have moved (a share can be 0: looking again is harmless) */
                worst = f > worst ? f : worst;
                mark_moved(w, now, later, i, i);
                mark_moved(w, now, later, j, i);
                moved[i] = moved[j] = 1;
            }
        }
    }
    return worst;
}

/* The passes between agents must not push an agent through a moving
 * obstacle (a fast one piles agents up against it): where its way since the
 * passes began (strict; soft: since this pass moved it), from `from`,
 * entered an edge of one from the free side, it goes back to that edge, a
 * radius out. */
typedef struct cross_ctx {
    const rvo_world *w;
    rvo_vec2 a0, a1; /* the agent's step, before and after */
    float dt, z, height;
    float best_t;
    int32_t best;
    bool any; /* standing obstacles' edges too */
} cross_ctx;

/* Does the agent's step, in the frame of edge e's moving obstacle (its end
 * less the obstacle's displacement over dt; dt 0: as it is), enter the
 * edge from its free (right) side? Keeps the first such edge. */
static void visit_cross(void *ctx, int32_t e) {
    cross_ctx *c = ctx;
    const obst_vertex *v = &c->w->verts[e];
    const obstacle *ob = &c->w->obst[v->obstacle];
    if ((!c->any && ob->vel.x == 0.0f && ob->vel.y == 0.0f) ||
        !obst_on_floor(ob, c->z, c->height, c->w->height_margin))
        return;
    const rvo_vec2 p = v->point, ab = v2_sub(c->w->verts[v->next].point, p);
    const rvo_vec2 b = c->dt > 0.0f ? v2_sub(c->a1, v2_scale(c->dt, ob->vel)) : c->a1, d = v2_sub(b, c->a0);
    if (!(v2_det(v2_sub(p, c->a0), ab) < 0.0f && v2_det(v2_sub(p, b), ab) >= 0.0f))
        return; /* not from the free side into the blocked one */
    const float den = v2_det(d, ab);
    if (den == 0.0f)
        return;
    const float t = v2_det(v2_sub(p, c->a0), ab) / den, u = v2_det(v2_sub(p, c->a0), d) / den;
    if (t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f &&
        (t < c->best_t || (t == c->best_t && e < c->best))) {
        c->best_t = t;
        c->best = e;
    }
}

int32_t rvo__moving_edge_crossed(const rvo_world *w, scratch *s, rvo_vec2 a0, rvo_vec2 a1, float dt, float z,
                                 float height, float reach, bool any, float *t) {
    cross_ctx c = {w, a0, a1, dt, z, height, INFINITY, -1, any};
    rvo__edge_grid_visit(w, s, fminf(a0.x, a1.x) - reach, fminf(a0.y, a1.y) - reach,
                         fmaxf(a0.x, a1.x) + reach, fmaxf(a0.y, a1.y) + reach, visit_cross, &c);
    *t = c.best_t;
    return c.best;
}

/* ... and while traps are pending (an obstacle's points changed over
 * agents: a crowd pushed out of it together would squeeze some through its
 * edges), every obstacle's: from (the position before the passes) to p. */
static rvo_vec2 back_from_moving(const rvo_world *w, scratch *s, int32_t i, rvo_vec2 from, rvo_vec2 p,
                                 bool *moved) {
    float t;
    const int32_t e =
        rvo__moving_edge_crossed(w, s, from, p, 0.0f, w->prm[i].z, w->prm[i].height, 0.0f, w->ntraps > 0, &t);
    if (e < 0)
        return p;
    const obst_vertex *v = &w->verts[e];
    *moved = true;
    const rvo_vec2 met = v2_add(from, v2_scale(t, v2_sub(p, from)));
    return v2_add(met, v2_scale(w->prm[i].radius, v2(v->unit_dir.y, -v->unit_dir.x)));
}

/* Obstacles win: every agent backs out of edge clearance (each reads and
 * writes only its own position); an agent pushed marks its pairs for the
 * next pass (bytes that several workers may set: atomic stores). Strict:
 * only agents moved since a push-out that found nothing (moved[i]: the
 * same position gives the same nothing). */
static void push_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    sep_ctx *c = p;
    if (!range_ok(c, begin, end, worker))
        return;
    rvo_world *w = c->w;
    scratch *s = &w->scratch[worker];
    uint8_t *moved = c->moved;
    for (int32_t i = begin; i < end; ++i) {
        const agent_params *me = &w->prm[i];
        if (me->locked || !moved[i])
            continue;
        push_ctx pc = {w, w->pos[i], me->radius, me->z, me->height, false};
        if (w->obst_moving > 0 || w->ntraps > 0)
            pc.p = back_from_moving(w, s, i, w->sep_before[i], pc.p, &pc.moved);
        const float r = me->radius;
        rvo__edge_grid_visit(w, s, pc.p.x - r, pc.p.y - r, pc.p.x + r, pc.p.y + r, push_from_edge, &pc);
        w->pos[i] = pc.p;
        moved[i] = pc.moved; /* pushed: its next push-out may push again */
        const int32_t at = list_of(w, i);
        if (pc.moved && at >= 0) {
            uint8_t *later = c->later;
            const int32_t *list = w->sep_cand + at;
            __atomic_store_n(&later[i], 1, __ATOMIC_RELAXED);
            for (int32_t k = 0; k < list[1]; ++k)
                __atomic_store_n(&later[list[2 + k]], 1, __ATOMIC_RELAXED);
        }
    }
    atomic_fetch_add(&c->done, end - begin);
}

/* Runs fn over every agent; false when a host broke the contract. */
static bool agents_for(sep_ctx *c, rvo_task_fn *fn) {
    atomic_store(&c->done, 0);
    rvo__parallel_for(&c->w->base, c->w->count, SEP_CHUNK, fn, c);
    return !atomic_load(&c->bad) && atomic_load(&c->done) == c->w->count;
}

/* The velocity is the motion the agent really made: the next solve then
 * sees a pushed-back agent as slower, not as still pressing on. */
static void feedback_range(int32_t begin, int32_t end, uint32_t worker, void *p) {
    sep_ctx *c = p;
    rvo_world *w = c->w;
    float most = c->cur[worker].moved_sq;
    for (int32_t i = begin; i < end; ++i) {
        const rvo_vec2 moved = v2_sub(w->pos[i], w->sep_before[i]);
        if (moved.x != 0.0f || moved.y != 0.0f) { /* (most agents: no) */
            if (!w->prm[i].locked)                /* (vel: the lock's velocity) */
                w->vel[i] = v2_add(w->vel[i], v2_scale(c->inv_dt, moved));
            const float d = v2_abs_sq(moved);
            most = d > most ? d : most;
        }
    }
    c->cur[worker].moved_sq = most;
}

/* Every agent's velocity takes up its motion in the passes (feedback_range);
 * returns the farthest one moved, squared. */
static float feed_back(sep_ctx *c) {
    for (int32_t k = 0; k < c->w->threads; ++k)
        c->cur[k].moved_sq = 0.0f;
    rvo__pool_for(&c->w->base, c->w->count, RVO_LOOP_CHUNK, feedback_range, c);
    float most = 0.0f;
    for (int32_t k = 0; k < c->w->threads; ++k)
        most = c->cur[k].moved_sq > most ? c->cur[k].moved_sq : most;
    return most;
}

/* Puts a trapped agent (world.h: obst_trap) at p out on the free side of
 * closed obstacle ob: a radius out across its nearest edge, again from
 * there while that leaves it on the blocked side (a concave corner), a few
 * times at most. Returns the new position. */
static rvo_vec2 free_side(const rvo_world *w, const obstacle *ob, rvo_vec2 p, float radius) {
    for (int tries = 0; tries < 4; ++tries) {
        if (rvo__obstacle_contains(w, ob, p) == ob->enclosure)
            break;
        float best = INFINITY;
        rvo_vec2 to = p;
        for (int32_t k = ob->first; k < ob->first + ob->count; ++k) {
            const obst_vertex *v = &w->verts[k];
            const rvo_vec2 a = v->point, ab = v2_sub(w->verts[v->next].point, a);
            const rvo_vec2 q = v2_nearest_on_segment(p, a, ab);
            const float d = v2_abs_sq(v2_sub(p, q));
            if (d < best) {
                best = d;
                to = v2_add(q, v2_scale(radius, v2(v->unit_dir.y, -v->unit_dir.x)));
            }
        }
        p = v2(rvo__clamp_coord(to.x), rvo__clamp_coord(to.y));
    }
    return p;
}

/* Trapped agents (rvo_obstacle_set_points) still on the blocked side
 * go out on the free side, before the passes (which then keep them out of
 * the edges' clearance) and after them (a crowd pushed out of a solid
 * together can squeeze one back in: the obstacle wins). A trap is dropped
 * once its agent is found on the free side after the passes, or when the
 * agent is removed or locked or the obstacle gone. In the traps' order,
 * on this thread. */
static void release_traps(rvo_world *w, bool after) {
    int32_t kept = 0;
    for (int32_t k = 0; k < w->ntraps; ++k) {
        const obst_trap t = w->traps[k];
        const int32_t i = rvo__slot_lookup(&w->agent_slots, t.agent);
        const int32_t oi = rvo__slot_lookup(&w->obst_slots, t.obstacle);
        if (i < 0 || oi < 0 || w->prm[i].locked)
            continue;
        const obstacle *ob = &w->obst[oi];
        if (!obst_on_floor(ob, w->prm[i].z, w->prm[i].height, w->height_margin) ||
            rvo__obstacle_contains(w, ob, w->pos[i]) == ob->enclosure) {
            if (!after)
                w->traps[kept++] = t;
            continue; /* free */
        }
        w->pos[i] = free_side(w, ob, w->pos[i], w->prm[i].radius);
        w->traps[kept++] = t; /* looked at again */
    }
    w->ntraps = kept;
}

rvo_status rvo__separate(rvo_world *w, float dt, bool *gridded) {
    *gridded = false;
    if (w->rvo2_compat)
        w->ntraps = 0; /* RVO2 has no overlap passes */
    if (w->rvo2_compat || w->count == 0)
        return RVO_OK;
    if (w->ntraps > 0) {
        w->solve_cand_ok = false; /* (agents moved out of obstacles) */
        release_traps(w, false);
    }
    /* grid of the integrated positions; strict lists are sorted, so their
     * cells can suit their reach (soft lists keep the grid's order) */
    if (!w->grid.valid && !rvo__agent_grid_build_for(w, w->strict_overlap))
        return RVO_ERR_OUT_OF_MEMORY;
    if (!rvo__prepare(w))
        return RVO_ERR_OUT_OF_MEMORY;
    /* who gives way, from the integrated positions (pair_share) */
    if (w->strict_overlap && !rvo__update_shares(w, false))
        return RVO_ERR_OUT_OF_MEMORY;
    *gridded = true;

    sep_ctx c;
    c.w = w;
    c.pairs = w->strict_overlap;
    c.inv_dt = 1.0f / rvo__min_time(dt);
    atomic_init(&c.done, 0);
    if (!collect_candidates(w, &c))
        return RVO_ERR_OUT_OF_MEMORY;
    w->grid.valid = false; /* the passes move agents */
    if (!w->strict_overlap) {
        separate_soft(w);
        if (w->ntraps > 0)
            release_traps(w, true);
        return RVO_OK;
    }
    /* a pair missing from the lists was SEP_REACH radius sums apart or more:
     * it can overlap only once an agent has moved this far in the passes */
    const float slack = (SEP_REACH - 1.0f) * w->grid.min_radius;
    for (int round = 0;; ++round) {
        atomic_store(&c.bad, false);
        uint8_t *now = w->sep_active, *later = w->sep_active + w->count;
        c.moved = w->sep_active + 2 * w->count;
        for (int32_t pass = 0; pass < RVO_SEPARATION_MAX_PASSES; ++pass) {
            if (rvo__separate_reference) { /* (tests) every pair, every agent */
                memset(now, 1, (size_t)w->count);
                memset(c.moved, 1, (size_t)w->count);
            }
            /* pairs in index order on this thread (Gauss-Seidel) */
            const float worst = strict_pass(w, now, later, c.moved, pass >= RVO_PINCH_PASS);
            c.later = later;
            if (w->nverts > 0 && !agents_for(&c, push_range))
                return RVO_ERR_INVALID_ARGUMENT;
            if (worst <= RVO_SEPARATION_TOLERANCE)
                break;
            uint8_t *t = now; /* now is all clear: it becomes the next pass's later */
            now = later;
            later = t;
        }
        /* Pushed that far (a crowd meeting at a body's width per step or
         * more), an agent can overlap one outside its list: the lists again
         * from where the agents stand. Overlaps of 13-94% stayed at dt 0.25
         * and max speed 4 (docs/quality.md, stop 37). Out of memory, the
         * step keeps what it has. */
        if (!(feed_back(&c) > slack * slack) || round + 1 >= RVO_SEPARATION_ROUNDS)
            break;
        const bool ok = rvo__agent_grid_build_for(w, true) && collect_candidates(w, &c);
        w->grid.valid = false;
        if (!ok)
            break; /* (the motion so far is fed back: a later round's would be too, from sep_before) */
    }
    if (w->ntraps > 0) /* (after the feedback: a velocity does not take the jump) */
        release_traps(w, true);
    return RVO_OK;
}

rvo_status rvo_world_set_strict_overlap(rvo_world *w, bool on) {
    if (!w)
        return RVO_ERR_INVALID_ARGUMENT;
    w->strict_overlap = on;
    rvo__ok(w);
    return RVO_OK;
}

bool rvo_world_strict_overlap(const rvo_world *w) { return w && w->strict_overlap; }
