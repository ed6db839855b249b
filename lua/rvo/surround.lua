--- rvo.surround — the two-phase surround attack:
-- many melee units take places on a ring around one target.
--
-- Phase 1, approach: a unit casts two probe rays toward the target from the
-- left and right edges of its body. Both clear: it heads straight for the
-- ring. Blocked: it casts five rays from its centre, at the target
-- direction and turned by ±45° and ±90°, and steers along the one with the
-- longest free distance (ties: toward the widest gap between holders; a
-- unit stalled for a second tries the other way). Obstacles, units holding
-- the ring, the target and
-- other agents block rays; fellow units still approaching do not (ORCA
-- keeps them apart) unless they stand (stuck in front of the ring). Within
-- a body width of the band a unit keeps its angle and presses in.
-- Phase 2, on the ring: once inside the attack band
-- [attack_radius - tolerance, attack_radius] the unit holds station. After
-- the solve, the radial part of its new velocity (relative to the target)
-- is removed, the seed's V -> V1 decomposition: avoidance pushes from
-- newcomers only slide it around the ring, so it keeps its attack distance
-- while making room. A small radial term keeps it in the middle of the
-- band, and (spread = true) a tangential one slides it toward the middle
-- between its two neighbours on the ring, counting units arriving within a
-- body width of the band as neighbours: the holders beside an arrival make
-- room for it (bodies do not overlap in the default mode, so it cannot
-- squeeze in), and places end up evenly spaced.
--
--   local surround = require("rvo.surround")
--   local s = surround.new(world, { target = hero, attack_radius = 5, tolerance = 0.5 })
--   for _, id in ipairs(units) do s:add(id) end
--   -- every frame:
--   s:before_solve()        -- preferred velocities of every unit
--   world:solve(dt)
--   s:after_solve()         -- the tangential projection of the holders
--   world:integrate(dt)
--   -- or all four: s:step(dt)
--
-- The target is an agent id (followed as it moves; its velocity is read
-- from the world) or a point (s:set_target(x, y [, vx, vy])). Talks to the
-- world only through its public methods, so it runs on both runtimes.

local check = require("rvo.check")
local state = require("rvo.state")
local show = check.show
local surround = {}

local format, sqrt, abs = string.format, math.sqrt, math.abs
-- Units this far out (or this far from the ring) head straight without
-- probing, and no ray is longer: the core casts rays within 1e9 m only.
local FAR = 1e8
local atan2 = math.atan2 or math.atan -- LuaJIT / Lua 5.4
local TWO_PI = 2 * math.pi
local HALF_SQRT2 = sqrt(0.5)
local CLEAR_BODIES = 1
local STALL_TIME = 1 -- seconds nearly still before a blocked unit tries the other side
-- an approaching unit slower than this (fraction of its max speed, relative
-- to the target) stands in the way: it blocks rays
local STANDING = 0.25

local Surround = {}
Surround.__index = Surround

local finite = check.finite
-- Sums of a target velocity and a unit's own terms, kept within what the
-- core takes (a target may move at up to 1e9 m/s).
local clamp = check.clamp_coord


local check_self = check.self_checker(Surround, "surround", "s")

local KNOWN = { target = true, attack_radius = true, tolerance = true, probe_length = true, spread = true,
    hold = true, probes = true, spread_speed = true }

-- Reads the target argument: an agent id (a number) or a point {x, y}.
local function read_target(self, t, fname, argn)
    if type(t) == "number" then
        if not self.world:is_valid(t) then
            error(format("bad argument #%d to '%s' (target agent %s is unknown or removed)", argn, fname,
                show(t)), 3)
        end
        self.target_id, self.tx, self.ty, self.tvx, self.tvy = t, nil, nil, 0, 0
    elseif type(t) == "table" and check.coord(t[1]) and check.coord(t[2]) then
        self.target_id, self.tx, self.ty, self.tvx, self.tvy = nil, t[1], t[2], 0, 0
    else
        error(format("bad argument #%d to '%s' (target must be an agent id or a point {x, y} within [-1e9, 1e9])",
            argn, fname), 3)
    end
end

