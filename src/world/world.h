/* A world's state: agents and obstacles in dense arrays, their ids, the
 * caches the index and the solvers keep in it, and its settings. The
 * functions of this layer (world/) add, change and remove agents and
 * obstacles and check definitions; they call only base/. */
#ifndef RVO_WORLD_WORLD_H
#define RVO_WORLD_WORLD_H

#include "base/alloc.h"
#include "base/ids.h"
#include "base/math.h"
#include "base/platform.h"
#include "base/pool.h"
#include "rvo.h"

#include <stddef.h>

#define RVO_MAX_NEIGHBORS_LIMIT 1024
#define RVO_AGENT_COOKIE 0x52564f41u
#define RVO_WORLD_COOKIE 0x52564f57u

/* ---- agents ---------------------------------------------------------- */
typedef struct agent_params {
    float radius;
    float max_speed;
    float neighbor_dist;
    float time_horizon;
    float time_horizon_obst;
    float weight;
    uint32_t groups;
    uint32_t mask;
    float z;
    float height;
    int16_t max_neighbors; /* (<= RVO_MAX_NEIGHBORS_LIMIT) */
    int16_t locked;        /* 0 or 1 */
} agent_params;

/* Can this agent's groups, mask or height make some pair ignore each
 * other? While no agent can, neighbour search skips those checks. */
static inline bool filters_pairs(const agent_params *a) {
    return a->mask != 0xffffffffu || a->groups == 0 || a->height != INFINITY;
}

/* Idle: a preferred speed of at most RVO_IDLE_SPEED of its max speed. The
 * one test of giving way (solve/give_way.h), detours and lock timers. */
#ifndef RVO_IDLE_SPEED /* -D to tune */
#define RVO_IDLE_SPEED 0.01f
#endif
static inline bool rvo__idle(rvo_vec2 pref, const agent_params *a) {
    return v2_abs_sq(pref) <= sqrf(RVO_IDLE_SPEED * a->max_speed);
}

/* Where an agent's preferred velocity aims (world/aim.c): per agent (cap
 * entries, moves with the agent) 32 bits, aim.c's aim_pack layout; unpacked: */
typedef struct aim_state {
    uint32_t dir;    /* the direction the sideways move is measured across (aim.c, aim_encode) */
    int32_t shift;   /* the sideways move since dir was taken, RVO_AIM_SHIFT_UNITS to the radius, or: */
    uint32_t streak; /* measures in a row that put the point it aims at near (at most RVO_AIM_STREAK_MAX) */
    uint32_t dist;   /* that point's distance at the last of them (RVO_AIM_DIST_STEPS to the near reach) */
    bool fresh;      /* rvo__aim_next: dir is to be taken again */
} aim_state;
#define RVO_AIM_NO_DIR (-1024) /* aim_state.shift: no direction taken (idle, or not held back) */
#define RVO_AIM_UNKNOWN 31     /* aim_state.dist: no point measured near */
#define RVO_AIM_DIST_STEPS 28
#define RVO_AIM_STREAK_MAX 7
#define RVO_AIM_SHIFT_UNITS 8192
/* Near: within this many radii. A measure is taken once the agent has
 * moved RVO_AIM_MIN_SHIFT radii sideways: less would leave the turn within
 * the direction's 13 bits. */
#ifndef RVO_AIM_NEAR_RADII /* -D to tune */
#define RVO_AIM_NEAR_RADII 16.0
#endif
#ifndef RVO_AIM_MIN_SHIFT /* -D to tune */
#define RVO_AIM_MIN_SHIFT 0.1
#endif
/* Measured only while held back: walking at less than this share of its
 * preferred velocity along it (an agent on its way costs one test). */
#ifndef RVO_AIM_HELD /* -D to tune */
#define RVO_AIM_HELD 0.5f
#endif
/* Near where it aims: a streak of this many, or idle (it is where it
 * wants to be; once it walks again, it counts as near until a measure
 * shows otherwise). */
#ifndef RVO_AIM_NEAR_STEPS /* -D to tune */
#define RVO_AIM_NEAR_STEPS 4
#endif

