/* Spatial indices: a uniform grid over agents (rebuilt when positions
 * change, counting sort, no per-agent allocation) and one over obstacle
 * edges (rebuilt when obstacles change). */
#include "index/grid.h"

#include <string.h>

/* item_pos has this many entries past the last agent (far away), so that
 * the neighbour scan may read 4 positions at a time past a span's end. */
#define GRID_PAD 3

static int32_t cell_coord(float v, float o, float inv_cell, int32_t n) {
    const float c = (v - o) * inv_cell;
    if (!(c >= 0.0f))
        return 0;
    if (c >= (float)n)
        return n - 1;
    return (int32_t)c;
}

/* Picks a cell size for `items` things spread over a box, keeping the cell
 * count below limit. */
static void choose_cells(float minx, float miny, float maxx, float maxy, int32_t items, float min_cell,
                         int64_t limit, float *cell, int32_t *nx, int32_t *ny) {
    const double w = (double)maxx - minx, h = (double)maxy - miny;
    double c = sqrt((w * h) / (items > 0 ? items : 1)) * 1.5;
    const double extent = w > h ? w : h;
    if (c < extent * (1.0 / 8192))
        c = extent * (1.0 / 8192);
    if (c < min_cell)
        c = min_cell;
    if (!(c > 0))
        c = 1;
    if (c < 1e-6)
        c = 1e-6; /* a cell of 1e-45 m is 0 as a float, its inverse inf */
    for (;;) {
        const int64_t cx = (int64_t)(w / c) + 1, cy = (int64_t)(h / c) + 1;
        if (cx * cy <= limit) {
            *nx = (int32_t)cx;
            *ny = (int32_t)cy;
            break;
        }
        c *= 1.5;
    }
    *cell = (float)c;
}

/* ---- agents --------------------------------------------------------------- */

bool rvo__agent_grid_build(rvo_world *w) { return rvo__agent_grid_build_for(w, false); }

