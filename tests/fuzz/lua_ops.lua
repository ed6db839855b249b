-- tests/fuzz/lua_ops.lua: replays seeded random sequences of rvo's Lua API
-- calls and prints one line per call, for tests/fuzz/lua_diff.lua to compare
-- between Lua 5.4 (the C module rvo.core) and LuaJIT (the FFI binding).
--
--   lua5.4 tests/fuzz/lua_ops.lua FIRST_SEED LAST_SEED OPS [KEEP]
--
-- Per call the line holds the call with its arguments, whether it raised
-- (and the message), the values it returned ("%a" floats) and a hash of the
-- world's snapshot. KEEP (one seed only) is a comma-separated list of the
-- operation numbers to run, the others are skipped: lua_diff.lua shrinks a
-- finding with it. Each operation draws its arguments from its own
-- generator, seeded by (seed, operation number), so cutting operations does
-- not change the others; ids are picked among those handed out so far.
--
-- Besides the differential lines, each runtime checks on its own (a line
-- starting with "!" is a finding):
--   * a raised error carries a non-empty string message;
--   * a call that raised left the world's snapshot unchanged;
--   * after a save and load, the loaded copy answers every later world
--     call as the original does and keeps the same snapshot.
local rvo = require("rvo")
local jitter = require("rvo.jitter")
local groups_mod = require("rvo.groups")
local locks_mod = require("rvo.locks")
local surround_mod = require("rvo.surround")
local follow_mod = require("rvo.follow")
local unstick_mod = require("rvo.unstick")

local format, concat, byte, floor = string.format, table.concat, string.byte, math.floor
local unpack = table.unpack or unpack -- luacheck: ignore 143
local huge = math.huge
local NAN = -(0 / 0)

---------------------------------------------------------------------------
-- The generator: Park and Miller's minimal standard (x * 48271 mod 2^31-1).
-- Every product stays below 2^47, exact on both runtimes.

local MOD = 2147483647

local Rng = {}
Rng.__index = Rng

-- The generator of operation op of a sequence. Seeds that differ by a
-- constant would give streams that differ by a constant: floor() mixes.
local function rng(seed, op)
    local x = seed % (MOD - 1) + 1
    for _ = 1, 4 do
        x = (x * 48271 + op * 16807 + floor(x / 8191)) % MOD
    end
    local r = setmetatable({ x = x == 0 and 1 or x }, Rng)
    r:next()
    r:next()
    return r
end

function Rng:next()
    self.x = self.x * 48271 % MOD
    return self.x
end

-- An integer in 1..n.
function Rng:int(n)
    return self:next() % n + 1
end

-- A number in [lo, hi).
function Rng:uniform(lo, hi)
    return lo + (hi - lo) * ((self:next() - 1) / (MOD - 1))
end

function Rng:chance(p)
    return self:uniform(0, 1) < p
end