--- opts:
--   target         agent id, or point {x, y} (required);
--   attack_radius  outer edge of the band [m] (> 0, default 3);
--   tolerance      width of the band [m] (0 < tolerance < attack_radius, default 0.5);
--   probe_length   length of the five fallback rays [m] (> 0, default attack_radius);
--   spread         holders even out their spacing on the ring (default true);
--   spread_speed   the fastest a holder slides to even out [m/s] (>= 0, default 0.5);
--   hold           phase 2 (default true); false: units keep steering at
--                  the ring with plain ORCA, for comparison;
--   probes         phase 1 rays (default true); false: straight at the ring.
function surround.new(world, opts)
    check.world(world, "new", 1)
    check.alive(world, "new", 1)
    if type(opts) ~= "table" then
        error(format("bad argument #2 to 'new' (options table expected, got %s)", type(opts)), 2)
    end
    local unknown = {}
    for k in pairs(opts) do
        if not KNOWN[k] then unknown[#unknown + 1] = show(k) end
    end
    if #unknown > 0 then
        table.sort(unknown)
        error(format("bad argument #2 to 'new' (unknown option '%s')", unknown[1]), 2)
    end
    local self = setmetatable({ world = world, units = {}, phase_of = {}, holders = {}, stalled = {},
        flip_until = {}, clock = 0 }, Surround)
    if opts.target == nil then
        error("bad argument #2 to 'new' (target is required: an agent id or a point {x, y})", 2)
    end
    read_target(self, opts.target, "new", 2)
    local r = opts.attack_radius == nil and 3 or opts.attack_radius
    if not (finite(r) and r > 0) then
        error(format("bad argument #2 to 'new' (attack_radius must be a finite number > 0, got %s)", show(r)), 2)
    end
    local tol = opts.tolerance == nil and 0.5 or opts.tolerance
    if not (finite(tol) and tol > 0 and tol < r) then
        error(format("bad argument #2 to 'new' (tolerance must be > 0 and < attack_radius, got %s)", show(tol)),
            2)
    end
    local probe = opts.probe_length == nil and r or opts.probe_length
    if not (finite(probe) and probe > 0) then
        error(format("bad argument #2 to 'new' (probe_length must be a finite number > 0, got %s)",
            show(probe)), 2)
    end
    local sp = opts.spread_speed == nil and 0.5 or opts.spread_speed
    if not (finite(sp) and sp >= 0) then
        error(format("bad argument #2 to 'new' (spread_speed must be a finite number >= 0, got %s)", show(sp)),
            2)
    end
    for _, k in ipairs { "spread", "hold", "probes" } do
        if opts[k] ~= nil and type(opts[k]) ~= "boolean" then
            error(format("bad argument #2 to 'new' (%s must be a boolean, got %s)", k, type(opts[k])), 2)
        end
    end
    self.attack_radius, self.tolerance, self.probe_length, self.spread_speed = r, tol, probe, sp
    self.spread = opts.spread ~= false
    self.hold = opts.hold ~= false
    self.probes = opts.probes ~= false
    return self
end

--- Moves the target: an agent id, or a point x, y with an optional
-- velocity vx, vy (default 0) that holders follow.
function Surround:set_target(x, y, vx, vy)
    check_self(self, "set_target")
    if type(x) == "number" and y == nil then
        read_target(self, x, "set_target", 1)
        return
    end
    if not (check.coord(x) and check.coord(y)) then
        error("bad argument #1 to 'set_target' (need an agent id, or x and y within [-1e9, 1e9])", 2)
    end
    vx, vy = vx or 0, vy or 0
    if not (check.coord(vx) and check.coord(vy)) then
        error("bad argument #3 to 'set_target' (vx and vy must be numbers within [-1e9, 1e9])", 2)
    end
    self.target_id, self.tx, self.ty, self.tvx, self.tvy = nil, x, y, vx, vy
end

--- The target's position and velocity.
function Surround:target()
    check_self(self, "target")
    if self.target_id then
        local x, y = self.world:position(self.target_id)
        local vx, vy = self.world:velocity(self.target_id)
        return x, y, vx, vy
    end
    return self.tx, self.ty, self.tvx, self.tvy
end

--- Adds a unit (an agent id); it starts in phase 1.
function Surround:add(id)
    check_self(self, "add")
    if type(id) ~= "number" or not self.world:is_valid(id) then
        error(format("bad argument #1 to 'add' (unknown or removed agent id %s)", show(id)), 2)
    end
    if id == self.target_id then
        error("bad argument #1 to 'add' (the target cannot surround itself)", 2)
    end
    if not self.phase_of[id] then
        self.units[#self.units + 1] = id
        self.phase_of[id] = "approach"
    end
end

--- Removes a unit (its preferred velocity is left as it was).
function Surround:remove(id)
    check_self(self, "remove")
    if self.phase_of[id] then
        self.phase_of[id], self.stalled[id], self.flip_until[id] = nil, nil, nil
        for i = #self.units, 1, -1 do
            if self.units[i] == id then table.remove(self.units, i) end
        end
    end
end

--- "approach", "hold", or nil for an id that is not a unit.
function Surround:phase(id)
    check_self(self, "phase")
    return self.phase_of[id]
end

--- The units, in the order they were added.
function Surround:unit_ids()
    check_self(self, "unit_ids")
    local out = {}
    for i, id in ipairs(self.units) do out[i] = id end
    return out
end

-- Angle of (x, y) around the target in [0, 2pi).
local function angle(dx, dy)
    local a = atan2(dy, dx)
    if a < 0 then a = a + TWO_PI end
    return a
end

-- Scratch of the batched ray casts (world:ray_casts), reused every frame:
-- the rays (6 numbers each), their hits (3 each), and one record per unit
-- that casts (plans[k]: what it needs once its rays are back).
local rays, hits, plans = {}, {}, {}

-- Scratch of the units' reads and writes, one core call each a frame
-- (world:positions_of, ...: a call costs more than the work of a unit on
-- LuaJIT, where this runs interpreted): positions, radii, max speeds, the
-- velocities to set, and the ids they go to.
local unit_xy, unit_radius, unit_speed, out_xy, out_ids = {}, {}, {}, {}, {}

-- The preferred velocity of every unit, set at the end of before_solve in
-- one call (out_pref[id] = {vx, vy}: the casts read positions and
-- velocities, never preferred velocities, so when they are set does not
-- change a bit).
local out_pref = {}
local function set_pref(id, vx, vy)
    local v = out_pref[id]
    if not v then
        v = {}
        out_pref[id] = v
    end
    v[1], v[2] = vx, vy
end

-- out_xy: the preferred velocities of units, in order (each got one).
local function fill_pref(units)
    for k, id in ipairs(units) do
        local v = out_pref[id]
        out_xy[2 * k - 1], out_xy[2 * k] = v[1], v[2]
    end
    for i = #out_xy, 2 * #units + 1, -1 do out_xy[i] = nil end
end

-- Whether the hit hits[i + 1 .. i + 3] of world:ray_casts (distance, agent,
-- obstacle) blocks the way: obstacles, holders, the target, bystanders do.
-- Fellow attackers still approaching do not: they move on, and ORCA keeps
-- apart units walking the same way (else a column's rear ranks would
-- scatter around its front rank).
function Surround:_blocks(i)
    if hits[i + 1] < 0 then return false end -- nothing hit
    local agent = hits[i + 2]
    if agent ~= 0 and self.phase_of[agent] == "approach" then
        -- unless it stands (moves with the target): stuck in front of the
        -- ring, it is in the way like a holder (bodies do not overlap in
        -- the default mode, so the unit behind it would wait for ever)
        local world, tv = self.world, self.target_vel
        local vx, vy = world:velocity(agent)
        vx, vy = vx - tv[1], vy - tv[2]
        local slow = STANDING * world:max_speed(agent)
        if vx * vx + vy * vy >= slow * slow then return false end
    end
    return true
end

-- The way to the ring (radius r_goal) of a unit at (x, y), d > 0 from the
-- target: its direction (ux, uy), the distance left (gap), the speed that
-- does not overshoot it in dt (s), and whether to go straight without
-- probing (no probes, on the ring, or too far out for the casts).
function Surround:_toward_ring(x, y, tx, ty, d, r_goal, speed, dt)
    local ux, uy = (tx - x) / d, (ty - y) / d -- toward the target
    local gap = d - r_goal                     -- > 0: outside the ring
    if gap < 0 then ux, uy, gap = -ux, -uy, -gap end
    local s = speed
    if gap < s * dt then s = gap / dt end
    return ux, uy, gap, s, not self.probes or gap == 0 or gap > FAR or abs(x) > FAR or abs(y) > FAR
end

-- A blocked unit's side to try first (1: its left, -1: its right): toward
-- the widest gap between holders, and the other way for a while once it
-- has stalled (two units heading into each other for the same gap).
function Surround:_side(id, x, y, tx, ty, speed, dt)
    local side = 1
    local gap_angle = self.gap_angle
    if gap_angle then
        local here = angle(x - tx, y - ty)
        -- counter-clockwise around the target is to the unit's right
        side = ((gap_angle - here) % TWO_PI) < math.pi and -1 or 1
    end
    local vx, vy = self.world:velocity(id)
    local stalled = (self.stalled[id] or 0)
    if vx * vx + vy * vy < (0.1 * speed) ^ 2 then stalled = stalled + dt else stalled = 0 end
    self.stalled[id] = stalled
    if stalled > STALL_TIME then self.flip_until[id] = self.clock + STALL_TIME end
    if (self.flip_until[id] or -1) > self.clock then side = -side end
    return side
end

-- Appends a ray to the scratch list (n rays so far); returns n + 1.
local function add_ray(n, x, y, dx, dy, length, clearance)
    local i = 6 * n
    rays[i + 1], rays[i + 2], rays[i + 3], rays[i + 4], rays[i + 5], rays[i + 6] = x, y, dx, dy, length, clearance
    return n + 1
end

-- Casts the first n rays of the scratch list (the rest of it is dropped).
local function cast(world, n)
    for i = #rays, 6 * n + 1, -1 do rays[i] = nil end
    world:ray_casts(rays, hits)
end

-- Phase 1: the preferred velocities of the approaching units, toward the
-- ring. The rays of all units go to the core in one call per round (the
-- probes of every unit, then the fans of the blocked ones): casts only read
-- the world, so the results are those of casting them one at a time.
-- _approach_all's first part: the preferred velocities of the units that
-- need no probe, and a plan for each of the others (plans[1 .. np]);
-- returns np. (No world call: compiled on LuaJIT.)
function Surround:_plan_approach(pos, tx, ty, dt)
    local phase, units = self.phase_of, self.units
    local r_goal = self.attack_radius - 0.5 * self.tolerance
    local tv = self.target_vel
    local np = 0 -- units probing: plans[1 .. np]
    for _, id in ipairs(units) do
        if phase[id] == "approach" then
            local p = pos[id]
            local x, y, d, radius, speed = p[1], p[2], p[3], p[4], p[5]
            if d == 0 then
                set_pref(id, clamp(speed), 0) -- on the target's centre: any way out
            else
                local ux, uy, gap, s, direct = self:_toward_ring(x, y, tx, ty, d, r_goal, speed, dt)
                if direct then
                    set_pref(id, clamp(ux * s), clamp(uy * s))
                elseif d > r_goal and gap <= 2 * radius then
                    -- Arriving: the holders beside it make room (before_solve's
                    -- ring), so keep the angle, move with the target and press in.
                    set_pref(id, clamp(tv[1] + ux * s), clamp(tv[2] + uy * s))
                else
                    -- Two probe rays from the body's edges (just inside, so the
                    -- caster's own disc is what the cast skips), as long as the way
                    -- to the ring. A neighbour pressed against an edge contains that
                    -- ray's start, and the cast skips it: confirm with a ray swept as
                    -- wide as the body.
                    np = np + 1
                    local u = plans[np] or {}
                    plans[np] = u
                    u.id, u.x, u.y, u.ux, u.uy, u.s, u.speed, u.radius = id, x, y, ux, uy, s, speed, radius
                    u.gap, u.ex, u.ey, u.blocked = gap, -uy * radius * 0.999, ux * radius * 0.999, false
                end
            end
        end
    end
    return np
end

function Surround:_approach_all(pos, tx, ty, dt)
    local world = self.world
    local np = self:_plan_approach(pos, tx, ty, dt)
    if np == 0 then return end
    -- The three probes, one round each, of the units whose earlier probes
    -- were clear (the first blocked probe decides, and no ray is cast that
    -- one at a time would not have cast).
    -- (rays written in place, not through add_ray: this runs in the
    -- interpreter on both runtimes, where a call a ray costs more than the
    -- cast saved)
    for round = 1, 3 do
        local i = 0 -- numbers in rays
        for k = 1, np do
            local u = plans[k]
            if not u.blocked then
                u.ray = i / 2 -- (its hit at hits[u.ray + 1 .. u.ray + 3])
                if round == 1 then
                    rays[i + 1], rays[i + 2], rays[i + 6] = u.x + u.ex, u.y + u.ey, 0
                elseif round == 2 then
                    rays[i + 1], rays[i + 2], rays[i + 6] = u.x - u.ex, u.y - u.ey, 0
                else
                    rays[i + 1], rays[i + 2], rays[i + 6] = u.x, u.y, u.radius * 0.999
                end
                rays[i + 3], rays[i + 4], rays[i + 5] = u.ux, u.uy, u.gap
                i = i + 6
            end
        end
        if i == 0 then break end
        cast(world, i / 6)
        for k = 1, np do
            local u = plans[k]
            if not u.blocked and hits[u.ray + 1] >= 0 and self:_blocks(u.ray) then u.blocked = true end
        end
    end
    -- Blocked: five rays from its centre, swept as wide as the body (a thin
    -- ray slips through gaps the body cannot); the freest wins. Ties go to
    -- straight on, then to the side of the widest gap between holders, so
    -- that blocked units all flow toward room instead of into each other.
    local nb, nr = 0, 0 -- units blocked: plans[1 .. nb] (their fans: rays 5 each)
    local c = HALF_SQRT2
    local length = self.probe_length
    if length > FAR then length = FAR end
    for k = 1, np do
        local u = plans[k]
        if not u.blocked then
            set_pref(u.id, clamp(u.ux * u.s), clamp(u.uy * u.s))
        else
            local x, y, ux, uy = u.x, u.y, u.ux, u.uy
            local side = self:_side(u.id, x, y, tx, ty, u.speed, dt)
            local sx, sy = -uy * side, ux * side -- the unit's side
            local cl = u.radius * 0.999
            nr = add_ray(nr, x, y, ux, uy, length, cl)
            nr = add_ray(nr, x, y, c * (ux + sx), c * (uy + sy), length, cl) -- 45 and 90 toward the gap,
            nr = add_ray(nr, x, y, sx, sy, length, cl)
            nr = add_ray(nr, x, y, c * (ux - sx), c * (uy - sy), length, cl) -- then away from it
            nr = add_ray(nr, x, y, -sx, -sy, length, cl)
            nb = nb + 1
            plans[nb], plans[k] = u, plans[nb] -- (nb <= k: the blocked ones move to the front)
        end
    end
    if nb == 0 then return end
    cast(world, nr)
    for k = 1, nb do
        local u = plans[k]
        -- Any ray free for CLEAR_BODIES body widths counts as clear (a tie),
        -- so units keep flowing toward the gap rather than chase the last metre.
        local best, bk = -1, 0
        local enough = CLEAR_BODIES * 2 * u.radius
        for m = 0, 4 do
            local r = 5 * (k - 1) + m
            local d = hits[3 * r + 1]
            local free = d >= 0 and self:_blocks(3 * r) and d or length
            if free > enough then free = enough end
            if free > best then best, bk = free, r end
        end
        set_pref(u.id, clamp(rays[6 * bk + 3] * u.speed), clamp(rays[6 * bk + 4] * u.speed))
    end
end

-- Sorts the ids of list around the ring: by their angle ang[id], ties by
-- id (a total order: any sort gives the same list). Insertion-sorted runs
-- of 8, then merged: no comparator closure a frame, and on LuaJIT no Lua
-- comparator called back from table.sort.
local merge_tmp = {}
local function sort_by_angle(list, ang)
    local n = #list
    local RUN = 8
    for lo = 1, n, RUN do
        local hi = lo + RUN - 1
        if hi > n then hi = n end
        for i = lo + 1, hi do
            local v = list[i]
            local av = ang[v]
            local j = i - 1
            while j >= lo do
                local u = list[j]
                local au = ang[u]
                if au < av or (au == av and u < v) then break end
                list[j + 1] = u
                j = j - 1
            end
            list[j + 1] = v
        end
    end
    local src, dst = list, merge_tmp
    local width = RUN
    while width < n do
        for lo = 1, n, 2 * width do
            local mid, hi = lo + width - 1, lo + 2 * width - 1
            if mid > n then mid = n end
            if hi > n then hi = n end
            local i, j = lo, mid + 1
            for k = lo, hi do
                local take_left = j > hi
                if not take_left and i <= mid then
                    local a, b = src[i], src[j]
                    local aa, ab = ang[a], ang[b]
                    take_left = aa < ab or (aa == ab and a < b)
                end
                if take_left then
                    dst[k] = src[i]
                    i = i + 1
                else
                    dst[k] = src[j]
                    j = j + 1
                end
            end
        end
        src, dst = dst, src
        width = 2 * width
    end
    if src ~= list then
        for k = 1, n do list[k] = src[k] end
    end
end

-- Lua 5.4 casts one ray at a time (world:ray_cast): there a call costs
-- less than writing a ray into a list and reading its hit back, and LuaJIT's
-- interpreter the other way round (about 6000 instructions a ray_cast call).
-- Both ways cast the same rays and give the same bits (surround_spec
-- compares the two runtimes).
local BATCH = rawget(_G, "jit") ~= nil

-- A ray hit that blocks the way: obstacles, holders, the target, bystanders.
-- Fellow attackers still approaching do not: they move on, and ORCA keeps
-- apart units walking the same way (else a column's rear ranks would
-- scatter around its front rank).
function Surround:_blocking(hit)
    if hit and hit.agent and self.phase_of[hit.agent] == "approach" then
        -- unless it stands (moves with the target): stuck in front of the
        -- ring, it is in the way like a holder (bodies do not overlap in
        -- the default mode, so the unit behind it would wait for ever)
        local world, tv = self.world, self.target_vel
        local vx, vy = world:velocity(hit.agent)
        vx, vy = vx - tv[1], vy - tv[2]
        local slow = STANDING * world:max_speed(hit.agent)
        if vx * vx + vy * vy >= slow * slow then return nil end
    end
    return hit
end

-- Phase 1: the preferred velocity of a unit at (x, y), toward the ring.
function Surround:_approach(id, x, y, tx, ty, d, radius, speed, dt)
    local world = self.world
    local r_goal = self.attack_radius - 0.5 * self.tolerance
    local ux, uy, gap, s, direct = self:_toward_ring(x, y, tx, ty, d, r_goal, speed, dt)
    if direct then return ux * s, uy * s end
    if d > r_goal and gap <= 2 * radius then
        -- Arriving: the holders beside it make room (before_solve's ring),
        -- so keep the angle, move with the target and press in.
        local tv = self.target_vel
        return tv[1] + ux * s, tv[2] + uy * s
    end
    -- Two probe rays from the body's edges (just inside, so the caster's own
    -- disc is what ray_cast skips), as long as the way to the ring.
    local ex, ey = -uy * radius * 0.999, ux * radius * 0.999
    -- A neighbour pressed against an edge contains that ray's start, and
    -- ray_cast skips it: confirm with a ray swept as wide as the body. (The
    -- first blocked ray decides: the casts only read the world.)
    if not self:_blocking(world:ray_cast(x + ex, y + ey, ux, uy, gap))
        and not self:_blocking(world:ray_cast(x - ex, y - ey, ux, uy, gap))
        and not self:_blocking(world:ray_cast(x, y, ux, uy, gap, radius * 0.999)) then
        return ux * s, uy * s
    end
    -- Blocked: five rays from its centre, swept as wide as the body (a thin
    -- ray slips through gaps the body cannot); the freest wins. Ties go to
    -- straight on, then to the side of the widest gap between holders, so
    -- that blocked units all flow toward room instead of into each other.
    local side = self:_side(id, x, y, tx, ty, speed, dt)
    local c = HALF_SQRT2
    local sx, sy = -uy * side, ux * side -- the unit's side
    local dirs = {
        ux, uy,
        c * (ux + sx), c * (uy + sy), sx, sy,    -- 45 and 90 toward the gap,
        c * (ux - sx), c * (uy - sy), -sx, -sy,  -- then away from it
    }
    -- Any ray free for CLEAR_BODIES body widths counts as clear (a tie),
    -- so units keep flowing toward the gap rather than chase the last metre.
    local best, bk = -1, 1
    local length = self.probe_length
    if length > FAR then length = FAR end
    local enough = CLEAR_BODIES * 2 * radius
    for k = 1, 9, 2 do
        local hit = self:_blocking(world:ray_cast(x, y, dirs[k], dirs[k + 1], length, radius * 0.999))
        local free = hit and hit.distance or length
        if free > enough then free = enough end
        if free > best then best, bk = free, k end
    end
    return dirs[bk] * speed, dirs[bk + 1] * speed
end


-- before_solve's work on the units' positions, radii and max speeds
-- (unit_xy, unit_radius, unit_speed): the phases, the holders sorted
-- around the ring, the widest gap, the holders' preferred velocities.
-- Returns pos: id -> { x, y, distance to the target, radius, max speed }.
-- (No world call here: LuaJIT compiles it; see the end of the file.)
function Surround:_ring(tx, ty, tvx, tvy, dt)
    local units, phase = self.units, self.phase_of
    local r_attack, tol = self.attack_radius, self.tolerance
    local r_goal = r_attack - 0.5 * tol
    -- who holds now: entering the band starts phase 2; a holder carried more
    -- than a band's width out of it (a target too fast to follow) starts over
    local holders = {}
    local pos = {}
    for k, id in ipairs(units) do
        local x, y = unit_xy[2 * k - 1], unit_xy[2 * k]
        local dx, dy = x - tx, y - ty
        local d = sqrt(dx * dx + dy * dy)
        pos[id] = { x, y, d, unit_radius[k], unit_speed[k] }
        if self.hold then
            if phase[id] == "approach" and d >= r_attack - tol and d <= r_attack then
                phase[id] = "hold"
                self.stalled[id], self.flip_until[id] = nil, nil
            elseif phase[id] == "hold" and (d > r_attack + tol or d < r_attack - 2 * tol) then
                phase[id] = "approach"
            end
        end
        if phase[id] == "hold" then holders[#holders + 1] = id end
    end
    -- holders around the ring, by angle (ties by id)
    local ang = {}
    for _, id in ipairs(holders) do
        local p = pos[id]
        ang[id] = p[3] > 0 and angle(p[1] - tx, p[2] - ty) or 0
    end
    sort_by_angle(holders, ang)
    self.holders = holders
    local nh = #holders
    -- the middle of the widest gap between holders (nil: nobody holds)
    self.gap_angle = nil
    if nh > 0 then
        local widest = -1
        for k, id in ipairs(holders) do
            local a = ang[id]
            local b = ang[holders[k == nh and 1 or k + 1]]
            local width = (b - a) % TWO_PI
            if nh == 1 then width = TWO_PI end
            if width > widest then widest, self.gap_angle = width, (a + 0.5 * width) % TWO_PI end
        end
    end
    -- The ring the holders space themselves on: the holders, and the units
    -- arriving just outside the band (within a body width of it), so that
    -- holders beside a gap too narrow for an arrival slide apart for it
    -- (bodies do not overlap in the default mode: it cannot squeeze in).
    local ring = {}
    for _, id in ipairs(holders) do ring[#ring + 1] = id end
    for _, id in ipairs(units) do
        local p = pos[id]
        if phase[id] == "approach" and p[3] > r_attack and p[3] <= r_attack + 2 * p[4] then
            ring[#ring + 1] = id
            ang[id] = angle(p[1] - tx, p[2] - ty)
        end
    end
    sort_by_angle(ring, ang)
    local nr = #ring
    local slot = {}
    for k, id in ipairs(ring) do slot[id] = k end
    local gain = 1 / dt -- radial: back to mid-band in one step
    for _, id in ipairs(holders) do
        local p = pos[id]
        local d = p[3]
        local ex, ey = 1, 0
        if d > 0 then ex, ey = (p[1] - tx) / d, (p[2] - ty) / d end
        local speed = p[5]
        local radial = (r_goal - d) * gain
        if radial > speed then radial = speed elseif radial < -speed then radial = -speed end
        local tangential = 0
        if self.spread and nr >= 2 then
            local k = slot[id]
            local prev_a = ang[ring[k == 1 and nr or k - 1]]
            local next_a = ang[ring[k == nr and 1 or k + 1]]
            local to_next = (next_a - ang[id]) % TWO_PI
            local from_prev = (ang[id] - prev_a) % TWO_PI
            if nr == 2 then from_prev = TWO_PI - to_next end
            -- Slide toward the middle between the two neighbours on the
            -- ring (1/s gain): the spacing evens out, and an arrival on the
            -- ring (above) gets its slot.
            local push = 0.5 * (to_next - from_prev)
            tangential = push * d
            local cap = self.spread_speed
            if tangential > cap then tangential = cap elseif tangential < -cap then tangential = -cap end
        end
        set_pref(id, clamp(tvx + ex * radial - ey * tangential), clamp(tvy + ey * radial + ex * tangential))
    end
    return pos
end

--- Sets every unit's preferred velocity: phase 1 or phase 2. Units whose
-- agent was removed are dropped. dt defaults to the world's time step.
function Surround:before_solve(dt)
    check_self(self, "before_solve")
    self:_before_solve(dt, "before_solve")
end

-- before_solve's work; fname: the method the user called (errors name it).
function Surround:_before_solve(dt, fname)
    local world = self.world
    dt = dt == nil and world:time_step() or dt
    if not check.time_step(dt) then
        error(format("bad argument #1 to '%s' (dt must be a number in [1e-45, 3.4e38], got %s)", fname,
            show(dt)), 3)
    end
    if self.target_id and not world:is_valid(self.target_id) then
        error(format("bad argument #0 to '%s' (the target agent was removed: set_target first)", fname), 3)
    end
    local tx, ty, tvx, tvy = self:target()
    self.target_vel = { tvx, tvy }
    local units, phase = self.units, self.phase_of
    -- the units' positions (the call checks every id: when it fails, drop
    -- removed agents and read again), radii and max speeds
    if not pcall(world.positions_of, world, units, unit_xy) then
        for i = #units, 1, -1 do
            if not world:is_valid(units[i]) then
                phase[units[i]], self.stalled[units[i]], self.flip_until[units[i]] = nil, nil, nil
                table.remove(units, i)
            end
        end
        world:positions_of(units, unit_xy)
    end
    world:radii_of(units, unit_radius)
    world:max_speeds_of(units, unit_speed)
    local pos = self:_ring(tx, ty, tvx, tvy, dt)
    if BATCH then
        self:_approach_all(pos, tx, ty, dt)
    else
        for _, id in ipairs(units) do
            if phase[id] == "approach" then
                local p = pos[id]
                if p[3] == 0 then
                    set_pref(id, clamp(p[5]), 0) -- on the target's centre: any way out
                else
                    local vx, vy = self:_approach(id, p[1], p[2], tx, ty, p[3], p[4], p[5], dt)
                    set_pref(id, clamp(vx), clamp(vy))
                end
            end
        end
    end
    fill_pref(units)
    world:set_pref_velocities_of(units, out_xy)
    self.frame = { tx = tx, ty = ty, tvx = tvx, tvy = tvy, pos = pos, dt = dt }
    self.clock = self.clock + dt
end

-- Whether a disc of the given radius can move by (vx, vy) * dt without
-- touching an agent or an obstacle (ones it already touches excepted).
local function free_move(world, x, y, vx, vy, dt, radius)
    local len = sqrt(vx * vx + vy * vy) * dt
    if len == 0 then return true end
    if len > FAR then len = FAR end -- (the core casts within 1e9 m)
    return world:ray_cast(x, y, vx, vy, len, radius * 0.999) == nil
end

-- Holder id's projected move, into u: the tangential part of its new
-- velocity (vx, vy) relative to the target plus the radial term that keeps
-- it mid-band (u.px, u.py), with what the fallbacks need. False when it
-- stands on the target's centre (no direction).
local function plan_holder(f, id, r_goal, gain, u, vx, vy)
    local p = f.pos[id]
    local d = p[3]
    if d <= 0 then return false end -- (a distance: never NaN)
    local ex, ey = (p[1] - f.tx) / d, (p[2] - f.ty) / d
    local rx, ry = vx - f.tvx, vy - f.tvy
    local t = rx * -ey + ry * ex -- tangential part of the relative velocity
    local radial = (r_goal - d) * gain
    local speed = p[5]
    if radial > speed then radial = speed elseif radial < -speed then radial = -speed end
    u.id, u.x, u.y, u.ux, u.uy, u.s, u.radius = id, p[1], p[2], ex, ey, radial, p[4]
    u.px, u.py = f.tvx + ex * radial - ey * t, f.tvy + ey * radial + ex * t
    return true
end

-- The new velocity of a holder whose projected move is not free: the
-- radial part alone if that is, else it stands (moves with the target).
local function radial_or_stand(world, f, u, dt)
    local x, y = u.x, u.y
    local px, py = f.tvx + u.ux * u.s, f.tvy + u.uy * u.s
    if world:line_of_sight(x, y, clamp(x + px * dt), clamp(y + py * dt), u.radius) then
        return clamp(px), clamp(py)
    end
    return f.tvx, f.tvy
end

-- The holders of list (their new velocities in unit_xy) planned into
-- plans[1 .. np], each projected move a ray (rays[1 .. 6 nr]); returns np
-- and nr. (No world call: compiled on LuaJIT.)
local function plan_holders(f, list, r_goal, gain, dt)
    local np, nr = 0, 0
    for k, id in ipairs(list) do
        local u = plans[np + 1] or {}
        plans[np + 1] = u
        if plan_holder(f, id, r_goal, gain, u, unit_xy[2 * k - 1], unit_xy[2 * k]) then
            np = np + 1
            local px, py = u.px, u.py
            local len = sqrt(px * px + py * py) * dt
            if len == 0 then
                u.ray = nil -- (no move: free)
            else
                if len > FAR then len = FAR end -- (the core casts within 1e9 m)
                u.ray = 3 * nr -- (its hit at hits[u.ray + 1 ..])
                local i = 6 * nr
                rays[i + 1], rays[i + 2], rays[i + 3], rays[i + 4] = u.x, u.y, px, py
                rays[i + 5], rays[i + 6] = len, u.radius * 0.999
                nr = nr + 1
            end
        end
    end
    return np, nr
end

-- Appends a new velocity to set (n so far); returns n + 1.
local function put_new(n, id, vx, vy)
    out_ids[n + 1], out_xy[2 * n + 1], out_xy[2 * n + 2] = id, vx, vy
    return n + 1
end

--- Between world:solve and world:integrate: keeps only the tangential part
-- of each holder's new velocity (relative to the target), plus the radial
-- term that keeps it mid-band. Falls back to no sliding, then to standing
-- (moving with the target), when the projected move would run into an
-- agent or an obstacle (the projection drops what ORCA asked of it
-- radially, so it must not trust ORCA's guarantee).
function Surround:after_solve()
    check_self(self, "after_solve")
    local world = self.world
    if not world:is_solved() then
        error("bad argument #0 to 'after_solve' (call it between world:solve and world:integrate)", 2)
    end
    local f = self.frame
    if not f then
        error("bad argument #0 to 'after_solve' (call before_solve first)", 2)
    end
    self.frame = nil
    if not self.hold then return end
    local r_goal = self.attack_radius - 0.5 * self.tolerance
    local dt = f.dt
    local gain = 1 / dt
    -- the holders' new velocities, read in one call (holders removed since
    -- before_solve dropped), and the projected ones set in one call
    local list = self.holders
    if not pcall(world.new_velocities_of, world, list, unit_xy) then
        local live = {}
        for _, id in ipairs(list) do
            if world:is_valid(id) then live[#live + 1] = id end
        end
        list = live
        world:new_velocities_of(list, unit_xy)
    end
    local n = 0 -- new velocities to set: out_ids[1 .. n]
    if not BATCH then -- one cast per holder (cheaper than a batch's bookkeeping on Lua 5.4)
        local u = plans[1] or {}
        plans[1] = u
        for k, id in ipairs(list) do
            if plan_holder(f, id, r_goal, gain, u, unit_xy[2 * k - 1], unit_xy[2 * k]) then
                if free_move(world, u.x, u.y, u.px, u.py, dt, u.radius) then
                    n = put_new(n, id, clamp(u.px), clamp(u.py))
                else
                    n = put_new(n, id, radial_or_stand(world, f, u, dt))
                end
            end
        end
    else
        -- The projected moves first, each swept by a disc of the holder's
        -- size (touching ones excepted) in one core call: the casts only
        -- read the world, the new velocities set below do not change what
        -- they see.
        local np, nr = plan_holders(f, list, r_goal, gain, dt)
        if nr > 0 then cast(world, nr) end
        for k = 1, np do
            local u = plans[k]
            if u.ray == nil or hits[u.ray + 1] < 0 then
                n = put_new(n, u.id, clamp(u.px), clamp(u.py))
            else
                n = put_new(n, u.id, radial_or_stand(world, f, u, dt))
            end
        end
    end
    for i = #out_ids, n + 1, -1 do out_ids[i] = nil end
    for i = #out_xy, 2 * n + 1, -1 do out_xy[i] = nil end
    world:set_new_velocities_of(out_ids, out_xy)
end

--- before_solve(dt), world:solve(dt), after_solve(), world:integrate(dt).
function Surround:step(dt)
    check_self(self, "step")
    dt = dt == nil and self.world:time_step() or dt
    if not check.time_step(dt) then -- (before anything changes)
        error(format("bad argument #1 to 'step' (dt must be a number in [1e-45, 3.4e38], got %s)", show(dt)), 2)
    end
    self:_before_solve(dt, "step")
    self.world:solve(dt)
    self:after_solve()
    self.world:integrate(dt)
end

--- The attack's state as a string (rvo.state): target, options, units and
-- their phases, the holders and the stall clocks (and, saved between
-- before_solve and after_solve, that step's frame). Save it with
-- world:save(); surround.load(loaded_world, s) goes on bit for bit.
function Surround:save()
    check_self(self, "save")
    return state.pack("surround", self, { world = true })
end

local function id_set_ok(t, value_ok)
    if type(t) ~= "table" then return false end
    for id, v in pairs(t) do
        if type(id) ~= "number" or not value_ok(v) then return false end
    end
    return true
end

local function valid_state(f)
    local function num(v) return finite(v) end
    local function opt_num(v) return v == nil or finite(v) end
    for _, k in ipairs { "attack_radius", "tolerance", "probe_length", "spread_speed", "clock", "tvx", "tvy" } do
        if not num(f[k]) then return false end
    end
    if not (opt_num(f.tx) and opt_num(f.ty) and opt_num(f.target_id) and opt_num(f.gap_angle)) then return false end
    if f.target_id == nil and (f.tx == nil or f.ty == nil) then return false end
    for _, k in ipairs { "spread", "hold", "probes" } do
        if type(f[k]) ~= "boolean" then return false end
    end
    if type(f.units) ~= "table" or type(f.holders) ~= "table" then return false end
    for _, id in ipairs(f.units) do
        local ph = type(f.phase_of) == "table" and f.phase_of[id]
        if type(id) ~= "number" or (ph ~= "approach" and ph ~= "hold") then return false end
    end
    for _, id in ipairs(f.holders) do
        if type(id) ~= "number" then return false end
    end
    if not id_set_ok(f.phase_of, function(v) return v == "approach" or v == "hold" end) then return false end
    if not id_set_ok(f.stalled, num) or not id_set_ok(f.flip_until, num) then return false end
    local tv = f.target_vel
    if tv ~= nil and (type(tv) ~= "table" or not num(tv[1]) or not num(tv[2])) then return false end
    local fr = f.frame
    if fr ~= nil then
        if type(fr) ~= "table" or not (num(fr.tx) and num(fr.ty) and num(fr.tvx) and num(fr.tvy) and num(fr.dt)) then
            return false
        end
        local function point(p) return type(p) == "table" and num(p[1]) and num(p[2]) and num(p[3]) end
        if not id_set_ok(fr.pos, point) then return false end
    end
    return true
end

--- A Surround for world (the world loaded from the same save) from s, a
-- string of Surround:save().
function surround.load(world, s)
    check.world(world, "load", 1)
    check.alive(world, "load", 1)
    local f = state.unpack("surround", s, "load", 2)
    if not valid_state(f) then error("bad argument #2 to 'load' (saved surround state is corrupted)", 2) end
    f.world = world
    return setmetatable(f, Surround)
end

-- LuaJIT 2.1.0-beta3: the per-frame code runs in the interpreter. Compiled,
-- it crashed LuaJIT (SIGSEGV: a jump into the heap) in 3 of 359 runs of the
-- surround spec's four scenes (and in 2 of 47 with table.sort and a compiled
-- ray_cast); interpreted, 0 of 1100; and compiled it was slower in
-- tests/bench/modules_cost.lua (docs/performance.md, 2026-11-27). The rays
-- go to the core in a few world:ray_casts calls a frame, where one
-- interpreted ray_cast call a ray cost about 6000 instructions.
if jit then
    for _, f in ipairs { Surround._before_solve, Surround._ring, Surround._plan_approach, Surround._approach_all,
        Surround._blocks, Surround.after_solve, Surround._toward_ring, Surround._side, sort_by_angle, add_ray, cast,
        plan_holder, plan_holders, radial_or_stand, set_pref, fill_pref, put_new } do
        jit.off(f, true)
    end
end

surround.Surround = Surround
return surround