/* Lock timers (world/lock_timers.c), per agent in a cold array of their
 * own (cap entries, moves with the agent). left > 0: a timed lock. */
typedef struct agent_lock {
    double left;     /* seconds left on the timed lock; 0: none */
    rvo_vec2 pref;   /* the preferred velocity when the lock began */
    double release;  /* ends when the preferred velocity moves farther than this [m/s] */
    rvo_vec2 moved;  /* integrate: where the move put it, before the overlap passes */
    uint8_t no_auto; /* rvo_agent_set_auto_lock(false) */
} agent_lock;

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
    bool enclosure;    /* closed and clockwise: agents keep inside */
    bool asked_closed; /* closed as added (a closed pair of points is a segment) */
    int8_t side;       /* rvo_obstacle_side as added: reshaping keeps it */
    rvo_vec2 vel;      /* rvo_obstacle_set_velocity: integrate moves it */
    float zmin, zmax;
} obstacle;

/* Does an agent of vertical extent [z, z + height] meet obstacle ob's z
 * range (widened by margin)? (Not z_overlap: a range of -inf..inf has no
 * finite height.) */
static inline bool obst_on_floor(const obstacle *ob, float z, float height, float margin) {
    return z <= ob->zmax + margin && ob->zmin <= z + height + margin;
}

/* An agent that a change of a closed obstacle's points left on its blocked
 * side (inside a solid, outside an enclosure it was in): the next overlap
 * passes put it out on the free side (separate.c), until it is found there. */
typedef struct obst_trap {
    rvo_agent_id agent;
    rvo_obstacle_id obstacle;
} obst_trap;

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
    int32_t *slot_of; /* each agent's index in items (while building: its cell) */
    float max_radius; /* largest agent radius at build time */
    float min_radius; /* smallest (the overlap pass's candidates: all equal?) */
    /* Agents may stand up to this far (per axis) from the cells they are
     * filed in: the overlap pass's grid serves the next solve, with
     * item_pos refreshed after the passes (rvo__grid_refile). Searches
     * widen their boxes by it. */
    float slack;
    bool valid;
} agent_grid;

typedef struct scratch scratch;

/* NEW STATE MUST BE ADDED TO src/services/snapshot.c (visit_settings, visit_state or
 * visit_agent: one line each, plus a check in validate() if it has limits),
 * or saved worlds will not continue bit-identically. Caches that are rebuilt
 * from the rest (grids, scratch, separation candidates) stay out. */
struct rvo_world {
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
    int32_t obst_moving;  /* obstacles with a velocity */
    float obst_max_speed; /* the fastest one's speed */

