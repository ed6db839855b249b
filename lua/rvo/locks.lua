--- rvo.locks — Unreal's avoidance lock timers (UAvoidanceManager).
--
-- After every solve, an agent whose new velocity differs from its preferred
-- one had to divert: it is locked to that new velocity for
-- `after_avoid` seconds (default 0.2). An agent that kept its preferred
-- velocity is locked for `after_clean` seconds (default 0.001, Unreal's
-- value: with a frame longer than that it is free again at the next
-- update). While locked, an agent keeps its velocity and the others treat it
-- as a non-reciprocating moving obstacle (the core's world:lock), so a
-- deviation is not re-decided every frame: less back-and-forth.
--
--   local locks = require("rvo.locks")
--   local L = locks.new(world, { after_avoid = 0.2 })
--   -- every frame:
--   L:update(dt)         -- advance the timers, unlock the expired
--   world:solve(dt)
--   L:after_solve()      -- lock whoever diverted (or kept its course)
--   world:integrate(dt)
--   -- or all four at once: L:step(dt)
--
-- Every agent of the world is managed except those locked by someone else
-- (world:lock outside this module): they are left alone. Talks to the world
-- only through its public methods (ids, avoiding, new_velocity, lock,
-- unlock, is_locked, is_valid, solve, integrate).

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local locks = {}

local format, huge = string.format, math.huge

-- Timers at or below this count as expired: 0.2 - 2 * 0.1 is not exactly 0.
local EXPIRED = 1e-9
local CONTACT = 1e-3 -- m: a pass moved a locked agent farther than float error

local Locks = {}
Locks.__index = Locks

local finite = check.finite


local check_self = check.self_checker(Locks, "locks", "L")

local KNOWN = { after_avoid = true, after_clean = true, tolerance = true, release_on_change = true }

--- opts (all optional):
--   after_avoid  seconds an agent that diverted keeps its new velocity (>= 0, default 0.2);
--   after_clean  seconds an agent that kept its preferred velocity is locked (>= 0, default 0.001);
--   tolerance    how far [m/s] the new velocity may differ from the preferred
--                one and still count as clean (>= 0, default 1e-4);
--   release_on_change  a lock ends early when the agent's preferred velocity
--                moves farther than this [m/s] from what it was when the lock
--                began: the script changed its mind (arrival, a new goal).
--                Without it an agent locked on its last step overshoots its
--                goal and circles back (> 0, default 0.5; math.huge: never,
--                as Unreal).
function locks.new(world, opts)
    check.world(world, "new", 1)
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #2 to 'new' (options table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local unknown = {}
    for k in pairs(opts) do
        if not KNOWN[k] then unknown[#unknown + 1] = show(k) end
    end
    if #unknown > 0 then
        table.sort(unknown)
        error(format("bad argument #2 to 'new' (unknown option '%s')", unknown[1]), 2)
    end
    local self = setmetatable({ world = world, timer = {}, pref = {}, exempted = {}, idbuf = {}, avbuf = {},
        posbuf = {}, before = {}, seen = {}, stamp = 0 }, Locks)
    for _, k in ipairs { "after_avoid", "after_clean", "tolerance" } do
        local v = opts[k]
        if v == nil then
            v = (k == "after_avoid" and 0.2) or (k == "after_clean" and 0.001) or 1e-4
        end
        if not (finite(v) and v >= 0) then
            error(format("bad argument #2 to 'new' (%s must be a finite number >= 0, got %s)", k, show(v)), 2)
        end
        if k == "tolerance" and v > 3.4e38 then -- world:avoiding takes it as a C float
            error(format("bad argument #2 to 'new' (tolerance must be at most 3.4e38, got %s)", show(v)), 2)
        end
        self[k] = v
    end
    local r = opts.release_on_change
    if r == nil then r = 0.5 end
    if not (type(r) == "number" and r > 0) then -- (math.huge allowed)
        error(format("bad argument #2 to 'new' (release_on_change must be a number > 0, got %s)", show(r)), 2)
    end
    self.release_on_change = r
    return self
end

-- Ids with a running timer, in id order (the order of unlocks).
function Locks:_timed()
    local out = {}
    for id in pairs(self.timer) do out[#out + 1] = id end
    table.sort(out)
    return out
end

--- Advances every timer by dt seconds and unlocks the agents whose timer
-- ran out, or whose preferred velocity changed by more than
-- release_on_change since they were locked (so call it after setting this
-- frame's preferred velocities). Agents removed from the world are forgotten.
function Locks:update(dt)
    check_self(self, "update")
    if not (finite(dt) and dt >= 0) then
        error(format("bad argument #1 to 'update' (dt must be a finite number >= 0, got %s)", show(dt)), 2)
    end
    local world, timer, pref = self.world, self.timer, self.pref
    local limit = self.release_on_change
    local limit_sq = limit * limit
    -- the timed agents in the world's order (no sort: the order of unlocks
    -- does not matter), then the timers of removed agents are forgotten
    local ids, count = world:ids(self.idbuf)
    if type(ids) == "number" then ids, count = self.idbuf, ids end
    local seen, stamp = self.seen, self.stamp + 1
    self.stamp = stamp
    for k = 1, count do
        local id = ids[k]
        if timer[id] then
            seen[id] = stamp
            local left = timer[id] - dt
            local changed = false
            if limit < huge then
                local px, py = world:pref_velocity(id)
                local p = pref[id]
                changed = (px - p[1]) ^ 2 + (py - p[2]) ^ 2 > limit_sq
            end
            if left <= EXPIRED or changed then
                timer[id], pref[id] = nil, nil
                world:unlock(id)
            else
                timer[id] = left
            end
        end
    end
    for id in pairs(timer) do
        if seen[id] ~= stamp then timer[id], pref[id], seen[id] = nil, nil, nil end
    end
end

--- Call between world:solve and world:integrate: locks every unlocked
-- agent to its new velocity, for after_avoid if it diverted from its
-- preferred velocity, else for after_clean. Returns the number of agents
-- locked for avoiding.
function Locks:after_solve()
    check_self(self, "after_solve")
    local world = self.world
    if not world:is_solved() then
        error("bad argument #0 to 'after_solve' (call it between world:solve and world:integrate)", 2)
    end
    local avoiding = {}
    local list, n = world:avoiding(self.tolerance, self.avbuf)
    if type(list) == "number" then list, n = self.avbuf, list end
    for i = 1, n do avoiding[list[i]] = true end
    local ids, count = world:ids(self.idbuf)
    if type(ids) == "number" then ids, count = self.idbuf, ids end
    local locked = 0
    for i = 1, count do
        local id = ids[i]
        -- (world:avoiding skips locked agents, so the check below suffices)
        if not world:is_locked(id) and not self.exempted[id] then
            local t = avoiding[id] and self.after_avoid or self.after_clean
            if t > EXPIRED then
                world:lock(id, world:new_velocity(id))
                self.timer[id] = t
                self.pref[id] = { world:pref_velocity(id) }
                if avoiding[id] then locked = locked + 1 end
            end
        end
    end
    -- where the locked agents are before integrate: after_integrate tells
    -- whom the hard-body pass moved
    local pos, agents = world:positions(self.posbuf)
    if type(pos) == "number" then pos, agents = self.posbuf, pos end
    local before = self.before
    for k = 1, 2 * agents do before[k] = pos[k] end
    for k = #before, 2 * agents + 1, -1 do before[k] = nil end
    return locked
end

--- Call after world:integrate(dt): a lock ends on contact. A locked agent
-- that the hard-body pass moved (it pressed into someone who could not get
-- away) is released, so that it avoids again from the next solve instead
-- of pressing on; with the lock it would also never count as stalled, and
-- the jam rules and rvo.unstick that free a blocked agent need that.
-- Returns the number released.
function Locks:after_integrate(dt)
    check_self(self, "after_integrate")
    local world = self.world
    dt = dt == nil and world:time_step() or dt
    if not check.time_step(dt) then
        error(format("bad argument #1 to 'after_integrate' (dt must be a number in [1e-45, 3.4e38], got %s)",
            show(dt)), 2)
    end
    local before = self.before
    local ids, count = world:ids(self.idbuf)
    if type(ids) == "number" then ids, count = self.idbuf, ids end
    if #before ~= 2 * count then return 0 end -- agents came or went since after_solve: no pass to read
    local pos = world:positions(self.posbuf)
    if type(pos) == "number" then pos = self.posbuf end
    local released, timer = 0, self.timer
    for k = 1, count do
        local id = ids[k]
        if timer[id] and world:is_locked(id) then
            local vx, vy = world:velocity(id)
            local ex = pos[2 * k - 1] - (before[2 * k - 1] + vx * dt)
            local ey = pos[2 * k] - (before[2 * k] + vy * dt)
            if ex * ex + ey * ey > CONTACT * CONTACT then
                timer[id], self.pref[id] = nil, nil
                world:unlock(id)
                released = released + 1
            end
        end
    end
    return released
end

--- update(dt), world:solve(dt), after_solve(), world:integrate(dt), after_integrate(dt).
function Locks:step(dt)
    check_self(self, "step")
    dt = dt == nil and self.world:time_step() or dt
    if not check.time_step(dt) then -- (before anything changes)
        error(format("bad argument #1 to 'step' (dt must be a number in [1e-45, 3.4e38], got %s)", show(dt)), 2)
    end
    self:update(dt)
    self.world:solve(dt)
    self:after_solve()
    self.world:integrate(dt)
    self:after_integrate(dt)
end

--- Seconds left on the agent's lock (0 when this module does not lock it).
function Locks:time_left(id)
    check_self(self, "time_left")
    return self.timer[id] or 0
end

--- Unlocks an agent now (if this module locked it).
function Locks:release(id)
    check_self(self, "release")
    if self.timer[id] then
        self.timer[id], self.pref[id] = nil, nil
        if self.world:is_valid(id) then self.world:unlock(id) end
    end
end

--- Unlocks every agent this module locked.
function Locks:release_all()
    check_self(self, "release_all")
    for _, id in ipairs(self:_timed()) do self:release(id) end
end

--- Keeps agent id out of the lock timers (on = true, the default) or lets
-- it in again (false): a hero, or surround units that must keep sliding.
-- An exempted agent locked now is released.
function Locks:exempt(id, on)
    check_self(self, "exempt")
    if type(id) ~= "number" or id ~= id then
        error(format("bad argument #1 to 'exempt' (agent id expected, got %s)", id ~= id and "nan" or type(id)), 2)
    end
    if on ~= nil and type(on) ~= "boolean" then
        error(format("bad argument #2 to 'exempt' (boolean expected, got %s)", type(on)), 2)
    end
    if on == false then
        self.exempted[id] = nil
    else
        self:release(id)
        self.exempted[id] = true
    end
    return self
end

-- The lock timers as update() would leave them plain: the fields saved.
local TRANSIENT = { world = true, idbuf = true, avbuf = true, posbuf = true, seen = true, stamp = true }

--- The module's state as a string (rvo.state): the timers, the preferred
-- velocities they were locked with, the exempted agents and the options.
-- Save it with world:save(); locks.load(loaded_world, s) continues the run.
function Locks:save()
    check_self(self, "save")
    return state.pack("locks", self, TRANSIENT)
end

local function valid_state(f)
    for _, k in ipairs { "timer", "pref", "exempted" } do
        if type(f[k]) ~= "table" then return false end
    end
    for id, t in pairs(f.timer) do
        if type(id) ~= "number" or not finite(t) then return false end
        local p = f.pref[id]
        if type(p) ~= "table" or not finite(p[1]) or not finite(p[2]) then return false end
    end
    for id, on in pairs(f.exempted) do
        if type(id) ~= "number" or on ~= true then return false end
    end
    return true
end

--- A Locks for world (the world loaded from the same save) from s, a
-- string of Locks:save(): the timers go on where they were, and
-- release_all releases the agents they lock.
function locks.load(world, s)
    check.world(world, "load", 1)
    check.alive(world, "load", 1)
    local f = state.unpack("locks", s, "load", 2)
    local ok, self = pcall(locks.new, world, { after_avoid = f.after_avoid, after_clean = f.after_clean,
        tolerance = f.tolerance, release_on_change = f.release_on_change })
    if not ok or not valid_state(f) then
        error("bad argument #2 to 'load' (saved locks state is corrupted)", 2)
    end
    self.timer, self.pref, self.exempted = f.timer, f.pref, f.exempted
    return self
end

locks.Locks = Locks
return locks
