/*
 * rvo — crowd local collision avoidance (ORCA / RVO2 and game extensions).
 *
 * The one public header of the C core. C11, no global state: every call
 * takes the world it acts on. Units are the caller's (metres and seconds in
 * these comments); angles are radians.
 *
 * Error policy: no input may crash or corrupt a world. Functions that can
 * fail return an rvo_status (or a null id, 0) and leave the world as it was;
 * rvo_world_last_error() then says why and rvo_world_last_error_arg() names
 * the argument (1-based, the world not counted) that was wrong.
 *
 * Handles: agent and obstacle ids are integers below 2^53 (exact in a Lua
 * or JavaScript double). 0 is the null id. The low 24 bits hold the slot
 * (plus one), the bits above a generation: a removed id is never issued
 * again, and using it is reported as RVO_ERR_UNKNOWN_ID.
 *
 * Step in two phases: rvo_world_solve() computes every agent's new velocity
 * from a frozen state; callers may read and overwrite new velocities; then
 * rvo_world_integrate() moves the agents. rvo_world_step() does both.
 *
 * Determinism: the same sequence of calls gives bit-identical results on any
 * thread count. Ties between equally distant neighbours are broken by id.
 */
#ifndef RVO_H
#define RVO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(RVO_BUILD_SHARED)
#define RVO_API __declspec(dllexport)
#elif defined(__GNUC__)
#define RVO_API __attribute__((visibility("default")))
#else
#define RVO_API
#endif

#define RVO_VERSION "0.1.0"
#define RVO_VERSION_NUM 100

/* Largest number of agents (and of obstacles) a world can hold at once. */
#define RVO_MAX_SLOTS ((1 << 24) - 1)

typedef struct rvo_vec2 {
    float x;
    float y;
} rvo_vec2;

/* Agent and obstacle handles; 0 is null. */
typedef uint64_t rvo_agent_id;
typedef uint64_t rvo_obstacle_id;

typedef struct rvo_world rvo_world;

typedef enum rvo_status {
    RVO_OK = 0,
    RVO_ERR_INVALID_ARGUMENT = -1, /* NaN, inf, out of range, null pointer */
    RVO_ERR_UNKNOWN_ID = -2,       /* never issued, removed, or stale */
    RVO_ERR_OUT_OF_MEMORY = -3,
    RVO_ERR_DEGENERATE = -4, /* polygon with too few distinct points */
    RVO_ERR_PHASE = -5,      /* call not allowed in the world's phase */
    RVO_ERR_CAPACITY = -6    /* more than RVO_MAX_SLOTS agents/obstacles */
} rvo_status;

/* Error report of the calls that have no world to keep it in (defs,
 * creating and loading a world, doors, outlines, navmeshes). They take an
 * rvo_error *err as their last argument; it may be NULL. On failure they
 * fill it and return a negative rvo_status, NULL or 0 as documented; on
 * success they set err->status to RVO_OK and err->message to "". */
typedef struct rvo_error {
    int32_t status;    /* an rvo_status; RVO_OK when nothing failed */
    int32_t arg;       /* the argument that was wrong (1-based), 0 = none */
    char message[160]; /* why ("radius must be > 0"), or "" */
} rvo_error;

/* Per-agent parameters, as in RVO2. Every field has a unit and a limit. */
typedef struct rvo_agent_def {
    float radius;            /* body radius [m]                [Limit: > 0] */
    float max_speed;         /* speed limit [m/s]              [Limit: >= 0] */
    float neighbor_dist;     /* agents farther are ignored [m] [Limit: >= 0] */
    int32_t max_neighbors;   /* nearest agents considered      [Limit: 0..1024] */
    float time_horizon;      /* look-ahead vs agents [s]       [Limit: > 0] */
    float time_horizon_obst; /* look-ahead vs obstacles [s]    [Limit: > 0] */
    rvo_vec2 velocity;       /* initial velocity [m/s]         [finite] */
    rvo_vec2 pref_velocity;  /* initial preferred velocity     [finite] */
    float weight;            /* share of avoidance it takes    [Limit: 0..1] */
    uint32_t groups;         /* groups it belongs to (bits) */
    uint32_t mask;           /* groups it avoids (bits) */
    float z;                 /* bottom of its vertical extent [m] [finite] */
    float height;            /* vertical extent [m]            [Limit: > 0, inf = unlimited] */
    uint32_t cookie;         /* set by rvo_agent_def_default(); catches {0} defs */
} rvo_agent_def;

/* Memory hooks; with alloc == NULL the C library's malloc/realloc/free. */
typedef void *rvo_alloc_fn(void *user, void *ptr, size_t old_size, size_t new_size);

/* ---- host task hook (Box2D v3's shape) ----------------------------------
 * A world with enqueue_task set runs its parallel work through the host's
 * task system instead of its own threads. For each parallel loop it calls
 * enqueue_task(task, count, min_range, task_ctx, user): the host runs
 * task(begin, end, worker, task_ctx) over ranges that cover [0, count)
 * exactly once (ranges of at least min_range items, except the last), in
 * any order, at once or later, each with a worker index in [0, threads)
 * that no other range uses at the same time. It returns a handle, or NULL
 * when it has already run everything; the world then calls
 * finish_task(handle, user), which must return once every range is done.
 * Results are bit-identical however the host splits and orders the ranges. */
typedef void rvo_task_fn(int32_t begin, int32_t end, uint32_t worker, void *task_ctx);
typedef void *rvo_enqueue_task_fn(rvo_task_fn *task, int32_t count, int32_t min_range, void *task_ctx,
                                  void *user);
typedef void rvo_finish_task_fn(void *user_task, void *user);

