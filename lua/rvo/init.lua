-- require("rvo"): crowd local avoidance (ORCA / RVO2) from Lua.
--
-- One API on both runtimes: on LuaJIT (and LÖVE) the FFI binding over
-- librvo (lua/rvo/ffi.lua), on Lua 5.4 the C module rvo.core
-- (src/lua/core/). Both raise the same error messages; the suite in
-- tests/lua runs unchanged against each.
--
--   local rvo = require("rvo")
--   local world = rvo.new_world{ time_step = 0.25, radius = 1.5, max_speed = 2 }
--   local a = world:add_agent(0, 0, { pvx = 1 })
--   world:step()
--   local x, y = world:position(a)

local backend
if rawget(_G, "jit") then
    backend = require("rvo.ffi")
else
    backend = require("rvo.core")
end

local rvo = {
    new_world = backend.new_world,
    load = backend.load, -- rvo.load(world:save()): snapshots
    version = backend.version,
    -- "ffi" or "core": which binding is underneath (for tests and reports).
    backend = rawget(_G, "jit") and "ffi" or "core",
}

-- True when v is a world of either backend.
function rvo.is_world(v)
    local mt = getmetatable(v)
    return mt ~= nil and (mt == backend.World or (type(mt) == "table" and mt.__name == "rvo.world"))
end

return rvo
