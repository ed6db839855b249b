/*
 * rvo.navcore — the Lua 5.4 backend of rvo.nav (lua/rvo/nav.lua): the
 * navmesh outline (librvo's rvo_outline_build) and, when built with
 * librvo_nav, navmesh building and queries over Recast/Detour.
 *
 * Low level on purpose: rvo.nav checks every argument's type and shape and
 * raises the errors (so that both runtimes word them identically and point
 * at the caller's line); this module converts tables, calls C and reports
 * failures as `nil, message, core_argument` instead of raising. The LuaJIT
 * side of rvo.nav does the same through the FFI.
 */
#define LUA_LIB
#include <lauxlib.h>
#include <lua.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rvo.h"
#ifdef RVO_HAVE_NAVMESH
#include "rvo_nav.h"
#endif

#define MESH_NAME "rvo.navmesh"

LUAMOD_API int luaopen_rvo_navcore(lua_State *L);

/* nil, message, arg: the failure convention of this module. */
static int push_failure(lua_State *L, const char *msg, int arg) {
    lua_pushnil(L);
    lua_pushstring(L, msg);
    lua_pushinteger(L, arg);
    return 3;
}

/* Reads n numbers of the table at idx into a new float array (NULL when
 * memory runs out or an entry is not a number: *bad is its position). */
static float *read_floats(lua_State *L, int idx, lua_Integer n, lua_Integer *bad) {
    float *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
    *bad = 0;
    if (!out)
        return NULL;
    for (lua_Integer i = 0; i < n; ++i) {
        int isnum = 0;
        lua_rawgeti(L, idx, i + 1);
        const lua_Number v = lua_tonumberx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum) {
            *bad = i + 1;
            free(out);
            return NULL;
        }
        out[i] = (float)v;
    }
    return out;
}

/* Reads n 1-based indices (0 = padding) as 0-based (-1 = padding). */
static int32_t *read_indices(lua_State *L, int idx, lua_Integer n, lua_Integer *bad) {
    int32_t *out = malloc(sizeof *out * (size_t)(n > 0 ? n : 1));
    *bad = 0;
    if (!out)
        return NULL;
    for (lua_Integer i = 0; i < n; ++i) {
        int isnum = 0;
        lua_rawgeti(L, idx, i + 1);
        const lua_Integer v = lua_tointegerx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum || v < -1 || v > INT32_MAX) {
            *bad = i + 1;
            free(out);
            return NULL;
        }
        out[i] = (int32_t)(v - 1);
    }
    return out;
}