typedef struct rvo_world_def {
    float time_step;     /* dt used by rvo_world_step(w, 0) [s]  [Limit: > 0] */
    rvo_agent_def agent; /* parameters of agents added with a NULL def */
    int32_t
        threads; /* workers for solve, 1 = inline; with enqueue_task the host's worker count [Limit: 1..64] */
    uint64_t seed;       /* seed of the world's random state */
    float height_margin; /* extra vertical slack when comparing extents [m] [Limit: >= 0] */
    rvo_alloc_fn *alloc; /* optional allocator: realloc semantics, free on new_size 0 */
    void *alloc_user;    /* passed to alloc */
    uint32_t cookie;     /* set by rvo_world_def_default() */
    /* Host task hook (see rvo_task_fn): both set or both NULL. With them,
     * threads is the host's worker count and no thread is started. */
    rvo_enqueue_task_fn *enqueue_task;
    rvo_finish_task_fn *finish_task;
    void *task_user; /* passed to enqueue_task and finish_task */
} rvo_world_def;

/* Parameters readable and writable by rvo_agent_get/set_param(). */
typedef enum rvo_param {
    RVO_PARAM_RADIUS = 0,
    RVO_PARAM_MAX_SPEED,
    RVO_PARAM_NEIGHBOR_DIST,
    RVO_PARAM_MAX_NEIGHBORS,
    RVO_PARAM_TIME_HORIZON,
    RVO_PARAM_TIME_HORIZON_OBST,
    RVO_PARAM_WEIGHT, /* share of each avoidance this agent takes  [Limit: 0..1], default 0.5 */
    RVO_PARAM_GROUPS, /* bits of the groups it belongs to           [32-bit integer], default 1 */
    RVO_PARAM_MASK,   /* bits of the groups it avoids               [32-bit integer], default all */
    RVO_PARAM_Z,      /* bottom of its vertical extent [m]          [finite], default 0 */
    RVO_PARAM_HEIGHT, /* its vertical extent [m]                    [Limit: > 0, inf ok], default inf */
    RVO_PARAM_COUNT
} rvo_param;

/* ---- definitions ------------------------------------------------------ */

/* Defaults: radius 0.5, max_speed 2, neighbor_dist 10, max_neighbors 10,
 * time_horizon 2, time_horizon_obst 2, zero velocities, weight 0.5,
 * groups 1, mask 0xffffffff, z 0, height inf. */
RVO_API rvo_agent_def rvo_agent_def_default(void);
/* Defaults: time_step 1/60, threads 1, seed 1, agent = rvo_agent_def_default(). */
RVO_API rvo_world_def rvo_world_def_default(void);
/* RVO_OK when the def is valid, else RVO_ERR_INVALID_ARGUMENT and err's
 * message names the bad field ("radius must be > 0"). */
RVO_API rvo_status rvo_agent_def_check(const rvo_agent_def *def, rvo_error *err);
RVO_API rvo_status rvo_world_def_check(const rvo_world_def *def, rvo_error *err);
/* Sets parameter p of a def after checking it: RVO_OK when stored, else
 * RVO_ERR_INVALID_ARGUMENT (err: "weight must be in [0, 1]", argument 3)
 * and the def is unchanged. */
RVO_API rvo_status rvo_agent_def_set_param(rvo_agent_def *def, rvo_param p, double value, rvo_error *err);
RVO_API double rvo_agent_def_param(const rvo_agent_def *def, rvo_param p); /* NaN if p is unknown */
/* sizeof the two defs, for bindings that copy the layout (LuaJIT FFI). */
RVO_API size_t rvo_agent_def_size(void);
RVO_API size_t rvo_world_def_size(void);
/* Name of a parameter ("radius", ...) or NULL; and the reverse. */
RVO_API const char *rvo_param_name(rvo_param p);
RVO_API int rvo_param_from_name(const char *name); /* -1 if unknown */
RVO_API const char *rvo_status_string(rvo_status s);
RVO_API const char *rvo_version(void);

/* ---- world ------------------------------------------------------------ */

/* NULL if def is invalid (err as rvo_world_def_check's) or memory runs
 * out (RVO_ERR_OUT_OF_MEMORY). def NULL means rvo_world_def_default(). */
RVO_API rvo_world *rvo_world_create(const rvo_world_def *def, rvo_error *err);
RVO_API void rvo_world_destroy(rvo_world *w); /* NULL is fine */
/* Why the last failing call on w failed ("radius must be > 0"), or "". */
RVO_API const char *rvo_world_last_error(const rvo_world *w);
/* Which argument of that call was wrong: 1 = first after the world; 0 = none. */
RVO_API int rvo_world_last_error_arg(const rvo_world *w);
RVO_API float rvo_world_time_step(const rvo_world *w);
RVO_API rvo_status rvo_world_set_time_step(rvo_world *w, float dt);
RVO_API int32_t rvo_world_threads(const rvo_world *w);
/* Default parameters for agents added with a NULL def. */
RVO_API rvo_agent_def rvo_world_agent_defaults(const rvo_world *w);

/* Compute every agent's new velocity for a step of dt [s] (> 0). */
RVO_API rvo_status rvo_world_solve(rvo_world *w, float dt);
/* velocity = new velocity; position += velocity*dt.
 * RVO_ERR_PHASE unless a solve came before. */
RVO_API rvo_status rvo_world_integrate(rvo_world *w, float dt);
/* solve + integrate; dt == 0 means the world's time_step. */
RVO_API rvo_status rvo_world_step(rvo_world *w, float dt);
/* RVO2 compatibility. Off (the default for games), each integrate ends
 * with passes that push overlapping agents apart by their responsibility
 * shares and then out of obstacle clearance (see
 * strict overlap below). On, agents move exactly as RVO2 moves them (the
 * conformance tests use this). */
