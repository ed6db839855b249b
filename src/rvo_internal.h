/* Internal layout of a world, shared by the core's translation units. */
#ifndef RVO_INTERNAL_H
#define RVO_INTERNAL_H

#include "rvo.h"

#include <math.h>
#include <stdarg.h>

#if defined(__GNUC__)
#define RVO_NOINLINE __attribute__((noinline))
#else
#define RVO_NOINLINE
#endif

#define RVO_EPSILON 0.00001f /* RVO2's tolerance for parallel lines */
#define RVO_MAX_COORD 1e9f   /* largest accepted |coordinate| or |velocity| */
#define RVO_MIN_EDGE 1e-6f   /* obstacle points closer than this [m] are merged */
#define RVO_MAX_NEIGHBORS_LIMIT 1024
#define RVO_SLOT_BITS 24
#define RVO_MAX_GENERATION ((1u << 29) - 1) /* keeps ids below 2^53 */
#define RVO_AGENT_COOKIE 0x52564f41u
#define RVO_WORLD_COOKIE 0x52564f57u
/* Overlap resolution (separate.c): the soft default runs a fixed number of
 * passes; strict overlap (with keep-right in orca.c) stops once no pair
 * overlaps by more than the tolerance (a fraction of the radius sum) or at
 * the cap, each pass projecting by the over-relaxation factor. Measured in
 * tests/bench/quality.c (README, Avoidance quality). */
#define RVO_SEPARATION_SOFT_PASSES 4
#ifndef RVO_SEPARATION_MAX_PASSES /* -D to tune */
#define RVO_SEPARATION_MAX_PASSES 64
#endif
#ifndef RVO_SEPARATION_TOLERANCE /* -D to tune */
#define RVO_SEPARATION_TOLERANCE 0.002f
#endif
#ifndef RVO_SEPARATION_RELAX /* -D to tune */
#define RVO_SEPARATION_RELAX 1.5f
#endif
#ifndef RVO_KEEP_RIGHT /* -D to tune */
#define RVO_KEEP_RIGHT 0.95f
#endif /* sine of the widest head-on angle that keeps right */
/* Keep-right applies within a stream: two agents nearer than this many
 * radius sums whose velocities and preferred velocities are both within
 * acos(RVO_KEEP_RIGHT_COS) of each other (README, Avoidance quality). */
#ifndef RVO_KEEP_RIGHT_REACH /* -D to tune */
#define RVO_KEEP_RIGHT_REACH 2.5f
#endif
#ifndef RVO_KEEP_RIGHT_COS /* -D to tune */
#define RVO_KEEP_RIGHT_COS 0.9f
#endif
/* Head-on pairs take a leg, not the cut-off circle (orca.c, head_on):
 * sine of the widest angle off the line between them. */
#ifndef RVO_HEAD_ON_SIN /* -D to tune */
#define RVO_HEAD_ON_SIN 0.02f
#endif
/* Giving way (strict overlap, give_way.h): an agent is idle while its
 * preferred speed is at most RVO_IDLE_SPEED of its max speed; the agent
 * that gives way takes the whole ORCA correction and RVO_GIVE_WAY_SHARE of
 * an overlap (not all of it: an agent pinched between two others must be
 * able to push back, or the projection cannot converge). */
#ifndef RVO_IDLE_SPEED /* -D to tune */
#define RVO_IDLE_SPEED 0.01f
#endif
#ifndef RVO_GIVE_WAY_SHARE /* -D to tune */
#define RVO_GIVE_WAY_SHARE 0.9f
#endif
/* An agent stalled this many times the world's stall threshold gets way
 * from moving agents that want the opposite way (one carried off by a
 * stream it cannot leave, measured in circles of 2500 and more). */
#ifndef RVO_LONG_STALL /* -D to tune */
#define RVO_LONG_STALL 10.0f
#endif

/* Do the vertical extents [z, z + h] overlap, within margin? */
static inline bool z_overlap(float z1, float h1, float z2, float h2, float margin) {
    return !(z1 > z2 + h2 + margin || z2 > z1 + h1 + margin);
}