/* A flat table of n floats. */
static void push_floats(lua_State *L, const float *v, int32_t n) {
    lua_createtable(L, n, 0);
    for (int32_t i = 0; i < n; ++i) {
        lua_pushnumber(L, (lua_Number)v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* outline(xy, polys, verts_per_poly, epsilon) -> loops, holes | nil, msg, arg */
static int l_outline(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    const lua_Integer nvp = luaL_checkinteger(L, 3);
    const lua_Number eps = luaL_checknumber(L, 4);
    const lua_Integer nxy = (lua_Integer)lua_rawlen(L, 1), nidx = (lua_Integer)lua_rawlen(L, 2);
    if (nxy % 2 != 0 || nxy > INT32_MAX)
        return push_failure(L, "even number of coordinates expected", 1);
    if (nvp < 3 || nvp > 32)
        return push_failure(L, "verts_per_poly must be in [3, 32]", 5);
    if (nidx % nvp != 0 || nidx > INT32_MAX)
        return push_failure(L, "index count must be a multiple of verts_per_poly", 3);
    lua_Integer bad;
    float *xy = read_floats(L, 1, nxy, &bad);
    if (!xy)
        return push_failure(L, bad ? "coordinates must be numbers" : "out of memory", bad ? 1 : 0);
    int32_t *polys = read_indices(L, 2, nidx, &bad);
    if (!polys) {
        free(xy);
        return push_failure(L, bad ? "indices must be integers" : "out of memory", bad ? 3 : 0);
    }
    rvo_error err;
    rvo_outline *o = rvo_outline_build(xy, (int32_t)(nxy / 2), polys, (int32_t)(nidx / nvp), (int32_t)nvp,
                                       (float)eps, &err);
    free(xy);
    free(polys);
    if (!o)
        return push_failure(L, err.message, err.arg);
    const int32_t nloops = rvo_outline_loop_count(o);
    lua_createtable(L, nloops, 0);
    lua_createtable(L, nloops, 0);
    for (int32_t i = 0; i < nloops; ++i) {
        int32_t n = 0;
        const float *p = rvo_outline_loop(o, i, &n);
        push_floats(L, p, 2 * n);
        lua_rawseti(L, -3, i + 1);
        lua_pushboolean(L, rvo_outline_loop_is_hole(o, i) == 1);
        lua_rawseti(L, -2, i + 1);
    }
    rvo_outline_destroy(o);
    return 2;
}

/* door_steer(door, xy, radii, targets) -> out, count | nil, msg, arg: door
 * is {ax, ay, bx, by, thickness, depth, widen, reach} (rvo.nav checks its
 * shape), arg counts rvo_door_steer's arguments. */
static int l_door_steer(lua_State *L) {
    for (int k = 1; k <= 4; ++k)
        luaL_checktype(L, k, LUA_TTABLE);
    const lua_Integer nxy = (lua_Integer)lua_rawlen(L, 2);
    if (nxy % 2 != 0 || nxy > INT32_MAX)
        return push_failure(L, "even number of coordinates expected", 3);
    const lua_Integer n = nxy / 2;
    if ((lua_Integer)lua_rawlen(L, 3) != n)
        return push_failure(L, "one radius per agent expected", 4);
    if ((lua_Integer)lua_rawlen(L, 4) != nxy)
        return push_failure(L, "one target per agent expected", 5);
    lua_Integer bad;
    float *f = read_floats(L, 1, 8, &bad);
    if (!f)
        return push_failure(L, bad ? "door fields must be numbers" : "out of memory", bad ? 1 : 0);
    rvo_door d = rvo_door_make(f[0], f[1], f[2], f[3], f[4]);
    d.depth = f[5];
    d.widen = f[6];
    d.reach = f[7];
    free(f);
    float *xy = read_floats(L, 2, nxy, &bad), *radii = xy ? read_floats(L, 3, n, &bad) : NULL;
    float *tg = radii ? read_floats(L, 4, nxy, &bad) : NULL;
    float *out = tg ? malloc(sizeof *out * (size_t)(nxy > 0 ? nxy : 1)) : NULL;
    if (!out) {
        free(xy);
        free(radii);
        free(tg);
        return push_failure(L, "numbers expected", 0);
    }
    rvo_error err;
    const int32_t r = rvo_door_steer(&d, (int32_t)n, xy, radii, tg, out, &err);
    if (r < 0) {
        free(xy);
        free(radii);
        free(tg);
        free(out);
        return push_failure(L, err.message, err.arg);
    }
    push_floats(L, out, (int32_t)nxy);
    lua_pushinteger(L, r);
    free(xy);
    free(radii);
    free(tg);
    free(out);
    return 2;
}

#ifdef RVO_HAVE_NAVMESH

typedef struct lmesh {
    rvo_navmesh *m; /* NULL once destroyed */
} lmesh;

static lmesh *check_mesh(lua_State *L) {
    lmesh *lm = (lmesh *)luaL_checkudata(L, 1, MESH_NAME);
    if (!lm->m)
        luaL_error(L, "attempt to use a destroyed navmesh");
    return lm;
}

/* The fields of rvo_nav_config, read from the table at idx (rvo.nav fills
 * every one). */
static int read_config(lua_State *L, int idx, rvo_nav_config *c) {
    static const char *const names[] = {"cell_size",       "cell_height",        "agent_height",
                                        "agent_radius",    "agent_max_climb",    "agent_max_slope",
                                        "region_min_size", "region_merge_size",  "edge_max_len",
                                        "edge_max_error",  "detail_sample_dist", "detail_sample_max_error"};
    float *const dst[] = {&c->cell_size,       &c->cell_height,        &c->agent_height,
                          &c->agent_radius,    &c->agent_max_climb,    &c->agent_max_slope,
                          &c->region_min_size, &c->region_merge_size,  &c->edge_max_len,
                          &c->edge_max_error,  &c->detail_sample_dist, &c->detail_sample_max_error};
    *c = rvo_nav_config_default();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        lua_getfield(L, idx, names[i]);
        if (lua_type(L, -1) == LUA_TNUMBER)
            *dst[i] = (float)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    lua_getfield(L, idx, "verts_per_poly");
    if (lua_type(L, -1) == LUA_TNUMBER) {
        const lua_Number v = lua_tonumber(L, -1);
        c->verts_per_poly = v >= -1e9 && v <= 1e9 ? (int32_t)v : -1;
    }
    lua_pop(L, 1);
    return 0;
}

/* build(verts, tris, config) -> mesh | nil, msg, arg */
static int l_build(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    const lua_Integer nv = (lua_Integer)lua_rawlen(L, 1), nt = (lua_Integer)lua_rawlen(L, 2);
    if (nv % 3 != 0 || nv > INT32_MAX)
        return push_failure(L, "coordinate count must be a multiple of 3", 1);
    if (nt % 3 != 0 || nt > INT32_MAX)
        return push_failure(L, "index count must be a multiple of 3", 3);
    rvo_nav_config cfg;
    read_config(L, 3, &cfg);
    lua_Integer bad;
    float *verts = read_floats(L, 1, nv, &bad);
    if (!verts)
        return push_failure(L, bad ? "coordinates must be numbers" : "out of memory", bad ? 1 : 0);
    int32_t *tris = read_indices(L, 2, nt, &bad);
    if (!tris) {
        free(verts);
        return push_failure(L, bad ? "indices must be integers" : "out of memory", bad ? 3 : 0);
    }
    lmesh *lm = (lmesh *)lua_newuserdatauv(L, sizeof *lm, 0);
    lm->m = NULL;
    luaL_setmetatable(L, MESH_NAME);
    rvo_error err;
    lm->m = rvo_nav_build(verts, (int32_t)(nv / 3), tris, (int32_t)(nt / 3), &cfg, &err);
    free(verts);
    free(tris);
    if (!lm->m)
        return push_failure(L, err.message, err.arg);
    return 1;
}

static int l_mesh_destroy(lua_State *L) {
    lmesh *lm = (lmesh *)luaL_checkudata(L, 1, MESH_NAME);
    rvo_nav_destroy(lm->m);
    lm->m = NULL;
    return 0;
}

static int l_mesh_is_destroyed(lua_State *L) {
    lmesh *lm = (lmesh *)luaL_checkudata(L, 1, MESH_NAME);
    lua_pushboolean(L, lm->m == NULL);
    return 1;
}

/* bounds(mesh) -> minx, miny, minz, maxx, maxy, maxz (Recast frame) */
static int l_mesh_bounds(lua_State *L) {
    lmesh *lm = check_mesh(L);
    float bmin[3], bmax[3];
    rvo_nav_bounds(lm->m, bmin, bmax);
    for (int k = 0; k < 3; ++k)
        lua_pushnumber(L, bmin[k]);
    for (int k = 0; k < 3; ++k)
        lua_pushnumber(L, bmax[k]);
    return 6;
}

/* polys(mesh) -> verts (xyz), polys (1-based, 0 pads), verts_per_poly */
static int l_mesh_polys(lua_State *L) {
    lmesh *lm = check_mesh(L);
    int32_t nv = 0, np = 0, nvp = 0;
    const float *v = rvo_nav_verts(lm->m, &nv);
    const int32_t *p = rvo_nav_polys(lm->m, &np, &nvp);
    push_floats(L, v, 3 * nv);
    lua_createtable(L, np * nvp, 0);
    for (int32_t i = 0; i < np * nvp; ++i) {
        lua_pushinteger(L, (lua_Integer)p[i] + 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushinteger(L, nvp);
    return 3;
}

static void read3(lua_State *L, int idx, float out[3]) {
    for (int k = 0; k < 3; ++k)
        out[k] = (float)luaL_checknumber(L, idx + k);
}

/* nearest(mesh, x, y, z, hx, hy, hz) -> x, y, z | false | nil, msg, arg */
static int l_mesh_nearest(lua_State *L) {
    lmesh *lm = check_mesh(L);
    float p[3], he[3], out[3];
    read3(L, 2, p);
    read3(L, 5, he);
    rvo_error err;
    const int r = rvo_nav_nearest(lm->m, p, he, out, &err);
    if (r < 0)
        return push_failure(L, err.message, err.arg);
    if (r == 0) {
        lua_pushboolean(L, 0);
        return 1;
    }
    for (int k = 0; k < 3; ++k)
        lua_pushnumber(L, out[k]);
    return 3;
}

/* find_path(mesh, sx, sy, sz, ex, ey, ez, hx, hy, hz) -> corners (xyz), partial
 * | false, msg, arg (an end off the mesh) | nil, msg, arg */
static int l_mesh_find_path(lua_State *L) {
    lmesh *lm = check_mesh(L);
    float s[3], e[3], he[3];
    read3(L, 2, s);
    read3(L, 5, e);
    read3(L, 8, he);
    rvo_error err;
    int partial = 0;
    float small[3 * 64];
    float *xyz = small;
    int32_t n = rvo_nav_find_path(lm->m, s, e, he, xyz, 64, &partial, &err);
    if (n > 64) {
        xyz = malloc(sizeof *xyz * 3 * (size_t)n);
        if (!xyz)
            return push_failure(L, "out of memory", 0);
        n = rvo_nav_find_path(lm->m, s, e, he, xyz, n, &partial, &err);
    }
    if (n <= 0) {
        if (xyz != small)
            free(xyz);
        if (n == 0) {
            lua_pushboolean(L, 0);
            lua_pushstring(L, err.message);
            lua_pushinteger(L, err.arg);
            return 3;
        }
        return push_failure(L, err.message, err.arg);
    }
    push_floats(L, xyz, 3 * n);
    if (xyz != small)
        free(xyz);
    lua_pushboolean(L, partial);
    return 2;
}

static const luaL_Reg mesh_functions[] = {
    {"build", l_build},
    {"destroy", l_mesh_destroy},
    {"is_destroyed", l_mesh_is_destroyed},
    {"bounds", l_mesh_bounds},
    {"polys", l_mesh_polys},
    {"nearest", l_mesh_nearest},
    {"find_path", l_mesh_find_path},
    {NULL, NULL},
};

#endif /* RVO_HAVE_NAVMESH */

LUAMOD_API int luaopen_rvo_navcore(lua_State *L) {
    lua_newtable(L);
    lua_pushcfunction(L, l_outline);
    lua_setfield(L, -2, "outline");
    lua_pushcfunction(L, l_door_steer);
    lua_setfield(L, -2, "door_steer");
#ifdef RVO_HAVE_NAVMESH
    luaL_setfuncs(L, mesh_functions, 0);
    if (luaL_newmetatable(L, MESH_NAME)) {
        lua_pushcfunction(L, l_mesh_destroy);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
#else
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "has_navmesh");
    return 1;
}