RVO_API rvo_status rvo_world_set_rvo2_compat(rvo_world *w, bool on);
RVO_API bool rvo_world_rvo2_compat(const rvo_world *w);
/* Strict overlap: hard bodies (ON by default, no effect with
 * rvo2_compat). The overlap resolution repeats until no pair overlaps by
 * more than 0.2% of its radius sum (at most 64 passes; up to four rounds
 * of them, when they pushed agents far enough to meet new ones), velocities
 * take up its correction (they are the motion the agent really made), and:
 *  - moving agents push idle ones aside: an agent whose preferred speed is
 *    at most 1% of its max speed gives way to a moving one of no greater
 *    weight (ORCA: the idle one takes the whole avoidance; the overlap
 *    resolution: 90% of it), then walks back on its own preferred velocity;
 *    with the ORCA solver an idle agent looks at most 2 s ahead of agents,
 *    whatever its time_horizon (looking 10 s ahead it made way for agents
 *    still metres off, and a group sent to a point too small for it
 *    churned for good), and a stalled one at most as far as it walks 7
 *    body widths at its max speed (a long horizon let pressers push a
 *    crowd at rest to and fro), while against an oncoming agent a walking
 *    one looks at least 6 body widths ahead (both walking, neither
 *    stalled, wanting opposite ways, each ahead of the other, on a course
 *    to touch, closing in, more than two radius sums apart, of one weight;
 *    with a horizon that walks a few radii, crowds walking at each other
 *    met in a jam and pushed each other back);
 *  - jams break, between agents that want opposite ways: of two stalled
 *    ones (rvo_world_stalled's threshold) one gives way as above (the
 *    higher weight, or a hash of the two ids), and an agent stalled for ten
 *    times the threshold gets way from moving ones;
 *  - but a hemmed-in agent gives way to nobody: an idle one that touches
 *    another idle one or two agents, a jam's loser that touches three (a
 *    group sent to a point too small for it comes to rest instead of
 *    churning: giving way there only shoved the crowd around);
 *  - an agent stalled against a crowd at rest (it touches, within about 32
 *    degrees of its preferred velocity, an idle agent hemmed in, one that
 *    rests already, or, both stalled for ten times the threshold, one that
 *    presses the same way) rests too: the solve aims it at zero instead of
 *    its preferred velocity until the crowd ahead moves or it stops
 *    stalling (pressing on, it slid along the crowd for good); stalled for
 *    ten times the threshold and standing still, it keeps resting within
 *    about 45 degrees; with the ORCA solver, two resting agents that touch
 *    and stand still (at most 2% of their max speeds) build their lines
 *    against each other as if both stood still (lines through their own
 *    velocities kept a resting cluster's drift, and it crept on);
 *  - a stalled agent that wants at most half its max speed and touches
 *    four agents or more has settled: it rests, and agents stalled against
 *    it rest in turn (a group steered by the offset to its slots, never
 *    idle, churned for good in a place too small for it);
 *  - an agent stalled for ten times the threshold that presses, not
 *    resting, into two or more agents of which none wants the opposite
 *    way, presses less and less: the solve aims it at its preferred
 *    velocity times ten thresholds over its stall time (at least a
 *    tenth), until it walks its aim (a crowd pressing one way kept
 *    turning slowly for good);
 *  - two agents that want opposite ways and close head-on (within about 1
 *    degree) while one is stalled avoid by a leg of the velocity obstacle,
 *    not by braking: they pass sideways instead of stopping nose to nose;
 *    so do such a pair more than 8 radius sums apart once one of them has
 *    slowed below 0.4 of its preferred speed (closing at a quarter of
 *    their preferred speeds or more): a ring of agents walking to the
 *    antipodes braked mirrored for seconds, then jammed;
 *  - a stream keeps right: neighbours moving the same way (velocities and
 *    preferred velocities within about 26 degrees, nearer than 2.5 radius
 *    sums), each walking within about 18 degrees of its preferred velocity,
 *    take the right leg of each other's velocity obstacle, so a dense swap
 *    turns into a vortex instead of a jam (not the agent catching up with
 *    one walking away ahead of it: it takes the nearer leg; not a crowd
 *    deflected round a rally point: it would circle it for good);
 *  - a locked agent keeps its lock velocity, but is moved out of an agent
 *    it presses into (its velocity points at the other); one that does not
 *    press stays put against an unlocked agent; two locked agents split by
 *    weight;
 *  - with the ORCA solver, an agent stalled within a radius of an
 *    obstacle (not an enclosure), heading into it within 45 degrees of
 *    straight on with no agent touching it ahead, follows the outline to
 *    the side where the obstacle ends nearer its preferred line (ties to
 *    the right) until its way ahead is free (solve/detour.h).
 * None of the give-way rules applies to locked agents, weight-0 agents or
 * pairs that do not avoid each other (groups). Off, the soft mode of
 * earlier versions: four soft passes that never move a locked agent, ORCA
 * as RVO2 (docs/quality.md). */
RVO_API rvo_status rvo_world_set_strict_overlap(rvo_world *w, bool on);
RVO_API bool rvo_world_strict_overlap(const rvo_world *w);
/* True between a solve and the next integrate. */
RVO_API bool rvo_world_is_solved(const rvo_world *w);

/* Solver of a world's new velocities. All three share neighbour selection
 * (groups/mask, height, max_neighbors), obstacles, responsibility weights,
 * locks and max_speed.
 *   RVO_SOLVER_ORCA  ORCA exactly as RVO2 computes it (the default).
 *   RVO_SOLVER_UE    Unreal's UAvoidanceManager: a velocity cone per
 *                    neighbour (apex at the responsibility-weighted velocity,
 *                    cut at time_horizon), obstacle edges blocking within
 *                    time_horizon_obst; a blocked preferred velocity is
 *                    replaced by the best of 8 headings at +-23/40/55/85
 *                    degrees, each shortened to its free part; the agent
 *                    stops when none moves it forward (or backs away if
 *                    standing still would get it run into).
 *   RVO_SOLVER_RVO   Sampling RVO (RVO Library 1.x): the preferred velocity,
 *                    zero and `samples` velocities spread over the max_speed
 *                    disc; the one with the least penalty
 *                    w / tc(v) + |v_pref - v| wins (tc: time to the first
 *                    collision within the horizons, reciprocal by weights).
 * The solver can be changed at any time; it applies from the next solve. */
