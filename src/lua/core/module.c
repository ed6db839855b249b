/* rvo.core: luaopen_rvo_core, which puts the files' functions together
 * into the "rvo.world" metatable, its methods table and the module. */
#include "core.h"

LUAMOD_API int luaopen_rvo_core(lua_State *L) {
    static const luaL_Reg *const method_sets[] = {world_methods,    agent_methods, bulk_methods,
                                                  obstacle_methods, query_methods, snapshot_methods,
                                                  listed_methods};
    static const luaL_Reg *const module_sets[] = {world_module_funcs, snapshot_module_funcs};
    size_t k;
    luaL_newmetatable(L, WORLD_NAME); /* mt, with __name */
    lua_pushvalue(L, -1);
    luaL_setfuncs(L, world_meta, 1);
    lua_createtable(L, 0, 64); /* methods */
    for (k = 0; k < sizeof method_sets / sizeof method_sets[0]; k++) {
        lua_pushvalue(L, -2);
        luaL_setfuncs(L, method_sets[k], 1);
    }
    add_param_methods(L);
    lua_setfield(L, -2, "__index");

    lua_createtable(L, 0, 4); /* module */
    for (k = 0; k < sizeof module_sets / sizeof module_sets[0]; k++) {
        lua_pushvalue(L, -2);
        luaL_setfuncs(L, module_sets[k], 1);
    }
    lua_pushstring(L, rvo_version());
    lua_setfield(L, -2, "version");
    return 1;
}
