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
--   L:after_integrate(dt) -- a lock ends on contact
--   -- or all five at once: L:step(dt)
--
-- Every agent of the world is managed (those of opts.groups only, when
-- given) except those locked by someone else (world:lock outside this
-- module), the exempted ones (L:exempt(id): a hero, surround holders) and
-- idle ones (a preferred speed of at most 1% of the max speed: parked
-- agents stay free to give way).
-- The timers are the world's (world:advance_locks, lock_solved,
-- release_pushed: one call each a frame, however many agents, so the
-- module costs next to nothing on Lua 5.4 too) and are saved with it.

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local locks = {}

local format = string.format

local Locks = {}
Locks.__index = Locks

local finite = check.finite


local check_self = check.self_checker(Locks, "locks", "L")

local KNOWN = { after_avoid = true, after_clean = true, tolerance = true, release_on_change = true,
    groups = true }
local ALL_GROUPS = 4294967295

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
--                as Unreal);
--   groups       only agents in one of these groups are locked: a groups
--                bit mask (integer 0..2^32-1, default every group), e.g.
--                g:value("red", "blue") of an rvo.groups registry.
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
    local self = setmetatable({ world = world, exempted = {} }, Locks)
    for _, k in ipairs { "after_avoid", "after_clean", "tolerance" } do
        local v = opts[k]
        if v == nil then
            v = (k == "after_avoid" and 0.2) or (k == "after_clean" and 0.001) or 1e-4
        end
        if not (finite(v) and v >= 0) then
            error(format("bad argument #2 to 'new' (%s must be a finite number >= 0, got %s)", k, show(v)), 2)
        end
        if k == "tolerance" and v > 3.4e38 then -- world:lock_solved takes it as a C float
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
    local g = opts.groups
    if g == nil then g = ALL_GROUPS end
    if not (finite(g) and g >= 0 and g <= ALL_GROUPS and g == math.floor(g)) then
        error(format("bad argument #2 to 'new' (groups must be an integer in 0..2^32-1, got %s)", show(g)), 2)
    end
    self.groups = g
    return self
end

--- Advances every timer by dt seconds and unlocks the agents whose timer
-- ran out, or whose preferred velocity changed by more than
-- release_on_change since they were locked (so call it after setting this
-- frame's preferred velocities). The timers live in the world
-- (world:advance_locks): removed agents take theirs with them. Returns the
-- number of locks ended.
function Locks:update(dt)
    check_self(self, "update")
    if not (finite(dt) and dt >= 0) then
        error(format("bad argument #1 to 'update' (dt must be a finite number >= 0, got %s)", show(dt)), 2)
    end
    return self.world:advance_locks(dt)
end

--- Call between world:solve and world:integrate: locks every unlocked
-- agent (not exempted, in one of the module's groups) to its new velocity,
-- for after_avoid if it diverted from its preferred velocity, else for
-- after_clean (world:lock_solved, one call). Returns the number of agents
-- locked for avoiding.
function Locks:after_solve()
    check_self(self, "after_solve")
    local world = self.world
    if not world:is_solved() then
        error("bad argument #0 to 'after_solve' (call it between world:solve and world:integrate)", 2)
    end
    return world:lock_solved(self.tolerance, self.after_avoid, self.after_clean, self.release_on_change,
        self.groups)
end

--- Call after world:integrate(dt): a lock ends on contact. A locked agent
-- that the hard-body pass moved (it pressed into someone who could not get
-- away) is released, so that it avoids again from the next solve instead
-- of pressing on; with the lock it would also never count as stalled, and
-- the jam rules and rvo.unstick that free a blocked agent need that
-- (world:release_pushed). Returns the number released (0 when not called
-- right after an integrate).
function Locks:after_integrate(dt)
    check_self(self, "after_integrate")
    local world = self.world
    dt = dt == nil and world:time_step() or dt
    if not check.time_step(dt) then
        error(format("bad argument #1 to 'after_integrate' (dt must be a number in [1e-45, 3.4e38], got %s)",
            show(dt)), 2)
    end
    -- (outside its place, after a solve or before any integrate, there is
    -- no move to read: nothing is released, as before the timers moved
    -- into the world)
    local ok, n = pcall(world.release_pushed, world)
    return ok and n or 0
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

--- Seconds left on the agent's lock (0 when it has no timed lock, or the
-- agent is gone).
function Locks:time_left(id)
    check_self(self, "time_left")
    local world = self.world
    if type(id) ~= "number" or not world:is_valid(id) then return 0 end
    return world:lock_time(id)
end

--- Unlocks an agent now (if this module locked it).
function Locks:release(id)
    check_self(self, "release")
    local world = self.world
    if type(id) == "number" and world:is_valid(id) and world:lock_time(id) > 0 then
        world:unlock(id)
    end
end

--- Unlocks every agent this module locked.
function Locks:release_all()
    check_self(self, "release_all")
    local world = self.world
    for _, id in ipairs(world:ids()) do
        if world:lock_time(id) > 0 then world:unlock(id) end
    end
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
        self.exempted[id] = true
    end
    -- (world:set_auto_lock(id, false) ends the agent's timed lock)
    if self.world:is_valid(id) then self.world:set_auto_lock(id, on == false) end
    return self
end

local TRANSIENT = { world = true }

--- The module's state as a string (rvo.state): the exempted agents and the
-- options (the timers are the world's: world:save() holds them). Save it
-- with world:save(); locks.load(loaded_world, s) continues the run.
function Locks:save()
    check_self(self, "save")
    return state.pack("locks", self, TRANSIENT)
end

local function valid_state(f)
    if type(f.exempted) ~= "table" then return false end
    if f.timer == nil and f.pref == nil then return true end
    -- a save from before the timers moved into the world: timer and pref
    if type(f.timer) ~= "table" or type(f.pref) ~= "table" then return false end
    for id, t in pairs(f.timer) do
        if type(id) ~= "number" or not finite(t) then return false end
        local p = f.pref[id]
        if type(p) ~= "table" or not finite(p[1]) or not finite(p[2]) then return false end
    end
    return true
end

local function valid_exempted(f)
    for id, on in pairs(f.exempted) do
        if type(id) ~= "number" or on ~= true then return false end
    end
    return true
end

--- A Locks for world (the world loaded from the same save) from s, a
-- string of Locks:save(): the timers (the world's) go on where they were,
-- and release_all releases the agents they lock. A save from before the
-- timers moved into the world (with its own timer table) loads too: its
-- locks end at once.
function locks.load(world, s)
    check.world(world, "load", 1)
    check.alive(world, "load", 1)
    local f = state.unpack("locks", s, "load", 2)
    local ok, self = pcall(locks.new, world, { after_avoid = f.after_avoid, after_clean = f.after_clean,
        tolerance = f.tolerance, release_on_change = f.release_on_change, groups = f.groups })
    if not ok or not valid_state(f) or not valid_exempted(f) then
        error("bad argument #2 to 'load' (saved locks state is corrupted)", 2)
    end
    local ids = {}
    for id in pairs(f.timer or {}) do ids[#ids + 1] = id end
    table.sort(ids)
    for _, id in ipairs(ids) do
        if world:is_valid(id) and world:is_locked(id) then world:unlock(id) end
    end
    ids = {}
    for id in pairs(f.exempted) do ids[#ids + 1] = id end
    table.sort(ids)
    for _, id in ipairs(ids) do
        self.exempted[id] = true
        if world:is_valid(id) then world:set_auto_lock(id, false) end
    end
    return self
end

locks.Locks = Locks
return locks