typedef enum rvo_solver { RVO_SOLVER_ORCA = 0, RVO_SOLVER_UE = 1, RVO_SOLVER_RVO = 2 } rvo_solver;
RVO_API rvo_status rvo_world_set_solver(rvo_world *w, rvo_solver s);
RVO_API rvo_solver rvo_world_solver(const rvo_world *w);
/* Sampling RVO parameters: samples [Limit: 1..4096], default 250 (RVO
 * Library's velSampleCount; cost grows with it); penalty_weight w [m, so
 * that w / tc is a speed] [Limit: >= 0, finite], default 1 (RVO Library's
 * examples use 7.5, its "safety factor"). Larger w avoids earlier and wider
 * and overlaps less in dense crowds; 0 ignores coming collisions (agents
 * that overlap still move apart). */
#define RVO_DEFAULT_SAMPLES 250
#define RVO_DEFAULT_PENALTY_WEIGHT 1.0f
RVO_API rvo_status rvo_world_set_sampling(rvo_world *w, int32_t samples, float penalty_weight);
/* "orca", "ue", "rvo" (NULL if unknown); and the reverse (-1 if unknown). */
RVO_API const char *rvo_solver_name(rvo_solver s);
RVO_API int rvo_solver_from_name(const char *name);

/* ---- agents ----------------------------------------------------------- */

/* Returns the new id, or 0 (error: see rvo_world_last_error). def may be
 * NULL for the world's defaults. */
RVO_API rvo_agent_id rvo_world_add_agent(rvo_world *w, float x, float y, const rvo_agent_def *def);
RVO_API rvo_status rvo_world_remove_agent(rvo_world *w, rvo_agent_id id);
RVO_API bool rvo_agent_is_valid(const rvo_world *w, rvo_agent_id id);
RVO_API int32_t rvo_world_agent_count(const rvo_world *w);
/* Copies up to cap agent ids in the world's agent order (the order of the
 * bulk calls below; stable until an agent is removed). Returns the count. */
RVO_API int32_t rvo_world_agent_ids(const rvo_world *w, rvo_agent_id *out, int32_t cap);

RVO_API rvo_status rvo_agent_set_position(rvo_world *w, rvo_agent_id id, float x, float y);
RVO_API rvo_status rvo_agent_position(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out);
RVO_API rvo_status rvo_agent_set_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy);
RVO_API rvo_status rvo_agent_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out);
RVO_API rvo_status rvo_agent_set_pref_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy);
RVO_API rvo_status rvo_agent_pref_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out);
/* The velocity the last solve chose; RVO_ERR_PHASE when not solved. Setting
 * it (post-processing) is allowed between solve and integrate only; a set
 * velocity longer than the agent's max_speed is scaled down to it. */
RVO_API rvo_status rvo_agent_new_velocity(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out);
RVO_API rvo_status rvo_agent_set_new_velocity(rvo_world *w, rvo_agent_id id, float vx, float vy);
RVO_API rvo_status rvo_agent_set_param(rvo_world *w, rvo_agent_id id, rvo_param p, double value);
RVO_API rvo_status rvo_agent_param(const rvo_world *w, rvo_agent_id id, rvo_param p, double *out);

/* ---- game semantics ------------------------------------------------------
 * Responsibility: for a pair (A, B) that A avoids, A takes the share
 *   s_A = 1                         if B is locked or B does not avoid A,
 *   s_A = w_A / (w_A + w_B)         otherwise (0.5 when both weights are 0),
 * of the velocity change ORCA asks of the pair (RVO2 is s_A = 0.5); of the
 * room left to close in, while the pair is not on a course to collide, A
 * gets 1 - s_A when 0 < s_A < 1 (the one that yields less is held back
 * last).
 * Groups: A avoids B iff (A.mask & B.groups) != 0; ignored agents do not
 * count towards max_neighbors.
 * Height: A and B ignore each other when [z, z + height] of the two, widened
 * by the world's height margin, do not overlap; likewise obstacles with a
 * z range. */

/* Locks an agent to a velocity: solves leave it moving at (vx, vy) and the
 * others treat it as a non-reciprocating moving obstacle. With strict
 * overlap it is still a hard body: pressing into an agent, it is moved out
 * of it (its velocity stays the lock's). */
RVO_API rvo_status rvo_agent_lock(rvo_world *w, rvo_agent_id id, float vx, float vy);
RVO_API rvo_status rvo_agent_unlock(rvo_world *w, rvo_agent_id id);
/* 1 if locked, 0 if not, negative rvo_status on error. */
RVO_API int rvo_agent_is_locked(const rvo_world *w, rvo_agent_id id);
/* Agents whose last solved velocity differs from their preferred velocity
 * by more than tolerance [m/s] (>= 0), in the world's agent order, locked
 * agents excluded. Writes up to cap ids; returns the number found, or a
 * negative rvo_status (RVO_ERR_PHASE before the first solve). */
RVO_API int32_t rvo_world_avoiding(rvo_world *w, float tolerance, rvo_agent_id *out, int32_t cap);
/* Lock timers (rvo.locks, Unreal's avoidance lock timers, in bulk). A timed
 * lock is a lock (rvo_agent_lock) with seconds left on it; rvo_agent_unlock
 * ends it, rvo_agent_lock only changes its velocity. Three calls a frame:
 *   rvo_world_advance_locks(w, dt)   before the solve, after the preferred
 *       velocities are set: counts every timed lock down by dt [s] (finite,
 *       >= 0) and ends those with 1e-9 s or less left, and those whose
 *       agent's preferred velocity moved more than their release_on_change
 *       from what it was when the lock began;
 *   rvo_world_lock_solved(...)       between solve and integrate: locks every
 *       unlocked agent that takes part (auto lock on, the default,
 *       groups & the agent's groups != 0, and not idle: a preferred speed
 *       above 1% of its max speed) to its new velocity, for
 *       after_avoid seconds if it differs from its preferred velocity by more
 *       than tolerance [m/s] (as rvo_world_avoiding), else for after_clean
 *       (no lock when that is 1e-9 s or less). tolerance, after_avoid and
 *       after_clean finite and >= 0; release_on_change > 0 (may be
 *       infinite: never). Returns the number locked for avoiding;
 *   rvo_world_release_pushed(w)      after integrate (before the next solve):
 *       ends the timed locks of agents the overlap passes moved more than
 *       1e-3 m from where their lock velocity took them (a lock ends on
 *       contact). Returns the number ended.
 * Each returns a count, or a negative rvo_status (RVO_ERR_PHASE out of its
 * place in the step). Timers are saved with the world. */