/* ---- small float vector helpers, written to round exactly as RVO2 ---- */
static inline rvo_vec2 v2(float x, float y) {
    rvo_vec2 r = {x, y};
    return r;
}
static inline rvo_vec2 v2_add(rvo_vec2 a, rvo_vec2 b) { return v2(a.x + b.x, a.y + b.y); }
static inline rvo_vec2 v2_sub(rvo_vec2 a, rvo_vec2 b) { return v2(a.x - b.x, a.y - b.y); }
static inline rvo_vec2 v2_neg(rvo_vec2 a) { return v2(-a.x, -a.y); }
static inline rvo_vec2 v2_scale(float s, rvo_vec2 a) { return v2(s * a.x, s * a.y); }
static inline rvo_vec2 v2_mul(rvo_vec2 a, float s) { return v2(a.x * s, a.y * s); }
/* RVO2 divides by multiplying with the reciprocal. */
static inline rvo_vec2 v2_div(rvo_vec2 a, float s) {
    const float inv = 1.0f / s;
    return v2(a.x * inv, a.y * inv);
}
static inline float v2_dot(rvo_vec2 a, rvo_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline float v2_det(rvo_vec2 a, rvo_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline float v2_abs_sq(rvo_vec2 a) { return v2_dot(a, a); }
static inline float v2_abs(rvo_vec2 a) { return sqrtf(v2_abs_sq(a)); }
static inline rvo_vec2 v2_normalize(rvo_vec2 a) { return v2_div(a, v2_abs(a)); }
static inline float sqrf(float a) { return a * a; }
static inline bool rvo_isfinitef(float a) { return isfinite(a); }
static inline bool v2_finite(rvo_vec2 a) { return isfinite(a.x) && isfinite(a.y); }
/* Degenerate input (issue 8): a dt or time horizon below 1e-6 s counts as
 * 1e-6 s where its inverse is taken, so that the inverse stays finite. */
#define RVO_MIN_TIME 1e-6f
static inline float rvo__min_time(float t) { return t < RVO_MIN_TIME ? RVO_MIN_TIME : t; }
/* Keeps a coordinate within [-RVO_MAX_COORD, RVO_MAX_COORD] (inf included);
 * values inside are returned unchanged, bit for bit. */
static inline float rvo__clamp_coord(float v) {
    return v > RVO_MAX_COORD ? RVO_MAX_COORD : v < -RVO_MAX_COORD ? -RVO_MAX_COORD : v;
}

/* ---- handles --------------------------------------------------------- */
typedef struct slot_table {
    uint32_t *gen;    /* generation per slot */
    int32_t *index;   /* dense index, -1 when free */
    int32_t *free;    /* stack of free slots */
    int32_t nfree;
    int32_t used;     /* slots ever handed out */
    int32_t cap;
} slot_table;

/* ---- agents ---------------------------------------------------------- */
typedef struct agent_params {
    float radius;
    float max_speed;
    float neighbor_dist;
    float time_horizon;
    float time_horizon_obst;
    int32_t max_neighbors;
    float weight;
    uint32_t groups;
    uint32_t mask;
    float z;
    float height;
    int32_t locked;
} agent_params;

/* Can this agent's groups, mask or height make some pair ignore each
 * other? While no agent can, neighbour search skips those checks. */
static inline bool filters_pairs(const agent_params *a) {
    return a->mask != 0xffffffffu || a->groups == 0 || a->height != INFINITY;
}

/* Agent me's share of the velocity change asked of a pair (me, other) that
 * me avoids: 1 if other is locked or does not avoid me, otherwise
 * w_me / (w_me + w_other), 0.5 for equal weights (both 0 included). */
static inline float rvo__share(const agent_params *me, const agent_params *other) {
    if (other->locked || !(other->mask & me->groups)) return 1.0f;
    if (me->weight == other->weight) return 0.5f;
    return me->weight / (me->weight + other->weight);
}

/* A unit direction for two agents at the same spot: opposite for the two,
 * varied across pairs so that a stack of agents spreads out. */
static inline rvo_vec2 rvo__split_direction(rvo_agent_id self, rvo_agent_id other) {
    const uint64_t lo = self < other ? self : other, hi = self < other ? other : self;
    uint64_t h = lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x7F4A7C159E3779B9ull);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    const float angle = (float)(h & 0xffff) * (6.2831853f / 65536.0f);
    const float s = self < other ? 1.0f : -1.0f;
    return v2(s * cosf(angle), s * sinf(angle));
}

/* ---- obstacles (RVO2's vertex ring representation) -------------------- */
typedef struct obst_vertex {
    rvo_vec2 point;
    rvo_vec2 unit_dir; /* towards next */
    int32_t next;
    int32_t prev;
    int32_t obstacle; /* dense index of the owning obstacle */
    int32_t convex;
} obst_vertex;

typedef struct obstacle {
    rvo_obstacle_id id;
    int32_t first; /* first vertex */
    int32_t count; /* vertices (an open polyline is stored doubled back) */
    bool closed;
    float zmin, zmax;
} obstacle;

/* Uniform grid over obstacle edges; rebuilt lazily after obstacles change. */
typedef struct edge_grid {
    float ox, oy, cell, inv_cell;
    int32_t nx, ny;
    int32_t *start; /* nx*ny + 1 */
    int32_t *items; /* edge (= first vertex) indices */
    int32_t nitems, items_cap, start_cap;
    bool valid;
} edge_grid;

/* Uniform grid over agents, rebuilt from the positions when they change. */
typedef struct agent_grid {
    float ox, oy, cell, inv_cell;
    int32_t nx, ny;
    int32_t *start;     /* nx*ny + 1 */
    int32_t *items;     /* dense agent indices in cell order */
    rvo_vec2 *item_pos; /* their positions, same order */
    rvo_vec2 *item_vel; /* the solve's new velocities, same order (see solve_range) */
    int32_t items_cap, start_cap;
    int32_t *slot_of;   /* each agent's index in items (while building: its cell) */
    float max_radius;   /* largest agent radius at build time */
    /* Agents may stand up to this far (per axis) from the cells they are
     * filed in: the overlap pass's grid serves the next solve, with
     * item_pos refreshed after the passes (rvo__grid_refile). Searches
     * widen their boxes by it. */
    float slack;
    bool valid;
} agent_grid;

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

#if defined(__SSE2__)
#include <emmintrin.h>
/* Squared distances from (px, py) to the 4 grid positions ip[t .. t + 3]
 * (item_pos is padded past its end), with the scalar code's operations. */
static inline __m128 grid_dist4_sq(const rvo_vec2 *ip, int32_t t, __m128 px, __m128 py) {
    const __m128 a = _mm_loadu_ps(&ip[t].x), b = _mm_loadu_ps(&ip[t + 2].x); /* x0 y0 x1 y1, x2 y2 x3 y3 */
    const __m128 dx = _mm_sub_ps(px, _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128 dy = _mm_sub_ps(py, _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
}
#endif

/* ---- per-worker scratch for solve and queries ------------------------- */
typedef struct orca_line {
    rvo_vec2 point;
    rvo_vec2 direction;
} orca_line;

typedef struct neighbor {
    float dist_sq;
    int32_t index; /* dense agent index or vertex index */
    rvo_agent_id id;
} neighbor;

typedef struct scratch {
    orca_line *lines;
    orca_line *proj;
    int32_t lines_cap;
    neighbor *agents;
    int32_t agents_cap;
    neighbor *obst;
    int32_t obst_cap;
    uint32_t *stamp; /* per edge, for de-duplicating grid hits */
    uint32_t stamp_val;
    int32_t stamp_cap;
    rvo_vec2 *spans; /* solver_ue.c: blocked (lo, hi) per cone and edge */
    int32_t spans_cap;
    float slack; /* rvo__grid_refile: this worker's largest distance from an agent's cell */
} scratch;

typedef struct thread_pool thread_pool;

/* NEW STATE MUST BE ADDED TO src/snapshot.c (visit_settings, visit_state or
 * visit_agent: one line each, plus a check in validate() if it has limits),
 * or saved worlds will not continue bit-identically. Caches that are rebuilt
 * from the rest (grids, scratch, separation candidates) stay out. */
struct rvo_world {
    rvo_alloc_fn *alloc;
    void *alloc_user;
    float time_step;
    int32_t threads;
    uint64_t seed;
    rvo_agent_def defaults;

    /* agents, dense */
    int32_t count, cap;
    rvo_vec2 *pos, *vel, *pref, *newvel; /* a locked agent keeps vel */
    agent_params *prm;
    rvo_agent_id *ids;
    slot_table agent_slots;
    agent_grid grid;

    /* obstacles */
    obstacle *obst;
    int32_t obst_count, obst_cap;
    obst_vertex *verts;
    int32_t nverts, verts_cap;
    slot_table obst_slots;
    edge_grid egrid;

    float height_margin;
    bool rvo2_compat;       /* no separation pass: exactly RVO2 */
    int32_t *sep_start;     /* separation candidates of each agent (CSR) */
    int32_t *sep_cand;
    int32_t sep_start_cap, sep_cand_cap;
    bool strict_overlap;  /* rvo_world_set_strict_overlap (issue 6) */
    rvo_vec2 *sep_before; /* positions before the strict passes (velocity feedback) */
    uint8_t *sep_active;  /* strict passes, 4 per agent: pairs to look at this pass, the next; moved since pushed out; overlap hits by grid slot */
    int32_t sep_before_cap;
    /* stall events (stall.c): stall time per agent (cap entries, moves with
     * the agent), the threshold of rvo_world_set_stall_threshold */
    float *stall;
    float stall_progress, stall_min_time;
    int32_t n_filtering; /* agents whose groups, mask or height can make a pair ignore each other */
    bool equal_shares; /* every pair splits 50/50 (rvo__update_shares; a cache, not state) */
    /* rvo__update_shares, caches: per agent, can a pair with it split other
     * than 50/50 (RVO_UNEVEN_*: locked, another weight or a group filter;
     * with strict overlap idle or stalled)? A pair of two agents without
     * a flag splits 50/50 and neither gives way. n_uneven: flagged agents. */
    uint8_t *uneven;
    int32_t uneven_cap, n_uneven;
    bool ever_solved;

    /* solver (rvo_world_set_solver); zero-initialised = ORCA */
    int32_t solver;
    /* sampling RVO: used only once sampling_set, RVO_DEFAULT_* before */
    int32_t sampling_samples;
    float sampling_weight;
    bool sampling_set;

    /* phase */
    bool solved;

    scratch *scratch; /* one per worker */
    thread_pool *pool;
    /* performance: the host task hook (rvo_world_def), NULL = own pool */
    rvo_enqueue_task_fn *enqueue_task;
    rvo_finish_task_fn *finish_task;
    void *task_user;

    char err[160];
    int err_arg;
};

/* world.c */
void *rvo__realloc(rvo_world *w, void *p, size_t old_size, size_t new_size);
bool rvo__grow(rvo_world *w, void **p, int32_t *cap, int32_t need, size_t elem);
#define RVO_GROW_ARRAYS_MAX 8
bool rvo__grow_arrays(rvo_world *w, int32_t *cap, int32_t need, int count, void **const arrays[], const size_t elems[]);
rvo_status rvo__fail(const rvo_world *w, rvo_status s, int arg, const char *fmt, ...);
/* Clears the last error (a call that succeeded); inline: per-agent setters
 * run it once per call. */
static inline void rvo__ok(const rvo_world *cw) {
    rvo_world *w = (rvo_world *)cw;
    w->err[0] = 0;
    w->err_arg = 0;
}
const char *rvo__check_coord(const char *name, float v, char *buf, size_t n);
/* Within [-RVO_MAX_COORD, RVO_MAX_COORD] (false for NaN and inf): the test
 * that lets rvo__check_coord run only on bad values. */
static inline bool rvo__coord_ok(float v) { return fabsf(v) <= RVO_MAX_COORD; }

/* Validates one agent parameter value; NULL when fine. */
const char *rvo__param_check(rvo_param p, double v);

/* ids */
rvo_status rvo__slot_alloc(rvo_world *w, slot_table *t, int32_t dense, uint64_t *id);
/* Dense index of id, or -1; inline: every per-agent call looks its id up. */
static inline int32_t rvo__slot_lookup(const slot_table *t, uint64_t id) {
    const uint64_t low = id & ((1u << RVO_SLOT_BITS) - 1);
    const uint64_t gen = id >> RVO_SLOT_BITS;
    if (low == 0 || low > (uint64_t)t->used) return -1;
    const int32_t slot = (int32_t)low - 1;
    if (t->gen[slot] != gen || t->index[slot] < 0) return -1;
    return t->index[slot];
}
void rvo__slot_release(slot_table *t, uint64_t id);
void rvo__slot_set_index(slot_table *t, uint64_t id, int32_t dense);
void rvo__slot_free(rvo_world *w, slot_table *t);

/* grid.c */
bool rvo__agent_grid_build(rvo_world *w);
/* overlap: cells sized for the overlap pass's candidates (separate.c) */
bool rvo__agent_grid_build_for(rvo_world *w, bool overlap);
void rvo__agent_grid_free(rvo_world *w);
/* Agents [begin, end) moved since the build: their item_pos follows them,
 * and s->slack grows to the farthest one's distance from its cell. */
void rvo__grid_refile(rvo_world *w, int32_t begin, int32_t end, scratch *s);
/* k nearest agents of agent i as RVO2 selects them; returns the count. */
int32_t rvo__agent_neighbors(const rvo_world *w, int32_t i, neighbor *out);
bool rvo__edge_grid_build(rvo_world *w);
void rvo__edge_grid_free(rvo_world *w);
/* Calls visit for every edge whose cells touch the box, once each. */
typedef void edge_visit_fn(void *ctx, int32_t edge);
void rvo__edge_grid_visit(const rvo_world *w, scratch *s, float x0, float y0, float x1, float y1,
                          edge_visit_fn *visit, void *ctx);

/* orca.c */
rvo_vec2 rvo__orca_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s);
int32_t rvo__orca_lines(const rvo_world *w, int32_t i, float dt, scratch *s, int32_t *num_obst);
int32_t rvo__obstacle_neighbors(const rvo_world *w, int32_t i, scratch *s);
int32_t rvo__pack_obstacle_edges(const rvo_world *w, int32_t i, scratch *s, orca_line *L, orca_line *P);
/* linear programs (exposed for unit tests) */
bool rvo__lp1(const orca_line *lines, int32_t line_no, float radius, rvo_vec2 opt, bool dir_opt,
              rvo_vec2 *result);
int32_t rvo__lp2(const orca_line *lines, int32_t n, float radius, rvo_vec2 opt, bool dir_opt,
                 rvo_vec2 *result);
void rvo__lp3(const orca_line *lines, int32_t n, int32_t num_obst, int32_t begin, float radius,
              rvo_vec2 *result, orca_line *proj);

/* solver_ue.c, solver_sampling.c: the alternative solvers (rvo_solver). */
rvo_vec2 rvo__ue_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s);
rvo_vec2 rvo__sampling_new_velocity(const rvo_world *w, int32_t i, float dt, scratch *s);
/* First contact time of a disc of radius r at the origin moving with v
 * against the edge a->b (unit direction e, length len); see solver_sampling.c. */
float rvo__edge_toi(rvo_vec2 a, rvo_vec2 b, rvo_vec2 e, float len, float r, rvo_vec2 v, float *depth, rvo_vec2 *n);

/* solve.c */
bool rvo__scratch_reserve(rvo_world *w);
void rvo__scratch_free(rvo_world *w);
bool rvo__pool_start(rvo_world *w);
/* Brings the indices and scratch up to date for solving or querying. */
bool rvo__prepare(rvo_world *w);
void rvo__pool_stop(rvo_world *w);
/* performance: runs fn over [0, count) on the host's tasks, the pool or
 * inline (worker = scratch index); fn must not depend on the split. */
void rvo__parallel_for(rvo_world *w, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx);
/* The same on the built-in pool only (a host's tasks: on this thread), for
 * short per-agent loops a host must not get wrong: one that runs a range
 * twice would integrate its agents twice. */
void rvo__pool_for(rvo_world *w, int32_t count, int32_t min_range, rvo_task_fn *fn, void *ctx);
#define RVO_LOOP_CHUNK 1024 /* agents per work item of those loops */
/* Copies the task hook from def and starts the pool if it is needed. */
bool rvo__tasks_start(rvo_world *w, const rvo_world_def *def);
/* NULL when the def's task fields are consistent. */
const char *rvo__task_def_check(const rvo_world_def *def);

/* stall.c: advances every agent's stall time after an integrate of dt. */
void rvo__stall_update(rvo_world *w, float dt, int32_t begin, int32_t end);

/* separate.c: pushes overlapping agents apart after an integrate of dt;
 * RVO_ERR_OUT_OF_MEMORY, or RVO_ERR_INVALID_ARGUMENT when a task hook did
 * not run every agent once. *gridded: it left w->grid filed with the
 * current agents (for rvo__grid_refile). */
rvo_status rvo__separate(rvo_world *w, float dt, bool *gridded);
/* tests: the strict passes look at every pair and push every agent out in
 * every pass (the plain Gauss-Seidel their skipping must match bit for bit).
 * Process-wide; set it only while no world steps. */
extern bool rvo__separate_reference;

/* obstacles.c */
void rvo__obstacles_free(rvo_world *w);

#endif