bool rvo__agent_grid_build_for(rvo_world *w, bool overlap) {
    agent_grid *g = &w->grid;
    const int32_t n = w->count;
    float minx = 0, miny = 0, maxx = 0, maxy = 0;
    if (n > 0) {
        minx = maxx = w->pos[0].x;
        miny = maxy = w->pos[0].y;
    }
    float max_reach = 0.0f, max_radius = 0.0f, min_radius = n > 0 ? w->prm[0].radius : 0.0f;
    for (int32_t i = 0; i < n; ++i) {
        const rvo_vec2 p = w->pos[i];
        if (p.x < minx)
            minx = p.x;
        if (p.x > maxx)
            maxx = p.x;
        if (p.y < miny)
            miny = p.y;
        if (p.y > maxy)
            maxy = p.y;
        if (w->prm[i].neighbor_dist > max_reach)
            max_reach = w->prm[i].neighbor_dist;
        if (w->prm[i].radius > max_radius)
            max_radius = w->prm[i].radius;
        if (w->prm[i].radius < min_radius)
            min_radius = w->prm[i].radius;
    }
    /* Cells of half the neighbour range (measured best on uniform crowds),
     * or of about 1.25 agents each where crowds are sparser than that, but
     * at most 4 cells per agent (a crowd on a ring leaves most of its box
     * empty; clearing and summing empty cells costs more than it saves). */
    const double bw = (double)maxx - minx, bh = (double)maxy - miny;
    const double per_agent = (bw * bh) / (n > 0 ? n : 1);
    double cell = overlap ? 3.2 * max_radius : max_reach * 0.5; /* overlap: the widest candidate reach */
    if (cell > 1.25 * sqrt(per_agent) || !(cell > 0))
        cell = 1.25 * sqrt(per_agent);
    if (cell < sqrt(per_agent / 4))
        cell = sqrt(per_agent / 4);
    const double extent = bw > bh ? bw : bh;
    if (cell < extent * (1.0 / 8192))
        cell = extent * (1.0 / 8192);
    if (!(cell > 0))
        cell = 1;
    if (cell < 1e-6)
        cell = 1e-6; /* a cell of 1e-45 m is 0 as a float, its inverse inf */
    for (;; cell *= 1.5) {
        const int64_t cx = (int64_t)(bw / cell) + 1, cy = (int64_t)(bh / cell) + 1;
        if (cx * cy <= 4 * (int64_t)n + 16) {
            g->nx = (int32_t)cx;
            g->ny = (int32_t)cy;
            break;
        }
    }
    g->cell = (float)cell;
    g->ox = minx;
    g->oy = miny;
    g->inv_cell = 1.0f / g->cell;
    const int32_t ncells = g->nx * g->ny;
    void **const arrays[] = {(void **)&g->items, (void **)&g->item_pos, (void **)&g->item_vel,
                             (void **)&g->slot_of};
    const size_t elems[] = {sizeof *g->items, sizeof *g->item_pos, sizeof *g->item_vel, sizeof *g->slot_of};
    if (!rvo__grow(w, (void **)&g->start, &g->start_cap, ncells + 1, sizeof *g->start) ||
        !rvo__grow_arrays(w, &g->items_cap, n + GRID_PAD, 4, arrays, elems))
        return false;
    for (int32_t k = n; k < n + GRID_PAD; ++k)
        g->item_pos[k] = v2(1e30f, 1e30f), g->items[k] = 0; /* out of every range */
    memset(g->start, 0, sizeof *g->start * (size_t)(ncells + 1));
    g->max_radius = max_radius;
    g->min_radius = min_radius;
    g->slack = 0.0f;
#if defined(RVO_SSE2)
    /* cell_coord for x and y at once (as rvo__grid_box: at most 8193 cells a side) */
    const __m128 origin = _mm_set_ps(0.0f, 0.0f, g->oy, g->ox), inv = _mm_set1_ps(g->inv_cell);
    const __m128 last = _mm_set_ps(0.0f, 0.0f, (float)(g->ny - 1), (float)(g->nx - 1));
#endif
    for (int32_t i = 0; i < n; ++i) {
#if defined(RVO_SSE2)
        const __m128 v =
            _mm_mul_ps(_mm_sub_ps(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)&w->pos[i]), origin), inv);
        const __m128i xy = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), last));
        const int32_t c = _mm_cvtsi128_si32(_mm_shuffle_epi32(xy, 1)) * g->nx + _mm_cvtsi128_si32(xy);
#else
        const int32_t c = cell_coord(w->pos[i].y, g->oy, g->inv_cell, g->ny) * g->nx +
                          cell_coord(w->pos[i].x, g->ox, g->inv_cell, g->nx);
#endif
        g->slot_of[i] = c; /* its cell, for now */
        g->start[c + 1]++;
    }
    for (int32_t c = 0; c < ncells; ++c)
        g->start[c + 1] += g->start[c];
    /* stable placement: within a cell, agents keep the world's order */
    for (int32_t i = 0; i < n; ++i) {
        const int32_t k = g->start[g->slot_of[i]]++;
        g->items[k] = i;
        g->item_pos[k] = w->pos[i];
        g->slot_of[i] = k;
    }
    for (int32_t c = ncells; c > 0; --c)
        g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    RVO_ASSERT(g->start[ncells] == n); /* every agent filed once */
    g->valid = true;
    return true;
}

void rvo__grid_refile(rvo_world *w, int32_t begin, int32_t end, scratch *s) {
    agent_grid *g = &w->grid;
    float slack = s->slack;
    for (int32_t i = begin; i < end; ++i) {
        const int32_t t = g->slot_of[i];
        const rvo_vec2 p = w->pos[i], q = g->item_pos[t];
        if (p.x == q.x && p.y == q.y)
            continue;
        const float dx = fabsf(p.x - q.x), dy = fabsf(p.y - q.y);
        slack = dx > slack ? dx : slack;
        slack = dy > slack ? dy : slack;
        g->item_pos[t] = p;
    }
    s->slack = slack;
}