RVO_API int32_t rvo_world_advance_locks(rvo_world *w, double dt);
RVO_API int32_t rvo_world_lock_solved(rvo_world *w, float tolerance, double after_avoid, double after_clean,
                                      double release_on_change, uint32_t groups);
RVO_API int32_t rvo_world_release_pushed(rvo_world *w);
/* Seconds left on an agent's timed lock (0: no timer). */
RVO_API rvo_status rvo_agent_lock_time(const rvo_world *w, rvo_agent_id id, double *out);
/* Whether rvo_world_lock_solved may lock the agent (default true): off for a
 * hero or units that must keep sliding. Turning it off ends a timed lock. */
RVO_API rvo_status rvo_agent_set_auto_lock(rvo_world *w, rvo_agent_id id, bool on);
/* 1 if on, 0 if off, negative rvo_status on error. */
RVO_API int rvo_agent_auto_lock(const rvo_world *w, rvo_agent_id id);
/* Extra vertical distance [m] (>= 0) under which two extents still count
 * as overlapping. Default 0. */
RVO_API rvo_status rvo_world_set_height_margin(rvo_world *w, float margin);
/* Vertical range of an obstacle [m]; default (-inf, inf). zmin <= zmax. */
RVO_API rvo_status rvo_obstacle_set_z_range(rvo_world *w, rvo_obstacle_id id, float zmin, float zmax);
/* The range as set: out->x = zmin, out->y = zmax. */
RVO_API rvo_status rvo_obstacle_z_range(const rvo_world *w, rvo_obstacle_id id, rvo_vec2 *out);

typedef struct rvo_ray_hit {
    float distance;           /* along the ray [m], 0..max_dist */
    rvo_vec2 point;           /* centre of the swept disc at the hit */
    rvo_vec2 normal;          /* unit, pointing back towards the ray */
    rvo_agent_id agent;       /* the agent hit, or 0 */
    rvo_obstacle_id obstacle; /* the obstacle hit, or 0 */
} rvo_ray_hit;

/* Sweeps a disc of radius clearance (>= 0) from (x, y) along (dx, dy) (any
 * non-zero length) up to max_dist (>= 0). Obstacles always block; agents
 * block when (their groups & mask) != 0, except those whose disc already
 * contains the start point (the caster itself). Returns 1 and fills hit
 * with the nearest hit (ties: obstacles first, then lower id), 0 when
 * nothing is hit, or a negative rvo_status. */
RVO_API int rvo_world_ray_cast(rvo_world *w, float x, float y, float dx, float dy, float max_dist,
                               float clearance, uint32_t mask, rvo_ray_hit *hit);

/* Point-blank ray cast, for a caster inside a crowd (a melee unit): as
 * rvo_world_ray_cast, but only agent `ignore` (the caster; 0: nobody) is
 * skipped. Any other agent whose disc, grown by clearance, already holds
 * the start is hit at distance 0, with the normal pointing from its centre
 * to the start. `ignore` (argument 8) must be a live agent or 0. */
RVO_API int rvo_world_ray_cast_from(rvo_world *w, float x, float y, float dx, float dy, float max_dist,
                                    float clearance, uint32_t mask, rvo_agent_id ignore, rvo_ray_hit *hit);
/* Many rays in one call (rvo.surround's probes): ray k (0-based) starts at
 * (rays[6k], rays[6k+1]) along (rays[6k+2], rays[6k+3]) up to rays[6k+4]
 * with clearance rays[6k+5], and hits[k] is what rvo_world_ray_cast(...,
 * mask, &hits[k]) fills (all zero when nothing is hit). Checks every ray
 * before casting any (the message names the ray: "ray 3: ..."); returns
 * the number of rays that hit something, or a negative rvo_status. */
RVO_API int32_t rvo_world_ray_casts(rvo_world *w, const float *rays, int32_t n, uint32_t mask,
                                    rvo_ray_hit *hits);

/* ---- rvo.surround's frame in bulk (src/services/surround.c) --------------
 * The two-phase surround attack of lua/rvo/surround.lua (which holds its
 * state and documents the behaviour) for n units in one call: each
 * operation the module's, in doubles, its rays rvo_world_ray_cast's. */
typedef struct rvo_surround_def {
    double target_x, target_y;    /* the target [m] */
    double target_vx, target_vy;  /* its velocity [m/s] */
    double attack_radius;         /* outer edge of the band [m], > 0 */
    double tolerance;             /* width of the band [m], 0 < tolerance < attack_radius */
    double probe_length;          /* the fallback rays [m], > 0 */
    double spread_speed;          /* the fastest a holder slides to even out [m/s], >= 0 */
    double dt;                    /* the step [s], > 0 */
    double clock;                 /* the attack's clock [s]: stall flips end at clock values */
    int32_t spread, hold, probes; /* booleans: holders even out, phase 2, phase 1 rays */
} rvo_surround_def;
/* Before the solve: for units[k], k < n, updates phase[k] (0 approach, 1
 * hold), stalled[k] [s] and flip_until[k] (a clock value; below clock: no
 * flip), sets every unit's preferred velocity, writes the holders in ring
 * order into holders (up to n ids) and the middle angle of the widest gap
 * between them into *gap_angle (NULL: not wanted; -1: nobody holds).
 * Returns the number of holders, or a negative rvo_status (an unknown unit
 * is named by its place in units; nothing is set then). */
RVO_API int32_t rvo_world_surround_plan(rvo_world *w, const rvo_surround_def *def, const rvo_agent_id *units,
                                        int32_t n, uint8_t *phase, double *stalled, double *flip_until,
                                        rvo_agent_id *holders, double *gap_angle);
/* Between solve and integrate: the holders' new velocities keep only their
 * tangential part relative to the target, plus the radial term that keeps
 * them mid-band; no sliding, then standing, when that move is not free. */
