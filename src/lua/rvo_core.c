/*
 * rvo.core — the Lua 5.4 binding of the rvo C core.
 *
 * A world is a full userdata with the metatable "rvo.world". Every function
 * here carries that metatable as upvalue 1, so checking self is a pointer
 * compare, not a registry lookup; the per-agent methods first try a cheaper
 * test, a tag inside the userdata (fast_world). No global state: scratch
 * buffers for the bulk calls belong to each world.
 *
 * Error messages are built here, not by luaL_argerror, so that they do not
 * depend on how a method was called and are identical, character for
 * character, to those of the LuaJIT FFI binding (lua/rvo/ffi.lua):
 *   bad argument #<n> to '<method>' (<why>)      n counts arguments after self
 *   calling '<method>' on bad self
 *   attempt to use a destroyed rvo.world
 *   <method>: <core message>                     errors not tied to an argument
 * The tests in tests/lua run against both bindings and check the text.
 */
#define LUA_LIB
#include <lauxlib.h>
#include <lua.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rvo.h"

#define WORLD_NAME "rvo.world"
#define MT lua_upvalueindex(1)
/* Ids are below 2^53; any other number is the null id, which the core
 * reports as unknown. */
#define ID_LIMIT 9007199254740992.0
/* The checks that raise errors stay out of the per-agent fast paths. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif
/* Marks a world's userdata; see fast_world. */
#define WORLD_TAG 0x72766f2e776f726cull /* "rvo.worl" */

LUAMOD_API int luaopen_rvo_core(lua_State *L);

typedef struct lworld {
    uint64_t tag;          /* WORLD_TAG: the fast self check (fast_world) */
    rvo_world *w;          /* NULL once destroyed */
    float *fbuf;           /* scratch for bulk float data */
    size_t fcap;           /* floats in fbuf */
    rvo_agent_id *ibuf;    /* scratch for id lists */
    size_t icap;           /* ids in ibuf */
} lworld;

/* ---- messages --------------------------------------------------------- */

/* Type name for messages: "nil" for a missing argument (the FFI side cannot
 * tell none from nil), "rvo.world" for a world. */
static const char *type_name(lua_State *L, int idx)
{
    int t = lua_type(L, idx);
    if (t == LUA_TNONE) {
        return "nil";
    }
    if (t == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
        int is_world = lua_rawequal(L, -1, MT);
        lua_pop(L, 1);
        if (is_world) {
            return WORLD_NAME;
        }
    }
    return lua_typename(L, t);
}

static int arg_error(lua_State *L, int arg, const char *fn, const char *why)
{
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fn, why);
}

/* idx is the stack index of the offending value. */
static int type_error(lua_State *L, int arg, const char *fn, const char *expected, int idx)
{
    return luaL_error(L, "bad argument #%d to '%s' (%s expected, got %s)", arg, fn, expected,
                      type_name(L, idx));
}

/* Raise the core's last error. map[k] is the Lua argument of core argument k
 * (k = 1..map_len); NULL maps k to k. */
static NOINLINE int core_error(lua_State *L, const rvo_world *w, rvo_status st, const char *fn,
                      const signed char *map, int map_len)
{
    int arg = rvo_world_last_error_arg(w);
    const char *why = rvo_world_last_error(w);
    if (why == NULL || why[0] == '\0') {
        why = rvo_status_string(st);
    }
    if (map != NULL && arg >= 1 && arg <= map_len) {
        arg = map[arg - 1];
    }
    if (arg > 0) {
        return arg_error(L, arg, fn, why);
    }
    return luaL_error(L, "%s: %s", fn, why);
}

/* ---- argument checks (arg counts after self: stack index arg + 1) ----- */

static NOINLINE lworld *check_world(lua_State *L, const char *fn)
{
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    int ok = 0;
    if (lw != NULL && lua_getmetatable(L, 1)) {
        ok = lua_rawequal(L, -1, MT);
        lua_pop(L, 1);
    }
    if (!ok) {
        luaL_error(L, "calling '%s' on bad self", fn);
    }
    if (lw->w == NULL) {
        luaL_error(L, "attempt to use a destroyed " WORLD_NAME);
    }
    return lw;
}

static NOINLINE double check_num(lua_State *L, int arg, const char *fn)
{
    if (lua_type(L, arg + 1) != LUA_TNUMBER) {
        type_error(L, arg, fn, "number", arg + 1);
    }
    return (double)lua_tonumber(L, arg + 1);
}

static double opt_num(lua_State *L, int arg, const char *fn, double def)
{
    if (lua_isnoneornil(L, arg + 1)) {
        return def;
    }
    return check_num(L, arg, fn);
}

static rvo_agent_id num_to_id(double v)
{
    if (v >= 0 && v < ID_LIMIT && floor(v) == v) {
        return (rvo_agent_id)v;
    }
    return 0;
}

static NOINLINE rvo_agent_id check_id(lua_State *L, int arg, const char *fn)
{
    if (lua_type(L, arg + 1) != LUA_TNUMBER) {
        type_error(L, arg, fn, "number", arg + 1);
    }
    if (lua_isinteger(L, arg + 1)) {
        lua_Integer i = lua_tointeger(L, arg + 1);
        return (i >= 0 && (double)i < ID_LIMIT) ? (rvo_agent_id)i : 0;
    }
    return num_to_id((double)lua_tonumber(L, arg + 1));
}

/* ---- fast paths of the per-agent methods ------------------------------
 * A script calls these once per agent per frame, so each saves Lua API
 * calls (the whole binding cost per call measured with callgrind, see the
 * README's Performance section). Anything unusual goes to the checks above,
 * which raise the same messages. */

/* self: a full userdata of exactly lworld's size (lua_rawlen is 0 for light
 * userdata and other types) that starts with WORLD_TAG and is not destroyed.
 * Lua code cannot write a userdata's bytes, so only C code could forge the
 * tag; the metatable compare of check_world costs three more API calls. */
static inline lworld *fast_world(lua_State *L, const char *fn)
{
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    if (lw != NULL && lua_rawlen(L, 1) == sizeof *lw && lw->tag == WORLD_TAG && lw->w != NULL) {
        return lw;
    }
    return check_world(L, fn);
}

/* id: an integer (what add_agent returns) in one test. */
static inline rvo_agent_id fast_id(lua_State *L, const char *fn)
{
    if (lua_isinteger(L, 2)) {
        lua_Integer i = lua_tointegerx(L, 2, NULL);
        return (i >= 0 && (double)i < ID_LIMIT) ? (rvo_agent_id)i : 0;
    }
    return check_id(L, 1, fn);
}

static inline double fast_num(lua_State *L, int arg, const char *fn)
{
    if (lua_type(L, arg + 1) == LUA_TNUMBER) {
        return (double)lua_tonumberx(L, arg + 1, NULL);
    }
    return check_num(L, arg, fn);
}

static void push_id(lua_State *L, uint64_t id)
{
    lua_pushinteger(L, (lua_Integer)id);
}

/* Optional table argument: 1 if given, 0 if nil/absent. */
static int opt_table(lua_State *L, int arg, const char *fn)
{
    int t = lua_type(L, arg + 1);
    if (t == LUA_TNIL || t == LUA_TNONE) {
        return 0;
    }
    if (t != LUA_TTABLE) {
        type_error(L, arg, fn, "table", arg + 1);
    }
    return 1;
}