void rvo__agent_grid_free(rvo_world *w) {
    agent_grid *g = &w->grid;
    rvo__realloc(w, g->start, sizeof *g->start * (size_t)g->start_cap, 0);
    rvo__realloc(w, g->items, sizeof *g->items * (size_t)g->items_cap, 0);
    rvo__realloc(w, g->item_pos, sizeof *g->item_pos * (size_t)g->items_cap, 0);
    rvo__realloc(w, g->item_vel, sizeof *g->item_vel * (size_t)g->items_cap, 0);
    rvo__realloc(w, g->slot_of, sizeof *g->slot_of * (size_t)g->items_cap, 0);
    memset(g, 0, sizeof *g);
}

/* Does agent a's id come before agent b's (the order of equal distances)? */
static inline bool id_before(const rvo_world *w, int32_t a, int32_t b) { return w->ids[a] < w->ids[b]; }

/* Offers agent j at squared distance d to out[0..*n), sorted by (distance,
 * id) and at most k long, as RVO2 selects: strictly inside the range, which
 * shrinks to the k-th distance once k are found (equal to it only against a
 * full list, where the id decides). Ids are read only for equal distances:
 * in world order, an id per offer missed the cache in large worlds. */
static inline void offer(const rvo_world *w, int32_t self, float d, int32_t j, float *range_sq, int32_t k,
                         int32_t *n, neighbor *out, const bool filter) {
    if (!(d < *range_sq) && (d != *range_sq || *n < k))
        return;
    if (j == self)
        return;
    /* groups and height filter before the neighbour budget */
    if (filter) {
        const agent_params *me = &w->prm[self], *o = &w->prm[j];
        if (!(me->mask & o->groups))
            return;
        if (!z_overlap(me->z, me->height, o->z, o->height, w->height_margin))
            return;
    }
    int32_t m = *n;
    if (m < k) {
        *n = ++m;
    } else if (!(d < out[m - 1].dist_sq || id_before(w, j, out[m - 1].index))) { /* d equals the k-th */
        return;
    }
    int32_t i = m - 1;
    while (i > 0 && d < out[i - 1].dist_sq) {
        out[i] = out[i - 1];
        --i;
    }
    while (i > 0 && d == out[i - 1].dist_sq && id_before(w, j, out[i - 1].index)) { /* ties: by id */
        out[i] = out[i - 1];
        --i;
    }
    out[i].dist_sq = d;
    out[i].index = j;
    RVO_ASSERT(m <= k && (i == 0 || out[i - 1].dist_sq < d ||
                          (out[i - 1].dist_sq == d && id_before(w, out[i - 1].index, j))));
    if (m == k)
        *range_sq = out[k - 1].dist_sq;
}

/* Offers the agents of items [t0, t1) (cells of one row: contiguous in the
 * grid's arrays). With SSE2 four distances at a time, by the same float
 * operations as the scalar loop (so with the same results); most agents of
 * a span are out of range and cost a quarter of a scalar test. */
static inline void scan_span(const rvo_world *w, const agent_grid *g, rvo_vec2 p, int32_t self, int32_t t0,
                             int32_t t1, float *range_sq, int32_t k, int32_t *n, neighbor *out,
                             const bool filter) {
    const rvo_vec2 *ip = g->item_pos;
#if defined(RVO_SSE2)
    const __m128 px = _mm_set1_ps(p.x), py = _mm_set1_ps(p.y);
    __m128 range = _mm_set1_ps(*range_sq);
    for (int32_t t = t0; t < t1; t += 4) {
        const __m128 d = grid_dist4_sq(ip, t, px, py);
        unsigned bits = (unsigned)_mm_movemask_ps(_mm_cmple_ps(d, range));
        if (t1 - t < 4)
            bits &= (1u << (t1 - t)) - 1u;
        if (!bits)
            continue;
        float ds[4];
        _mm_storeu_ps(ds, d);
        do {
            const int l = __builtin_ctz(bits);
            bits &= bits - 1u;
            offer(w, self, ds[l], g->items[t + l], range_sq, k, n, out, filter);
        } while (bits);
        range = _mm_set1_ps(*range_sq);
    }
#else
    for (int32_t t = t0; t < t1; ++t) {
        const float dx = p.x - ip[t].x, dy = p.y - ip[t].y;
        offer(w, self, dx * dx + dy * dy, g->items[t], range_sq, k, n, out, filter);
    }
#endif
}