RVO_API rvo_status rvo_world_surround_project(rvo_world *w, const rvo_surround_def *def,
                                              const rvo_agent_id *holders, int32_t n);

/* ---- stall events (src/stall.c) -----------------------------------------
 * An agent stalls while it moves along its preferred velocity at less than
 * progress x its preferred speed (the velocity it really moved with, after
 * overlap resolution): its stall time grows by dt at every integrate and
 * drops to 0 once it makes progress again, while its preferred velocity is
 * zero, or while it is locked. It counts as stalled once its stall time
 * reaches min_time. Defaults: progress 0.1, min_time 1 s. */
#define RVO_DEFAULT_STALL_PROGRESS 0.1f
#define RVO_DEFAULT_STALL_MIN_TIME 1.0f
/* progress in [0, 1]; min_time [s] finite, >= 0. */
RVO_API rvo_status rvo_world_set_stall_threshold(rvo_world *w, float progress, float min_time);
RVO_API void rvo_world_stall_threshold(const rvo_world *w, float *progress, float *min_time);
/* The stalled agents in the world's agent order: writes up to cap ids and,
 * when times is not NULL, their stall times [s]; returns how many are
 * stalled, or a negative rvo_status. */
RVO_API int32_t rvo_world_stalled(rvo_world *w, rvo_agent_id *ids, float *times, int32_t cap);
/* The stall time [s] of one agent (0 while it makes progress). */
RVO_API rvo_status rvo_agent_stall_time(const rvo_world *w, rvo_agent_id id, float *out);

/* ---- bulk access, in the world's agent order -------------------------- */
/* xy holds x0,y0,x1,y1,...; n is the number of agents (not of floats).
 * Getters copy min(n, count) agents and return the agent count.
 * Setters need n == agent count (RVO_ERR_INVALID_ARGUMENT otherwise) and
 * change nothing when any value is not finite. */
RVO_API int32_t rvo_world_positions(const rvo_world *w, float *xy, int32_t n);
RVO_API int32_t rvo_world_velocities(const rvo_world *w, float *xy, int32_t n);
RVO_API int32_t rvo_world_new_velocities(const rvo_world *w, float *xy, int32_t n);
RVO_API rvo_status rvo_world_set_pref_velocities(rvo_world *w, const float *xy, int32_t n);
RVO_API rvo_status rvo_world_set_new_velocities(rvo_world *w, const float *xy, int32_t n);
/* rvo.jitter's steering in bulk (Jitter:steer_all): for k in 0..n-1, sets
 * the preferred velocity of agent ids[k] toward the goal (goals[2k],
 * goals[2k+1]) [m, finite] at its max_speed, slowing down linearly within
 * slow_radius [m] (>= 0) of the goal, exactly onto the goal on the last
 * step (time_step), and turned sideways by up to amount (0..1) of the
 * speed, a fraction drawn from rng: the two states of L'Ecuyer's combined
 * generator (integers in 1..2147483562 and 1..2147483398, rvo.jitter's
 * Rng), advanced in place, one draw per agent that is neither stopped nor
 * on its last step; rng NULL: no turn. An agent less than arrive [m]
 * (>= 0) from its goal, on it, or with max_speed 0 is stopped
 * (preferred velocity 0). left (NULL or n numbers): the distances to the
 * goals. The arithmetic is the Lua module's, in doubles, so Jitter:steer
 * per agent and this give the same bits. Checks everything before it
 * changes anything; returns the number of agents given a non-zero
 * preferred velocity, or a negative rvo_status. */
RVO_API int32_t rvo_world_steer(rvo_world *w, const rvo_agent_id *ids, const double *goals, int32_t n,
                                double amount, double slow_radius, double arrive, double *rng, double *left);
/* ---- bulk access by id: the agents of a list (a squad, a module's units).
 * For k in 0..n-1, the values of agent ids[k]: xy[2k], xy[2k+1] for the
 * vectors, out[k] for the numbers. Every id (and, for the setters, every
 * value: finite, within [-1e9, 1e9]) is checked before anything is written;
 * an unknown id fails with RVO_ERR_UNKNOWN_ID, its message naming its place
 * in ids. A setter given an id twice keeps the last value. New velocities
 * exist only between solve and integrate (RVO_ERR_PHASE), and set ones are
 * held to max_speed as by rvo_agent_set_new_velocity. */
RVO_API rvo_status rvo_world_positions_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *xy);
RVO_API rvo_status rvo_world_velocities_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *xy);
RVO_API rvo_status rvo_world_new_velocities_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                               float *xy);
RVO_API rvo_status rvo_world_radii_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *out);
RVO_API rvo_status rvo_world_max_speeds_of(const rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                           float *out);
RVO_API rvo_status rvo_world_set_pref_velocities_of(rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                                    const float *xy);
RVO_API rvo_status rvo_world_set_new_velocities_of(rvo_world *w, const rvo_agent_id *ids, int32_t n,
                                                   const float *xy);
/* Zero-copy views (valid until the next call that adds, removes or moves
 * agents): interleaved x,y arrays of agent_count pairs. */
RVO_API const float *rvo_world_positions_view(const rvo_world *w);
RVO_API const float *rvo_world_velocities_view(const rvo_world *w);

/* ---- obstacles -------------------------------------------------------- */

/* xy holds n points. closed: a polygon (n >= 3); counter-clockwise points
 * make a solid obstacle, clockwise ones an enclosure that keeps agents
 * inside. Open (closed = false): a polyline (n >= 2) blocking from both
 * sides. Consecutive points less than 1e-6 m apart are merged (a repeat
 * of the first point closing a polygon too). Returns 0 on error. */
