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
 *
 * One module in several files, by subject: common.c (messages, checks,
 * scratch, parameter tables), world.c, agents.c, bulk.c (bulk calls and
 * views), obstacles.c, queries.c (queries, ray casts, debug lines),
 * snapshot.c, module.c (luaopen). This header is what they share: the
 * per-agent fast paths are static inline here, so that position,
 * set_pref_velocity and the like cost what they cost in one file.
 */
#ifndef RVO_LUA_CORE_H
#define RVO_LUA_CORE_H
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
/* Functions shared between the files: not exported from the module, and
 * called directly (no PLT), as the static functions of one file were. */
#if defined(__GNUC__)
#define HIDDEN __attribute__((visibility("hidden")))
#else
#define HIDDEN
#endif
/* Marks a world's userdata; see fast_world. */
#define WORLD_TAG 0x72766f2e776f726cull /* "rvo.worl" */

LUAMOD_API int luaopen_rvo_core(lua_State *L);

typedef struct lworld {
    uint64_t tag;       /* WORLD_TAG: the fast self check (fast_world) */
    rvo_world *w;       /* NULL once destroyed */
    float *fbuf;        /* scratch for bulk float data */
    size_t fcap;        /* floats in fbuf */
    rvo_agent_id *ibuf; /* scratch for id lists */
    size_t icap;        /* ids in ibuf */
} lworld;

/* ---- common.c --------------------------------------------------------- */

/* Type name for messages: "nil" for a missing argument, "rvo.world" for a world. */
HIDDEN const char *type_name(lua_State *L, int idx);
HIDDEN int arg_error(lua_State *L, int arg, const char *fn, const char *why);
/* idx is the stack index of the offending value. */
HIDDEN int type_error(lua_State *L, int arg, const char *fn, const char *expected, int idx);
/* Raise the core's last error; map[k] is the Lua argument of core argument k. */
HIDDEN int core_error(lua_State *L, const rvo_world *w, rvo_status st, const char *fn, const signed char *map,
                      int map_len);
/* Argument checks: arg counts after self (stack index arg + 1). */
/* self is a world (else "calling 'fn' on bad self"); check_world: and not destroyed */
HIDDEN lworld *check_self(lua_State *L, const char *fn);
HIDDEN lworld *check_world(lua_State *L, const char *fn);
HIDDEN double check_num(lua_State *L, int arg, const char *fn);
HIDDEN rvo_agent_id check_id(lua_State *L, int arg, const char *fn);
/* Optional table argument: 1 if given, 0 if nil/absent. */
HIDDEN int opt_table(lua_State *L, int arg, const char *fn);
HIDDEN void check_table(lua_State *L, int arg, const char *fn);
/* The world's scratch buffers, grown to n items. */
HIDDEN float *floats(lua_State *L, lworld *lw, size_t n);
HIDDEN rvo_agent_id *ids(lua_State *L, lworld *lw, size_t n);
/* Nil out t[from], t[from+1], ... up to the first nil. */
HIDDEN void clear_tail(lua_State *L, int t, lua_Integer from);
/* Push the n ids of buf into the table argument buf_arg (or a new table)
 * and return the Lua results: n, or the list and n. */
HIDDEN int push_id_list(lua_State *L, const rvo_agent_id *buf, int32_t n, int buf_arg, int has_buf);
/* push_id_list of argument 1's buffer, for the ids buf[0 .. got) of n
 * asked for (got < 0: none). */
HIDDEN int return_ids(lua_State *L, const uint64_t *buf, int32_t n, int32_t got, int has_buf);
/* The ids of list argument arg (a table, checked), up to its first nil,
 * into the world's id scratch; *n: how many. */
HIDDEN rvo_agent_id *read_id_list(lua_State *L, lworld *lw, int arg, const char *fn, lua_Integer *n);
/* The list argument arg of 2 * n numbers (2 per `per`) into the world's
 * float scratch, checked (see common.c). */