/* The search box's padding: rounding never drops a cell, and agents filed
 * where they were (the grid's slack) are still found. */
static inline float knn_pad(const agent_grid *g) { return g->cell * (1.0f / 1024.0f) + g->slack; }

#if defined(RVO_SSE2)
/* The ranked search (grid_knn_ranked), for lists of up to KNN_RANKED_K
 * agents from up to KNN_RANKED_CAP candidates. offer()'s insertion leaves
 * its loop after a number of steps that changes with every offer, a
 * mispredicted branch each time: in a random crossing that made the search
 * 40% of the step's time for 32% of its instructions. */
#define KNN_RANKED_K 16
#define KNN_RANKED_CAP 24

/* Appends the agents of items [t0, t1) strictly nearer than range, self
 * aside, to bd/bj[cnt ..) without a branch per agent; returns the new
 * count, or -1 when the buffer could overflow. */
static inline int32_t collect_span(const agent_grid *g, __m128 px, __m128 py, __m128 range, __m128i self4,
                                   int32_t t0, int32_t t1, int32_t cnt, float *bd, int32_t *bj) {
    for (int32_t t = t0; t < t1; t += 4) {
        if (cnt > KNN_RANKED_CAP - 4)
            return -1;
        const __m128 d = grid_dist4_sq(g->item_pos, t, px, py);
        const __m128i j = _mm_loadu_si128((const __m128i *)&g->items[t]);
        unsigned bits = (unsigned)_mm_movemask_ps(
            _mm_andnot_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(j, self4)), _mm_cmplt_ps(d, range)));
        if (t1 - t < 4)
            bits &= (1u << (t1 - t)) - 1u;
        float ds[4];
        int32_t js[4];
        _mm_storeu_ps(ds, d);
        _mm_storeu_si128((__m128i *)js, j);
        bd[cnt] = ds[0], bj[cnt] = js[0], cnt += (int32_t)(bits & 1u);
        bd[cnt] = ds[1], bj[cnt] = js[1], cnt += (int32_t)(bits >> 1 & 1u);
        bd[cnt] = ds[2], bj[cnt] = js[2], cnt += (int32_t)(bits >> 2 & 1u);
        bd[cnt] = ds[3], bj[cnt] = js[3], cnt += (int32_t)(bits >> 3 & 1u);
    }
    return cnt;
}

/* The k nearest of the cnt candidates bd/bj into out, sorted: each
 * candidate's place is the number of nearer ones (four candidates at a
 * time), so no branch depends on the distances. -1 when two distances are
 * equal: they would share a place. */
