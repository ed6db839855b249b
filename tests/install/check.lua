-- Run by tests/install/run against an installed copy: checks that
-- require("rvo") loads from the install root given as arg[1] (not from the
-- source or build tree) and that a small scene works.
local root = assert(arg[1], "usage: check.lua INSTALL_ROOT")
local rvo = require("rvo")

local function under_root(path, what)
    assert(path and path:sub(1, #root) == root, what .. " not loaded from " .. root .. ": " .. tostring(path))
end

-- The Lua files.
under_root(package.searchpath("rvo", package.path), "rvo/init.lua")
if rvo.backend == "core" then
    under_root(package.searchpath("rvo.core", package.cpath), "rvo/core.so")
else
    -- LuaJIT: the librvo the FFI binding mapped into this process.
    local maps = assert(io.open("/proc/self/maps"), "no /proc/self/maps"):read("a")
    local lib = maps:match("%s(/%S*librvo%.so%S*)\n")
    under_root(lib, "librvo")
end

local w = rvo.new_world { time_step = 0.25, radius = 1, max_speed = 2 }
local a = w:add_agent(-10, 0, { pvx = 2 })
local b = w:add_agent(10, 0.1, { pvx = -2 })
for _ = 1, 40 do w:step() end
local ax = w:position(a)
local bx = w:position(b)
assert(ax > 5 and bx < -5, "agents did not pass each other")
print(string.format("installed rvo %s (%s) works on %s", rvo.version, rvo.backend, _VERSION))