static void check_table(lua_State *L, int arg, const char *fn)
{
    if (lua_type(L, arg + 1) != LUA_TTABLE) {
        type_error(L, arg, fn, "table", arg + 1);
    }
}

/* ---- scratch buffers -------------------------------------------------- */

static float *floats(lua_State *L, lworld *lw, size_t n)
{
    if (n > lw->fcap || lw->fbuf == NULL) {
        size_t cap = lw->fcap * 2 > n ? lw->fcap * 2 : n;
        float *p;
        if (cap < 64) {
            cap = 64;
        }
        p = (float *)realloc(lw->fbuf, cap * sizeof *p);
        if (p == NULL) {
            luaL_error(L, "not enough memory");
        }
        lw->fbuf = p;
        lw->fcap = cap;
    }
    return lw->fbuf;
}

static rvo_agent_id *ids(lua_State *L, lworld *lw, size_t n)
{
    if (n > lw->icap || lw->ibuf == NULL) {
        size_t cap = lw->icap * 2 > n ? lw->icap * 2 : n;
        rvo_agent_id *p;
        if (cap < 64) {
            cap = 64;
        }
        p = (rvo_agent_id *)realloc(lw->ibuf, cap * sizeof *p);
        if (p == NULL) {
            luaL_error(L, "not enough memory");
        }
        lw->ibuf = p;
        lw->icap = cap;
    }
    return lw->ibuf;
}

/* Nil out t[from], t[from+1], ... up to the first nil, so that a reused
 * buffer ends where the new data ends. */
static void clear_tail(lua_State *L, int t, lua_Integer from)
{
    while (lua_geti(L, t, from) != LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_seti(L, t, from);
        from++;
    }
    lua_pop(L, 1);
}

/* ---- parameter tables ------------------------------------------------- */

/* Reject unknown fields of the table at stack index idx. Deterministic on
 * any table traversal order: a non-string key wins (the smallest type
 * name), otherwise the smallest unknown name is reported. */
