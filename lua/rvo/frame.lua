--- rvo.frame — several behaviour modules in one step, in the right order,
-- and saved and loaded with the world.
--
--   local frame = require("rvo.frame")
--   local f = frame.new(world, { unstick = u, surround = { s }, locks = L, groups = g, jitter = j })
--   -- every frame: set the preferred velocities (j:steer, your own), then
--   f:step(dt)
--   local saved = f:save()             -- the world and every module, one string
--   local f2 = frame.load(saved)       -- f2.world, f2.locks, ... go on bit for bit
--
-- f:step(dt) runs, in this order (and why):
--   1. unstick:apply(world, dt)  turns the preferred velocities of stalled
--                                agents: it must see the script's own;
--   2. surround:before_solve(dt) sets its units' preferred velocities, over
--                                the script's and unstick's (the ring decides);
--   3. locks:update(dt)          releases expired locks, and those whose
--                                preferred velocity changed: it must see the
--                                final ones; surround units and targets are
--                                exempt (they must keep sliding round);
--   4. world:solve(dt)
--   5. surround:after_solve()    projects its holders' new velocities;
--   6. locks:after_solve()       locks whoever had to avoid, with the velocity
--                                that will really be used (after 5);
--   7. world:integrate(dt);
--   8. locks:after_integrate(dt)  releases locked agents the hard-body pass
--                                had to move (a lock ends on contact).
-- groups and jitter have no step of their own (groups changes the world at
-- once; jitter is called by the script in step 0); the frame holds them so
-- that f:save() and frame.load() carry them. Each module's own step() stays
-- the shortcut for using it alone.

local rvo = require("rvo")
local check = require("rvo.check")
local state = require("rvo.state")
local locks = require("rvo.locks")
local surround = require("rvo.surround")
local unstick = require("rvo.unstick")
local groups = require("rvo.groups")
local jitter = require("rvo.jitter")

local frame = {}
local format = string.format

local Frame = {}
Frame.__index = Frame

local check_self = check.self_checker(Frame, "frame", "f")

local KINDS = {
    locks = locks.Locks,
    unstick = getmetatable(unstick.new()),
    groups = groups.Groups,
    jitter = getmetatable(jitter.new()),
}

--- A frame for world with the given modules (all optional): locks, unstick,
-- groups, jitter (one each) and surround (one attack, or a list of them).
-- The modules that hold a world must hold this one.
function frame.new(world, mods)
    check.world(world, "new", 1)
    check.alive(world, "new", 1)
    if mods == nil then mods = {} end
    if type(mods) ~= "table" then
        error(format("bad argument #2 to 'new' (table of modules expected, got %s)", type(mods)), 2)
    end
    local self = setmetatable({ world = world, surround = {} }, Frame)
    local keys = {}
    for k in pairs(mods) do keys[#keys + 1] = check.show(k) end
    table.sort(keys)
    for _, k in ipairs(keys) do
        local m = mods[k]
        if k == "surround" then
            local list = getmetatable(m) == surround.Surround and { m } or m
            if type(list) ~= "table" then
                error("bad argument #2 to 'new' (surround must be an attack or a list of them)", 2)
            end
            for i, s in ipairs(list) do
                if getmetatable(s) ~= surround.Surround then
                    error(format("bad argument #2 to 'new' (surround[%d] is not an rvo.surround attack)", i), 2)
                end
                if s.world ~= world then
                    error(format("bad argument #2 to 'new' (surround[%d] holds another world)", i), 2)
                end
                self.surround[i] = s
            end
        elseif KINDS[k] then
            if getmetatable(m) ~= KINDS[k] then
                error(format("bad argument #2 to 'new' (%s is not an rvo.%s object)", k, k), 2)
            end
            if m.world ~= nil and m.world ~= world then
                error(format("bad argument #2 to 'new' (%s holds another world)", k), 2)
            end
            self[k] = m
        else
            error(format("bad argument #2 to 'new' (unknown module '%s')", k), 2)
        end
    end
    return self
end

--- One step of dt seconds (default: the world's time step) through every
-- module, in the order of the header. goals (optional, id -> {x, y}) tell
-- unstick who has arrived (see Unstick:apply).
function Frame:step(dt, goals)
    check_self(self, "step")
    local world = self.world
    dt = dt == nil and world:time_step() or dt
    if not check.time_step(dt) then
        error(format("bad argument #1 to 'step' (dt must be a number in [1e-45, 3.4e38], got %s)", check.show(dt)), 2)
    end
    if self.unstick then self.unstick:apply(world, dt, goals) end
    for _, s in ipairs(self.surround) do s:_before_solve(dt, "step") end
    local L = self.locks
    if L then
        for _, s in ipairs(self.surround) do
            for _, id in ipairs(s.units) do
                if not L.exempted[id] then L:exempt(id) end
            end
            local t = s.target_id
            if t and not L.exempted[t] then L:exempt(t) end
        end
        L:update(dt)
    end
    world:solve(dt)
    for _, s in ipairs(self.surround) do s:after_solve() end
    if L then L:after_solve() end
    world:integrate(dt)
    if L then L:after_integrate(dt) end
end

--- The world and every module of the frame, as one string (rvo.state).
function Frame:save()
    check_self(self, "save")
    local t = { world = self.world:save(), surround = {} }
    for _, k in ipairs { "locks", "unstick", "groups", "jitter" } do
        if self[k] then t[k] = self[k]:save() end
    end
    for i, s in ipairs(self.surround) do t.surround[i] = s:save() end
    return state.encode({ kind = "frame", fields = t })
end

--- A frame, with a new world, from s, a string of Frame:save(): the world
-- is rvo.load's, each module the one its load() gives.
function frame.load(s)
    local f = state.unpack("frame", s, "load", 1)
    if type(f.world) ~= "string" or type(f.surround) ~= "table" then
        error("bad argument #1 to 'load' (saved frame is corrupted)", 2)
    end
    local ok, world = pcall(rvo.load, f.world)
    if not ok then error(format("bad argument #1 to 'load' (saved frame's world: %s)", tostring(world)), 2) end
    local mods, surrounds = {}, {}
    local loaders = { locks = locks.load, groups = groups.load }
    for _, k in ipairs { "locks", "groups" } do
        if f[k] ~= nil then
            local okk, m = pcall(loaders[k], world, f[k])
            if not okk then error(format("bad argument #1 to 'load' (saved frame's %s is corrupted)", k), 2) end
            mods[k] = m
        end
    end
    for _, pair in ipairs { { "unstick", unstick.load }, { "jitter", jitter.load } } do
        local k = pair[1]
        if f[k] ~= nil then
            local okk, m = pcall(pair[2], f[k])
            if not okk then error(format("bad argument #1 to 'load' (saved frame's %s is corrupted)", k), 2) end
            mods[k] = m
        end
    end
    for i, ss in ipairs(f.surround) do
        local okk, m = pcall(surround.load, world, ss)
        if not okk then error(format("bad argument #1 to 'load' (saved frame's surround[%d] is corrupted)", i), 2) end
        surrounds[i] = m
    end
    mods.surround = surrounds
    return frame.new(world, mods)
end

frame.Frame = Frame
return frame