    float height_margin;
    bool rvo2_compat;   /* no separation pass: exactly RVO2 */
    int32_t *sep_start; /* separation candidates of each agent (CSR) */
    int32_t *sep_cand;
    int32_t sep_start_cap, sep_cand_cap;
    bool strict_overlap;  /* rvo_world_set_strict_overlap: hard bodies */
    rvo_vec2 *sep_before; /* positions before the strict passes (velocity feedback) */
    uint8_t *sep_active;  /* strict passes, 4 per agent: pairs to look at this pass, the next; moved since
                             pushed out; overlap hits by grid slot */
    int32_t sep_before_cap;
    /* separate.c: the solve's candidate lists for the next strict passes
     * (in sep_cand), by agent: where each starts, -1 for none. Valid while
     * solve_cand_ok: set by a solve that made them, cleared by whatever
     * adds, removes or moves agents other than integrate's move, and by the
     * passes that use them. solve_cand_dt: the dt of the solve that made
     * them [s]; moved_max: how far integrate moved an agent at most [m]. */
    int32_t *solve_cand_at;
    int32_t solve_cand_cap;
    bool solve_cand_ok;
    float solve_cand_dt, moved_max;
    /* stall events (stall.c): stall time per agent (cap entries, moves with
     * the agent), the threshold of rvo_world_set_stall_threshold */
    float *stall;
    float stall_progress, stall_min_time;
    /* how far each agent has been carried back along its preferred
     * velocity since it last walked freely [m] (stall.c; moves with the
     * agent): a unit carried back by an oncoming stream holds its ground
     * (give_way.h, rvo__hold_ground) */
    float *carried;
    /* the neighbour search's first guess (index/grid.c): per agent (moves
     * with it), the squared distance of its k-th neighbour at the last
     * ORCA solve, RVO_NO_HINT when its list was not full. Any value gives
     * the same neighbours, so it is not saved. */
    float *knn_hint;
    /* world/aim.c: per agent (moves with it), where its preferred velocity
     * aims; aim_dt: the last integrate's dt (its move is vel * aim_dt) */
    uint32_t *aim;
    float aim_dt;
    /* solve/detour.c: per agent (moves with it), 0 or the side it goes
     * round an obstacle on: +1 left, -1 right */
    int8_t *detour;
    /* lock timers (lock_timers.c), per agent (cap entries, moves with it);
     * NULL until a timed lock or an auto lock switched off needs it (40
     * bytes per agent that most worlds never use): no timer, auto lock on */
    agent_lock *lock;
    bool locks_moved;    /* integrate recorded lock[i].moved; no solve since (rvo_world_release_pushed) */
    int32_t n_filtering; /* agents whose groups, mask or height can make a pair ignore each other */
    int32_t k_most;      /* the largest max_neighbors an agent has had: the scratch's room (never shrinks) */
    bool equal_shares;   /* every pair splits 50/50 (rvo__update_shares; a cache, not state) */
    /* rvo__update_shares, caches: per agent, can a pair with it split other
     * than 50/50 (RVO_UNEVEN_*: locked, another weight or a group filter;
     * with strict overlap idle or stalled)? A pair of two agents without
     * a flag splits 50/50 and neither gives way. n_uneven: flagged agents. */
    uint8_t *uneven;
    int32_t uneven_cap, n_uneven;
    int32_t n_params; /* agents flagged RVO_UNEVEN_PARAMS (rvo__update_shares) */
    bool shares_aim;  /* the flags were set with aims: the solve's (rvo__update_shares; a cache) */
    bool ever_solved;

    /* solver (rvo_world_set_solver); zero-initialised = ORCA */
    int32_t solver;
    /* sampling RVO: used only once sampling_set, RVO_DEFAULT_* before */
    int32_t sampling_samples;
    float sampling_weight;
    bool sampling_set;

    /* phase */
    bool solved;

    scratch *scratch; /* one per worker (index/scratch.h) */

    /* obstacles.c: agents left on the blocked side of an obstacle whose
     * points changed, for the overlap passes (separate.c) */
    obst_trap *traps;
    int32_t ntraps, traps_cap;

    /* allocator, task hook and pool, error slot (base/); last, so that the
     * hot arrays above stay near the start of the struct */
    rvo_base base;
};

/* Agents were added, removed, moved or resized outside the step: the grid
 * and the solve's candidate lists (separate.c) no longer hold. */
static inline void rvo__agents_changed(rvo_world *w) {
    w->grid.valid = false;
    w->solve_cand_ok = false;
}

/* Did the last solve divert agent i: its new velocity more than
 * sqrt(tol_sq) [m/s] from its preferred one (rvo_world_avoiding, and the
 * lock timers' "avoiding")? */
static inline bool rvo__diverted(const rvo_world *w, int32_t i, float tol_sq) {
    return v2_abs_sq(v2_sub(w->newvel[i], w->pref[i])) > tol_sq;
}

/* The base layer's memory and error calls, on a world. */
static inline void *rvo__realloc(rvo_world *w, void *p, size_t old_size, size_t new_size) {
    return rvo__base_realloc(&w->base, p, old_size, new_size);
}
static inline bool rvo__grow(rvo_world *w, void **p, int32_t *cap, int32_t need, size_t elem) {
    return rvo__base_grow(&w->base, p, cap, need, elem);
}
static inline bool rvo__grow_arrays(rvo_world *w, int32_t *cap, int32_t need, int count,
                                    void **const arrays[], const size_t elems[]) {
    return rvo__base_grow_arrays(&w->base, cap, need, count, arrays, elems);
}
/* rvo__fail(w, status, arg, fmt, ...): the message into w's error slot; returns status. */
#define rvo__fail(w, ...) rvo__base_fail(&(w)->base, __VA_ARGS__)
/* A step's dt (argument 1 of solve and integrate): RVO_OK, or the failure
 * reported (not finite, or not > 0). */