HIDDEN float *read_pairs(lua_State *L, lworld *lw, int arg, const char *fn, lua_Integer n, const char *per);
/* The length of a list argument that may have holes (see common.c). */
HIDDEN lua_Integer list_len(lua_State *L, int idx, lua_Integer len);
/* Parameter tables of new_world, add_agent and add_obstacle. */
HIDDEN extern const char *const agent_fields[];
HIDDEN void check_fields(lua_State *L, int idx, const char *const *known, int params_too, int arg,
                         const char *fn);
HIDDEN int field_num(lua_State *L, int idx, const char *key, int arg, const char *fn, double *out);
HIDDEN int field_int(lua_State *L, int idx, const char *key, int arg, const char *fn, int32_t *out);
HIDDEN void float_field(lua_State *L, int idx, const char *key, int arg, const char *fn, float *dst);
HIDDEN void agent_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a);
HIDDEN void param_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a);

/* ---- argument checks (arg counts after self: stack index arg + 1) ----- */

static inline double opt_num(lua_State *L, int arg, const char *fn, double def) {
    if (lua_isnoneornil(L, arg + 1)) {
        return def;
    }
    return check_num(L, arg, fn);
}

/* An integer id: [0, 2^53) in one unsigned compare (a negative i wraps
 * above it); anything else is the null id. */
static inline rvo_agent_id int_to_id(lua_Integer i) {
    return (lua_Unsigned)i < ((lua_Unsigned)1 << 53) ? (rvo_agent_id)i : 0;
}

static inline rvo_agent_id num_to_id(double v) {
    if (v >= 0 && v < ID_LIMIT && floor(v) == v) {
        return (rvo_agent_id)v;
    }
    return 0;
}

/* ---- fast paths of the per-agent methods ------------------------------
 * A script calls these once per agent per frame, so each saves Lua API
 * calls (the whole binding cost per call measured with callgrind, see
 * docs/performance.md). Anything unusual goes to the checks above,
 * which raise the same messages. */

/* self: a full userdata of exactly lworld's size (lua_rawlen is 0 for light
 * userdata and other types) that starts with WORLD_TAG and is not destroyed.
 * Lua code cannot write a userdata's bytes, so only C code could forge the
 * tag; the metatable compare of check_world costs three more API calls. */
static inline lworld *fast_world(lua_State *L, const char *fn) {
    lworld *lw = (lworld *)lua_touserdata(L, 1);
    if (lw != NULL && lua_rawlen(L, 1) == sizeof *lw && lw->tag == WORLD_TAG && lw->w != NULL) {
        return lw;
    }
    return check_world(L, fn);
}

/* id: an integer (what add_agent returns) in one test. */
static inline rvo_agent_id fast_id(lua_State *L, const char *fn) {
    if (lua_isinteger(L, 2)) {
        return int_to_id(lua_tointegerx(L, 2, NULL));
    }
    return check_id(L, 1, fn);
}

static inline double fast_num(lua_State *L, int arg, const char *fn) {
    if (lua_type(L, arg + 1) == LUA_TNUMBER) {
        return (double)lua_tonumberx(L, arg + 1, NULL);
    }
    return check_num(L, arg, fn);
}

static inline void push_id(lua_State *L, uint64_t id) { lua_pushinteger(L, (lua_Integer)id); }

/* ---- registration (module.c): each file's functions, upvalue 1 the metatable */

HIDDEN extern const luaL_Reg world_methods[], world_meta[], world_module_funcs[];
HIDDEN extern const luaL_Reg agent_methods[], bulk_methods[], obstacle_methods[], query_methods[];
/* The methods of src/lua/methods.def (methods.c). */
HIDDEN extern const luaL_Reg listed_methods[];
HIDDEN extern const luaL_Reg snapshot_methods[], snapshot_module_funcs[];
/* Adds a getter and a setter per agent parameter to the methods table at
 * the top of the stack; the metatable is just below it. */
HIDDEN void add_param_methods(lua_State *L);

#endif /* RVO_LUA_CORE_H */
