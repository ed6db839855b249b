--- rvo.unstick — escalation for agents the world reports as stalled.
--
-- The core tracks per agent how long it has made no progress along its
-- preferred velocity (world:set_stall_threshold, world:stalled). A crowd
-- pressing into a doorway from both sides, or two groups meeting in a
-- corridor, can hold each other still for good: every agent's best ORCA
-- answer is to wait. This helper breaks such standstills by escalating,
-- per stalled agent, for `hold` seconds at a time:
--   level 1  jitter: the preferred velocity turned by a random angle up to
--            `jitter` radians (new draw every frame);
--   level 2  side bias: turned `side` radians to the right as well, so two
--            agents nose to nose both sidestep and slide past each other;
--   level 3  weight: the agent's weight set to `low` or `high` (a coin per
--            escalation): one side of a standoff yields, the other goes.
-- An agent that stalls again within `memory` seconds of its last escalation
-- goes one level up; otherwise it starts at level 1. Weights are restored
-- when an escalation ends (or at u:release()).
--
--   local unstick = require("rvo.unstick")
--   local u = unstick.new{ seed = 1 }
--   -- every frame: set the preferred velocities (e.g. rvo.jitter), then
--   u:apply(world)          -- turns the stalled agents' preferred velocities
--   world:step()
--
-- Deterministic: agents are visited in id order and the random numbers come
-- from rvo.jitter's generator, so a seed gives the same run on Lua 5.4 and
-- LuaJIT.

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local jitter = require("rvo.jitter")

local unstick = {}

local format, floor = string.format, math.floor
local cos, sin, sort = math.cos, math.sin, table.sort

local finite = check.finite

local Unstick = {}
Unstick.__index = Unstick

