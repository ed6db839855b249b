--- rvo.jitter — preferred velocities toward goals, with a small random
-- perturbation so that symmetric scenes do not deadlock.
--
-- Two agents walking exactly at each other (or four meeting at a point, or
-- two swapping in a corridor) have mirror-image preferred velocities; ORCA
-- then gives mirror-image answers and they stop nose to nose. A tiny
-- sideways perturbation of the preferred velocity breaks the tie.
--
--   local jitter = require("rvo.jitter")
--   local j = jitter.new{ seed = 7, amount = 0.1 }
--   local left = j:steer(world, id, gx, gy)   -- sets the preferred velocity, returns the distance left
--
-- The generator is written in plain arithmetic on numbers below 2^53, so
-- the same seed gives the same numbers (and, through the core, the same
-- run) on Lua 5.4 and LuaJIT. Only + - * / % and sqrt are used.

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local jitter = {}

local floor, sqrt = math.floor, math.sqrt
local format = string.format

local finite = check.finite

---------------------------------------------------------------------------
-- The generator: L'Ecuyer's combined multiplicative congruential generator
-- (1988; period about 2.3e18). Every product stays below 2^47, exact in a
-- double, so LuaJIT (no 64-bit integers in plain Lua) and Lua 5.4 agree.

local M1, A1 = 2147483563, 40014
local M2, A2 = 2147483399, 40692
local TWO53 = 9007199254740992

local Rng = {}
Rng.__index = Rng

local function check_seed(seed, fname, argn, what)
    if not (finite(seed) and seed >= 0 and seed < TWO53 and floor(seed) == seed) then
        error(format("bad argument #%d to '%s' (%s must be an integer in 0..2^53-1, got %s)",
            argn, fname, what, show(seed)), 3)
    end
end

local function new_rng(seed)
    -- Split the seed over both states (each must be in 1..m-1).
    local s1 = seed % (M1 - 1) + 1
    local s2 = floor(seed / (M1 - 1)) % (M2 - 1) + 1
    local self = setmetatable({ s1 = s1, s2 = s2 }, Rng)
    -- Neighbouring seeds start close together: stir a little.
    for _ = 1, 8 do self:next() end
    return self
end

--- A generator of its own: jitter.rng(seed), seed an integer in 0..2^53-1
-- (default 1).
function jitter.rng(seed)
    if seed == nil then seed = 1 end
    check_seed(seed, "rng", 1, "seed")
    return new_rng(seed)
end

--- A number in (0, 1), a multiple of 1/2147483563.
function Rng:next()
    local s1 = (self.s1 * A1) % M1
    local s2 = (self.s2 * A2) % M2
    self.s1, self.s2 = s1, s2
    local z = (s1 - s2) % (M1 - 1) -- 0..M1-2
    return (z + 1) / M1
end

--- A number in (lo, hi).
function Rng:uniform(lo, hi)
    return lo + (hi - lo) * self:next()
end

--- An integer in lo..hi (both included; hi - lo below 2^31).
function Rng:integer(lo, hi)
    if not (finite(lo) and finite(hi) and floor(lo) == lo and floor(hi) == hi and lo <= hi
            and hi - lo < M1 - 1) then
        error(format("bad argument #1 to 'integer' (need integers lo <= hi, hi - lo < 2^31, got %s, %s)",
            show(lo), show(hi)), 2)
    end
    return lo + floor(self:next() * (hi - lo + 1))
end

--- The state as two numbers, and back: save a run and resume it later.
function Rng:state()
    return self.s1, self.s2
end

function Rng:set_state(s1, s2)
    if not (finite(s1) and floor(s1) == s1 and s1 >= 1 and s1 < M1
            and finite(s2) and floor(s2) == s2 and s2 >= 1 and s2 < M2) then
        error("bad argument #1 to 'set_state' (not a state returned by state())", 2)
    end
    self.s1, self.s2 = s1, s2
end

jitter.Rng = Rng

---------------------------------------------------------------------------
-- Steering.

local Jitter = {}
Jitter.__index = Jitter

-- A world of either backend (the check rvo.nav and rvo.follow use too).
local is_world = require("rvo").is_world

local KNOWN = { seed = true, rng = true, amount = true, slow_radius = true }

