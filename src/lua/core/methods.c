/* The world methods of src/lua/methods.def: one function per line of the
 * list, by its shape. rvo.ffi makes the same methods from the same list. */
#include "core.h"

typedef rvo_status vec_get_fn(const rvo_world *w, uint64_t id, rvo_vec2 *out);
typedef rvo_status vec_set_fn(rvo_world *w, uint64_t id, float x, float y);
typedef rvo_status float_fn(const rvo_world *w, uint64_t id, float *out);
typedef rvo_status do_fn(rvo_world *w, uint64_t id);
typedef int flag_fn(const rvo_world *w, uint64_t id);
typedef bool valid_fn(const rvo_world *w, uint64_t id);
typedef int32_t count_fn(const rvo_world *w);

/* The per-agent vectors are the hot path: fast_* checks (core.h). */
static inline int VEC_GET(lua_State *L, const char *fn, vec_get_fn *get) {
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

static inline int VEC_SET(lua_State *L, const char *fn, vec_set_fn *set) {
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

static inline int FLOAT(lua_State *L, const char *fn, float_fn *get) {
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    float v = 0;
    rvo_status st = get(lw->w, id, &v);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    lua_pushnumber(L, (lua_Number)v);
    return 1;
}

static inline int DO(lua_State *L, const char *fn, do_fn *run) {
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    rvo_status st = run(lw->w, id);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, NULL, 0);
    }
    return 0;
}

static inline int FLAG(lua_State *L, const char *fn, flag_fn *ask) {
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    int r = ask(lw->w, id);
    if (r < 0) {
        core_error(L, lw->w, (rvo_status)r, fn, NULL, 0);
    }
    lua_pushboolean(L, r > 0);
    return 1;
}

/* An id that cannot be one (negative, fractional) is simply not valid. */
static inline int VALID(lua_State *L, const char *fn, valid_fn *ask) {
    lworld *lw = check_world(L, fn);
    rvo_agent_id id = check_id(L, 1, fn);
    lua_pushboolean(L, id != 0 && ask(lw->w, id));
    return 1;
}

static inline int COUNT(lua_State *L, const char *fn, count_fn *count) {
    lworld *lw = check_world(L, fn);
    lua_pushinteger(L, (lua_Integer)count(lw->w));
    return 1;
}

/* ---- lists of agent ids ------------------------------------------------- */

typedef rvo_status of_get_fn(const rvo_world *w, const rvo_agent_id *ids, int32_t n, float *out);
typedef rvo_status of_set_fn(rvo_world *w, const rvo_agent_id *ids, int32_t n, const float *xy);

/* The core's arguments ids 1, n 2, values 3 are the method's 1, 1, 2. */
static const signed char of_map[] = {1, 1, 2};

static int get_of(lua_State *L, const char *fn, of_get_fn *get, int per) {
    lworld *lw = check_world(L, fn);
    lua_Integer n, i, m;
    rvo_agent_id *ib;
    float *buf;
    rvo_status st;
    int has_buf;
    check_table(L, 1, fn);
    has_buf = opt_table(L, 2, fn);
    ib = read_id_list(L, lw, 1, fn, &n);
    buf = floats(L, lw, (size_t)(per * n));
    st = get(lw->w, ib, (int32_t)n, buf);
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, of_map, 3);
    }
    m = per * n;
    lua_settop(L, 3);
    if (!has_buf) {
        lua_createtable(L, (int)m, 0);
        lua_replace(L, 3);
    }
    for (i = 0; i < m; i++) {
        lua_pushnumber(L, (lua_Number)buf[i]);
        lua_rawseti(L, 3, i + 1);
    }
    clear_tail(L, 3, m + 1);
    return 1;
}

static inline int VECS_GET(lua_State *L, const char *fn, of_get_fn *get) { return get_of(L, fn, get, 2); }

static inline int NUMS_GET(lua_State *L, const char *fn, of_get_fn *get) { return get_of(L, fn, get, 1); }

static inline int VECS_SET(lua_State *L, const char *fn, of_set_fn *set) {
    lworld *lw = check_world(L, fn);
    lua_Integer n;
    rvo_agent_id *ib;
    rvo_status st;
    check_table(L, 1, fn);
    check_table(L, 2, fn);
    ib = read_id_list(L, lw, 1, fn, &n);
    st = set(lw->w, ib, (int32_t)n, read_pairs(L, lw, 2, fn, n, "id"));
    if (st != RVO_OK) {
        core_error(L, lw->w, st, fn, of_map, 3);
    }
    return 0;
}

#define METHOD(name, shape, core)                                                                            \
    static int l_##name(lua_State *L) { return shape(L, #name, core); }
#include "../methods.def"
#undef METHOD

#define METHOD(name, shape, core) {#name, l_##name},
const luaL_Reg listed_methods[] = {
#include "../methods.def"
    {NULL, NULL}};
#undef METHOD