rvo_status rvo__check_dt(rvo_world *w, float dt);
static inline void rvo__ok(const rvo_world *w) { rvo__base_ok(&w->base); }

#define RVO_NO_HINT 1e30f /* w->knn_hint: search the whole neighbour range */

/* tests: take the general code where a shortcut for a common case would
 * apply (the candidates of a uniform world, one radius in agent_lines4,
 * the 50/50 split of two unflagged agents, the SSE2 loops of the flags and
 * the stall times); the shortcuts must give the same bits. Process-wide;
 * set it only while no world steps. */
extern bool rvo__no_shortcuts;

/* agents.c: RVO_OK when ids[0..n-1] are all live agents, else a failure
 * (argument arg) naming the first unknown one by its place in the list
 * called name. */
rvo_status rvo__check_ids(const rvo_world *w, const rvo_agent_id *ids, int32_t n, int arg, const char *name);
/* world.c: validates one agent parameter value; NULL when fine. */
const char *rvo__param_check(rvo_param p, double v);
/* NULL when the def is valid, else the message naming the bad field (what
 * rvo_agent_def_check and rvo_world_def_check report). */
const char *rvo__agent_def_why(const rvo_agent_def *d);
const char *rvo__world_def_why(const rvo_world_def *d);

/* obstacles.c: recounts the moving obstacles and their top speed. */
void rvo__obstacles_moving_update(rvo_world *w);
/* obstacles.c: moves the moving obstacles by velocity * dt. */
void rvo__obstacles_move(rvo_world *w, float dt);
/* obstacles.c: is p inside the closed ring of obstacle ob (crossing number)? */
bool rvo__obstacle_contains(const rvo_world *w, const obstacle *ob, rvo_vec2 p);
/* obstacles.c: frees the obstacle store (not the edge grid over it). */
void rvo__obstacles_free(rvo_world *w);

/* aim.c: w->aim of a new agent: no direction, no point measured */
uint32_t rvo__aim_new(void);
/* aim.c: agent i's aim as the next integrate leaves it (but dir). While
 * it is held back (RVO_AIM_HELD), once it has moved RVO_AIM_MIN_SHIFT
 * radii sideways since dir, a measure: the streak grows when the turn of
 * its preferred velocity put the point it aims at within
 * RVO_AIM_NEAR_RADII radii, and is 0 otherwise. While idle the streak is
 * RVO_AIM_NEAR_STEPS. Walking its way, it keeps its streak and drops dir. */
aim_state rvo__aim_next(const rvo_world *w, int32_t i);
/* aim.c: integrate, before the move: agents [begin, end)'s aims from this
 * step's preferred velocities */
void rvo__aim_commit(rvo_world *w, int32_t begin, int32_t end);
/* Is the aim tracked: the default mode (the give-way rules read it)? */
static inline bool rvo__aim_on(const rvo_world *w) { return w->strict_overlap && !w->rvo2_compat; }

/* stall.c: advances agents [begin, end)'s stall times after an integrate of dt. */
void rvo__stall_update(rvo_world *w, float dt, int32_t begin, int32_t end);
/* lock_timers.c: records where integrate's move put the timed-locked agents. */
static inline void rvo__locks_record_move(rvo_world *w, int32_t i) {
    if (w->lock && w->lock[i].left > 0.0)
        w->lock[i].moved = w->pos[i];
}
/* An agent may now take k neighbours: w->k_most, the scratch's room
 * (index/scratch.c), grows to it (never shrinks). */
static inline void rvo__raise_k_most(rvo_world *w, int32_t k) {
    if (k > w->k_most)
        w->k_most = k;
}
/* Seconds left on agent i's timed lock, 0 when none. */
static inline double rvo__lock_left(const rvo_world *w, int32_t i) { return w->lock ? w->lock[i].left : 0.0; }
/* lock_timers.c: makes w->lock, every agent without a timer, auto lock on;
 * false when out of memory (the world unchanged). */
bool rvo__locks_make(rvo_world *w);

#endif