static inline int32_t rank_candidates(float *bd, const int32_t *bj, int32_t cnt, int32_t k, neighbor *out) {
    _mm_storeu_ps(bd + cnt, _mm_set1_ps(INFINITY)); /* the last block's lanes past cnt: place cnt */
    neighbor beyond;                                /* places k and on */
    uint32_t seen = 0;
    for (int32_t a = 0; a < cnt; a += 4) {
        const __m128 da = _mm_loadu_ps(bd + a);
        __m128i nearer = _mm_setzero_si128();
        for (int32_t b = 0; b < cnt; b += 4) { /* (the lanes past cnt are never nearer) */
            const __m128 db = _mm_loadu_ps(bd + b);
            nearer = _mm_sub_epi32(
                nearer, _mm_castps_si128(_mm_cmplt_ps(_mm_shuffle_ps(db, db, _MM_SHUFFLE(0, 0, 0, 0)), da)));
            nearer = _mm_sub_epi32(
                nearer, _mm_castps_si128(_mm_cmplt_ps(_mm_shuffle_ps(db, db, _MM_SHUFFLE(1, 1, 1, 1)), da)));
            nearer = _mm_sub_epi32(
                nearer, _mm_castps_si128(_mm_cmplt_ps(_mm_shuffle_ps(db, db, _MM_SHUFFLE(2, 2, 2, 2)), da)));
            nearer = _mm_sub_epi32(
                nearer, _mm_castps_si128(_mm_cmplt_ps(_mm_shuffle_ps(db, db, _MM_SHUFFLE(3, 3, 3, 3)), da)));
        }
        int32_t r[4];
        _mm_storeu_si128((__m128i *)r, nearer);
        for (int32_t l = 0; l < 4; ++l) {
            seen |= 1u << r[l];
            neighbor *to = r[l] < k ? &out[r[l]] : &beyond;
            to->dist_sq = bd[a + l];
            to->index = bj[a + l];
        }
    }
    const uint32_t all = (1u << cnt) - 1u;
    return (seen & all) == all ? (cnt < k ? cnt : k) : -1;
}

/* grid_knn's list (k <= KNN_RANKED_K) by collecting every agent
 * strictly inside the range, then ranking them; the same list, bit for
 * bit (equal distances go through offer(), which orders them by id).
 * Returns -1 when more than KNN_RANKED_CAP could lie in range (offer()'s
 * search then shrinks the range as it fills its list). For a search whose
 * range is about the k-th distance already: the hinted guess, or a range
 * that held fewer than k agents last step. */
static RVO_NOINLINE int32_t grid_knn_ranked(const rvo_world *w, int32_t self, float range_sq, int32_t k,
                                            neighbor *out, const bool filter) {
    const agent_grid *g = &w->grid;
    const rvo_vec2 p = w->pos[self];
    const float pad = knn_pad(g);
    int32_t box[4]; /* (cell_coord's cells) */
    rvo__grid_box(g, p, sqrtf(range_sq) + pad, box);
    float bd[KNN_RANKED_CAP + 4];
    int32_t bj[KNN_RANKED_CAP + 4];
    const __m128 px = _mm_set1_ps(p.x), py = _mm_set1_ps(p.y), range = _mm_set1_ps(range_sq);
    const __m128i self4 = _mm_set1_epi32(self);
    int32_t cnt = 0;
    for (int32_t y = box[2]; y <= box[3] && cnt >= 0; ++y) {
        const float below = p.y - (g->oy + (float)(y + 1) * g->cell) - pad; /* p to the row's band */
        const float above = (g->oy + (float)y * g->cell) - p.y - pad;
        if ((below > 0.0f && below * below > range_sq) || (above > 0.0f && above * above > range_sq))
            continue;
        cnt = collect_span(g, px, py, range, self4, g->start[y * g->nx + box[0]],
                           g->start[y * g->nx + box[1] + 1], cnt, bd, bj);
    }
    if (cnt < 0)
        return -1;
    if (filter) { /* groups and heights before the neighbour budget, as offer() */
        const agent_params *me = &w->prm[self];
        int32_t kept = 0;
        for (int32_t a = 0; a < cnt; ++a) {
            const agent_params *o = &w->prm[bj[a]];
            bd[kept] = bd[a], bj[kept] = bj[a];
            kept += (me->mask & o->groups) && z_overlap(me->z, me->height, o->z, o->height, w->height_margin);
        }
        cnt = kept;
    }
    int32_t n = rank_candidates(bd, bj, cnt, k, out);
    if (n >= 0)
        return n;
    n = 0;
    for (int32_t a = 0; a < cnt; ++a)
        offer(w, self, bd[a], bj[a], &range_sq, k, &n, out, false);
    return n;
}
#endif

