--- rvo.check — argument checks shared by the Lua modules (jitter, groups,
-- locks, surround, follow, unstick, render, svg).
--
-- Their error messages must read the same on Lua 5.4 and LuaJIT (the
-- differential fuzzer, tests/fuzz/lua_diff.lua, compares them word for
-- word). tostring does not: 3.0 is "3.0" on Lua 5.4 and "3" on LuaJIT,
-- 0/0 is "-nan" or "nan", and a table prints its address. show() prints a
-- value the same way on both.
--
--   local check = require("rvo.check")
--   error("... got " .. check.show(v))
local check = {}
local error, getmetatable = error, getmetatable
local format, huge = string.format, math.huge

--- True for a number that is neither NaN nor infinite.
function check.finite(v)
    return type(v) == "number" and v == v and v > -huge and v < huge
end

--- True for a time step the core takes: a number that stays finite and
-- above 0 as a C float (1e300 and 1e-300 do not).
function check.time_step(v)
    return type(v) == "number" and v >= 1e-45 and v <= 3.4e38
end

--- True for a coordinate or velocity component the core takes: a number
-- within [-1e9, 1e9].
function check.coord(v)
    return type(v) == "number" and v >= -1e9 and v <= 1e9
end

--- v clamped into [-1e9, 1e9], for a sum of valid terms that may leave it.
function check.clamp_coord(v)
    if v > 1e9 then return 1e9 elseif v < -1e9 then return -1e9 end
    return v
end

--- The self check of an object's methods (mt its metatable): the returned
-- function(self, fname), called by the method itself, raises at the
-- method's caller "bad argument #0 to 'fname' (<what> expected: call it as
-- <var>:fname(...))", or, with no what, "calling 'fname' on bad self"; and
-- for an object whose world (self.world) was destroyed, "bad argument #0
-- to 'fname' (the world was destroyed)".
function check.self_checker(mt, what, var)
    local bad = what == nil and "calling '%s' on bad self"
        or format("bad argument #0 to '%%s' (%s expected: call it as %s:%%s(...))", what, var)
    return function(self, fname)
        if getmetatable(self) ~= mt then
            error(format(bad, fname, fname), 3)
        end
        local world = self.world
        if world ~= nil and world:is_destroyed() then
            error(format("bad argument #0 to '%s' (the world was destroyed)", fname), 3)
        end
    end
end

--- v as error messages print it: numbers in %.14g, strings as they are,
-- tables, functions and the like by their type name.
function check.show(v)
    local t = type(v)
    if t == "number" then
        if v ~= v then return "nan" end
        if v == huge then return "inf" end
        if v == -huge then return "-inf" end
        return format("%.14g", v)
    elseif t == "string" then
        return v
    elseif t == "boolean" or t == "nil" then
        return tostring(v)
    end
    return t
end

--- Raises "bad argument #argn to 'fname' (world expected, got T)" at the
-- caller of the function that calls it unless world is a world of either
-- backend.
function check.world(world, fname, argn)
    -- (rvo required here, not above: svg and render use this module without a build)
    if not require("rvo").is_world(world) then
        error(format("bad argument #%d to '%s' (world expected, got %s)", argn, fname, type(world)), 3)
    end
end

--- Raises, at the caller of the module method that calls it, that the
-- world (argument argn of method fname; 0 for the module's own) was
-- destroyed. level: of the caller to blame, counted from here (default 3:
-- the caller of the method that calls check.alive).
function check.alive(world, fname, argn, level)
    if world:is_destroyed() then
        error(format("bad argument #%d to '%s' (the world was destroyed)", argn, fname), level or 3)
    end
end

--- After a world call on agent id raised: raises why, naming method fname,
-- the world's argument number world_argn and the id's id_argn, at the
-- caller of the module method that calls it. (Module methods call the
-- world first and ask why only when it failed: no cost on the way that
-- works.)
function check.agent_failed(world, id, fname, world_argn, id_argn)
    if world:is_destroyed() then
        error(format("bad argument #%d to '%s' (the world was destroyed)", world_argn, fname), 3)
    end
    if type(id) ~= "number" then
        error(format("bad argument #%d to '%s' (agent id expected, got %s)", id_argn, fname, type(id)), 3)
    end
    error(format("bad argument #%d to '%s' (unknown or removed agent id %s)", id_argn, fname, check.show(id)), 3)
end

return check