RVO_API rvo_obstacle_id rvo_world_add_obstacle(rvo_world *w, const float *xy, int32_t n, bool closed);
/* Which side of a closed obstacle is blocked. */
typedef enum rvo_obstacle_side {
    RVO_SIDE_WINDING = 0,  /* by the winding, as rvo_world_add_obstacle */
    RVO_SIDE_SOLID = 1,    /* agents stay outside, whatever the winding */
    RVO_SIDE_ENCLOSURE = 2 /* agents stay inside, whatever the winding */
} rvo_obstacle_side;
/* rvo_world_add_obstacle with the side given: the points are stored
 * counter-clockwise for a solid, clockwise for an enclosure (reversed
 * after the first point when given the other way), so engines with y
 * pointing down need not flip them. An open polyline (closed = false)
 * takes only RVO_SIDE_WINDING; a closed one that merges down to two
 * points is a segment, blocking from both sides. */
RVO_API rvo_obstacle_id rvo_world_add_obstacle_side(rvo_world *w, const float *xy, int32_t n, bool closed,
                                                    rvo_obstacle_side side);
RVO_API rvo_status rvo_world_remove_obstacle(rvo_world *w, rvo_obstacle_id id);
/* Replaces an obstacle's points (n of them at xy, taken as
 * rvo_world_add_obstacle takes them), keeping its id, its z range, whether
 * it is closed and the side it was added with. On error (argument 2 for the
 * points) the obstacle keeps its old points. Outside rvo2_compat, agents
 * the new points leave inside a solid (or outside an enclosure they were
 * in) are put out on the free side, a radius clear, by the overlap passes
 * of the next steps (as are agents a solid is added over). */
RVO_API rvo_status rvo_obstacle_set_points(rvo_world *w, rvo_obstacle_id id, const float *xy, int32_t n);
/* An obstacle's velocity [m/s] (default 0): each integrate moves it by
 * velocity * dt. Every solver avoids it as it avoids a moving agent that
 * does not reciprocate (in its frame, within time_horizon_obst). Outside
 * rvo2_compat, an agent it sweeps over in a
 * step is carried along at the edge that met it, and the overlap passes
 * push it out of the edge's clearance. vx, vy finite, within [-1e9, 1e9].
 * An obstacle that a step would carry out of [-1e9, 1e9] (or whose points
 * rounding would merge) stays where it is that step. */
RVO_API rvo_status rvo_obstacle_set_velocity(rvo_world *w, rvo_obstacle_id id, float vx, float vy);
RVO_API rvo_status rvo_obstacle_velocity(const rvo_world *w, rvo_obstacle_id id, rvo_vec2 *out);
RVO_API bool rvo_obstacle_is_valid(const rvo_world *w, rvo_obstacle_id id);
RVO_API int32_t rvo_world_obstacle_count(const rvo_world *w);

/* Copies up to cap obstacle ids in the world's obstacle order (the order
 * they were added in; removing one keeps the order of the others).
 * Returns the obstacle count. */
RVO_API int32_t rvo_world_obstacle_ids(const rvo_world *w, rvo_obstacle_id *out, int32_t cap);
/* The points of an obstacle as stored (close points merged; an open
 * polyline's points once, in order): writes up to cap points (x, y pairs)
 * into xy and, when closed is not NULL, whether it is a polygon (a
 * two-point obstacle is an open segment). Returns the number of points, or
 * a negative rvo_status. */
RVO_API int32_t rvo_obstacle_points(rvo_world *w, rvo_obstacle_id id, float *xy, int32_t cap, bool *closed);

/* ---- queries (on the current positions) ------------------------------- */

/* The agents id avoids: up to its max_neighbors nearest within its
 * neighbor_dist, nearest first (ties by id). Writes up to cap ids; returns
 * the number found, or a negative rvo_status. */
RVO_API int32_t rvo_world_query_neighbors(rvo_world *w, rvo_agent_id id, rvo_agent_id *out, int32_t cap);
/* Agents whose centres lie within r of (x, y), nearest first (ties by id).
 * Writes up to cap; returns the total found, or a negative rvo_status. */
RVO_API int32_t rvo_world_query_radius(rvo_world *w, float x, float y, float r, rvo_agent_id *out,
                                       int32_t cap);
/* Obstacles with an edge within r [m] (>= 0) of (x, y), nearest first (by
 * the distance to their nearest edge; ties by id). Writes up to cap ids;
 * returns the total found, or a negative rvo_status. Cost: every edge. */
RVO_API int32_t rvo_world_query_obstacles(rvo_world *w, float x, float y, float r, rvo_obstacle_id *out,
                                          int32_t cap);
/* 1 if a disc of the given clearance radius can sweep from (x1,y1) to
 * (x2,y2) without touching an obstacle edge, 0 if not, negative on error. */
RVO_API int rvo_world_line_of_sight(rvo_world *w, float x1, float y1, float x2, float y2, float clearance);

/* ---- debug view (src/debug_lines.c) ------------------------------------ */

/* The ORCA half-planes of agent id, built as the ORCA solver builds them,
 * from the current state: between a solve and the next integrate they are
 * the lines that solve used (for an unlocked agent of an ORCA world); at
 * other times those the next solve would use. Line k is the 4 floats
 * out[4k..4k+3] = point x, y, unit direction x, y, in velocity space [m/s];
 * the allowed velocities lie on the left of the directed line (RVO2's
 * convention). Obstacle lines come first; *num_obstacle (may be NULL) gets
 * their count. dt [s] as given to solve (0 = the world's time_step; it
 * matters only for agents that already overlap). Writes up to cap lines;
 * returns the number of lines, or a negative rvo_status. */
RVO_API int32_t rvo_agent_orca_lines(rvo_world *w, rvo_agent_id id, float dt, float *out, int32_t cap,
                                     int32_t *num_obstacle);