function Rng:pick(t)
    return t[self:int(#t)]
end

---------------------------------------------------------------------------
-- Values: valid ones of each kind, boundaries and wrong types.

local function noop() end

local BOUNDARY = { 0, -0.0, -1, 1, 0.5, -0.5, 1e-300, 1e300, 2 ^ 31, 2 ^ 32, 2 ^ 53, -(2 ^ 53), 2 ^ 63, 2 ^ 64,
    huge, -huge, NAN, 3, 7.25, -2 ^ 31, 2 ^ 31 - 1 }
local WRONG = { "1", "2.5", "abc", "", "0x10", " 3 ", {}, { 1, 2 }, { x = 1 }, true, false, noop, "nil" }

-- A table's fields in a new table (one level).
local function copy_table(t)
    local c = {}
    for k, x in pairs(t) do c[k] = x end
    return c
end

-- One wrong-typed or boundary value; "nil" stands for nil.
local function odd_value(r)
    if r:chance(0.5) then
        return r:pick(BOUNDARY)
    end
    local v = r:pick(WRONG)
    if v == "nil" then return nil end
    if type(v) == "table" then -- a fresh table each time (callers may fill it)
        return copy_table(v)
    end
    return v
end

-- Valid values by kind.
local VALID = {
    coord = function(r) return r:uniform(-20, 20) end,
    vel = function(r) return r:uniform(-3, 3) end,
    speed = function(r) return r:uniform(0, 4) end,
    radius = function(r) return r:uniform(0.2, 1.5) end,
    dist = function(r) return r:uniform(0, 15) end,
    time = function(r) return r:uniform(0.1, 5) end,
    dt = function(r) return r:pick { 0.1, 0.05, 0.25, 1 / 60 } end,
    count = function(r) return r:int(16) end,
    bits = function(r) return r:pick { 0, 1, 2, 3, 5, 0xffffffff, 0x80000000 } end,
    weight = function(r) return r:uniform(0, 1) end,
    z = function(r) return r:uniform(-2, 2) end,
    bool = function(r) return r:chance(0.5) end,
    solver = function(r) return r:pick { "orca", "ue", "rvo", "sampling", "ORCA", "" } end,
}

---------------------------------------------------------------------------
-- Formatting: values in a form both runtimes print alike.

local function num(v)
    if v ~= v then return "nan" end
    if v == 0 then return 1 / v < 0 and "-0" or "0" end
    return format("%a", v)
end

local show

local function show_table(t, depth)
    if depth > 3 then return "{...}" end
    local parts, n = {}, 0
    while t[n + 1] ~= nil do
        n = n + 1
        parts[n] = show(t[n], depth + 1)
    end
    local keys = {}
    for k in pairs(t) do
        if not (type(k) == "number" and k >= 1 and k <= n and floor(k) == k) then
            keys[#keys + 1] = k
        end
    end
    table.sort(keys, function(a, b)
        local ta, tb = type(a), type(b)
        if ta ~= tb then return ta < tb end
        if ta == "number" or ta == "string" then return a < b end
        return false
    end)
    for _, k in ipairs(keys) do
        local ks = type(k) == "string" and k or "[" .. show(k, depth + 1) .. "]"
        parts[#parts + 1] = ks .. "=" .. show(t[k], depth + 1)
    end
    return "{" .. concat(parts, ",") .. "}"
end

function show(v, depth)
    local t = type(v)
    if t == "number" then return num(v) end
    if t == "string" then return format("%q", (v:gsub("0x%x+", "ADDR"))) end -- (addresses differ)
    if t == "nil" or t == "boolean" then return tostring(v) end
    if rvo.is_world(v) then return "world" end
    if t == "table" then return show_table(v, depth or 0) end
    if t == "function" then return "function" end
    return t -- userdata, cdata (views): compared by their contents elsewhere
end

local function show_list(t, n)
    local parts = {}
    for i = 1, n do parts[i] = show(t[i], 0) end
    return concat(parts, ", ")
end

-- Addresses in messages ("table: 0x...") differ between processes.
local function clean_message(m)
    if type(m) ~= "string" then return m end
    return (m:gsub("0x%x+", "ADDR"))
end

---------------------------------------------------------------------------
-- The world's state: a hash of its snapshot.

local HASH_MOD = 4294967291

local function hash_string(s)
    local h = #s % HASH_MOD
    for i = 1, #s, 8 do
        local a, b, c, d, e, f, g, k = byte(s, i, i + 7)
        h = (h * 1031 + a) % HASH_MOD
        h = (h * 1031 + (b or 0) + (c or 0) * 256) % HASH_MOD
        h = (h * 1031 + (d or 0) + (e or 0) * 256) % HASH_MOD
        h = (h * 1031 + (f or 0) + (g or 0) * 256 + (k or 0) * 65536) % HASH_MOD
    end
    return format("%d:%08x", #s, h)
end

local function world_hash(w)
    if w == nil then return "none" end
    if w:is_destroyed() then return "destroyed" end
    return hash_string(w:save())
end

---------------------------------------------------------------------------
-- The state of one sequence.

local S -- set by run_seed

local function agent_ref(r)
    -- usually a live or stale id of the main world, sometimes one of the
    -- foreign world, sometimes a number that was never an id
    local u = r:uniform(0, 1)
    if u < 0.8 and #S.agents > 0 then
        return S.agents[r:int(#S.agents)]
    elseif u < 0.87 and #S.foreign > 0 then
        return S.foreign[r:int(#S.foreign)]
    elseif u < 0.95 then
        return r:pick { 0, -1, 1.5, 2 ^ 53, 2 ^ 32 + 1, 1e300, NAN, huge, 4294967297 }
    end
    return odd_value(r)
end

local function obstacle_ref(r)
    if #S.obstacles > 0 and r:chance(0.85) then
        return S.obstacles[r:int(#S.obstacles)]
    end
    return r:pick { 0, -1, 1.5, 2 ^ 53, 1e300, NAN, 7 }
end

-- A value of a kind; one argument per call may be replaced by an odd one.
local function value(r, kind)
    if kind == "id" then return agent_ref(r) end
    if kind == "oid" then return obstacle_ref(r) end
    if type(kind) == "function" then return kind(r) end
    return VALID[kind](r)
end

-- Arguments: kinds in order; returns a table with n.
local function args_of(r, kinds)
    local a = { n = #kinds }
    for i, k in ipairs(kinds) do a[i] = value(r, k) end
    if #kinds > 0 and r:chance(0.2) then -- one argument wrong or at a boundary
        a[r:int(#kinds)] = odd_value(r)
    end
    if r:chance(0.05) then -- one argument too few (an optional one, usually)
        a.n = a.n - 1
    end
    return a
end

local function fields(r, spec)
    -- spec: { name = kind }; a few of them, sometimes an unknown or odd one
    local t, names = {}, {}
    for k in pairs(spec) do names[#names + 1] = k end
    table.sort(names)
    for _ = 1, r:int(4) - 1 do
        local k = r:pick(names)
        t[k] = value(r, spec[k])
    end
    local u = r:uniform(0, 1)
    if u < 0.06 then
        t[r:pick(names)] = odd_value(r)
    elseif u < 0.08 then
        t.no_such_field = 1
    elseif u < 0.09 then
        t[1] = 2
    elseif u < 0.10 then
        t[true] = 1
    end
    return t
end

local WORLD_FIELDS = {
    time_step = "dt", neighbor_dist = "dist", max_neighbors = "count", time_horizon = "time",
    time_horizon_obst = "time", radius = "radius", max_speed = "speed", threads = function(r) return r:int(3) end,
    seed = "count", height_margin = "z", solver = "solver", rvo2_compat = "bool", weight = "weight",
    groups = "bits", mask = "bits", z = "z", height = "radius",
}
local AGENT_FIELDS = {
    radius = "radius", max_speed = "speed", neighbor_dist = "dist", max_neighbors = "count",
    time_horizon = "time", time_horizon_obst = "time", vx = "vel", vy = "vel", pvx = "vel", pvy = "vel",
    weight = "weight", groups = "bits", mask = "bits", z = "z", height = "radius",
}

local PARAMS = {
    radius = "radius", max_speed = "speed", neighbor_dist = "dist", max_neighbors = "count",
    time_horizon = "time", time_horizon_obst = "time", weight = "weight", groups = "bits", mask = "bits",
    z = "z", height = "radius",
}
local PARAM_NAMES = {}
for k in pairs(PARAMS) do PARAM_NAMES[#PARAM_NAMES + 1] = k end
table.sort(PARAM_NAMES)

local function polygon(r)
    local cx, cy = r:uniform(-15, 15), r:uniform(-15, 15)
    local n = r:pick { 2, 3, 4, 4, 5 }
    local pts = {}
    for i = 1, n do
        local a = 2 * math.pi * (i - 1) / n
        local rad = r:uniform(0.5, 3)
        if r:chance(0.5) then a = -a end -- either winding
        pts[#pts + 1] = cx + rad * math.cos(a)
        pts[#pts + 1] = cy + rad * math.sin(a)
    end
    local u = r:uniform(0, 1)
    if u < 0.05 then
        pts[#pts + 1] = 1 -- odd length
    elseif u < 0.1 then
        pts[r:int(#pts)] = odd_value(r)
    elseif u < 0.13 then
        pts = { 0, 0, 0, 0, 0, 0 } -- degenerate
    elseif u < 0.15 then
        pts = {}
    end
    return pts
end

-- A flat list of 2 numbers per agent of the main world (or per id of n),
-- sometimes wrong.
local function flat_list(r, n)
    n = n or (S.w:is_destroyed() and 0 or S.w:agent_count())
    local t = {}
    for i = 1, 2 * n do t[i] = r:uniform(-2, 2) end
    local u = r:uniform(0, 1)
    if u < 0.06 then
        t[#t + 1] = 0
    elseif u < 0.1 and #t > 0 then
        t[#t] = nil
    elseif u < 0.15 and #t > 0 then
        t[r:int(#t)] = odd_value(r)
    end
    return t
end

local function buffer(r)
    if r:chance(0.7) then return nil end
    local t = {}
    for i = 1, r:int(6) - 1 do t[i] = 99 end -- old contents to be cleared
    return t
end

---------------------------------------------------------------------------
-- Operations. Each returns (label, function, args) where args has n; the
-- function is called with the arguments (self first for methods).

local pack = table.pack or function(...) return { n = select("#", ...), ... } end

-- f with self bound. Not a tail call: errors raised "at the caller" name
-- this line on both runtimes (Lua 5.4 keeps the frame of a Lua function
-- that tail-calls a C function, LuaJIT drops it).
local function bound(f, self)
    return function(...)
        local res = pack(f(self, ...))
        return unpack(res, 1, res.n)
    end
end

local function method(name, kinds)
    return function(r)
        local a = args_of(r, kinds)
        local w = S.w
        local u = r:uniform(0, 1)
        local self_label = "w"
        if u < 0.02 then
            w, self_label = S.dead, "dead"
        elseif u < 0.03 then
            w, self_label = r:pick { {}, 1, "w" }, "bad"
        elseif u < 0.08 then
            w, self_label = S.w2, "w2"
        end
        local f = name == "__tostring" and tostring or S.methods[name]
        return self_label .. ":" .. name, bound(f, w), a, w == S.w, w
    end
end

local function getter(name)
    return method(name, { "id" })
end

local OPS = {} -- { weight, name, builder }

local function op(weight, name, builder)
    OPS[#OPS + 1] = { weight, name, builder }
end

-- An operation that adds to the world: an options table (spec) as argument
-- n + 1 with probability p; the id it returns joins S[list] (main world).
local function adder(name, kinds, p, spec, list)
    return function(r)
        local label, f, a, main = method(name, kinds)(r)
        if r:chance(p) then
            a.n = #kinds + 1
            a[a.n] = fields(r, spec)
        end
        return label, function(...)
            local id = f(...)
            if main and type(id) == "number" then S[list][#S[list] + 1] = id end
            return id
        end, a
    end
end

op(14, "add_agent", adder("add_agent", { "coord", "coord" }, 0.6, AGENT_FIELDS, "agents"))
op(3, "remove_agent", method("remove_agent", { "id" }))
op(8, "step", method("step", { function(r) return r:chance(0.5) and nil or VALID.dt(r) end }))
op(4, "solve", method("solve", { function(r) return r:chance(0.5) and nil or VALID.dt(r) end }))
op(4, "integrate", method("integrate", { function(r) return r:chance(0.5) and nil or VALID.dt(r) end }))
op(1, "is_solved", method("is_solved", {}))
op(1, "time_step", method("time_step", {}))
op(1, "set_time_step", method("set_time_step", { "dt" }))
op(1, "solver", method("solver", {}))
op(2, "set_solver", method("set_solver", { "solver" }))
op(1, "set_sampling", method("set_sampling", { function(r) return r:int(300) end, "weight" }))
op(1, "rvo2_compat", method("rvo2_compat", {}))
op(1, "set_rvo2_compat", method("set_rvo2_compat", { "bool" }))
op(1, "set_height_margin", method("set_height_margin", { "z" }))
op(1, "strict_overlap", method("strict_overlap", {}))
op(1, "set_strict_overlap", method("set_strict_overlap", { "bool" }))
op(1, "stall_threshold", method("stall_threshold", {}))
op(1, "set_stall_threshold", method("set_stall_threshold", { "weight", "time" }))
op(2, "stalled", method("stalled", { buffer, buffer }))
op(2, "stall_time", getter("stall_time"))
op(2, "is_valid", getter("is_valid"))
op(1, "agent_valid", getter("agent_valid"))
op(1, "agent_count", method("agent_count", {}))
for _, v in ipairs { "position", "velocity", "pref_velocity", "new_velocity" } do
    op(3, v, getter(v))
    op(3, "set_" .. v, method("set_" .. v, { "id", v == "position" and "coord" or "vel",
        v == "position" and "coord" or "vel" }))
end
for _, p in ipairs(PARAM_NAMES) do
    op(1, p, getter(p))
    op(2, "set_" .. p, method("set_" .. p, { "id", PARAMS[p] }))
end
op(2, "lock", method("lock", { "id", "vel", "vel" }))
op(1, "unlock", getter("unlock"))
op(1, "is_locked", getter("is_locked"))
-- lock timers (issue 19)
op(1, "lock_time", getter("lock_time"))
op(1, "auto_lock", getter("auto_lock"))
op(1, "set_auto_lock", method("set_auto_lock", { "id", "bool" }))
op(2, "advance_locks", method("advance_locks", { "dt" }))
op(2, "lock_solved", method("lock_solved", { function(r) return r:uniform(0, 0.1) end, "weight", "weight",
    function(r) return r:chance(0.2) and huge or r:uniform(0.1, 2) end, "bits" }))
op(2, "release_pushed", method("release_pushed", {}))
-- steering in bulk: every agent (and now and then a stale one) toward a point
-- (returns the list and its length: agent_ref may give nil, and # of a list
-- with a hole differs between the runtimes, and so would the draws after it)
local function steer_ids(r)
    local t = {}
    local n = r:int(6) - 1
    for i = 1, n do t[i] = agent_ref(r) end
    return t, n
end
-- bulk calls for a list of ids (now and then a stale one, a non-number, a
-- hole), and for the setters 2 numbers per id, sometimes wrong
local function of_ids(r)
    local t, n = steer_ids(r)
    local u = r:uniform(0, 1)
    if u < 0.05 then
        n = n + 1
        t[n] = odd_value(r)
    elseif u < 0.08 and n > 1 then
        t[1] = nil
    end
    return t, n
end
for _, v in ipairs { "positions_of", "velocities_of", "new_velocities_of", "radii_of", "max_speeds_of" } do
    op(1, v, function(r)
        local ids = of_ids(r)
        return "w:" .. v, bound(S.methods[v], S.w), { n = 2, ids, buffer(r) }, true, S.w
    end)
end
-- rvo.surround's frame in bulk: a def now and then with a bad field
local function surround_def(r)
    local d = { x = VALID.coord(r), y = VALID.coord(r), vx = VALID.vel(r), vy = VALID.vel(r),
        attack_radius = r:uniform(1, 5), tolerance = r:uniform(0.1, 0.9), probe_length = r:uniform(0.5, 6),
        spread_speed = r:uniform(0, 1), dt = VALID.dt(r), clock = r:uniform(0, 10), spread = r:chance(0.7),
        hold = r:chance(0.8), probes = r:chance(0.8) }
    if r:chance(0.1) then
        d[r:pick { "x", "attack_radius", "tolerance", "dt", "spread", "clock" }] = odd_value(r)
    end
    return d
end
op(2, "surround_plan", function(r)
    local ids, n = of_ids(r)
    local phases, stalled, flips = {}, {}, {}
    for k = 1, n do
        phases[k] = r:chance(0.95) and r:int(2) - 1 or odd_value(r)
        stalled[k] = r:chance(0.5) and 0 or r:uniform(0, 3)
        flips[k] = r:chance(0.7) and -1 or r:uniform(0, 10)
    end
    local a = { n = 6, ids, phases, stalled, flips, surround_def(r), buffer(r) or {} }
    -- phases, stalled and flips are updated in place: the loaded copy repeats
    -- the call on the lists as drawn (a.fresh), not on what the call left
    a.fresh = { n = 6, ids, copy_table(phases), copy_table(stalled), copy_table(flips), a[5], {} }
    return "w:surround_plan", bound(S.methods.surround_plan, S.w), a, true, S.w
end)
op(1, "surround_project", function(r)
    local ids = of_ids(r)
    return "w:surround_project", bound(S.methods.surround_project, S.w), { n = 2, ids, surround_def(r) }, true, S.w
end)
for _, v in ipairs { "set_pref_velocities_of", "set_new_velocities_of" } do
    op(1, v, function(r)
        local ids, n = of_ids(r)
        return "w:" .. v, bound(S.methods[v], S.w), { n = 2, ids, flat_list(r, n) }, true, S.w
    end)
end
op(2, "steer", function(r)
    local ids, n = steer_ids(r)
    local goals = {}
    for i = 1, 2 * n do goals[i] = VALID.coord(r) end
    if r:chance(0.05) then goals[#goals + 1] = 1 end
    local state = r:chance(0.7) and { s1 = r:int(1000), s2 = r:int(1000) } or nil
    -- (it advances state in place: the loaded copy cannot repeat the call with
    -- the same arguments, so it is reloaded after instead)
    local f = bound(S.methods.steer, S.w)
    return "rng:steer", function(...)
        S.resync = true
        return f(...)
    end, { n = 7, ids, goals, r:uniform(0, 1), r:uniform(0, 3), r:uniform(0, 1), state, buffer(r) }, true, S.w
end)
op(2, "avoiding", method("avoiding", { function(r) return r:chance(0.5) and nil or r:uniform(0, 0.1) end, buffer }))
op(2, "ids", method("ids", { buffer }))
for _, v in ipairs { "positions", "velocities", "new_velocities" } do
    op(1, v, method(v, { buffer }))
end
op(2, "set_pref_velocities", method("set_pref_velocities", { flat_list }))
op(1, "set_new_velocities", method("set_new_velocities", { flat_list }))
for _, v in ipairs { "positions_view", "velocities_view" } do
    op(1, v, method(v, {})) -- (the view is read by read_views)
end
op(3, "add_obstacle", adder("add_obstacle", { polygon }, 0.4, { closed = "bool",
    side = function(r) return r:pick { "solid", "enclosure", "winding", "wall" } end }, "obstacles"))
op(1, "remove_obstacle", method("remove_obstacle", { "oid" }))
op(1, "set_obstacle_points", method("set_obstacle_points", { "oid", polygon }))
op(1, "set_obstacle_velocity", method("set_obstacle_velocity", { "oid", "vel", "vel" }))
op(1, "obstacle_velocity", method("obstacle_velocity", { "oid" }))
op(1, "obstacle_count", method("obstacle_count", {}))
op(1, "obstacle_valid", method("obstacle_valid", { "oid" }))
op(1, "set_obstacle_z_range", method("set_obstacle_z_range", { "oid", "z", "z" }))
op(1, "obstacle_points", method("obstacle_points", { "oid", buffer }))
op(1, "obstacles", method("obstacles", { buffer }))
op(2, "neighbors", method("neighbors", { "id", buffer }))
op(2, "query_radius", method("query_radius", { "coord", "coord", "dist", buffer }))
op(1, "query_obstacles", method("query_obstacles", { "coord", "coord", "dist", buffer }))
op(2, "line_of_sight", method("line_of_sight", { "coord", "coord", "coord", "coord", "weight" }))
op(3, "ray_cast", method("ray_cast", { "coord", "coord", "vel", "vel", "dist", "weight", "bits" }))
op(2, "ray_cast_from", function(r)
    local label, f, a = method("ray_cast", { "coord", "coord", "vel", "vel", "dist", "weight", "bits",
        function(q) return q:chance(0.8) and agent_ref(q) or false end })(r)
    return label, f, a
end)
op(2, "orca_lines", method("orca_lines", { "id", function(r) return r:chance(0.5) and nil or VALID.dt(r) end,
    buffer }))
op(1, "tostring", method("__tostring", {}))
op(1, "is_destroyed", method("is_destroyed", {}))

-- save and load: the loaded copy becomes the shadow (checked below)
op(2, "reload", function(r)
    return "reload", function()
        local s = S.w:save()
        if r:chance(0.1) then
            -- a damaged snapshot must be refused with a message, never crash
            local i = r:int(#s)
            s = s:sub(1, i - 1) .. string.char((byte(s, i) + 1) % 256) .. s:sub(i + 1)
            local bad = rvo.load(s) -- (not a tail call: see bound)
            return bad
        end
        S.shadow = rvo.load(s)
        return S.shadow
    end, { n = 0 }
end)
op(1, "is_world", function(r)
    return "rvo.is_world", rvo.is_world, { n = 1, r:pick { S.w, S.w2, S.dead, {}, 1, "w", false } }
end)
op(1, "version", function()
    return "rvo.version", function() return rvo.version end, { n = 0 }
end)
op(1, "load_odd", function(r)
    return "rvo.load", rvo.load, { n = 1, r:pick { "", "rvo", 1, {}, string.rep("\0", 64) } }
end)

-- destroy the main world, go on with a new one (ids of the old are stale)
op(1, "new_world", function(r)
    local def = r:chance(0.7) and fields(r, WORLD_FIELDS) or nil
    return "rvo.new_world", function(d)
        local w = rvo.new_world(d)
        S.w:destroy()
        S.dead, S.w, S.shadow = S.w, w, nil
        S.obstacles = {}
        if r:chance(0.8) then S.beh = {} end -- behaviours of the old world go
        return w
    end, { n = 1, def }
end)

-- behaviours (on the main world; the shadow is reloaded after them)
-- A behaviour's default object, made when a call comes before any .new.
local DEFAULT_OPTS = {
    jitter = function() return { seed = 3 } end,
    groups = function() return S.w, { "red", "blue" } end,
    locks = function() return S.w end,
    surround = function() return S.w, { target = { 0, 0 } } end,
    follow = function() return S.w end,
    unstick = function() return { seed = 5 } end,
}

local function behaviour(name, make, calls)
    op(2, name .. ".new", function(r)
        local a = make(r)
        return name .. ".new", function(...)
            local b = S.mods[name .. "_new"](...)
            S.beh[name] = b
            return b ~= nil
        end, a
    end)
    for _, c in ipairs(calls) do
        local mname, weight, kinds = c[1], c[2], c[3]
        op(weight, name .. ":" .. mname, function(r)
            local a = args_of(r, kinds)
            return name .. ":" .. mname, function(...)
                local b = S.beh[name]
                if b == nil then
                    b = S.mods[name .. "_new"](DEFAULT_OPTS[name]())
                    S.beh[name] = b
                end
                S.resync = true -- the shadow does not follow behaviours: reloaded after
                return bound(b[mname], b)(...)
            end, a
        end)
    end
end

local GROUP_NAMES = { "red", "blue", "green", "x" }
local function gname(r) return r:pick(GROUP_NAMES) end

behaviour("jitter", function(r)
    return { n = 1, r:chance(0.8) and fields(r, { seed = "count", amount = "weight", slow_radius = "dist" }) or nil }
end, { { "steer", 8, { function() return S.w end, "id", "coord", "coord", "speed" } },
    { "steer_all", 3, { function() return S.w end, function(r)
        local t = {}
        for i = 1, r:int(6) - 1 do t[i] = agent_ref(r) end
        return t
    end, function(r)
        local t = {}
        for i = 1, 2 * r:int(6) - 2 do t[i] = VALID.coord(r) end
        return t
    end, "dist", buffer } },
    { "save", 1, {} } })
behaviour("groups", function(r)
    return { n = 2, r:chance(0.9) and S.w or odd_value(r), { "red", "blue" } }
end, {
    { "define", 1, { gname, function(r) return r:int(33) - 1 end } },
    { "set", 3, { "id", gname, gname } },
    { "join", 2, { "id", gname } },
    { "leave", 1, { "id", gname } },
    { "avoids", 1, { gname, gname } },
    { "ignores", 1, { gname, gname } },
    { "relation", 1, { gname, gname } },
    { "is_member", 1, { "id", gname } },
    { "groups_of", 1, { "id" } },
    { "members", 1, { gname } },
    { "forget", 1, { "id" } },
    { "mask_of", 1, { gname, gname } },
    { "value", 1, { gname } },
    { "save", 1, {} },
})
behaviour("locks", function(r)
    return { n = 2, r:chance(0.9) and S.w or odd_value(r),
        r:chance(0.7) and fields(r, { after_avoid = "weight", after_clean = "weight", tolerance = "weight",
            release_on_change = "time" }) or nil }
end, {
    { "update", 2, { "dt" } },
    { "after_solve", 2, {} },
    { "step", 3, { "dt" } },
    { "time_left", 1, { "id" } },
    { "release", 1, { "id" } },
    { "release_all", 1, {} },
    { "after_integrate", 1, { "dt" } },
    { "exempt", 1, { "id", "bool" } },
    { "save", 1, {} },
})
behaviour("surround", function(r)
    local opts = fields(r, { attack_radius = "time", tolerance = "weight", probe_length = "time",
        spread_speed = "weight", spread = "bool", hold = "bool", probes = "bool" })
    if r:chance(0.9) then
        opts.target = r:chance(0.5) and agent_ref(r) or { r:uniform(-5, 5), r:uniform(-5, 5) }
    end
    return { n = 2, r:chance(0.9) and S.w or odd_value(r), opts }
end, {
    { "add", 3, { "id" } },
    { "remove", 1, { "id" } },
    { "phase", 1, { "id" } },
    { "unit_ids", 1, {} },
    { "set_target", 1, { "coord", "coord", "vel", "vel" } },
    { "target", 1, {} },
    { "before_solve", 2, { "dt" } },
    { "after_solve", 2, {} },
    { "step", 3, { "dt" } },
    { "save", 1, {} },
})
behaviour("follow", function(r)
    return { n = 2, r:chance(0.9) and S.w or odd_value(r),
        r:chance(0.7) and fields(r, { corner_dist = "weight", arrive_dist = "weight", slow_dist = "dist",
            repath_dist = "dist", speed = "speed", clearance = "weight", settle = "count", bias = "weight" }) or nil }
end, {
    { "set_path", 3, { "id", function(r)
        local t = {}
        for i = 1, 2 * r:int(4) do t[i] = r:uniform(-15, 15) end
        if r:chance(0.1) then t[#t + 1] = 3 end
        return t
    end } },
    { "set_goal", 1, { "id", "coord", "coord" } },
    { "remove", 1, { "id" } },
    { "arrived", 1, { "id" } },
    { "remaining", 1, { "id" } },
    { "update", 4, {} },
})
behaviour("unstick", function(r)
    return { n = 1, r:chance(0.8) and fields(r, { seed = "count", jitter = "weight", side = "weight", hold = "time",
        memory = "time", low = "weight", high = "weight" }) or nil }
end, {
    { "apply", 4, { function() return S.w end, "dt" } },
    { "release", 1, { function() return S.w end } },
    { "level", 1, { "id" } },
    { "save", 1, {} },
})

local TOTAL = 0
for _, o in ipairs(OPS) do TOTAL = TOTAL + o[1] end

local function pick_op(r)
    local k = r:uniform(0, TOTAL)
    for _, o in ipairs(OPS) do
        k = k - o[1]
        if k < 0 then return o end
    end
    return OPS[#OPS]
end

---------------------------------------------------------------------------
-- Running.

-- The one call site of every operation: errors raised "at the caller" name
-- this line on both runtimes.
local function call(f, a)
    local res = pack(f(unpack(a, 1, a.n)))
    return res
end

-- A view is read at once (it is valid until the next step): 0-based, 2
-- floats per agent of world w.
local function read_views(label, res, w)
    if res.n == 1 and label:find("_view$") then
        local view, out = res[1], {}
        for i = 0, 2 * w:agent_count() - 1 do out[#out + 1] = view[i] end
        res[1] = out
    end
end

local function describe(res)
    if res.n == 0 then return "" end
    return show_list(res, res.n)
end

local function new_state(seed)
    local r = rng(seed, 0)
    local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 5,
        threads = r:int(2) }
    local w2 = rvo.new_world { radius = 0.4 }
    local dead = rvo.new_world {}
    local foreign = {}
    for i = 1, 3 do foreign[i] = w2:add_agent(i, 0) end
    dead:destroy()
    local st = {
        w = w, w2 = w2, dead = dead, agents = {}, foreign = foreign, obstacles = {}, beh = {},
        methods = getmetatable(w).__index,
        mods = {
            jitter_new = jitter.new, groups_new = groups_mod.new, locks_new = locks_mod.new,
            surround_new = surround_mod.new, follow_new = follow_mod.new, unstick_new = unstick_mod.new,
        },
    }
    -- a few agents to start with, some already moving
    for i = 1, r:int(12) do
        local id = w:add_agent(r:uniform(-8, 8), r:uniform(-8, 8),
            { pvx = r:uniform(-2, 2), pvy = r:uniform(-2, 2) })
        st.agents[i] = id
    end
    return st
end

local function run_seed(seed, nops, keep, out)
    S = new_state(seed)
    out("seed " .. seed)
    local stats = { ops = 0, errors = 0, shadowed = 0 }
    for i = 1, nops do
        if keep == nil or keep[i] then
            local r = rng(seed, i)
            local o = pick_op(r)
            local label, f, a, _ = o[3](r)
            local before = world_hash(S.w)
            S.resync = false
            local ok, res = pcall(call, f, a)
            if ok then read_views(label, res, label:find("^w2:") and S.w2 or S.w) end
            local after = world_hash(S.w)
            stats.ops = stats.ops + 1
            local line = format("%d %s(%s) ", i, label, show_list(a, a.n))
            if ok then
                line = line .. "-> " .. describe(res)
            else
                stats.errors = stats.errors + 1
                line = line .. "error " .. show(clean_message(res))
                if type(res) ~= "string" or res == "" then
                    out(format("! %d %s: error without a message (%s)", i, label, show(res)))
                elseif before ~= after then
                    out(format("! %d %s: the world changed although the call raised", i, label))
                end
            end
            out(line .. " | " .. after)
            -- the shadow (a loaded copy) answers world calls as the original
            local sh = S.shadow
            if sh ~= nil and sh ~= (ok and res[1]) and label:find("^w:") and not sh:is_destroyed() then
                local name = label:sub(3)
                local g = name == "__tostring" and tostring or S.methods[name]
                local sok, sres = pcall(call, bound(g, sh), a.fresh or a)
                stats.shadowed = stats.shadowed + 1
                if sok then read_views(label, sres, sh) end
                local mine = ok and describe(res) or show(clean_message(res))
                local theirs = sok and describe(sres) or show(clean_message(sres))
                if mine ~= theirs then
                    out(format("! %d %s: the loaded copy answered %s, the original %s", i, label, theirs, mine))
                    S.shadow = nil
                elseif world_hash(sh) ~= after then
                    out(format("! %d %s: the loaded copy's state differs from the original's", i, label))
                    S.shadow = nil
                end
            elseif sh ~= nil and S.resync then
                S.shadow = not S.w:is_destroyed() and rvo.load(S.w:save()) or nil
            elseif sh ~= nil and ok and res[1] == sh then
                if world_hash(sh) ~= after then
                    out(format("! %d reload: the loaded world's snapshot differs from the original's", i))
                    S.shadow = nil
                end
            end
        end
    end
    return stats
end

local first, last, nops = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3])
if not (first and last and nops) then
    io.stderr:write("usage: lua_ops.lua FIRST_SEED LAST_SEED OPS [KEEP]\n")
    os.exit(2)
end
local keep
if arg[4] and arg[4] ~= "all" then
    keep = {}
    for k in arg[4]:gmatch("%d+") do keep[tonumber(k)] = true end
end
local lines = {}
local function out(s)
    lines[#lines + 1] = s
    if #lines >= 256 then
        io.write(concat(lines, "\n"), "\n")
        lines = {}
    end
end
local total = { ops = 0, errors = 0, shadowed = 0 }
for seed = floor(first), floor(last) do
    local st = run_seed(seed, floor(nops), keep, out)
    total.ops = total.ops + st.ops
    total.errors = total.errors + st.errors
    total.shadowed = total.shadowed + st.shadowed
    collectgarbage()
end
out(format("done %d %d %d", total.ops, total.errors, total.shadowed))
io.write(concat(lines, "\n"), "\n")
