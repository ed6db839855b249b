/* rvo.core: messages, argument checks, scratch buffers and parameter
 * tables shared by the method files (their hot parts are inline in
 * core.h). */
#include "core.h"

/* ---- messages --------------------------------------------------------- */

/* Type name for messages: "nil" for a missing argument (the FFI side cannot
 * tell none from nil), "rvo.world" for a world. */
const char *type_name(lua_State *L, int idx) {
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

int arg_error(lua_State *L, int arg, const char *fn, const char *why) {
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fn, why);
}

/* idx is the stack index of the offending value. */
int type_error(lua_State *L, int arg, const char *fn, const char *expected, int idx) {
    return luaL_error(L, "bad argument #%d to '%s' (%s expected, got %s)", arg, fn, expected,
                      type_name(L, idx));
}

/* Raise the core's last error. map[k] is the Lua argument of core argument k
 * (k = 1..map_len); NULL maps k to k. */
NOINLINE int core_error(lua_State *L, const rvo_world *w, rvo_status st, const char *fn,
                        const signed char *map, int map_len) {
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

NOINLINE lworld *check_self(lua_State *L, const char *fn) {
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

NOINLINE lworld *check_world(lua_State *L, const char *fn) {
    lworld *lw = check_self(L, fn);
    if (lw->w == NULL) {
        luaL_error(L, "attempt to use a destroyed " WORLD_NAME);
    }
    return lw;
}

NOINLINE double check_num(lua_State *L, int arg, const char *fn) {
    if (lua_type(L, arg + 1) != LUA_TNUMBER) {
        type_error(L, arg, fn, "number", arg + 1);
    }
    return (double)lua_tonumber(L, arg + 1);
}

NOINLINE rvo_agent_id check_id(lua_State *L, int arg, const char *fn) {
    if (lua_type(L, arg + 1) != LUA_TNUMBER) {
        type_error(L, arg, fn, "number", arg + 1);
    }
    if (lua_isinteger(L, arg + 1)) {
        return int_to_id(lua_tointeger(L, arg + 1));
    }
    return num_to_id((double)lua_tonumber(L, arg + 1));
}

/* ---- fast paths of the per-agent methods ------------------------------
 * A script calls these once per agent per frame, so each saves Lua API
 * calls (the whole binding cost per call measured with callgrind, see
 * docs/performance.md). Anything unusual goes to the checks above,
 * which raise the same messages. */

/* Optional table argument: 1 if given, 0 if nil/absent. */
int opt_table(lua_State *L, int arg, const char *fn) {
    int t = lua_type(L, arg + 1);
    if (t == LUA_TNIL || t == LUA_TNONE) {
        return 0;
    }
    if (t != LUA_TTABLE) {
        type_error(L, arg, fn, "table", arg + 1);
    }
    return 1;
}

void check_table(lua_State *L, int arg, const char *fn) {
    if (lua_type(L, arg + 1) != LUA_TTABLE) {
        type_error(L, arg, fn, "table", arg + 1);
    }
}

/* ---- scratch buffers -------------------------------------------------- */

float *floats(lua_State *L, lworld *lw, size_t n) {
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

rvo_agent_id *ids(lua_State *L, lworld *lw, size_t n) {
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
void clear_tail(lua_State *L, int t, lua_Integer from) {
    while (lua_geti(L, t, from) != LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_seti(L, t, from);
        from++;
    }
    lua_pop(L, 1);
}

/* Push the n ids of buf into the table argument buf_arg (or a new table)
 * and return the Lua results. */
int push_id_list(lua_State *L, const rvo_agent_id *buf, int32_t n, int buf_arg, int has_buf) {
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

int return_ids(lua_State *L, const uint64_t *buf, int32_t n, int32_t got, int has_buf) {
    return push_id_list(L, buf, got < n ? (got < 0 ? 0 : got) : n, 1, has_buf);
}

/* ---- parameter tables ------------------------------------------------- */

/* Reject unknown fields of the table at stack index idx. Deterministic on
 * any table traversal order: a non-string key wins (the smallest type
 * name), otherwise the smallest unknown name is reported. */
void check_fields(lua_State *L, int idx, const char *const *known, int params_too, int arg, const char *fn) {
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
int field_num(lua_State *L, int idx, const char *key, int arg, const char *fn, double *out) {
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
int field_int(lua_State *L, int idx, const char *key, int arg, const char *fn, int32_t *out) {
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

const char *const agent_fields[] = {"radius",
                                    "max_speed",
                                    "neighbor_dist",
                                    "max_neighbors",
                                    "time_horizon",
                                    "time_horizon_obst",
                                    "vx",
                                    "vy",
                                    "pvx",
                                    "pvy",
                                    NULL};

/* The agent fields that rvo_agent_def holds (others go through set_param). */
static int is_def_field(const char *name) {
    int i;
    for (i = 0; agent_fields[i] != NULL; i++) {
        if (strcmp(name, agent_fields[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

void float_field(lua_State *L, int idx, const char *key, int arg, const char *fn, float *dst) {
    double v;
    if (field_num(L, idx, key, arg, fn, &v)) {
        *dst = (float)v;
    }
}

/* The agent fields shared by new_world and add_agent, in message order. */
void agent_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a) {
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
void param_fields_read(lua_State *L, int idx, int arg, const char *fn, rvo_agent_def *a) {
    int p;
    for (p = 0; p < RVO_PARAM_COUNT; p++) {
        const char *name = rvo_param_name((rvo_param)p);
        double v;
        if (name != NULL && !is_def_field(name) && field_num(L, idx, name, arg, fn, &v)) {
            rvo_error err;
            if (rvo_agent_def_set_param(a, (rvo_param)p, v, &err) != RVO_OK) {
                arg_error(L, arg, fn, err.message);
            }
        }
    }
}

/* ---- bulk ------------------------------------------------------------- */

/* The length of the list at idx: its elements before the first nil. Lua's
 * # may answer any border of a table with holes, and Lua 5.4 and LuaJIT
 * pick different ones; this is the same on both bindings (ffi.lua's
 * list_len). `len` is lua_rawlen's border, the answer when there is no hole. */
lua_Integer list_len(lua_State *L, int idx, lua_Integer len) {
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

/* The ids of list argument arg (a table, checked), up to its first nil,
 * into the world's id scratch; *n: how many. */
rvo_agent_id *read_id_list(lua_State *L, lworld *lw, int arg, const char *fn, lua_Integer *n) {
    const lua_Integer raw = (lua_Integer)lua_rawlen(L, arg + 1);
    lua_Integer k;
    rvo_agent_id *ib;
    if (raw > INT32_MAX / 4) {
        arg_error(L, arg, fn, "too many ids");
    }
    ib = ids(L, lw, (size_t)raw);
    for (k = 0; k < raw; k++) {
        int t = lua_rawgeti(L, arg + 1, k + 1), isint = 0;
        lua_Integer i;
        if (t == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        }
        if (t != LUA_TNUMBER) {
            lua_pushfstring(L, "number expected at index %I, got %s", k + 1, type_name(L, -1));
            arg_error(L, arg, fn, lua_tostring(L, -1));
        }
        i = lua_tointegerx(L, -1, &isint);
        ib[k] = isint ? int_to_id(i) : num_to_id((double)lua_tonumberx(L, -1, NULL));
        lua_pop(L, 1);
    }
    *n = k;
    return ib;
}

/* BULK_BATCH values on the stack at a time: one pop per batch. */
#define BULK_BATCH 16

/* The list argument arg of 2 * n numbers (per: what a pair is of, for the
 * messages) into the world's float scratch. Its length is list_len's, and
 * a hole within lua_rawlen's border ends it too, as in rvo.ffi. */
float *read_pairs(lua_State *L, lworld *lw, int arg, const char *fn, lua_Integer n, const char *per) {
    const int t = arg + 1;
    lua_Integer len = (lua_Integer)lua_rawlen(L, t), i;
    float *buf;
    if (len != 2 * n) {
        len = list_len(L, t, len);
    }
    if (len != 2 * n) {
        lua_pushfstring(L, "expected %I numbers (2 per %s), got %I", 2 * n, per, len);
        arg_error(L, arg, fn, lua_tostring(L, -1));
    }
    buf = floats(L, lw, (size_t)len);
    luaL_checkstack(L, BULK_BATCH + 4, "too many values");
    for (i = 0; i < len; i += BULK_BATCH) {
        int top = lua_gettop(L), j, b = len - i < BULK_BATCH ? (int)(len - i) : BULK_BATCH;
        for (j = 0; j < b; j++) {
            int type = lua_geti(L, t, i + j + 1);
            if (type == LUA_TNIL) { /* a hole: the list ends before it */
                lua_pushfstring(L, "expected %I numbers (2 per %s), got %I", 2 * n, per, i + j);
                arg_error(L, arg, fn, lua_tostring(L, -1));
            }
            if (type != LUA_TNUMBER) {
                lua_pushfstring(L, "number expected at index %I, got %s", i + j + 1, type_name(L, -1));
                arg_error(L, arg, fn, lua_tostring(L, -1));
            }
        }
        for (j = 0; j < b; j++) {
            buf[i + j] = (float)lua_tonumberx(L, top + 1 + j, NULL);
        }
        lua_settop(L, top);
    }
    return buf;
}