static void check_fields(lua_State *L, int idx, const char *const *known, int params_too, int arg,
                         const char *fn)
{
    const char *bad_type = NULL;
    const char *bad_name = NULL;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1); /* value */
        if (lua_type(L, -1) != LUA_TSTRING) {
            const char *tn = type_name(L, -1);
            if (bad_type == NULL || strcmp(tn, bad_type) < 0) {
                bad_type = tn;
            }
        } else {
            const char *k = lua_tostring(L, -1);
            int i, found = 0;
            for (i = 0; known[i] != NULL; i++) {
                if (strcmp(k, known[i]) == 0) {
                    found = 1;
                    break;
                }
            }
            if (!found && params_too && rvo_param_from_name(k) >= 0) {
                found = 1;
            }
            /* k stays valid: the table holds the string. */
            if (!found && (bad_name == NULL || strcmp(k, bad_name) < 0)) {
                bad_name = k;
            }
        }
    }
    if (bad_type != NULL) {
        lua_pushfstring(L, "field names must be strings, got %s", bad_type);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    if (bad_name != NULL) {
        lua_pushfstring(L, "unknown field '%s'", bad_name);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
}

/* Reads number field key of the table at idx into *out; 0 if absent. */
static int field_num(lua_State *L, int idx, const char *key, int arg, const char *fn, double *out)
{
    int t = lua_getfield(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t != LUA_TNUMBER) {
        lua_pushfstring(L, "field '%s': number expected, got %s", key, type_name(L, -1));
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    *out = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    return 1;
}

/* An integral number, clamped to int32 so the core judges the range. */
static int field_int(lua_State *L, int idx, const char *key, int arg, const char *fn, int32_t *out)
{
    double v;
    if (!field_num(L, idx, key, arg, fn, &v)) {
        return 0;
    }
    /* The same words as the core's check of the double it cannot see. */
    if (!isfinite(v)) {
        lua_pushfstring(L, "%s must be finite", key);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    if (floor(v) != v) {
        lua_pushfstring(L, "%s must be an integer", key);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    if (v > 2147483647.0) {
        v = 2147483647.0;
    } else if (v < -2147483648.0) {
        v = -2147483648.0;
    }
    *out = (int32_t)v;
    return 1;
}

/* new_world also takes every rvo_param (weight, groups, ...) as an agent
 * default: check_fields is called with params_too. */
static const char *const world_fields[] = {
    "time_step", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "radius",    "max_speed",     "threads",       "seed",         "height_margin",
    "solver",    "rvo2_compat",   NULL};

static const char *const agent_fields[] = {
    "radius", "max_speed", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "vx",     "vy",        "pvx",           "pvy",           NULL};

/* The agent fields that rvo_agent_def holds (others go through set_param). */
static int is_def_field(const char *name)
{
    int i;
    for (i = 0; agent_fields[i] != NULL; i++) {
        if (strcmp(name, agent_fields[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static void float_field(lua_State *L, int idx, const char *key, int arg, const char *fn, float *dst)
{
    double v;
    if (field_num(L, idx, key, arg, fn, &v)) {
        *dst = (float)v;
    }
}

/* The agent fields shared by new_world and add_agent, in message order. */
static void agent_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a)
{
    float_field(L, idx, "radius", arg, fn, &a->radius);
    float_field(L, idx, "max_speed", arg, fn, &a->max_speed);
    float_field(L, idx, "neighbor_dist", arg, fn, &a->neighbor_dist);
    field_int(L, idx, "max_neighbors", arg, fn, &a->max_neighbors);
    float_field(L, idx, "time_horizon", arg, fn, &a->time_horizon);
    float_field(L, idx, "time_horizon_obst", arg, fn, &a->time_horizon_obst);
}

/* The parameters rvo_agent_def has no Lua field for (weight, groups, mask,
 * z, height, ...), read by name and stored through the core, which checks
 * them, in rvo_param order. Shared by new_world and add_agent. */
static void param_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a)
{
    int p;
    for (p = 0; p < RVO_PARAM_COUNT; p++) {
        const char *name = rvo_param_name((rvo_param)p);
        double v;
        if (name != NULL && !is_def_field(name) && field_num(L, idx, name, arg, fn, &v)) {
            const char *why = rvo_agent_def_set(a, (rvo_param)p, v);
            if (why != NULL) {
                arg_error(L, arg, fn, why);
            }
        }
    }
}

/* ---- solvers ---------------------------------------------------------- */

/* The solver named by the string at stack index idx, or raises
 * "unknown solver 'x' (expected orca, ue or rvo)" (names from the core). */
static rvo_solver solver_of(lua_State *L, int idx, int arg, const char *fn)
{
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    /* a name with an embedded zero is no name (the FFI binding agrees) */
    int s = strlen(name) == len ? rvo_solver_from_name(name) : -1;
    if (s < 0) {
        luaL_Buffer b;
        int k, n = 0;
        while (rvo_solver_name((rvo_solver)n) != NULL) {
            n++;
        }
        luaL_buffinit(L, &b);
        lua_pushfstring(L, "unknown solver '%s' (expected ", name);
        luaL_addvalue(&b);
        for (k = 0; k < n; k++) {
            if (k > 0) {
                luaL_addstring(&b, k == n - 1 ? " or " : ", ");
            }
            luaL_addstring(&b, rvo_solver_name((rvo_solver)k));
        }
        luaL_addchar(&b, ')');
        luaL_pushresult(&b);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    return (rvo_solver)s;
}

/* ---- module functions ------------------------------------------------- */

static int l_new_world(lua_State *L)
{
    static const char fn[] = "new_world";
    rvo_world_def def = rvo_default_world_def();
    rvo_solver solver = RVO_SOLVER_ORCA;
    int compat = 0;
    const char *why;
    lworld *lw;
    /* new_world is not a method: its table is argument #1 at index 1. */
    int t = lua_type(L, 1);
    if (t != LUA_TNIL && t != LUA_TNONE) {
        double v;
        if (t != LUA_TTABLE) {
            luaL_error(L, "bad argument #1 to '%s' (table expected, got %s)", fn, type_name(L, 1));
        }
        check_fields(L, 1, world_fields, 1, 1, fn);
        float_field(L, 1, "time_step", 1, fn, &def.time_step);
        agent_fields_read(L, 1, 1, fn, &def.agent);
        field_int(L, 1, "threads", 1, fn, &def.threads);
        if (field_num(L, 1, "seed", 1, fn, &v)) {
            if (!(v >= 0 && v <= ID_LIMIT && floor(v) == v)) {
                arg_error(L, 1, fn, "seed must be an integer in 0..2^53");
            }
            def.seed = (uint64_t)v;
        }
        param_fields_read(L, 1, 1, fn, &def.agent);
        float_field(L, 1, "height_margin", 1, fn, &def.height_margin);
        t = lua_getfield(L, 1, "solver");
        if (t == LUA_TSTRING) {
            solver = solver_of(L, -1, 1, fn);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'solver': string expected, got %s", type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        t = lua_getfield(L, 1, "rvo2_compat");
        if (t == LUA_TBOOLEAN) {
            compat = lua_toboolean(L, -1);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'rvo2_compat': boolean expected, got %s", type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
    }
    why = rvo_world_def_check(&def);
    if (why != NULL) {
        arg_error(L, 1, fn, why);
    }
    lw = (lworld *)lua_newuserdatauv(L, sizeof *lw, 0);
    memset(lw, 0, sizeof *lw);
    lw->tag = WORLD_TAG;
    lua_pushvalue(L, MT);
    lua_setmetatable(L, -2);
    lw->w = rvo_world_create(&def);
    if (lw->w == NULL) {
        luaL_error(L, "%s: not enough memory", fn);
    }
    if (solver != RVO_SOLVER_ORCA && rvo_world_set_solver(lw->w, solver) != RVO_OK) {
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, NULL, 0);
    }
    rvo_world_set_rvo2_compat(lw->w, compat != 0);
    return 1;
}

/* ---- lifetime --------------------------------------------------------- */

static void world_free(lworld *lw)
{
    rvo_world_destroy(lw->w);
    lw->w = NULL;
    free(lw->fbuf);
    lw->fbuf = NULL;
    lw->fcap = 0;
    free(lw->ibuf);
    lw->ibuf = NULL;
    lw->icap = 0;
}

/* Self check without the destroyed check. */
static lworld *check_self(lua_State *L, const char *fn)
{
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    int ok = 0;
    if (lw != NULL && lua_getmetatable(L, 1)) {
        ok = lua_rawequal(L, -1, MT);
        lua_pop(L, 1);
    }
    if (!ok) {
        luaL_error(L, "calling '%s' on bad self", fn);
    }
    return lw;
}

static int l_destroy(lua_State *L)
{
    world_free(check_self(L, "destroy"));
    return 0;
}

static int l_is_destroyed(lua_State *L)
{
    lua_pushboolean(L, check_self(L, "is_destroyed")->w == NULL);
    return 1;
}

static int l_gc(lua_State *L)
{
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    if (lw != NULL) {
        world_free(lw);
    }
    return 0;
}

static int l_tostring(lua_State *L)
{
    lworld *lw = check_self(L, "__tostring");
    if (lw->w == NULL) {
        lua_pushliteral(L, WORLD_NAME " (destroyed)");
    } else {
        lua_pushfstring(L, WORLD_NAME " (%d agents)", (int)rvo_world_agent_count(lw->w));
    }
    return 1;
}

/* ---- world ------------------------------------------------------------ */

static int l_time_step(lua_State *L)
{
    lworld *lw = check_world(L, "time_step");
    lua_pushnumber(L, (lua_Number)rvo_world_time_step(lw->w));
    return 1;
}

static int l_set_time_step(lua_State *L)
{
    static const char fn[] = "set_time_step";
    lworld *lw = check_world(L, fn);
    double dt = check_num(L, 1, fn);
    rvo_status st = rvo_world_set_time_step(lw->w, (float)dt);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_step(lua_State *L)
{
    static const char fn[] = "step";
    lworld *lw = check_world(L, fn);
    rvo_status st;
    if (lua_isnoneornil(L, 2)) {
        st = rvo_world_step(lw->w, 0.0f);
    } else {
        double dt = check_num(L, 1, fn);
        /* In C, dt == 0 means "the world's time_step"; from Lua an explicit
         * 0 is a mistake (a paused game must not move), so let the core
         * reject it as solve would. */
        st = dt == 0 ? rvo_world_solve(lw->w, 0.0f) : rvo_world_step(lw->w, (float)dt);
    }
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* solve and integrate: dt defaults to the world's time_step. */
static int run_phase(lua_State *L, const char *fn, rvo_status (*run)(rvo_world *, float))
{
    lworld *lw = check_world(L, fn);
    double dt = opt_num(L, 1, fn, (double)rvo_world_time_step(lw->w));
    rvo_status st = run(lw->w, (float)dt);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_solve(lua_State *L)
{
    return run_phase(L, "solve", rvo_world_solve);
}

static int l_integrate(lua_State *L)
{
    return run_phase(L, "integrate", rvo_world_integrate);
}

static int l_is_solved(lua_State *L)
{
    lworld *lw = check_world(L, "is_solved");
    lua_pushboolean(L, rvo_world_is_solved(lw->w));
    return 1;
}

static int l_solver(lua_State *L)
{
    lworld *lw = check_world(L, "solver");
    lua_pushstring(L, rvo_solver_name(rvo_world_solver(lw->w)));
    return 1;
}

static int l_set_solver(lua_State *L)
{
    static const char fn[] = "set_solver";
    lworld *lw = check_world(L, fn);
    rvo_solver solver;
    rvo_status st;
    if (lua_type(L, 2) != LUA_TSTRING) {
        type_error(L, 1, fn, "string", 2);
    }
    solver = solver_of(L, 2, 1, fn);
    st = rvo_world_set_solver(lw->w, solver);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* set_sampling(samples, penalty_weight): the sampling RVO solver's knobs. */
static int l_set_sampling(lua_State *L)
{
    static const char fn[] = "set_sampling";
    lworld *lw = check_world(L, fn);
    double n = check_num(L, 1, fn);
    double pw = check_num(L, 2, fn);
    rvo_status st;
    /* An integral number, clamped to int32 so that the core judges the range
     * (the words of field_int). */
    if (!isfinite(n)) {
        arg_error(L, 1, fn, "samples must be finite");
    }
    if (floor(n) != n) {
        arg_error(L, 1, fn, "samples must be an integer");
    }
    if (n > 2147483647.0) {
        n = 2147483647.0;
    } else if (n < -2147483648.0) {
        n = -2147483648.0;
    }
    /* core: samples = 1, penalty_weight = 2, as in Lua */
    st = rvo_world_set_sampling(lw->w, (int32_t)n, (float)pw);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* ---- agents ----------------------------------------------------------- */

static int l_add_agent(lua_State *L)
{
    static const char fn[] = "add_agent";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    rvo_agent_id id;
    if (opt_table(L, 3, fn)) {
        rvo_agent_def def = rvo_world_agent_defaults(lw->w);
        check_fields(L, 4, agent_fields, 1, 3, fn);
        agent_fields_read(L, 4, 3, fn, &def);
        float_field(L, 4, "vx", 3, fn, &def.velocity.x);
        float_field(L, 4, "vy", 3, fn, &def.velocity.y);
        float_field(L, 4, "pvx", 3, fn, &def.pref_velocity.x);
        float_field(L, 4, "pvy", 3, fn, &def.pref_velocity.y);
        param_fields_read(L, 4, 3, fn, &def);
        id = rvo_world_add_agent(lw->w, (float)x, (float)y, &def);
    } else {
        id = rvo_world_add_agent(lw->w, (float)x, (float)y, NULL);
    }
    if (id == 0) {
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, NULL, 0);
    }
    push_id(L, id);
    return 1;
}

static int l_remove_agent(lua_State *L)
{
    static const char fn[] = "remove_agent";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    rvo_status st = rvo_world_remove_agent(lw->w, id);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int valid_common(lua_State *L, const char *fn)
{
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    lua_pushboolean(L, id != 0 && rvo_world_agent_valid(lw->w, id));
    return 1;
}

static int l_is_valid(lua_State *L)
{
    return valid_common(L, "is_valid");
}

static int l_agent_valid(lua_State *L)
{
    return valid_common(L, "agent_valid");
}

static int l_agent_count(lua_State *L)
{
    lworld *lw = check_world(L, "agent_count");
    lua_pushinteger(L, (lua_Integer)rvo_world_agent_count(lw->w));
    return 1;
}

/* ---- per-agent vectors ------------------------------------------------ */

typedef rvo_status vec_get_fn(const rvo_world *w, rvo_agent_id id, rvo_vec2 *out);
typedef rvo_status vec_set_fn(rvo_world *w, rvo_agent_id id, float x, float y);

static inline int vec_get(lua_State *L, const char *fn, vec_get_fn *get)
{
    lworld *lw = fast_world(L, fn);
    rvo_agent_id id = fast_id(L, fn);
    rvo_vec2 v;
    rvo_status st = get(lw->w, id, &v);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    lua_pushnumber(L, (lua_Number)v.x);
    lua_pushnumber(L, (lua_Number)v.y);
    return 2;
}

static inline int vec_set(lua_State *L, const char *fn, vec_set_fn *set)
{
    lworld *lw = fast_world(L, fn);
    rvo_agent_id id = fast_id(L, fn);
    double x = fast_num(L, 2, fn);
    double y = fast_num(L, 3, fn);
    rvo_status st = set(lw->w, id, (float)x, (float)y);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_position(lua_State *L)
{
    return vec_get(L, "position", rvo_agent_get_position);
}
static int l_set_position(lua_State *L)
{
    return vec_set(L, "set_position", rvo_agent_set_position);
}
static int l_velocity(lua_State *L)
{
    return vec_get(L, "velocity", rvo_agent_get_velocity);
}
static int l_set_velocity(lua_State *L)
{
    return vec_set(L, "set_velocity", rvo_agent_set_velocity);
}
static int l_pref_velocity(lua_State *L)
{
    return vec_get(L, "pref_velocity", rvo_agent_get_pref_velocity);
}
static int l_set_pref_velocity(lua_State *L)
{
    return vec_set(L, "set_pref_velocity", rvo_agent_set_pref_velocity);
}
static int l_new_velocity(lua_State *L)
{
    return vec_get(L, "new_velocity", rvo_agent_get_new_velocity);
}
static int l_set_new_velocity(lua_State *L)
{
    return vec_set(L, "set_new_velocity", rvo_agent_set_new_velocity);
}

/* ---- game semantics: locks, the avoiding report, height --------------- */

static int l_lock(lua_State *L)
{
    /* core: id = 1, vx = 2, vy = 3, as in Lua */
    return vec_set(L, "lock", rvo_agent_lock);
}

static int l_unlock(lua_State *L)
{
    static const char fn[] = "unlock";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    rvo_status st = rvo_agent_unlock(lw->w, id);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_is_locked(lua_State *L)
{
    static const char fn[] = "is_locked";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    int r = rvo_agent_is_locked(lw->w, id);
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    lua_pushboolean(L, r > 0);
    return 1;
}

static int push_id_list(lua_State *L, const rvo_agent_id *buf, int32_t n, int buf_arg, int has_buf);

static int l_avoiding(lua_State *L)
{
    static const char fn[] = "avoiding";
    lworld *lw = check_world(L, fn);
    double tol = opt_num(L, 1, fn, 1e-4);
    int has_buf = opt_table(L, 2, fn);
    int32_t cap = rvo_world_agent_count(lw->w);
    rvo_agent_id *buf = ids(L, lw, (size_t)cap);
    /* at most every agent: one call is enough */
    int32_t n = rvo_world_avoiding(lw->w, (float)tol, buf, cap);
    if (n < 0) {
        /* core: tolerance = 1, out = 2 (the buffer) */
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > cap) {
        n = cap;
    }
    lua_settop(L, 3); /* tolerance and buf at their places, even when absent */
    return push_id_list(L, buf, n, 2, has_buf);
}

static int l_set_rvo2_compat(lua_State *L)
{
    static const char fn[] = "set_rvo2_compat";
    lworld *lw = check_world(L, fn);
    if (lua_type(L, 2) != LUA_TBOOLEAN) {
        luaL_error(L, "bad argument #1 to '%s' (boolean expected, got %s)", fn, type_name(L, 2));
    }
    rvo_world_set_rvo2_compat(lw->w, lua_toboolean(L, 2));
    return 0;
}

static int l_rvo2_compat(lua_State *L)
{
    lworld *lw = check_world(L, "rvo2_compat");
    lua_pushboolean(L, rvo_world_rvo2_compat(lw->w));
    return 1;
}

static int l_set_height_margin(lua_State *L)
{
    static const char fn[] = "set_height_margin";
    lworld *lw = check_world(L, fn);
    double m = check_num(L, 1, fn);
    rvo_status st = rvo_world_set_height_margin(lw->w, (float)m);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

/* ---- strict overlap (issue 6) ------------------------------------------ */

static int l_set_strict_overlap(lua_State *L)
{
    static const char fn[] = "set_strict_overlap";
    lworld *lw = check_world(L, fn);
    if (lua_type(L, 2) != LUA_TBOOLEAN) {
        luaL_error(L, "bad argument #1 to '%s' (boolean expected, got %s)", fn, type_name(L, 2));
    }
    rvo_world_set_strict_overlap(lw->w, lua_toboolean(L, 2));
    return 0;
}

static int l_strict_overlap(lua_State *L)
{
    lworld *lw = check_world(L, "strict_overlap");
    lua_pushboolean(L, rvo_world_strict_overlap(lw->w));
    return 1;
}

/* ---- stall events (issue 6): threshold, bulk query, per-agent time ---- */

static int l_set_stall_threshold(lua_State *L)
{
    static const char fn[] = "set_stall_threshold";
    lworld *lw = check_world(L, fn);
    double progress = check_num(L, 1, fn);
    double min_time = check_num(L, 2, fn);
    rvo_status st = rvo_world_set_stall_threshold(lw->w, (float)progress, (float)min_time);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_stall_threshold(lua_State *L)
{
    lworld *lw = check_world(L, "stall_threshold");
    float progress, min_time;
    rvo_world_stall_threshold(lw->w, &progress, &min_time);
    lua_pushnumber(L, (lua_Number)progress);
    lua_pushnumber(L, (lua_Number)min_time);
    return 2;
}

/* world:stalled([ids [, times]]): without ids returns ids, times, n (times
 * is the table given, filled, or a new one); with ids fills them (times only
 * when given) and returns n. */
static int l_stalled(lua_State *L)
{
    static const char fn[] = "stalled";
    lworld *lw = check_world(L, fn);
    int has_ids = opt_table(L, 1, fn);
    int has_times = opt_table(L, 2, fn);
    int32_t cap = rvo_world_agent_count(lw->w);
    rvo_agent_id *ib = ids(L, lw, (size_t)cap);
    float *tb = floats(L, lw, (size_t)cap);
    int32_t n = rvo_world_stalled(lw->w, ib, tb, cap), i;
    int ti, tt;
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > cap) {
        n = cap;
    }
    lua_settop(L, 3);
    if (has_ids) {
        ti = 2;
    } else {
        lua_createtable(L, n, 0);
        ti = lua_gettop(L);
    }
    if (has_times || !has_ids) {
        if (has_times) {
            tt = 3;
        } else {
            lua_createtable(L, n, 0);
            tt = lua_gettop(L);
        }
        for (i = 0; i < n; i++) {
            lua_pushnumber(L, (lua_Number)tb[i]);
            lua_seti(L, tt, (lua_Integer)i + 1);
        }
        clear_tail(L, tt, (lua_Integer)n + 1);
    }
    for (i = 0; i < n; i++) {
        push_id(L, ib[i]);
        lua_seti(L, ti, (lua_Integer)i + 1);
    }
    clear_tail(L, ti, (lua_Integer)n + 1);
    lua_pushinteger(L, n);
    if (has_ids) {
        return 1;
    }
    lua_pushvalue(L, ti);
    lua_pushvalue(L, tt);
    lua_pushinteger(L, n);
    return 3; /* ids, times, n */
}

static int l_stall_time(lua_State *L)
{
    static const char fn[] = "stall_time";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    float t = 0;
    rvo_status st = rvo_agent_get_stall_time(lw->w, id, &t);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    lua_pushnumber(L, (lua_Number)t);
    return 1;
}

/* ---- per-agent parameters: closures (mt, param, name [, is_int]) ------ */

/* Parameters whose values are integers: returned as Lua integers. */
static int is_int_param(const char *name)
{
    return strcmp(name, "max_neighbors") == 0 || strcmp(name, "groups") == 0 || strcmp(name, "mask") == 0;
}

static int l_get_param(lua_State *L)
{
    const char *fn = lua_tostring(L, lua_upvalueindex(3));
    rvo_param p = (rvo_param)lua_tointeger(L, lua_upvalueindex(2));
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double v = 0;
    rvo_status st = rvo_agent_get_param(lw->w, id, p, &v);
    if (st != RVO_OK) {
        static const signed char map[] = {1, 0, 0};
        core_error(L, lw->w, st, fn, map, 3);
    }
    if (lua_toboolean(L, lua_upvalueindex(4))) {
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        lua_pushnumber(L, (lua_Number)v);
    }
    return 1;
}

static int l_set_param(lua_State *L)
{
    const char *fn = lua_tostring(L, lua_upvalueindex(3));
    rvo_param p = (rvo_param)lua_tointeger(L, lua_upvalueindex(2));
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double v = check_num(L, 2, fn);
    /* The core checks the value (finite, range, integral max_neighbors). */
    rvo_status st = rvo_agent_set_param(lw->w, id, p, v);
    if (st != RVO_OK) {
        /* core: id = 1, param = 2, value = 3 */
        static const signed char map[] = {1, 0, 2};
        core_error(L, lw->w, st, fn, map, 3);
    }
    return 0;
}

/* ---- bulk ------------------------------------------------------------- */

static int l_ids(lua_State *L)
{
    static const char fn[] = "ids";
    lworld *lw = check_world(L, fn);
    int has_buf = opt_table(L, 1, fn);
    int32_t n = rvo_world_agent_count(lw->w), got, i;
    rvo_agent_id *buf = ids(L, lw, (size_t)n);
    got = rvo_world_agent_ids(lw->w, buf, n);
    if (got < n) {
        n = got < 0 ? 0 : got;
    }
    if (!has_buf) {
        lua_settop(L, 1);
        lua_createtable(L, n, 0);
    }
    for (i = 0; i < n; i++) {
        push_id(L, buf[i]);
        lua_seti(L, 2, (lua_Integer)i + 1);
    }
    clear_tail(L, 2, (lua_Integer)n + 1);
    lua_pushinteger(L, n);
    return has_buf ? 1 : 2;
}

typedef int32_t bulk_get_fn(const rvo_world *w, float *xy, int32_t n);
typedef rvo_status bulk_set_fn(rvo_world *w, const float *xy, int32_t n);

#define BULK_BATCH 16

static int bulk_get(lua_State *L, const char *fn, bulk_get_fn *get)
{
    lworld *lw = check_world(L, fn);
    int has_buf = opt_table(L, 1, fn);
    int32_t n = rvo_world_agent_count(lw->w), got;
    lua_Integer i, m;
    float *buf = floats(L, lw, 2 * (size_t)n);
    got = get(lw->w, buf, n);
    if (got < 0) {
        static const signed char map[] = {1, 1};
        core_error(L, lw->w, (rvo_status)got, fn, map, 2);
    }
    if (got < n) {
        n = got;
    }
    m = 2 * (lua_Integer)n;
    if (!has_buf) {
        lua_settop(L, 1);
        lua_createtable(L, (int)m, 0);
    }
    for (i = 0; i < m; i++) {
        lua_pushnumber(L, (lua_Number)buf[i]);
        lua_seti(L, 2, i + 1);
    }
    clear_tail(L, 2, m + 1);
    lua_pushinteger(L, n);
    return has_buf ? 1 : 2;
}

/* The length of the list at idx: its elements before the first nil. Lua's
 * # may answer any border of a table with holes, and Lua 5.4 and LuaJIT
 * pick different ones; this is the same on both bindings (ffi.lua's
 * list_len). `len` is lua_rawlen's border, the answer when there is no hole. */
static lua_Integer list_len(lua_State *L, int idx, lua_Integer len)
{
    lua_Integer n = 0;
    while (n < len) {
        int t = lua_rawgeti(L, idx, n + 1);
        lua_pop(L, 1);
        if (t == LUA_TNIL) {
            break;
        }
        n++;
    }
    return n;
}

static int bulk_set(lua_State *L, const char *fn, bulk_set_fn *set)
{
    lworld *lw = check_world(L, fn);
    int32_t n;
    lua_Integer len, i;
    float *buf;
    rvo_status st;
    check_table(L, 1, fn);
    n = rvo_world_agent_count(lw->w);
    len = (lua_Integer)lua_rawlen(L, 2);
    if (len != 2 * (lua_Integer)n) {
        len = list_len(L, 2, len);
    }
    if (len != 2 * (lua_Integer)n) {
        lua_pushfstring(L, "expected %I numbers (2 per agent), got %I", (lua_Integer)(2 * (lua_Integer)n), len);
        arg_error(L, 1, fn, lua_tostring(L, -1));
    }
    buf = floats(L, lw, (size_t)len);
    /* BULK_BATCH values on the stack at a time: one pop per batch */
    luaL_checkstack(L, BULK_BATCH + 4, "too many values");
    for (i = 0; i < len; i += BULK_BATCH) {
        int top = lua_gettop(L), j, b = len - i < BULK_BATCH ? (int)(len - i) : BULK_BATCH;
        for (j = 0; j < b; j++) {
            int t = lua_geti(L, 2, i + j + 1);
            if (t == LUA_TNIL) { /* a hole: the list ends before it */
                lua_pushfstring(L, "expected %I numbers (2 per agent), got %I", len, i + j);
                arg_error(L, 1, fn, lua_tostring(L, -1));
            }
            if (t != LUA_TNUMBER) {
                lua_pushfstring(L, "number expected at index %I, got %s", i + j + 1, type_name(L, -1));
                arg_error(L, 1, fn, lua_tostring(L, -1));
            }
        }
        for (j = 0; j < b; j++) {
            buf[i + j] = (float)lua_tonumberx(L, top + 1 + j, NULL);
        }
        lua_settop(L, top);
    }
    st = set(lw->w, buf, n);
    if (st != RVO_OK) {
        static const signed char map[] = {1, 1};
        core_error(L, lw->w, st, fn, map, 2);
    }
    return 0;
}

static int l_positions(lua_State *L)
{
    return bulk_get(L, "positions", rvo_world_get_positions);
}
static int l_velocities(lua_State *L)
{
    return bulk_get(L, "velocities", rvo_world_get_velocities);
}
static int l_new_velocities(lua_State *L)
{
    return bulk_get(L, "new_velocities", rvo_world_get_new_velocities);
}
static int l_set_pref_velocities(lua_State *L)
{
    return bulk_set(L, "set_pref_velocities", rvo_world_set_pref_velocities);
}
static int l_set_new_velocities(lua_State *L)
{
    return bulk_set(L, "set_new_velocities", rvo_world_set_new_velocities);
}

/* ---- performance: zero-copy views --------------------------------------
 * world:positions_view() / velocities_view(): a read-only view v of the
 * world's array, v[2k] and v[2k + 1] (0-based, world order) the x and y of
 * agent k, #v = 2 * agent_count. Each read goes to the world's current
 * array (nothing is copied), so the view is always safe; LuaJIT's views are
 * raw pointers, valid until the next step, add_agent or remove_agent. */
#define VIEW_NAME "rvo.view"

typedef struct lview {
    int velocities; /* 0: positions, 1: velocities */
} lview;

static const float *view_data(lua_State *L, int32_t *count)
{
    lview *v = (lview *)luaL_checkudata(L, 1, VIEW_NAME);
    lworld *lw;
    lua_getiuservalue(L, 1, 1);
    lw = (lworld *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (lw == NULL || lw->w == NULL) {
        luaL_error(L, "attempt to use a destroyed " WORLD_NAME);
    }
    *count = rvo_world_agent_count(lw->w);
    return v->velocities ? rvo_world_velocities_view(lw->w) : rvo_world_positions_view(lw->w);
}

static int l_view_index(lua_State *L)
{
    int32_t count;
    const float *data = view_data(L, &count);
    int isnum;
    lua_Integer k = lua_tointegerx(L, 2, &isnum);
    if (!isnum || lua_type(L, 2) != LUA_TNUMBER || k < 0 || k >= 2 * (lua_Integer)count || data == NULL) {
        lua_pushnil(L);
    } else {
        lua_pushnumber(L, (lua_Number)data[k]);
    }
    return 1;
}

static int l_view_len(lua_State *L)
{
    int32_t count;
    view_data(L, &count);
    lua_pushinteger(L, 2 * (lua_Integer)count);
    return 1;
}

static int make_view(lua_State *L, const char *fn, int velocities)
{
    lview *v;
    check_world(L, fn);
    v = (lview *)lua_newuserdatauv(L, sizeof *v, 1);
    v->velocities = velocities;
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1); /* the view keeps its world alive */
    if (luaL_newmetatable(L, VIEW_NAME)) {
        lua_pushcfunction(L, l_view_index);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_view_len);
        lua_setfield(L, -2, "__len");
    }
    lua_setmetatable(L, -2);
    return 1;
}

static int l_positions_view(lua_State *L)
{
    return make_view(L, "positions_view", 0);
}
static int l_velocities_view(lua_State *L)
{
    return make_view(L, "velocities_view", 1);
}

/* ---- obstacles -------------------------------------------------------- */

static const char *const obstacle_fields[] = {"closed", NULL};

static int l_add_obstacle(lua_State *L)
{
    static const char fn[] = "add_obstacle";
    lworld *lw = check_world(L, fn);
    lua_Integer len, i;
    float *buf;
    int closed = 1;
    rvo_obstacle_id id;
    check_table(L, 1, fn);
    if (opt_table(L, 2, fn)) {
        int t;
        check_fields(L, 3, obstacle_fields, 0, 2, fn);
        t = lua_getfield(L, 3, "closed");
        if (t == LUA_TBOOLEAN) {
            closed = lua_toboolean(L, -1);
        } else if (t != LUA_TNIL) {
            lua_pushfstring(L, "field 'closed': boolean expected, got %s", type_name(L, -1));
            arg_error(L, 2, fn, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
    }
    len = list_len(L, 2, (lua_Integer)lua_rawlen(L, 2));
    if (len % 2 != 0) {
        lua_pushfstring(L, "even number of coordinates expected, got %I", len);
        arg_error(L, 1, fn, lua_tostring(L, -1));
    }
    if (len > 2 * (lua_Integer)RVO_MAX_SLOTS) {
        arg_error(L, 1, fn, "too many points");
    }
    buf = floats(L, lw, (size_t)len);
    for (i = 0; i < len; i++) {
        if (lua_geti(L, 2, i + 1) != LUA_TNUMBER) {
            lua_pushfstring(L, "number expected at index %I, got %s", i + 1, type_name(L, -1));
            arg_error(L, 1, fn, lua_tostring(L, -1));
        }
        buf[i] = (float)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    id = rvo_world_add_obstacle(lw->w, buf, (int32_t)(len / 2), closed != 0);
    if (id == 0) {
        /* core: xy = 1, n = 2, closed = 3 */
        static const signed char map[] = {1, 1, 2};
        core_error(L, lw->w, RVO_ERR_INVALID_ARGUMENT, fn, map, 3);
    }
    push_id(L, id);
    return 1;
}

static int l_remove_obstacle(lua_State *L)
{
    static const char fn[] = "remove_obstacle";
    lworld *lw = check_world(L, fn);
    rvo_obstacle_id id = check_id(L, 1, fn);
    rvo_status st = rvo_world_remove_obstacle(lw->w, id);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_set_obstacle_z_range(lua_State *L)
{
    static const char fn[] = "set_obstacle_z_range";
    lworld *lw = check_world(L, fn);
    rvo_obstacle_id id = check_id(L, 1, fn);
    double zmin = check_num(L, 2, fn);
    double zmax = check_num(L, 3, fn);
    /* core: id = 1, zmin = 2, zmax = 3, as in Lua */
    rvo_status st = rvo_obstacle_set_z_range(lw->w, id, (float)zmin, (float)zmax);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static int l_obstacle_count(lua_State *L)
{
    lworld *lw = check_world(L, "obstacle_count");
    lua_pushinteger(L, (lua_Integer)rvo_world_obstacle_count(lw->w));
    return 1;
}

static int l_obstacle_valid(lua_State *L)
{
    static const char fn[] = "obstacle_valid";
    lworld *lw = check_world(L, fn);
    rvo_obstacle_id id = check_id(L, 1, fn);
    lua_pushboolean(L, id != 0 && rvo_world_obstacle_valid(lw->w, id));
    return 1;
}

/* ---- queries ---------------------------------------------------------- */

/* Push the n ids of buf into the table argument buf_arg (or a new table)
 * and return the Lua results. */
static int push_id_list(lua_State *L, const rvo_agent_id *buf, int32_t n, int buf_arg, int has_buf)
{
    int t;
    int32_t i;
    if (has_buf) {
        t = buf_arg + 1;
    } else {
        lua_createtable(L, n, 0);
        t = lua_gettop(L);
    }
    for (i = 0; i < n; i++) {
        push_id(L, buf[i]);
        lua_seti(L, t, (lua_Integer)i + 1);
    }
    clear_tail(L, t, (lua_Integer)n + 1);
    if (has_buf) {
        lua_pushinteger(L, n);
        return 1;
    }
    lua_pushvalue(L, t);
    lua_pushinteger(L, n);
    return 2;
}

static int l_neighbors(lua_State *L)
{
    static const char fn[] = "neighbors";
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    int has_buf = opt_table(L, 2, fn);
    rvo_agent_id *buf = ids(L, lw, 64);
    int32_t n = rvo_world_query_neighbors(lw->w, id, buf, (int32_t)lw->icap);
    if (n > (int32_t)lw->icap) {
        buf = ids(L, lw, (size_t)n);
        n = rvo_world_query_neighbors(lw->w, id, buf, (int32_t)lw->icap);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > (int32_t)lw->icap) {
        n = (int32_t)lw->icap;
    }
    return push_id_list(L, buf, n, 2, has_buf);
}

static int l_query_radius(lua_State *L)
{
    static const char fn[] = "query_radius";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    double r = check_num(L, 3, fn);
    int has_buf = opt_table(L, 4, fn);
    rvo_agent_id *buf = ids(L, lw, 64);
    int32_t n = rvo_world_query_radius(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    if (n > (int32_t)lw->icap) {
        buf = ids(L, lw, (size_t)n);
        n = rvo_world_query_radius(lw->w, (float)x, (float)y, (float)r, buf, (int32_t)lw->icap);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, NULL, 0);
    }
    if (n > (int32_t)lw->icap) {
        n = (int32_t)lw->icap;
    }
    return push_id_list(L, buf, n, 4, has_buf);
}

/* ray_cast(x, y, dx, dy, max_dist [, clearance [, mask]]) -> nil or
 * { distance, x, y, nx, ny, agent, obstacle } */
static int l_ray_cast(lua_State *L)
{
    static const char fn[] = "ray_cast";
    lworld *lw = check_world(L, fn);
    double x = check_num(L, 1, fn);
    double y = check_num(L, 2, fn);
    double dx = check_num(L, 3, fn);
    double dy = check_num(L, 4, fn);
    double max_dist = check_num(L, 5, fn);
    double c = opt_num(L, 6, fn, 0.0);
    double m = opt_num(L, 7, fn, 4294967295.0);
    rvo_ray_hit hit;
    int r;
    {
        /* The core takes a uint32_t: judge the number as set_mask does. */
        rvo_agent_def scratch = rvo_default_agent_def();
        const char *why = rvo_agent_def_set(&scratch, RVO_PARAM_MASK, m);
        if (why != NULL) {
            arg_error(L, 7, fn, why);
        }
    }
    if (lua_isnoneornil(L, 9)) {
        /* core: x, y, dx, dy, max_dist, clearance, mask, hit = 1..8, as in Lua */
        r = rvo_world_ray_cast(lw->w, (float)x, (float)y, (float)dx, (float)dy, (float)max_dist, (float)c,
                               (uint32_t)m, &hit);
    } else {
        /* point-blank (issue 16): ignore = the caster's id, or false for nobody */
        rvo_agent_id ignore = 0;
        if (!(lua_type(L, 9) == LUA_TBOOLEAN && !lua_toboolean(L, 9))) {
            if (lua_type(L, 9) != LUA_TNUMBER) {
                type_error(L, 8, fn, "number or false", 9);
            }
            ignore = check_id(L, 8, fn);
            if (ignore == 0) {
                arg_error(L, 8, fn, "unknown or removed agent id");
            }
        }
        /* core: ..., mask, ignore, hit = 1..9, as in Lua */
        r = rvo_world_ray_cast_from(lw->w, (float)x, (float)y, (float)dx, (float)dy, (float)max_dist, (float)c,
                                    (uint32_t)m, ignore, &hit);
    }
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    if (r == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 7);
    lua_pushnumber(L, (lua_Number)hit.distance);
    lua_setfield(L, -2, "distance");
    lua_pushnumber(L, (lua_Number)hit.point.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)hit.point.y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, (lua_Number)hit.normal.x);
    lua_setfield(L, -2, "nx");
    lua_pushnumber(L, (lua_Number)hit.normal.y);
    lua_setfield(L, -2, "ny");
    if (hit.agent != 0) {
        push_id(L, hit.agent);
        lua_setfield(L, -2, "agent");
    }
    if (hit.obstacle != 0) {
        push_id(L, hit.obstacle);
        lua_setfield(L, -2, "obstacle");
    }
    return 1;
}

static int l_line_of_sight(lua_State *L)
{
    static const char fn[] = "line_of_sight";
    lworld *lw = check_world(L, fn);
    double x1 = check_num(L, 1, fn);
    double y1 = check_num(L, 2, fn);
    double x2 = check_num(L, 3, fn);
    double y2 = check_num(L, 4, fn);
    double c = opt_num(L, 5, fn, 0.0);
    int r = rvo_world_line_of_sight(lw->w, (float)x1, (float)y1, (float)x2, (float)y2, (float)c);
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    lua_pushboolean(L, r > 0);
    return 1;
}

/* ---- debug view: ORCA lines of one agent -------------------------------- */

/* orca_lines(id [, dt [, buf]]) -> lines, count, obstacle_count (or, with
 * buf, count, obstacle_count); lines = {px, py, dx, dy, ...} */
static int l_orca_lines(lua_State *L)
{
    static const char fn[] = "orca_lines";
    static const signed char map[] = {1, 2, 3, 3};
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    double dt = 0;
    int has_buf, t;
    int32_t n, nobst = 0, k;
    float *buf;
    if (!lua_isnoneornil(L, 3)) {
        dt = check_num(L, 2, fn);
        if (dt <= 0) {
            arg_error(L, 2, fn, "dt must be > 0"); /* 0 means time_step only in C */
        }
    }
    has_buf = opt_table(L, 3, fn);
    buf = floats(L, lw, 4 * 64);
    n = rvo_world_agent_orca_lines(lw->w, id, (float)dt, buf, (int32_t)(lw->fcap / 4), &nobst);
    if (n > (int32_t)(lw->fcap / 4)) {
        buf = floats(L, lw, 4 * (size_t)n);
        n = rvo_world_agent_orca_lines(lw->w, id, (float)dt, buf, (int32_t)(lw->fcap / 4), &nobst);
    }
    if (n < 0) {
        core_error(L, lw->w, (rvo_status)n, fn, map, 4);
    }
    if (has_buf) {
        t = 3 + 1;
    } else {
        lua_createtable(L, 4 * n, 0);
        t = lua_gettop(L);
    }
    for (k = 0; k < 4 * n; k++) {
        lua_pushnumber(L, (lua_Number)buf[k]);
        lua_seti(L, t, (lua_Integer)k + 1);
    }
    clear_tail(L, t, 4 * (lua_Integer)n + 1);
    if (!has_buf) {
        lua_pushvalue(L, t);
    }
    lua_pushinteger(L, n);
    lua_pushinteger(L, nobst);
    return has_buf ? 2 : 3;
}

/* ---- snapshots (issue 8) ---------------------------------------------- */

/* save() -> string: the whole world (rvo_world_save). */
static int l_save(lua_State *L)
{
    lworld *lw = check_world(L, "save");
    size_t n = rvo_world_save(lw->w, NULL, 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, n);
    rvo_world_save(lw->w, p, n);
    luaL_pushresultsize(&b, n);
    return 1;
}

/* rvo.load(s) -> world: rebuilds a saved world (rvo_world_load). */
static int l_load(lua_State *L)
{
    static const char fn[] = "load";
    size_t len;
    const char *s;
    lworld *lw;
    char err[160];
    rvo_status st;
    if (lua_type(L, 1) != LUA_TSTRING) {
        luaL_error(L, "bad argument #1 to '%s' (string expected, got %s)", fn, type_name(L, 1));
    }
    s = lua_tolstring(L, 1, &len);
    /* The userdata first: if it cannot be made, no world is left behind. */
    lw = (lworld *)lua_newuserdatauv(L, sizeof *lw, 0);
    memset(lw, 0, sizeof *lw);
    lw->tag = WORLD_TAG;
    lua_pushvalue(L, MT);
    lua_setmetatable(L, -2);
    st = rvo_world_load(s, len, NULL, &lw->w, err, sizeof err);
    if (st == RVO_ERR_OUT_OF_MEMORY) {
        luaL_error(L, "%s: not enough memory", fn);
    } else if (st != RVO_OK) {
        arg_error(L, 1, fn, err);
    }
    return 1;
}

/* ---- registration ----------------------------------------------------- */

static const luaL_Reg world_methods[] = {
    {"destroy", l_destroy},
    {"is_destroyed", l_is_destroyed},
    {"time_step", l_time_step},
    {"set_time_step", l_set_time_step},
    {"step", l_step},
    {"solve", l_solve},
    {"integrate", l_integrate},
    {"is_solved", l_is_solved},
    {"add_agent", l_add_agent},
    {"remove_agent", l_remove_agent},
    {"is_valid", l_is_valid},
    {"agent_valid", l_agent_valid},
    {"agent_count", l_agent_count},
    {"position", l_position},
    {"set_position", l_set_position},
    {"velocity", l_velocity},
    {"set_velocity", l_set_velocity},
    {"pref_velocity", l_pref_velocity},
    {"set_pref_velocity", l_set_pref_velocity},
    {"new_velocity", l_new_velocity},
    {"set_new_velocity", l_set_new_velocity},
    {"ids", l_ids},
    {"positions", l_positions},
    {"velocities", l_velocities},
    {"new_velocities", l_new_velocities},
    {"set_pref_velocities", l_set_pref_velocities},
    {"set_new_velocities", l_set_new_velocities},
    {"positions_view", l_positions_view}, /* performance: zero-copy views */
    {"velocities_view", l_velocities_view},
    {"add_obstacle", l_add_obstacle},
    {"remove_obstacle", l_remove_obstacle},
    {"obstacle_count", l_obstacle_count},
    {"obstacle_valid", l_obstacle_valid},
    {"neighbors", l_neighbors},
    {"query_radius", l_query_radius},
    {"line_of_sight", l_line_of_sight},
    {"ray_cast", l_ray_cast},
    {"lock", l_lock},
    {"unlock", l_unlock},
    {"is_locked", l_is_locked},
    {"avoiding", l_avoiding},
    {"set_strict_overlap", l_set_strict_overlap}, /* issue 6 */
    {"strict_overlap", l_strict_overlap},
    {"set_stall_threshold", l_set_stall_threshold}, /* stall events */
    {"stall_threshold", l_stall_threshold},
    {"stalled", l_stalled},
    {"stall_time", l_stall_time},
    {"set_height_margin", l_set_height_margin},
    {"set_rvo2_compat", l_set_rvo2_compat},
    {"rvo2_compat", l_rvo2_compat},
    {"set_obstacle_z_range", l_set_obstacle_z_range},
    {"solver", l_solver},
    {"set_solver", l_set_solver},
    {"set_sampling", l_set_sampling},
    {"orca_lines", l_orca_lines}, /* debug view */
    {"save", l_save}, /* snapshots */
    {NULL, NULL}};

static const luaL_Reg world_meta[] = {
    {"__gc", l_gc},
    {"__close", l_destroy},
    {"__tostring", l_tostring},
    {NULL, NULL}};

static const luaL_Reg module_funcs[] = {
    {"new_world", l_new_world},
    {"load", l_load}, /* snapshots */
    {NULL, NULL}};

LUAMOD_API int luaopen_rvo_core(lua_State *L)
{
    int p;
    luaL_newmetatable(L, WORLD_NAME); /* mt, with __name */
    lua_pushvalue(L, -1);
    luaL_setfuncs(L, world_meta, 1);
    lua_createtable(L, 0, 64); /* methods */
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, world_methods, 1);
    /* Getter and setter per agent parameter, named by the core. */
    for (p = 0; p < RVO_PARAM_COUNT; p++) {
        const char *name = rvo_param_name((rvo_param)p);
        if (name == NULL) {
            break;
        }
        lua_pushvalue(L, -2);
        lua_pushinteger(L, p);
        lua_pushstring(L, name);
        lua_pushboolean(L, is_int_param(name));
        lua_pushcclosure(L, l_get_param, 4);
        lua_setfield(L, -2, name);
        lua_pushvalue(L, -2);
        lua_pushinteger(L, p);
        lua_pushfstring(L, "set_%s", name);
        lua_pushvalue(L, -1);
        lua_insert(L, -4); /* keep the name for setfield: name mt p name */
        lua_pushcclosure(L, l_set_param, 3);
        lua_setfield(L, -3, lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    lua_setfield(L, -2, "__index");

    lua_createtable(L, 0, 4); /* module */
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, module_funcs, 1);
    lua_pushstring(L, rvo_version());
    lua_setfield(L, -2, "version");
    return 1;
}
