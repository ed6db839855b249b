/* The spatial index: a uniform grid over the agents (rebuilt when they
 * move) and one over the obstacle edges (rebuilt after obstacles change).
 * Their state lives in the world (agent_grid, edge_grid in world.h). */
#ifndef RVO_INDEX_GRID_H
#define RVO_INDEX_GRID_H

#include "index/scratch.h"
#include "world/world.h"

/* The cells [cx0, cx1] x [cy0, cy1] of the agent grid that the box of
 * half-size r around (x, y), widened by the grid's slack, touches; empty
 * (cx1 < cx0 or cy1 < cy0) where it lies outside the grid. */
typedef struct grid_cells {
    int32_t cx0, cx1, cy0, cy1;
} grid_cells;
static inline grid_cells rvo__grid_cells(const agent_grid *g, float x, float y, float r) {
    const float rs = r + g->slack;
    const float fx0 = (x - rs - g->ox) * g->inv_cell, fx1 = (x + rs - g->ox) * g->inv_cell;
    const float fy0 = (y - rs - g->oy) * g->inv_cell, fy1 = (y + rs - g->oy) * g->inv_cell;
    grid_cells c;
    c.cx0 = fx0 < 0 ? 0 : fx0 >= (float)g->nx ? g->nx : (int32_t)fx0;
    c.cx1 = fx1 < 0 ? -1 : fx1 >= (float)g->nx ? g->nx - 1 : (int32_t)fx1;
    c.cy0 = fy0 < 0 ? 0 : fy0 >= (float)g->ny ? g->ny : (int32_t)fy0;
    c.cy1 = fy1 < 0 ? -1 : fy1 >= (float)g->ny ? g->ny - 1 : (int32_t)fy1;
    return c;
}

/* The cells of the box [p - r, p + r]: out = {x0, x1, y0, y1}, each
 * (coordinate - origin) * inv_cell clamped to [0, n - 1], NaN to 0 (the
 * neighbour search's cell_coord and the overlap pass's cell_clamp). With
 * SSE2 four at once: p.x - (-r) is p.x + r, the max with 0 comes first
 * (it takes NaN to 0), and n - 1 is exact in a float (the agent grid has
 * at most 8193 cells a side, rvo__agent_grid_build_for). */
static inline void rvo__grid_box(const agent_grid *g, rvo_vec2 p, float r, int32_t out[4]) {
    RVO_ASSERT(g->nx <= (1 << 24) && g->ny <= (1 << 24));
#if defined(RVO_SSE2)
    const __m128 v =
        _mm_mul_ps(_mm_sub_ps(_mm_sub_ps(_mm_set_ps(p.y, p.y, p.x, p.x), _mm_set_ps(-r, r, -r, r)),
                              _mm_set_ps(g->oy, g->oy, g->ox, g->ox)),
                   _mm_set1_ps(g->inv_cell));
    const __m128 hi =
        _mm_set_ps((float)(g->ny - 1), (float)(g->ny - 1), (float)(g->nx - 1), (float)(g->nx - 1));
    _mm_storeu_si128((__m128i *)out, _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), hi)));
#else
    const float v[4] = {(p.x - r - g->ox) * g->inv_cell, (p.x + r - g->ox) * g->inv_cell,
                        (p.y - r - g->oy) * g->inv_cell, (p.y + r - g->oy) * g->inv_cell};
    for (int k = 0; k < 4; ++k) {
        const int32_t n = k < 2 ? g->nx : g->ny;
        out[k] = v[k] >= (float)(n - 1) ? n - 1 : v[k] > 0.0f ? (int32_t)v[k] : 0;
    }
#endif
}

#if defined(RVO_SSE2)
/* Squared distances from (px, py) to the 4 grid positions ip[t .. t + 3]
 * (item_pos is padded past its end), with the scalar code's operations. */
static inline __m128 grid_dist4_sq(const rvo_vec2 *ip, int32_t t, __m128 px, __m128 py) {
    const __m128 a = _mm_loadu_ps(&ip[t].x), b = _mm_loadu_ps(&ip[t + 2].x); /* x0 y0 x1 y1, x2 y2 x3 y3 */
    const __m128 dx = _mm_sub_ps(px, _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128 dy = _mm_sub_ps(py, _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
}
#endif

bool rvo__agent_grid_build(rvo_world *w);
/* overlap: cells sized for the overlap pass's candidates (separate.c) */
bool rvo__agent_grid_build_for(rvo_world *w, bool overlap);
void rvo__agent_grid_free(rvo_world *w);
/* Agents [begin, end) moved since the build: their item_pos follows them,
 * and s->slack grows to the farthest one's distance from its cell. */
void rvo__grid_refile(rvo_world *w, int32_t begin, int32_t end, scratch *s);
/* k nearest agents of agent i as RVO2 selects them; returns the count. */
int32_t rvo__agent_neighbors(const rvo_world *w, int32_t i, neighbor *out);
/* The same neighbours, found sooner: searched first within the agent's
 * w->knn_hint grown by a step of dt at its max speed, then, when that
 * finds fewer than k, within the whole range. */
int32_t rvo__agent_neighbors_hinted(const rvo_world *w, int32_t i, float dt, neighbor *out);
/* Agent i's w->knn_hint from the n neighbours its solve found. */
static inline float rvo__knn_hint(const rvo_world *w, int32_t i, const neighbor *nb, int32_t n) {
    return n > 0 && n == w->prm[i].max_neighbors ? nb[n - 1].dist_sq : RVO_NO_HINT;
}
bool rvo__edge_grid_build(rvo_world *w);
void rvo__edge_grid_free(rvo_world *w);
/* Calls visit for every edge whose cells touch the box, once each. */
typedef void edge_visit_fn(void *ctx, int32_t edge);
void rvo__edge_grid_visit(const rvo_world *w, scratch *s, float x0, float y0, float x1, float y1,
                          edge_visit_fn *visit, void *ctx);
/* The same, but an edge filed in several of those cells is visited once per
 * cell: no scratch, so any thread may ask (a test for any edge near). */
void rvo__edge_grid_visit_cells(const rvo_world *w, float x0, float y0, float x1, float y1,
                                edge_visit_fn *visit, void *ctx);

#endif