local OPTIONS = {
    -- name = { default, lo, hi }
    jitter = { 0.6, 0, 3.2 },   -- largest random turn [rad]
    side = { 0.8, 0, 1.6 },     -- right turn from level 2 on [rad]
    hold = { 1.5, 0, 1e9 },     -- seconds an escalation lasts
    memory = { 4, 0, 1e9 },     -- seconds within which a new stall escalates further
    low = { 0.1, 0, 1 },        -- level 3 weights
    high = { 0.9, 0, 1 },
    arrive = { 2, 0, 1e9 },     -- m: agents this near their goal (apply's goals) are never escalated
}
local ORDER = { "jitter", "side", "hold", "memory", "low", "high", "arrive" }

--- unstick.new{ seed = 1, jitter = 0.6, side = 0.8, hold = 1.5, memory = 4,
-- low = 0.1, high = 0.9 }; every field optional.
function unstick.new(opts)
    if opts == nil then opts = {} end
    if type(opts) ~= "table" then
        error(format("bad argument #1 to 'new' (table expected, got %s)", type(opts)), 2)
    end
    local keys = {}
    for k in pairs(opts) do keys[#keys + 1] = show(k) end
    sort(keys)
    for _, k in ipairs(keys) do
        if k ~= "seed" and not OPTIONS[k] then
            error(format("bad argument #1 to 'new' (unknown option '%s')", k), 2)
        end
    end
    local seed = opts.seed == nil and 1 or opts.seed
    if not (finite(seed) and seed >= 0 and floor(seed) == seed and seed < 2 ^ 53) then
        error(format("bad argument #1 to 'new' (seed must be an integer in 0..2^53-1, got %s)", show(seed)), 2)
    end
    local self = setmetatable({ rng = jitter.rng(seed), active = {}, recent = {} }, Unstick)
    for _, k in ipairs(ORDER) do
        local spec, v = OPTIONS[k], opts[k]
        if v == nil then v = spec[1] end
        if not (finite(v) and v >= spec[2] and v <= spec[3]) then
            error(format("bad argument #1 to 'new' (%s must be a number in [%g, %g], got %s)",
                k, spec[2], spec[3], show(v)), 2)
        end
        self[k] = v
    end
    return self
end

-- A world of either backend (the check rvo.nav and rvo.follow use too).
local is_world = require("rvo").is_world

local function sorted_keys(t)
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = k end
    sort(ks)
    return ks
end

local stalled_ids, queued = {}, {}
-- idle: a preferred speed of at most 1% of the max speed (the core's test)
local idle_sq = 0.01 * 0.01

--- Escalates the world's stalled agents and turns the preferred velocities
-- of every agent under escalation (call it after setting them, each frame).
-- dt [s] defaults to the world's time_step. goals (optional): a table
-- id -> { x, y }; an agent within `arrive` of its goal, or with a zero
-- preferred velocity, is never escalated and its escalation ends (pushed
-- off its spot in a parked crowd, it only has to step back); nor is one
-- queued behind a parked agent (idle, or home) or behind a stalled one that
-- wants the same way: only the front of a standoff escalates. Returns the
-- number of agents under escalation.
function Unstick:apply(world, dt, goals)
    if getmetatable(self) ~= Unstick then
        error("bad argument #0 to 'apply' (unstick expected: call it as u:apply(...))", 2)
    end
    if not is_world(world) or type(world.stalled) ~= "function" then
        error(format("bad argument #1 to 'apply' (world expected, got %s)", type(world)), 2)
    end
    check.alive(world, "apply", 1)
    if dt == nil then dt = world:time_step() end
    if not (finite(dt) and dt > 0) then
        error(format("bad argument #2 to 'apply' (dt must be a finite number > 0, got %s)", show(dt)), 2)
    end
    if goals ~= nil and type(goals) ~= "table" then
        error(format("bad argument #3 to 'apply' (table of goals expected, got %s)", type(goals)), 2)
    end
    local arrive_sq = self.arrive * self.arrive
    -- idle, waiting behind a parked agent, or arrived (near its goal): no
    -- escalation
    -- within arrive of its goal (goals given)
    local function home(id, x, y)
        local g = goals and goals[id]
        if type(g) ~= "table" then return false end
        local gx, gy = g[1], g[2]
        if not (finite(gx) and finite(gy)) then return false end
        return (x - gx) * (x - gx) + (y - gy) * (y - gy) <= arrive_sq
    end
    local function resting(id)
        local px, py = world:pref_velocity(id)
        if px == 0 and py == 0 then return true end
        -- waiting behind a parked agent: nothing to unstick (the default
        -- mode's parked agents make way by themselves)
        local x, y = world:position(id)
        local r = world:radius(id)
        for _, nb in ipairs(world:neighbors(id)) do -- (nearest first)
            local nx, ny = world:position(nb)
            local dx, dy = nx - x, ny - y
            local reach = 1.5 * (r + world:radius(nb))
            if dx * dx + dy * dy > reach * reach then break end
            local ahead = dx * px + dy * py
            if ahead > 0 then
                -- parked ahead: idle, or home (within arrive of its goal)
                local qx, qy = world:pref_velocity(nb)
                if qx * qx + qy * qy <= idle_sq * world:max_speed(nb) ^ 2 or home(nb, nx, ny) then
                    return true
                end
                -- queued: the one ahead is stalled too, wanting the same way
                -- (within 45 degrees); only the front of a standoff escalates
                local same = qx * px + qy * py
                if queued[nb] and same > 0 and 2 * same * same > (qx * qx + qy * qy) * (px * px + py * py) then
                    return true
                end
            end
        end
        return home(id, x, y)
    end
    local active, recent = self.active, self.recent
    -- the stalled agents (a queue behind a stalled one is left alone)
    local n = world:stalled(stalled_ids)
    for k in pairs(queued) do queued[k] = nil end
    for i = 1, n do queued[stalled_ids[i]] = true end
    -- forget old escalations
    for _, id in ipairs(sorted_keys(recent)) do
        local r = recent[id]
        r.age = r.age + dt
        if r.age > self.memory then recent[id] = nil end
    end
    -- new escalations, in id order
    local fresh = {}
    for i = 1, n do fresh[i] = stalled_ids[i] end
    sort(fresh)
    for _, id in ipairs(fresh) do
        if not active[id] and not resting(id) then
            local r = recent[id]
            local level = r and math.min(r.level + 1, 3) or 1
            recent[id] = nil
            local a = { level = level, left = self.hold }
            if level == 3 then
                a.weight = world:weight(id)
                world:set_weight(id, self.rng:next() < 0.5 and self.low or self.high)
            end
            active[id] = a
        end
    end
    -- effects, in id order
    local count = 0
    for _, id in ipairs(sorted_keys(active)) do
        local a = active[id]
        if not world:is_valid(id) then
            active[id] = nil
        elseif resting(id) then -- it arrived: the escalation ends, its weight comes back
            if a.weight then world:set_weight(id, a.weight) end
            active[id] = nil
            recent[id] = { level = a.level, age = 0 }
        else
            local angle = self.jitter * (2 * self.rng:next() - 1)
            if a.level >= 2 then angle = angle - self.side end
            local vx, vy = world:pref_velocity(id)
            local c, s = cos(angle), sin(angle)
            world:set_pref_velocity(id, c * vx - s * vy, s * vx + c * vy)
            a.left = a.left - dt
            if a.left <= 0 then
                if a.weight then world:set_weight(id, a.weight) end
                active[id] = nil
                recent[id] = { level = a.level, age = 0 }
            end
            count = count + 1
        end
    end
    return count
end

--- Ends every escalation and restores the weights it changed.
function Unstick:release(world)
    for _, id in ipairs(sorted_keys(self.active)) do
        local a = self.active[id]
        if a.weight and world:is_valid(id) then world:set_weight(id, a.weight) end
        self.active[id] = nil
    end
    self.recent = {}
end

--- Level (1..3) of agent id's current escalation, or 0.
function Unstick:level(id)
    local a = self.active[id]
    return a and a.level or 0
end

--- The escalations as a string (rvo.state): options, the generator's state,
-- the running and recent escalations (with the weights to restore).
-- unstick.load(s) goes on bit for bit.
function Unstick:save()
    if getmetatable(self) ~= Unstick then
        error("bad argument #0 to 'save' (unstick expected: call it as u:save())", 2)
    end
    local fields = {}
    for k, v in pairs(self) do fields[k] = v end
    fields.rng = { self.rng.s1, self.rng.s2 }
    return state.encode({ kind = "unstick", fields = fields })
end

local function valid_state(f)
    if type(f.active) ~= "table" or type(f.recent) ~= "table" or type(f.rng) ~= "table" then return false end
    for id, a in pairs(f.active) do
        if type(id) ~= "number" or type(a) ~= "table" or not finite(a.level) or not finite(a.left)
            or (a.weight ~= nil and not finite(a.weight)) then
            return false
        end
    end
    for id, r in pairs(f.recent) do
        if type(id) ~= "number" or type(r) ~= "table" or not finite(r.level) or not finite(r.age) then return false end
    end
    return true
end

--- An Unstick from s, a string of Unstick:save().
function unstick.load(s)
    local f = state.unpack("unstick", s, "load", 1)
    local opts = {}
    for _, k in ipairs(ORDER) do opts[k] = f[k] end
    local ok, u = pcall(unstick.new, opts)
    if ok then ok = valid_state(f) and pcall(u.rng.set_state, u.rng, f.rng[1], f.rng[2]) end
    if not ok then error("bad argument #1 to 'load' (saved unstick state is corrupted)", 2) end
    u.active, u.recent = f.active, f.recent
    return u
end

return unstick