/* The k nearest agents within range as RVO2 selects them, with ties broken
 * by id, so the order of visiting does not matter. The cells of the box
 * around the range circle are visited row by row from p's row outwards (a
 * row's cells are one contiguous span of items); rows beyond the range,
 * once it has shrunk, are skipped. Bounds are padded so that rounding never
 * drops a cell, and by the grid's slack for agents filed where they were. */
RVO_ALWAYS_INLINE static inline int32_t grid_knn(const rvo_world *w, rvo_vec2 p, int32_t self, float range_sq,
                                                 int32_t k, neighbor *out, const bool filter) {
    const agent_grid *g = &w->grid;
    int32_t n = 0;
    const float pad = knn_pad(g);
    const float reach = sqrtf(range_sq) + pad;
    int32_t box[4]; /* (cell_coord's cells) */
    rvo__grid_box(g, p, reach, box);
    const int32_t x0 = box[0], x1 = box[1], y0 = box[2], y1 = box[3];
    const int32_t cy = cell_coord(p.y, g->oy, g->inv_cell, g->ny);
    const int32_t *start = g->start;
    scan_span(w, g, p, self, start[cy * g->nx + x0], start[cy * g->nx + x1 + 1], &range_sq, k, &n, out,
              filter);
    bool up = cy<y1, down = cy> y0;
    for (int32_t r = 1; up || down; ++r) {
        if (up) {
            const int32_t y = cy + r;
            const float dy = (g->oy + (float)y * g->cell) - p.y - pad; /* p to the row's band */
            if (dy > 0.0f && dy * dy > range_sq) {
                up = false;
            } else {
                scan_span(w, g, p, self, start[y * g->nx + x0], start[y * g->nx + x1 + 1], &range_sq, k, &n,
                          out, filter);
                up = y < y1;
            }
        }
        if (down) {
            const int32_t y = cy - r;
            const float dy = p.y - (g->oy + (float)(y + 1) * g->cell) - pad;
            if (dy > 0.0f && dy * dy > range_sq) {
                down = false;
            } else {
                scan_span(w, g, p, self, start[y * g->nx + x0], start[y * g->nx + x1 + 1], &range_sq, k, &n,
                          out, filter);
                down = y > y0;
            }
        }
    }
    return n;
}

/* grid_knn for agent i, out of line: without groups, masks and heights the
 * filter goes away. */
static RVO_NOINLINE int32_t knn_scan_filtered(const rvo_world *w, int32_t i, float range_sq, neighbor *out) {
    return grid_knn(w, w->pos[i], i, range_sq, w->prm[i].max_neighbors, out, true);
}
static RVO_NOINLINE int32_t knn_scan(const rvo_world *w, int32_t i, float range_sq, neighbor *out) {
    return grid_knn(w, w->pos[i], i, range_sq, w->prm[i].max_neighbors, out, false);
}

/* Agent i's k nearest within range_sq. ranked: grid_knn_ranked first (a
 * range about the k-th distance), the scan only when it declines; each
 * search is a call of its own, so nothing of one is kept across the other
 * (with the scan inlined here, every ranked search paid for saving its
 * state). */
static inline int32_t knn_within(const rvo_world *w, int32_t i, float range_sq, neighbor *out, bool ranked) {
    const int32_t k = w->prm[i].max_neighbors;
    if (k <= 0 || w->count == 0)
        return 0;
    const bool filter = w->n_filtering > 0;
#if defined(RVO_SSE2)
    if (ranked && k <= KNN_RANKED_K) {
        const int32_t m = grid_knn_ranked(w, i, range_sq, k, out, filter);
        if (m >= 0)
            return m;
    }
#else
    (void)ranked;
#endif
    return filter ? knn_scan_filtered(w, i, range_sq, out) : knn_scan(w, i, range_sq, out);
}

