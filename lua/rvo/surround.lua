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

local format = string.format
-- (the per-frame work, its constants among it, is the core's:
-- src/services/surround.c)

local Surround = {}
Surround.__index = Surround

local finite = check.finite


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

-- Scratch of the per-frame core calls (world:surround_plan): each unit's
-- phase (1: hold), stall time and flip deadline, in the order of units;
-- the attack's settings (every field set before each call).
local u_phase, u_stalled, u_flip, core_def = {}, {}, {}, {}

-- The attack's settings for the core (rvo_surround_def), with the target
-- and the step of this frame.
function Surround:_def(tx, ty, tvx, tvy, dt)
    local def = core_def
    def.x, def.y, def.vx, def.vy, def.dt, def.clock = tx, ty, tvx, tvy, dt, self.clock
    def.attack_radius, def.tolerance, def.probe_length = self.attack_radius, self.tolerance, self.probe_length
    def.spread_speed, def.spread, def.hold, def.probes = self.spread_speed, self.spread, self.hold, self.probes
    return def
end

-- The units' phases and timers into the scratch lists.
local function to_lists(self)
    local phase, stalled, flip = self.phase_of, self.stalled, self.flip_until
    local units = self.units
    for k, id in ipairs(units) do
        u_phase[k], u_stalled[k], u_flip[k] = phase[id] == "hold" and 1 or 0, stalled[id] or 0, flip[id] or -1
    end
    for k = #u_phase, #units + 1, -1 do
        u_phase[k], u_stalled[k], u_flip[k] = nil, nil, nil
    end
end

--- Sets every unit's preferred velocity: phase 1 or phase 2. Units whose
-- agent was removed are dropped. dt defaults to the world's time step.
function Surround:before_solve(dt)
    check_self(self, "before_solve")
    self:_before_solve(dt, "before_solve")
end

-- before_solve's work; fname: the method the user called (errors name it).
-- The phases, the ring and the probes of every unit are one core call
-- (world:surround_plan: the Lua of this module's earlier versions, in C;
-- on LuaJIT that Lua had to run interpreted, where it cost more than the
-- solve of the units).
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
    local def = self:_def(tx, ty, tvx, tvy, dt)
    local holders = {}
    to_lists(self)
    local ok, _, gap = pcall(world.surround_plan, world, units, u_phase, u_stalled, u_flip, def, holders)
    if not ok then -- (the call checks every id first) drop removed agents
        for i = #units, 1, -1 do
            if not world:is_valid(units[i]) then self:remove(units[i]) end
        end
        to_lists(self)
        _, gap = world:surround_plan(units, u_phase, u_stalled, u_flip, def, holders)
    end
    local stalled, flip = self.stalled, self.flip_until
    for k, id in ipairs(units) do
        phase[id] = u_phase[k] == 1 and "hold" or "approach"
        local st, fl = u_stalled[k], u_flip[k]
        stalled[id], flip[id] = st ~= 0 and st or nil, fl >= 0 and fl or nil
    end
    self.holders, self.gap_angle = holders, gap
    self.frame = { tx = tx, ty = ty, tvx = tvx, tvy = tvy, dt = dt }
    self.clock = self.clock + dt
end

--- Between world:solve and world:integrate: keeps only the tangential part
-- of each holder's new velocity (relative to the target), plus the radial
-- term that keeps it mid-band. Falls back to no sliding, then to standing
-- (moving with the target), when the projected move would run into an
-- agent or an obstacle (the projection drops what ORCA asked of it
-- radially, so it must not trust ORCA's guarantee). One core call
-- (world:surround_project).
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
    local def = self:_def(f.tx, f.ty, f.tvx, f.tvy, f.dt)
    if not pcall(world.surround_project, world, self.holders, def) then
        local live = {} -- (holders removed since before_solve dropped)
        for _, id in ipairs(self.holders) do
            if world:is_valid(id) then live[#live + 1] = id end
        end
        world:surround_project(live, def)
    end
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
        if fr.pos ~= nil and not id_set_ok(fr.pos, point) then return false end -- (saves before the core's frame)
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

surround.Surround = Surround
return surround