/* ---- two-way door lanes (src/door.c) --------------------------------------
 * A path-follower helper: where a path goes through a door, it turns the
 * agent's next target into the point to head for now, so that two flows
 * through one door keep to their right halves and pass each other instead
 * of pressing into the opening across its whole width (a deadlock ORCA
 * cannot resolve). Needs no world; call it every frame before setting the
 * preferred velocities, with every agent that may use the door.
 *
 * The door: the opening from jamb a to jamb b on the wall's centre line.
 * An agent uses it when its target lies beyond the wall (more than half
 * the thickness from the centre line) and the agent is at most `reach`
 * before the wall's centre, its straight way to the target crossing the
 * centre line within `depth` of the opening (not at another door of the
 * wall), or in or past the wall within `widen` of the opening's ends and
 * not yet `depth` past its far face. Then, with h half the opening and r
 * the agent's radius:
 *   - from `depth` before the near face to `depth` past the far face (or
 *     its target, if nearer) its centre keeps between h / 2 and h - r to
 *     the right of the centre line, `widen` more to the right outside the
 *     wall: a lane each way while agents use the door in both directions
 *     (one flow alone, or a door narrower than 4 r, has one lane: the
 *     whole opening less r at each jamb). The path through those cross
 *     sections is string-pulled, so the returned point is a corner to pass
 *     at full speed, or the target itself;
 *   - with two lanes, an agent left of the centre line before the wall
 *     (on the other flow's side) heads for its lane behind the last agent
 *     of its own flow on the right side before the wall (2 r + 0.2 m
 *     behind it). */
typedef struct rvo_door {
    rvo_vec2 a, b;   /* the opening's ends (jambs) [m] [finite, a != b] */
    float thickness; /* of the wall [m] [Limit: >= 0] */
    float depth;     /* lanes run this far beyond each face [m] [Limit: > 0] (2) */
    float widen;     /* outside the wall they widen this much to the right [m] [Limit: >= 0] (1) */
    float reach;     /* agents this far before the wall's centre use the door [m] [Limit: > 0] (8) */
} rvo_door;

/* A door with the defaults (depth 2, widen 1, reach 8). */
RVO_API rvo_door rvo_door_make(float ax, float ay, float bx, float by, float thickness);
/* For n agents at pos (x, y pairs) with radius (n values, > 0) heading for
 * target (x, y pairs: the goal or the next path corner): writes into out
 * (x, y pairs) the point each should head for now, the target itself (bit
 * for bit) when the door does not steer it. Returns how many it steered, or
 * RVO_ERR_INVALID_ARGUMENT (err, when not NULL, says why; out untouched).
 * Deterministic; cost O(n). */
RVO_API int32_t rvo_door_steer(const rvo_door *door, int32_t n, const float *pos, const float *radius,
                               const float *target, float *out, rvo_error *err);

/* ---- navmesh outline (feature: navmesh; src/nav/outline.c) --------------
 * Turns the walkable area of a 2D polygon mesh (a navmesh seen from above)
 * into closed loops ready for rvo_world_add_obstacle: each outer boundary
 * clockwise (an enclosure that keeps agents inside), each hole
 * counter-clockwise (a solid obstacle). Needs no world and no Recast. */

typedef struct rvo_outline rvo_outline;

/* xy: nverts points (x, y) [finite, |c| <= 1e9]; polys: npolys polygons of
 * verts_per_poly [3..32] 0-based vertex indices each, a polygon with fewer
 * vertices padded at its end with -1. Faces may wind either way; faces
 * without area are skipped. epsilon [m] [Limit: >= 0, finite]: vertices
 * closer than it are one vertex, a vertex within it of another face's edge
 * splits that edge (T-junctions), and loop points within it of the line
 * through their neighbours are dropped. Returns NULL on error (err, when
 * not NULL, says why; RVO_ERR_DEGENERATE for an empty mesh, overlapping
 * faces or a mesh without area). */
RVO_API rvo_outline *rvo_outline_build(const float *xy, int32_t nverts, const int32_t *polys, int32_t npolys,
                                       int32_t verts_per_poly, float epsilon, rvo_error *err);
RVO_API void rvo_outline_destroy(rvo_outline *o); /* NULL is fine */
RVO_API int32_t rvo_outline_loop_count(const rvo_outline *o);
/* Points of loop i as x0,y0,x1,y1,... (*n pairs; not closed by a repeat),
 * valid until the outline is destroyed; NULL if i is out of range. */
RVO_API const float *rvo_outline_loop(const rvo_outline *o, int32_t i, int32_t *n);
/* 1 when loop i is a hole (counter-clockwise), 0 when an outer boundary
 * (clockwise), -1 if i is out of range. */
RVO_API int rvo_outline_loop_is_hole(const rvo_outline *o, int32_t i);

/* ---- snapshots (src/snapshot.c) ------------------------------------------
 * A snapshot is the whole world as bytes: every agent with all its
 * parameters, velocities, lock, stall time and detour side; obstacles with
 * their ids, z ranges, velocities and the side they were added with; the
 * agents a changed obstacle has yet to push out; both id pools
 * (generations and free lists, so a loaded world issues the ids the
 * original would); time step, thread count, seed, height margin,
 * agent defaults, solver and sampling settings, rvo2_compat; and the phase
 * (a world saved between solve and integrate loads solved, with its new
 * velocities). A loaded world continues bit-identically to the original,
 * on any thread count. The format is versioned and CRC-32 checked, with
 * every number little-endian and floats stored as their bits, so snapshots
 * move between machines. Not stored: the allocator and other host hooks. */

/* Writes w's snapshot into buf if it fits in cap bytes, and returns its size
 * either way (buf NULL, cap 0 asks for the size). 0 only when w is NULL. */
RVO_API size_t rvo_world_save(const rvo_world *w, void *buf, size_t cap);
/* Rebuilds a world from size bytes of a snapshot into *out. host may be
 * NULL; otherwise only what a snapshot cannot hold is taken from it (alloc,
 * alloc_user, future host hooks); its settings are ignored. Returns RVO_OK,
 * RVO_ERR_INVALID_ARGUMENT for truncated, corrupted, foreign or
 * newer-version data, or RVO_ERR_OUT_OF_MEMORY; on failure *out is NULL
 * (never a partial world) and err says why: "not an rvo snapshot",
 * "snapshot is truncated", "snapshot is corrupted (checksum mismatch)",
 * "snapshot version 9 is not supported (...)". */
RVO_API rvo_status rvo_world_load(const void *data, size_t size, const rvo_world_def *host, rvo_world **out,
                                  rvo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* RVO_H */