int32_t rvo__agent_neighbors(const rvo_world *w, int32_t i, neighbor *out) {
    return knn_within(w, i, sqrf(w->prm[i].neighbor_dist), out, false);
}

int32_t rvo__agent_neighbors_hinted(const rvo_world *w, int32_t i, float dt, neighbor *out) {
    const agent_params *a = &w->prm[i];
    const float full = sqrf(a->neighbor_dist);
    /* k found within the guess are the k nearest within the full range:
     * every nearer agent lies inside it too. A distance changes by the two
     * agents' speeds per step at most; the agent's own speed covers most (a
     * miss costs the full search after this one). */
    const float guess = w->knn_hint[i] < full ? sqrf(sqrtf(w->knn_hint[i]) + a->max_speed * dt) : full;
    if (guess < full) {
        const int32_t n = knn_within(w, i, guess, out, true);
        if (n == a->max_neighbors)
            return n;
        return knn_within(w, i, full, out, false); /* a miss: many may lie in the range */
    }
    return knn_within(w, i, full, out, true); /* the last list was short: few lie in the range */
}

/* ---- obstacle edges ------------------------------------------------------ */

typedef struct edge_fill {
    edge_grid *g;
    bool fill;
} edge_fill;

/* Calls add(cell) for every cell the segment a-b passes through, walking
 * it column by column; cells are padded slightly against rounding. */
static void edge_cells(edge_grid *g, rvo_vec2 a, rvo_vec2 b, int32_t edge, bool fill) {
    const float pad = g->cell * 1e-3f;
    const float minx = (a.x < b.x ? a.x : b.x) - pad, maxx = (a.x < b.x ? b.x : a.x) + pad;
    const int32_t c0 = cell_coord(minx, g->ox, g->inv_cell, g->nx),
                  c1 = cell_coord(maxx, g->ox, g->inv_cell, g->nx);
    for (int32_t cx = c0; cx <= c1; ++cx) {
        float xa = g->ox + (float)cx * g->cell, xb = xa + g->cell;
        if (xa < minx)
            xa = minx;
        if (xb > maxx)
            xb = maxx;
        float ya, yb;
        const float dx = b.x - a.x;
        if (fabsf(dx) < 1e-12f) {
            ya = a.y;
            yb = b.y;
        } else {
            float ta = (xa - a.x) / dx, tb = (xb - a.x) / dx;
            ta = ta < 0 ? 0 : ta > 1 ? 1 : ta;
            tb = tb < 0 ? 0 : tb > 1 ? 1 : tb;
            ya = a.y + ta * (b.y - a.y);
            yb = a.y + tb * (b.y - a.y);
        }
        const float lo = (ya < yb ? ya : yb) - pad, hi = (ya < yb ? yb : ya) + pad;
        const int32_t r0 = cell_coord(lo, g->oy, g->inv_cell, g->ny),
                      r1 = cell_coord(hi, g->oy, g->inv_cell, g->ny);
        for (int32_t cy = r0; cy <= r1; ++cy) {
            const int32_t c = cy * g->nx + cx;
            if (fill)
                g->items[g->start[c]++] = edge;
            else
                g->start[c + 1]++;
        }
    }
}