--- opts (all optional):
--   seed         integer 0..2^53-1 for a generator of its own (default 1);
--   rng          a generator to draw from instead: an rvo.jitter rng, any
--                object with a :next() method, or a function, returning
--                numbers in [0, 1) (share one between several steerers);
--   amount       largest sideways perturbation, as a fraction of the speed
--                (0..1, default 0.1: about 5.7 degrees);
--   slow_radius  distance from the goal where the agent starts slowing
--                down linearly (>= 0, default 0: full speed until the last
--                step, which lands exactly on the goal).
function jitter.new(opts)
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #1 to 'new' (options table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local unknown = {}
    for k in pairs(opts) do
        if not KNOWN[k] then unknown[#unknown + 1] = show(k) end
    end
    if #unknown > 0 then
        table.sort(unknown)
        error(format("bad argument #1 to 'new' (unknown option '%s')", unknown[1]), 2)
    end
    local amount = opts.amount == nil and 0.1 or opts.amount
    if not (finite(amount) and amount >= 0 and amount <= 1) then
        error(format("bad argument #1 to 'new' (amount must be in 0..1, got %s)", show(amount)), 2)
    end
    local slow = opts.slow_radius == nil and 0 or opts.slow_radius
    if not (finite(slow) and slow >= 0) then
        error(format("bad argument #1 to 'new' (slow_radius must be a finite number >= 0, got %s)",
            show(slow)), 2)
    end
    local draw, own
    if opts.rng ~= nil then
        if opts.seed ~= nil then
            error("bad argument #1 to 'new' (give seed or rng, not both)", 2)
        end
        local r = opts.rng
        if type(r) == "function" then
            draw = r
        elseif type(r) == "table" and type(r.next) == "function" then
            draw = function() return r:next() end
        else
            error(format("bad argument #1 to 'new' (rng must be a function or an object with :next(), got %s)",
                type(r)), 2)
        end
    else
        local seed = opts.seed == nil and 1 or opts.seed
        check_seed(seed, "new", 1, "seed")
        own = new_rng(seed)
        local r = own
        draw = function() return r:next() end
    end
    return setmetatable({ draw = draw, rng = own, amount = amount, slow_radius = slow }, Jitter)
end

--- Sets the preferred velocity of agent `id` toward (gx, gy) at `speed`
-- (default: the agent's max_speed), turned sideways by a random fraction
-- of at most `amount`. The perturbation fades while slowing down and is
-- off on the step that reaches the goal, so agents stop on their goals.
-- Returns the distance left to the goal.
function Jitter:steer(world, id, gx, gy, speed)
    if getmetatable(self) ~= Jitter then
        error("bad argument #0 to 'steer' (jitter expected: call it as j:steer(...))", 2)
    end
    if not is_world(world) then
        error(format("bad argument #1 to 'steer' (world expected, got %s)", type(world)), 2)
    end
    if not finite(gx) then
        error(format("bad argument #3 to 'steer' (gx must be a finite number, got %s)", show(gx)), 2)
    end
    if not finite(gy) then
        error(format("bad argument #4 to 'steer' (gy must be a finite number, got %s)", show(gy)), 2)
    end
    if speed ~= nil and not (finite(speed) and speed >= 0) then
        error(format("bad argument #5 to 'steer' (speed must be a finite number >= 0, got %s)",
            show(speed)), 2)
    end
    local ok, x, y = pcall(world.position, world, id)
    if not ok then check.agent_failed(world, id, "steer", 1, 2) end
    speed = speed or world:max_speed(id)
    local dx, dy = gx - x, gy - y
    local d = sqrt(dx * dx + dy * dy)
    if d == 0 or speed == 0 then
        world:set_pref_velocity(id, 0, 0)
        return d
    end
    local s = speed
    if d < self.slow_radius then s = speed * d / self.slow_radius end
    local last = d / world:time_step() -- the speed that lands on the goal this step
    local ux, uy = dx / d, dy / d
    if last <= s then
        world:set_pref_velocity(id, ux * last, uy * last)
        return d
    end
    -- Turn sideways by e (a fraction of the speed), keep the length.
    local e = self.amount * (s / speed) * (2 * self.draw() - 1)
    local vx, vy = ux - uy * e, uy + ux * e
    local k = s / sqrt(vx * vx + vy * vy)
    world:set_pref_velocity(id, vx * k, vy * k)
    return d
end

--- steer for many agents in one call: agent ids[k] toward the goal
-- (goals[2k-1], goals[2k]), at its max_speed. Agents closer than `arrive`
-- (default 0) to their goal stop (preferred velocity 0). left (optional
-- table): filled with the distances to the goals. Returns the number of
-- agents still going (given a non-zero preferred velocity). The same bits
-- as calling steer for each agent in order (and arrive as
-- `if d < arrive then world:set_pref_velocity(id, 0, 0)`); with its own
-- generator it is one call to the core (world:steer), which on Lua 5.4
-- costs a tenth of the per-agent calls.
function Jitter:steer_all(world, ids, goals, arrive, left)
    if getmetatable(self) ~= Jitter then
        error("bad argument #0 to 'steer_all' (jitter expected: call it as j:steer_all(...))", 2)
    end
    if not is_world(world) then
        error(format("bad argument #1 to 'steer_all' (world expected, got %s)", type(world)), 2)
    end
    if type(ids) ~= "table" then
        error(format("bad argument #2 to 'steer_all' (list of agent ids expected, got %s)", type(ids)), 2)
    end
    if type(goals) ~= "table" then
        error(format("bad argument #3 to 'steer_all' (list of goal coordinates expected, got %s)", type(goals)), 2)
    end
    if arrive == nil then arrive = 0 end
    if not (finite(arrive) and arrive >= 0) then
        error(format("bad argument #4 to 'steer_all' (arrive must be a finite number >= 0, got %s)",
            show(arrive)), 2)
    end
    if left ~= nil and type(left) ~= "table" then
        error(format("bad argument #5 to 'steer_all' (table expected, got %s)", type(left)), 2)
    end
    if self.rng then
        local ok, n = pcall(world.steer, world, ids, goals, self.amount, self.slow_radius, arrive, self.rng, left)
        if not ok then
            -- the core's message names world:steer's arguments: ids 1, goals 2
            local arg, why = tostring(n):match("bad argument #(%d) to 'steer' %((.*)%)$")
            if arg == "1" or arg == "2" then
                error(format("bad argument #%d to 'steer_all' (%s)", arg + 1, why), 2)
            end
            error(tostring(n):gsub("^steer: ", "steer_all: "), 2)
        end
        return n
    end
    -- a generator given to new (any :next or function): agent by agent
    if #goals ~= 2 * #ids then
        error(format("bad argument #3 to 'steer_all' (expected %d numbers (2 per id), got %d)", 2 * #ids,
            #goals), 2)
    end
    local moving = 0
    for k = 1, #ids do
        local id, gx, gy = ids[k], goals[2 * k - 1], goals[2 * k]
        local ok, x, y = pcall(world.position, world, id)
        if not ok then check.agent_failed(world, id, "steer_all", 2, 2) end
        local d
        local dx, dy = gx - x, gy - y
        if sqrt(dx * dx + dy * dy) < arrive then
            world:set_pref_velocity(id, 0, 0)
            d = sqrt(dx * dx + dy * dy)
        else
            d = self:steer(world, id, gx, gy)
            if d > 0 and world:max_speed(id) > 0 then moving = moving + 1 end
        end
        if left then left[k] = d end
    end
    if left then
        local k = #ids + 1
        while left[k] ~= nil do left[k] = nil; k = k + 1 end
    end
    return moving
end

--- The next number of this steerer's generator, in (0, 1): for scripts
-- that want other random choices from the same reproducible stream.
function Jitter:next()
    return self.draw()
end

jitter.Jitter = Jitter
--- The steerer's state as a string (rvo.state): its options and its own
-- generator's state (a steerer given rng = ... saves nothing of that
-- generator: save it yourself, and this raises). jitter.load(s) goes on.
function Jitter:save()
    if getmetatable(self) ~= Jitter then
        error("bad argument #0 to 'save' (jitter expected: call it as j:save())", 2)
    end
    if not self.rng then
        error("bad argument #0 to 'save' (this steerer draws from a generator given to new: save that one)", 2)
    end
    return state.encode({ kind = "jitter", fields = { amount = self.amount, slow_radius = self.slow_radius,
        s1 = self.rng.s1, s2 = self.rng.s2 } })
end

--- A steerer from s, a string of Jitter:save().
function jitter.load(s)
    local f = state.unpack("jitter", s, "load", 1)
    local ok, j = pcall(jitter.new, { amount = f.amount, slow_radius = f.slow_radius })
    if ok then ok = pcall(Rng.set_state, j.rng, f.s1, f.s2) end
    if not ok then error("bad argument #1 to 'load' (saved jitter state is corrupted)", 2) end
    return j
end

return jitter