bool rvo__edge_grid_build(rvo_world *w) {
    edge_grid *g = &w->egrid;
    const int32_t nv = w->nverts;
    float minx = 0, miny = 0, maxx = 0, maxy = 0;
    double len = 0;
    for (int32_t k = 0; k < nv; ++k) {
        const rvo_vec2 p = w->verts[k].point;
        if (k == 0 || p.x < minx)
            minx = p.x;
        if (k == 0 || p.x > maxx)
            maxx = p.x;
        if (k == 0 || p.y < miny)
            miny = p.y;
        if (k == 0 || p.y > maxy)
            maxy = p.y;
        len += v2_abs(v2_sub(w->verts[w->verts[k].next].point, p));
    }
    const float mean_len = nv > 0 ? (float)(len / nv) : 1.0f;
    choose_cells(minx, miny, maxx, maxy, nv, mean_len * 0.5f, 4 * (int64_t)nv + 16, &g->cell, &g->nx, &g->ny);
    g->ox = minx;
    g->oy = miny;
    g->inv_cell = 1.0f / g->cell;
    const int32_t ncells = g->nx * g->ny;
    if (!rvo__grow(w, (void **)&g->start, &g->start_cap, ncells + 1, sizeof *g->start))
        return false;
    memset(g->start, 0, sizeof *g->start * (size_t)(ncells + 1));
    for (int32_t k = 0; k < nv; ++k)
        edge_cells(g, w->verts[k].point, w->verts[w->verts[k].next].point, k, false);
    for (int32_t c = 0; c < ncells; ++c)
        g->start[c + 1] += g->start[c];
    g->nitems = g->start[ncells];
    if (!rvo__grow(w, (void **)&g->items, &g->items_cap, g->nitems, sizeof *g->items))
        return false;
    for (int32_t k = 0; k < nv; ++k)
        edge_cells(g, w->verts[k].point, w->verts[w->verts[k].next].point, k, true);
    for (int32_t c = ncells; c > 0; --c)
        g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    g->valid = true;
    return true;
}

void rvo__edge_grid_free(rvo_world *w) {
    edge_grid *g = &w->egrid;
    rvo__realloc(w, g->start, sizeof *g->start * (size_t)g->start_cap, 0);
    rvo__realloc(w, g->items, sizeof *g->items * (size_t)g->items_cap, 0);
    memset(g, 0, sizeof *g);
}

/* The edge grid's cells of the box [x0, x1] x [y0, y1], clamped to it. */
static grid_cells edge_box_cells(const edge_grid *g, float x0, float y0, float x1, float y1) {
    const grid_cells c = {
        cell_coord(x0, g->ox, g->inv_cell, g->nx), cell_coord(x1, g->ox, g->inv_cell, g->nx),
        cell_coord(y0, g->oy, g->inv_cell, g->ny), cell_coord(y1, g->oy, g->inv_cell, g->ny)};
    return c;
}

void rvo__edge_grid_visit_cells(const rvo_world *w, float x0, float y0, float x1, float y1,
                                edge_visit_fn *visit, void *ctx) {
    const edge_grid *g = &w->egrid;
    if (w->nverts == 0)
        return;
    const grid_cells b = edge_box_cells(g, x0, y0, x1, y1);
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy)
        for (int32_t t = g->start[cy * g->nx + b.cx0]; t < g->start[cy * g->nx + b.cx1 + 1]; ++t)
            visit(ctx, g->items[t]); /* (a row's cells are one span of items) */
}

void rvo__edge_grid_visit(const rvo_world *w, scratch *s, float x0, float y0, float x1, float y1,
                          edge_visit_fn *visit, void *ctx) {
    const edge_grid *g = &w->egrid;
    if (w->nverts == 0)
        return;
    if (++s->stamp_val == 0) { /* wrapped: forget old stamps */
        memset(s->stamp, 0, sizeof *s->stamp * (size_t)s->stamp_cap);
        s->stamp_val = 1;
    }
    const grid_cells b = edge_box_cells(g, x0, y0, x1, y1);
    for (int32_t cy = b.cy0; cy <= b.cy1; ++cy) {
        for (int32_t cx = b.cx0; cx <= b.cx1; ++cx) {
            const int32_t c = cy * g->nx + cx;
            for (int32_t t = g->start[c]; t < g->start[c + 1]; ++t) {
                const int32_t e = g->items[t];
                if (s->stamp[e] == s->stamp_val)
                    continue;
                s->stamp[e] = s->stamp_val;
                visit(ctx, e);
            }
        }
    }
}
