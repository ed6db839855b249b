-- rvo.ffi — the LuaJIT binding of the rvo C core (librvo) through the FFI.
--
-- Same world API and the same error messages as the Lua 5.4 C module
-- (src/lua/core/); tests/lua runs against both. The per-call methods
-- (position, set_pref_velocity, step, ...) are plain Lua functions that the
-- JIT compiles into direct C calls: one metatable compare for self, one
-- type() per argument, out-parameters allocated once per module.
--
-- The library is found in this order (rvo/libfind.lua): $RVO_LIB,
-- package.searchpath("librvo", package.cpath), the installed copy named by
-- rvo.libpath (written by `meson install`), on Windows the LÖVE game's
-- folder and the script's, then ffi.load("rvo") (the system's librvo.so).

local ffi = require("ffi")

local error, getmetatable, setmetatable, type, tonumber, pairs =
    error, getmetatable, setmetatable, type, tonumber, pairs
local floor = math.floor
local format = string.format

-- The declarations of src/rvo.h, generated from it when rvo is built
-- (lua/gen_cdef.py): <build>/lua/rvo/cdef.lua, installed beside this file.
local have_cdef, cdef = pcall(require, "rvo.cdef")
if not have_cdef then
    error("rvo.ffi: no rvo.cdef (generated when rvo is built): add <build>/lua/?.lua to package.path"
        .. " or use an installed copy\n" .. tostring(cdef), 0)
end
-- Guarded so that loading the binding twice (two package paths) works.
if not pcall(ffi.typeof, "rvo_world_def") then
    ffi.cdef(cdef.rvo)
end

local function load_library()
    local ok, paths = pcall(require, "rvo.libpath") -- written by `meson install`
    return require("rvo.libfind").load(ffi, "rvo", "RVO_LIB", ok and paths or nil)
end

local C = load_library()

-- A librvo built from another rvo.h than rvo.cdef: refuse it.
if C.rvo_agent_def_size() ~= ffi.sizeof("rvo_agent_def") or C.rvo_world_def_size() ~= ffi.sizeof("rvo_world_def") then
    error("rvo.ffi: librvo's definitions do not match this binding (rebuild librvo and rvo/cdef.lua together)")
end

local WORLD_NAME = "rvo.world"
local ID_LIMIT = 9007199254740992 -- 2^53

local methods = {}
local World = { __index = methods }

-- Out-parameters and scratch buffers, once per module.
-- (a float[2] read by index: in LuaJIT's interpreter, which runs code the
-- JIT does not compile, v[0] costs about half of s[0].x)
local vec_xy = ffi.new("float[2]")
local vec_out = ffi.cast("rvo_vec2 *", vec_xy)
local num_out = ffi.new("double[1]")
local core_err = ffi.new("rvo_error") -- report of the calls without a world
local fcap, fbuf = 64, ffi.new("float[64]")
local icap, ibuf = 64, ffi.new("rvo_agent_id[64]")

local function floats(n)
    if n > fcap then
        fcap = n > 2 * fcap and n or 2 * fcap
        fbuf = ffi.new("float[?]", fcap)
    end
    return fbuf
end

-- The length of list t: its elements before the first nil. # may answer
-- any border of a table with holes, and LuaJIT and Lua 5.4 pick different
-- ones; this is the same on both bindings (rvo.core's list_len). len is
-- #t, the answer when there is no hole.
local function list_len(t, len)
    local n = 0
    while n < len and t[n + 1] ~= nil do n = n + 1 end
    return n
end

-- Nils out t[from], t[from + 1], ... up to the first nil.
local function clear_tail(t, from)
    while t[from] ~= nil do
        t[from] = nil
        from = from + 1
    end
end

local function id_buffer(n)
    if n > icap then
        icap = n > 2 * icap and n or 2 * icap
        ibuf = ffi.new("rvo_agent_id[?]", icap)
    end
    return ibuf
end

---------------------------------------------------------------------------
-- Messages. Cold paths: each raises at the level of the user's call
-- (1 = this function, 2 = the method, 3 = its caller). Never tail-call them.

local function type_name(v)
    if getmetatable(v) == World then
        return WORLD_NAME
    end
    return type(v)
end

local function bad_self(self, fn)
    if getmetatable(self) == World then
        error("attempt to use a destroyed " .. WORLD_NAME, 3)
    end
    error(format("calling '%s' on bad self", fn), 3)
end

-- (level: where the error points, 3 from a method's own code: its caller)
local function arg_fail(arg, fn, why, level)
    error(format("bad argument #%d to '%s' (%s)", arg, fn, why), level or 3)
end

local function type_fail(arg, fn, expected, v, level)
    error(format("bad argument #%d to '%s' (%s expected, got %s)", arg, fn, expected, type_name(v)), level or 3)
end

-- The core's last error; map[k] is the Lua argument of core argument k.
local function core_fail(w, st, fn, map)
    local arg = C.rvo_world_last_error_arg(w)
    local p = C.rvo_world_last_error(w)
    local why = p ~= nil and ffi.string(p) or ""
    if why == "" then
        why = ffi.string(C.rvo_status_string(st))
    end
    if map and map[arg] then
        arg = map[arg]
    end
    if arg > 0 then
        error(format("bad argument #%d to '%s' (%s)", arg, fn, why), 3)
    end
    error(format("%s: %s", fn, why), 3)
end

-- A Lua number to an id: anything that is not an integer in [0, 2^53) is
-- the null id, which the core reports as unknown.
local function to_id(v)
    if v >= 0 and v < ID_LIMIT and floor(v) == v then
        return v
    end
    return 0
end

---------------------------------------------------------------------------
-- Parameter tables: same rules and order as rvo.core (src/lua/core/common.c).

local world_fields = {
    "time_step", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "radius", "max_speed", "threads", "seed", "height_margin", "solver", "rvo2_compat",
}
local agent_fields = {
    "radius", "max_speed", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "vx", "vy", "pvx", "pvy",
}
local obstacle_fields = { "closed", "side" }

local function set_of(list)
    local s = {}
    for _, k in ipairs(list) do
        s[k] = true
    end
    return s
end
local world_known, agent_known, obstacle_known =
    set_of(world_fields), set_of(agent_fields), set_of(obstacle_fields)
-- { rvo_param, name } of the parameters rvo_agent_def has no field for,
-- filled below from rvo_param_name.
local extra_params = {}

-- Reads the extra parameters (weight, groups, ...) of t into the agent def
-- through the core, which checks them, in rvo_param order; returns an error
-- text or nil.
local function read_params(t, def)
    for i = 1, #extra_params do
        local name = extra_params[i][2]
        local v = t[name]
        if v ~= nil then
            if type(v) ~= "number" then
                return format("field '%s': number expected, got %s", name, type_name(v))
            end
            if C.rvo_agent_def_set_param(def, extra_params[i][1], v, core_err) ~= 0 then
                return ffi.string(core_err.message)
            end
        end
    end
end

-- These helpers return an error text (nil when fine) instead of raising, so
-- that the method that calls them raises at its caller's level.

-- Unknown fields of t. Deterministic on any traversal order: a non-string
-- key wins (the smallest type name), otherwise the smallest unknown name.
local function check_fields(t, known)
    local bad_type, bad_name
    for k in pairs(t) do
        if type(k) ~= "string" then
            local tn = type_name(k)
            if bad_type == nil or tn < bad_type then
                bad_type = tn
            end
        elseif not known[k] and (bad_name == nil or k < bad_name) then
            bad_name = k
        end
    end
    if bad_type then
        return "field names must be strings, got " .. bad_type
    end
    if bad_name then
        return "unknown field '" .. bad_name .. "'"
    end
end

-- Reads the number fields keys[i] of t into dst.members[i]; ints[key] marks
-- integer fields (clamped to int32 so that the core judges the range).
local function read_fields(t, keys, dst, members, ints)
    for i = 1, #keys do
        local key = keys[i]
        local v = t[key]
        if v ~= nil then
            if type(v) ~= "number" then
                return format("field '%s': number expected, got %s", key, type_name(v))
            end
            if ints and ints[key] then
                -- The same words as the core's check of the double it cannot see.
                if v ~= v or v == math.huge or v == -math.huge then
                    return key .. " must be finite"
                end
                if floor(v) ~= v then
                    return key .. " must be an integer"
                end
                if v > 2147483647 then
                    v = 2147483647
                elseif v < -2147483648 then
                    v = -2147483648
                end
            end
            local m = members[i]
            if m[2] then
                dst[m[1]][m[2]] = v
            else
                dst[m[1]] = v
            end
        end
    end
end

local INTS = { max_neighbors = true, threads = true }
-- Same order as rvo.core: the first bad field is the one reported.
local world_keys = {
    "time_step", "radius", "max_speed", "neighbor_dist", "max_neighbors", "time_horizon",
    "time_horizon_obst", "threads",
}
local world_members = {
    { "time_step" }, { "agent", "radius" }, { "agent", "max_speed" }, { "agent", "neighbor_dist" },
    { "agent", "max_neighbors" }, { "agent", "time_horizon" }, { "agent", "time_horizon_obst" },
    { "threads" },
}
local agent_keys = {
    "radius", "max_speed", "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst",
    "vx", "vy", "pvx", "pvy",
}
local agent_members = {
    { "radius" }, { "max_speed" }, { "neighbor_dist" }, { "max_neighbors" }, { "time_horizon" },
    { "time_horizon_obst" }, { "velocity", "x" }, { "velocity", "y" }, { "pref_velocity", "x" },
    { "pref_velocity", "y" },
}

---------------------------------------------------------------------------
-- Solvers, named by the core (rvo_solver_name).

local solver_names, solver_ids = {}, {}
do
    local k = 0
    while true do
        local p = C.rvo_solver_name(k)
        if p == nil then break end
        solver_names[k] = ffi.string(p)
        solver_ids[solver_names[k]] = k
        k = k + 1
    end
end

-- The solver named name, or nil and the error text.
local function solver_of(name)
    local s = solver_ids[name]
    if s then return s end
    local list = {}
    for k = 0, #solver_names do list[#list + 1] = solver_names[k] end
    local expected = table.concat(list, ", ", 1, #list - 1) .. " or " .. list[#list]
    local zero = name:find("\0", 1, true) -- shown up to it, as rvo.core does
    return nil, format("unknown solver '%s' (expected %s)", zero and name:sub(1, zero - 1) or name, expected)
end

---------------------------------------------------------------------------
-- Module functions.

local function new_world(params)
    local fn = "new_world"
    local def = C.rvo_world_def_default()
    local solver
    if params ~= nil then
        if type(params) ~= "table" then
            error(format("bad argument #1 to '%s' (table expected, got %s)", fn, type_name(params)), 2)
        end
        local err = check_fields(params, world_known) or read_fields(params, world_keys, def, world_members, INTS)
        if err then arg_fail(1, fn, err) end
        local v = params.seed
        if v ~= nil then
            if type(v) ~= "number" then
                arg_fail(1, fn, "field 'seed': number expected, got " .. type_name(v))
            end
            if not (v >= 0 and v <= ID_LIMIT and floor(v) == v) then
                arg_fail(1, fn, "seed must be an integer in 0..2^53")
            end
            def.seed = v
        end
        err = read_params(params, def.agent)
        if err then arg_fail(1, fn, err) end
        v = params.height_margin
        if v ~= nil then
            if type(v) ~= "number" then
                arg_fail(1, fn, "field 'height_margin': number expected, got " .. type_name(v))
            end
            def.height_margin = v
        end
        v = params.solver
        if v ~= nil then
            if type(v) ~= "string" then
                arg_fail(1, fn, "field 'solver': string expected, got " .. type_name(v))
            end
            solver, err = solver_of(v)
            if not solver then arg_fail(1, fn, err) end
        end
        v = params.rvo2_compat
        if v ~= nil and type(v) ~= "boolean" then
            arg_fail(1, fn, "field 'rvo2_compat': boolean expected, got " .. type_name(v))
        end
    end
    if C.rvo_world_def_check(def, core_err) ~= 0 then
        arg_fail(1, fn, ffi.string(core_err.message))
    end
    local w = C.rvo_world_create(def, nil)
    if w == nil then
        error(fn .. ": not enough memory", 2)
    end
    C.rvo_world_set_rvo2_compat(w, params ~= nil and params.rvo2_compat == true)
    if solver and solver ~= 0 and C.rvo_world_set_solver(w, solver) ~= 0 then
        -- (cannot happen: the name was checked) as rvo.core reports it
        local msg = ffi.string(C.rvo_world_last_error(w))
        C.rvo_world_destroy(w)
        arg_fail(1, fn, msg)
    end
    -- A closure, not the bare C function: it keeps the library loaded as
    -- long as a world may still be collected.
    return setmetatable({ _w = ffi.gc(w, function(p) C.rvo_world_destroy(p) end) }, World)
end

---------------------------------------------------------------------------
-- Lifetime.

function methods.destroy(self)
    if getmetatable(self) ~= World then
        error("calling 'destroy' on bad self", 2)
    end
    local w = self._w
    if w then
        self._w = false
        ffi.gc(w, nil)
        C.rvo_world_destroy(w)
    end
end

function methods.is_destroyed(self)
    if getmetatable(self) ~= World then
        error("calling 'is_destroyed' on bad self", 2)
    end
    return not self._w
end

World.__close = methods.destroy
World.__tostring = function(self)
    local w = self._w
    if not w then
        return WORLD_NAME .. " (destroyed)"
    end
    return format("%s (%d agents)", WORLD_NAME, C.rvo_world_agent_count(w))
end

---------------------------------------------------------------------------
-- World.

function methods.time_step(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "time_step") end
    return tonumber(C.rvo_world_time_step(w))
end

function methods.set_time_step(self, dt)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "set_time_step") end
    if type(dt) ~= "number" then type_fail(1, "set_time_step", "number", dt) end
    local st = C.rvo_world_set_time_step(w, dt)
    if st ~= 0 then core_fail(w, st, "set_time_step") end
end

function methods.step(self, dt)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "step") end
    local st
    if dt == nil then
        st = C.rvo_world_step(w, 0)
    elseif type(dt) ~= "number" then
        type_fail(1, "step", "number", dt)
    elseif dt == 0 then
        -- 0 means "the world's time_step" in C; from Lua it is a mistake
        -- (a paused game must not move): let the core reject it as solve does.
        st = C.rvo_world_solve(w, 0)
    else
        st = C.rvo_world_step(w, dt)
    end
    if st ~= 0 then core_fail(w, st, "step") end
end

-- solve and integrate: dt defaults to the world's time_step.
local function phase_method(name, run)
    methods[name] = function(self, dt)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if dt == nil then
            dt = C.rvo_world_time_step(w)
        elseif type(dt) ~= "number" then
            type_fail(1, name, "number", dt)
        end
        local st = run(w, dt)
        if st ~= 0 then core_fail(w, st, name) end
    end
end

phase_method("solve", C.rvo_world_solve)
phase_method("integrate", C.rvo_world_integrate)

function methods.is_solved(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "is_solved") end
    return C.rvo_world_is_solved(w)
end

function methods.solver(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "solver") end
    return solver_names[C.rvo_world_solver(w)]
end

function methods.set_solver(self, name)
    local fn = "set_solver"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(name) ~= "string" then type_fail(1, fn, "string", name) end
    local s, err = solver_of(name)
    if not s then arg_fail(1, fn, err) end
    local st = C.rvo_world_set_solver(w, s)
    if st ~= 0 then core_fail(w, st, fn) end
end

-- set_sampling(samples, penalty_weight): the sampling RVO solver's knobs.
function methods.set_sampling(self, samples, penalty_weight)
    local fn = "set_sampling"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(samples) ~= "number" then type_fail(1, fn, "number", samples) end
    if type(penalty_weight) ~= "number" then type_fail(2, fn, "number", penalty_weight) end
    -- An integral number, clamped to int32 so that the core judges the range.
    if samples ~= samples or samples == math.huge or samples == -math.huge then
        arg_fail(1, fn, "samples must be finite")
    end
    if floor(samples) ~= samples then arg_fail(1, fn, "samples must be an integer") end
    if samples > 2147483647 then
        samples = 2147483647
    elseif samples < -2147483648 then
        samples = -2147483648
    end
    -- core: samples = 1, penalty_weight = 2, as in Lua
    local st = C.rvo_world_set_sampling(w, samples, penalty_weight)
    if st ~= 0 then core_fail(w, st, fn) end
end

---------------------------------------------------------------------------
-- Agents.

function methods.add_agent(self, x, y, params)
    local fn = "add_agent"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(x) ~= "number" then type_fail(1, fn, "number", x) end
    if type(y) ~= "number" then type_fail(2, fn, "number", y) end
    local id
    if params == nil then
        id = C.rvo_world_add_agent(w, x, y, nil)
    else
        if type(params) ~= "table" then type_fail(3, fn, "table", params) end
        local def = C.rvo_world_agent_defaults(w)
        local err = check_fields(params, agent_known) or read_fields(params, agent_keys, def, agent_members, INTS)
            or read_params(params, def)
        if err then arg_fail(3, fn, err) end
        id = C.rvo_world_add_agent(w, x, y, def)
    end
    if id == 0 then core_fail(w, -1, fn) end
    return tonumber(id)
end

---------------------------------------------------------------------------
-- The one-call methods of src/lua/methods.def (position, set_pref_velocity,
-- lock, remove_agent, ...), made by shape from the list in rvo.cdef as
-- rvo.core makes them: closures over the C function and the method name,
-- which the JIT compiles as direct calls. The per-agent vectors are the hot
-- path.

local float_out = ffi.new("float[1]")

local shapes = {}

function shapes.VEC_GET(name, f)
    return function(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        local st = f(w, to_id(id), vec_out)
        if st ~= 0 then core_fail(w, st, name) end
        return vec_xy[0], vec_xy[1]
    end
end

function shapes.VEC_SET(name, f)
    return function(self, id, x, y)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        if type(x) ~= "number" then type_fail(2, name, "number", x) end
        if type(y) ~= "number" then type_fail(3, name, "number", y) end
        local st = f(w, to_id(id), x, y)
        if st ~= 0 then core_fail(w, st, name) end
    end
end

function shapes.FLOAT(name, f)
    return function(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        local st = f(w, to_id(id), float_out)
        if st ~= 0 then core_fail(w, st, name) end
        return tonumber(float_out[0])
    end
end

function shapes.DO(name, f)
    return function(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        local st = f(w, to_id(id))
        if st ~= 0 then core_fail(w, st, name) end
    end
end

function shapes.FLAG(name, f)
    return function(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        local r = f(w, to_id(id))
        if r < 0 then core_fail(w, r, name) end
        return r > 0
    end
end

-- An id that cannot be one (negative, fractional) is simply not valid.
function shapes.VALID(name, f)
    return function(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        id = to_id(id)
        return id ~= 0 and f(w, id)
    end
end

function shapes.COUNT(name, f)
    return function(self)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        return f(w)
    end
end

-- Lists of agent ids: the core's ids 1, n 2, values 3 are the method's 1, 1, 2.
local OF_MAP = { 1, 1, 2 }

-- The ids of the list ids, up to its first nil (list_len's length), into
-- the id scratch; returns it and how many. (Errors point at the method's
-- caller: level 4.)
local function read_ids(ids, fn)
    local raw = #ids
    if raw > 536870911 then arg_fail(1, fn, "too many ids", 4) end
    local ib = id_buffer(raw)
    local n = 0
    for k = 1, raw do
        local v = ids[k]
        if v == nil then break end
        if type(v) ~= "number" then
            arg_fail(1, fn, format("number expected at index %d, got %s", k, type_name(v)), 4)
        end
        ib[k - 1] = to_id(v)
        n = k
    end
    return ib, n
end

-- The list t of 2 * n numbers (argument arg; per: "id" or "agent") into the
-- float scratch, as rvo.core reads it: its length up to the first nil
-- (list_len), a hole within # ends it too. (Errors point at the method's
-- caller: level 4.)
local function pairs_in(t, n, arg, fn, per)
    local len = #t
    if len ~= 2 * n then len = list_len(t, len) end
    if len ~= 2 * n then
        arg_fail(arg, fn, format("expected %d numbers (2 per %s), got %d", 2 * n, per, len), 4)
    end
    local b = floats(len)
    for i = 1, len do
        local v = t[i]
        if v == nil then -- a hole: the list ends before it
            arg_fail(arg, fn, format("expected %d numbers (2 per %s), got %d", 2 * n, per, i - 1), 4)
        end
        if type(v) ~= "number" then
            arg_fail(arg, fn, format("number expected at index %d, got %s", i, type_name(v)), 4)
        end
        b[i - 1] = v
    end
    return b
end

local function get_of(name, f, per)
    return function(self, ids, buf)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(ids) ~= "table" then type_fail(1, name, "table", ids) end
        if buf ~= nil and type(buf) ~= "table" then type_fail(2, name, "table", buf) end
        local ib, n = read_ids(ids, name)
        local m = per * n
        local b = floats(m)
        local st = f(w, ib, n, b)
        if st ~= 0 then core_fail(w, st, name, OF_MAP) end
        local t = buf or {}
        for i = 1, m do
            t[i] = b[i - 1]
        end
        clear_tail(t, m + 1)
        return t
    end
end

function shapes.VECS_GET(name, f) return get_of(name, f, 2) end

function shapes.NUMS_GET(name, f) return get_of(name, f, 1) end

function shapes.VECS_SET(name, f)
    return function(self, ids, values)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(ids) ~= "table" then type_fail(1, name, "table", ids) end
        if type(values) ~= "table" then type_fail(2, name, "table", values) end
        local ib, n = read_ids(ids, name)
        local st = f(w, ib, n, pairs_in(values, n, 2, name, "id"))
        if st ~= 0 then core_fail(w, st, name, OF_MAP) end
    end
end

for _, m in ipairs(cdef.methods) do
    local name, shape, fname = m[1], m[2], m[3]
    methods[name] = assert(shapes[shape], shape)(name, C[fname])
end

---------------------------------------------------------------------------
-- Per-agent parameters: a getter and a setter per rvo_param, named by the
-- core (rvo_param_name).

local param_index = {} -- name -> rvo_param
local GET_MAP = { [1] = 1, [2] = 0, [3] = 0 }
local SET_MAP = { [1] = 1, [2] = 0, [3] = 2 } -- core: id, param, value

-- (looked up once: C.f costs a lookup a call in the interpreter)
local agent_param, agent_set_param = C.rvo_agent_param, C.rvo_agent_set_param

local function param_methods(p, name)
    local set_name = "set_" .. name
    local function get(self, id)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, name) end
        if type(id) ~= "number" then type_fail(1, name, "number", id) end
        local st = agent_param(w, to_id(id), p, num_out)
        if st ~= 0 then core_fail(w, st, name, GET_MAP) end
        return num_out[0]
    end
    local function set(self, id, v)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, set_name) end
        if type(id) ~= "number" then type_fail(1, set_name, "number", id) end
        if type(v) ~= "number" then type_fail(2, set_name, "number", v) end
        local st = agent_set_param(w, to_id(id), p, v)
        if st ~= 0 then core_fail(w, st, set_name, SET_MAP) end
    end
    return get, set
end

do
    local p = 0
    while true do
        local s = C.rvo_param_name(p)
        if s == nil then break end
        local name = ffi.string(s)
        methods[name], methods["set_" .. name] = param_methods(p, name)
        param_index[name] = p
        if not agent_known[name] then
            -- not in rvo_agent_def: add_agent sets it through set_param
            extra_params[#extra_params + 1] = { p, name }
        end
        p = p + 1
    end
    for i = 1, #extra_params do
        agent_known[extra_params[i][2]] = true
        world_known[extra_params[i][2]] = true -- new_world: world-wide agent defaults
    end
end

---------------------------------------------------------------------------
-- Game semantics: locks, the avoiding report, height.

function methods.set_rvo2_compat(self, on)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "set_rvo2_compat") end
    if type(on) ~= "boolean" then type_fail(1, "set_rvo2_compat", "boolean", on) end
    C.rvo_world_set_rvo2_compat(w, on)
end

function methods.rvo2_compat(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "rvo2_compat") end
    return C.rvo_world_rvo2_compat(w)
end

function methods.set_height_margin(self, m)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "set_height_margin") end
    if type(m) ~= "number" then type_fail(1, "set_height_margin", "number", m) end
    local st = C.rvo_world_set_height_margin(w, m)
    if st ~= 0 then core_fail(w, st, "set_height_margin") end
end

---------------------------------------------------------------------------
-- Strict overlap (hard bodies).

function methods.set_strict_overlap(self, on)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "set_strict_overlap") end
    if type(on) ~= "boolean" then type_fail(1, "set_strict_overlap", "boolean", on) end
    C.rvo_world_set_strict_overlap(w, on)
end

function methods.strict_overlap(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "strict_overlap") end
    return C.rvo_world_strict_overlap(w)
end

---------------------------------------------------------------------------
-- Stall events: threshold, bulk query, per-agent stall time.

local stall_out = ffi.new("float[2]")

function methods.set_stall_threshold(self, progress, min_time)
    local fn = "set_stall_threshold"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(progress) ~= "number" then type_fail(1, fn, "number", progress) end
    if type(min_time) ~= "number" then type_fail(2, fn, "number", min_time) end
    local st = C.rvo_world_set_stall_threshold(w, progress, min_time)
    if st ~= 0 then core_fail(w, st, fn) end
end

function methods.stall_threshold(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "stall_threshold") end
    C.rvo_world_stall_threshold(w, stall_out, stall_out + 1)
    return tonumber(stall_out[0]), tonumber(stall_out[1])
end

-- world:stalled([ids [, times]]): without ids returns ids, times, n (times
-- is the table given, filled, or a new one); with ids fills them (times only
-- when given) and returns n.
function methods.stalled(self, ids, times)
    local fn = "stalled"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if ids ~= nil and type(ids) ~= "table" then type_fail(1, fn, "table", ids) end
    if times ~= nil and type(times) ~= "table" then type_fail(2, fn, "table", times) end
    local cap = C.rvo_world_agent_count(w)
    local ib, tb = id_buffer(cap), floats(cap)
    local n = C.rvo_world_stalled(w, ib, tb, cap)
    if n < 0 then core_fail(w, n, fn) end
    if n > cap then n = cap end
    local fresh = ids == nil
    if fresh then ids, times = {}, times or {} end
    if times ~= nil then
        for i = 1, n do times[i] = tonumber(tb[i - 1]) end
        local k = n + 1
        while times[k] ~= nil do times[k] = nil; k = k + 1 end
    end
    for i = 1, n do ids[i] = tonumber(ib[i - 1]) end
    local k = n + 1
    while ids[k] ~= nil do ids[k] = nil; k = k + 1 end
    if fresh then return ids, times, n end
    return n
end

---------------------------------------------------------------------------
-- Lock timers (rvo.locks in bulk).

function methods.advance_locks(self, dt)
    local fn = "advance_locks"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(dt) ~= "number" then type_fail(1, fn, "number", dt) end
    local n = C.rvo_world_advance_locks(w, dt)
    if n < 0 then core_fail(w, n, fn) end
    return n
end

function methods.lock_solved(self, tolerance, after_avoid, after_clean, release_on_change, groups)
    local fn = "lock_solved"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(tolerance) ~= "number" then type_fail(1, fn, "number", tolerance) end
    if type(after_avoid) ~= "number" then type_fail(2, fn, "number", after_avoid) end
    if type(after_clean) ~= "number" then type_fail(3, fn, "number", after_clean) end
    if type(release_on_change) ~= "number" then type_fail(4, fn, "number", release_on_change) end
    if type(groups) ~= "number" then type_fail(5, fn, "number", groups) end
    if not (groups >= 0 and groups <= 4294967295 and floor(groups) == groups) then
        arg_fail(5, fn, "groups must be an integer in 0..2^32-1")
    end
    -- core: tolerance = 1, after_avoid = 2, after_clean = 3, release_on_change = 4, as in Lua
    local n = C.rvo_world_lock_solved(w, tolerance, after_avoid, after_clean, release_on_change, groups)
    if n < 0 then core_fail(w, n, fn) end
    return n
end

function methods.release_pushed(self)
    local fn = "release_pushed"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    local n = C.rvo_world_release_pushed(w)
    if n < 0 then core_fail(w, n, fn) end
    return n
end

function methods.lock_time(self, id)
    local fn = "lock_time"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    local st = C.rvo_agent_lock_time(w, to_id(id), num_out)
    if st ~= 0 then core_fail(w, st, fn) end
    return num_out[0]
end

function methods.set_auto_lock(self, id, on)
    local fn = "set_auto_lock"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    if type(on) ~= "boolean" then type_fail(2, fn, "boolean", on) end
    local st = C.rvo_agent_set_auto_lock(w, to_id(id), on)
    if st ~= 0 then core_fail(w, st, fn) end
end

function methods.auto_lock(self, id)
    local fn = "auto_lock"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    local r = C.rvo_agent_auto_lock(w, to_id(id))
    if r < 0 then core_fail(w, r, fn) end
    return r > 0
end

---------------------------------------------------------------------------
-- Bulk access, in the world's agent order.

-- Nil out t[from], t[from+1], ... up to the first nil.
-- The ids b[0 .. n) into buf (returns n) or a new list (returns it and n).
local function id_list(b, n, buf)
    local t = buf or {}
    for i = 1, n do
        t[i] = tonumber(b[i - 1])
    end
    clear_tail(t, n + 1)
    if buf == nil then return t, n end
    return n
end

-- ids and obstacles: every id that count(w) and list(w, b, n) give.
local function all_ids(self, buf, fn, count, list)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if buf ~= nil and type(buf) ~= "table" then type_fail(1, fn, "table", buf) end
    local n = count(w)
    local b = id_buffer(n)
    local got = list(w, b, n)
    if got < n then n = got < 0 and 0 or got end
    return id_list(b, n, buf)
end

function methods.ids(self, buf)
    return all_ids(self, buf, "ids", C.rvo_world_agent_count, C.rvo_world_agent_ids)
end

local BULK_MAP = { [1] = 1, [2] = 1 }

local function bulk_getter(fn, get)
    return function(self, buf)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, fn) end
        local t = buf
        if t == nil then
            t = {}
        elseif type(t) ~= "table" then
            type_fail(1, fn, "table", buf)
        end
        local n = C.rvo_world_agent_count(w)
        local b = floats(2 * n)
        local got = get(w, b, n)
        if got < 0 then core_fail(w, got, fn, BULK_MAP) end
        if got < n then n = got end
        for i = 1, 2 * n do
            t[i] = b[i - 1]
        end
        clear_tail(t, 2 * n + 1)
        if buf == nil then return t, n end
        return n
    end
end

local FLOAT_ARRAY = ffi.typeof("float[?]")

local function bulk_setter(fn, set)
    return function(self, buf)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, fn) end
        -- performance: an FFI float array goes to the core as it is (no copy
        -- in Lua); it may be longer than 2 * agent count.
        if type(buf) == "cdata" and ffi.istype(FLOAT_ARRAY, buf) then
            local n = C.rvo_world_agent_count(w)
            local len = ffi.sizeof(buf) / 4
            if len < 2 * n then
                arg_fail(1, fn, format("expected %d numbers (2 per agent), got %d", 2 * n, len))
            end
            local st = set(w, buf, n)
            if st ~= 0 then core_fail(w, st, fn, BULK_MAP) end
            return
        end
        if type(buf) ~= "table" then type_fail(1, fn, "table", buf) end
        local n = C.rvo_world_agent_count(w)
        local st = set(w, pairs_in(buf, n, 1, fn, "agent"), n)
        if st ~= 0 then core_fail(w, st, fn, BULK_MAP) end
    end
end

methods.positions = bulk_getter("positions", C.rvo_world_positions)
methods.velocities = bulk_getter("velocities", C.rvo_world_velocities)
methods.new_velocities = bulk_getter("new_velocities", C.rvo_world_new_velocities)
methods.set_pref_velocities = bulk_setter("set_pref_velocities", C.rvo_world_set_pref_velocities)
methods.set_new_velocities = bulk_setter("set_new_velocities", C.rvo_world_set_new_velocities)

-- rvo.jitter's steering in bulk: world:steer(ids, goals, amount,
-- slow_radius, arrive [, rng [, left]]) (rvo.core's l_steer).
local dcap, dbuf = 64, ffi.new("double[64]")
local rng_io = ffi.new("double[2]")
local STEER_MAP = { 1, 2, 2, 3, 4, 5, 6, 7 } -- core: ids, goals, n, amount, slow_radius, arrive, rng, left

function methods.steer(self, ids, goals, amount, slow_radius, arrive, rng, left)
    local fn = "steer"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(ids) ~= "table" then type_fail(1, fn, "table", ids) end
    if type(goals) ~= "table" then type_fail(2, fn, "table", goals) end
    if type(amount) ~= "number" then type_fail(3, fn, "number", amount) end
    if type(slow_radius) ~= "number" then type_fail(4, fn, "number", slow_radius) end
    if type(arrive) ~= "number" then type_fail(5, fn, "number", arrive) end
    if rng ~= nil and type(rng) ~= "table" then type_fail(6, fn, "table", rng) end
    if left ~= nil and type(left) ~= "table" then type_fail(7, fn, "table", left) end
    -- One pass over each list (a script calls this every frame): the ids up
    -- to the first hole (list_len's length, as rvo.core), then the goals;
    -- the errors in the order of the checks (lengths, then types).
    local raw = #ids
    if raw > 536870911 then arg_fail(1, fn, "too many ids") end
    local ib = id_buffer(raw)
    local n, bad_id = raw, 0
    for k = 1, raw do
        local v = ids[k]
        if type(v) == "number" then
            ib[k - 1] = to_id(v)
        elseif v == nil then
            n = k - 1
            break
        elseif bad_id == 0 then
            bad_id = k
        end
    end
    if 3 * n > dcap then
        dcap = 3 * n > 2 * dcap and 3 * n or 2 * dcap
        dbuf = ffi.new("double[?]", dcap)
    end
    local db = dbuf
    raw = #goals
    local len, bad_goal = 0, 0
    while len < 2 * n and len < raw do
        local v = goals[len + 1]
        if type(v) == "number" then
            db[len] = v
        elseif v == nil then
            break
        elseif bad_goal == 0 then
            bad_goal = len + 1
        end
        len = len + 1
    end
    if len == 2 * n and raw > len then len = list_len(goals, raw) end -- (longer: how long, for the message)
    if len ~= 2 * n then
        arg_fail(2, fn, format("expected %d numbers (2 per id), got %d", 2 * n, len))
    end
    if bad_id ~= 0 then
        arg_fail(1, fn, format("number expected at index %d, got %s", bad_id, type_name(ids[bad_id])))
    end
    if bad_goal ~= 0 then
        arg_fail(2, fn, format("number expected at index %d, got %s", bad_goal, type_name(goals[bad_goal])))
    end
    local r = nil
    if rng ~= nil then
        local s1, s2 = rng.s1, rng.s2
        if type(s1) ~= "number" or type(s2) ~= "number" then
            arg_fail(6, fn, "rng must be a generator (fields s1 and s2)")
        end
        rng_io[0], rng_io[1] = s1, s2
        r = rng_io
    end
    local moving = C.rvo_world_steer(w, ib, db, n, amount, slow_radius, arrive, r, left and db + 2 * n or nil)
    if moving < 0 then core_fail(w, moving, fn, STEER_MAP) end
    if r then rng.s1, rng.s2 = rng_io[0], rng_io[1] end
    if left then
        for k = 1, n do left[k] = db[2 * n + k - 1] end
        clear_tail(left, n + 1)
    end
    return moving
end

-- rvo.surround's frame in bulk (rvo.core's l_surround_plan, l_surround_project):
-- world:surround_plan(units, phases, stalled, flips, def, holders) -> holder
-- count, gap angle or nil; world:surround_project(holders, def).
local SURROUND_NUMS = { "x", "y", "vx", "vy", "attack_radius", "tolerance", "probe_length", "spread_speed", "dt",
    "clock" }
local SURROUND_FIELDS = { "target_x", "target_y", "target_vx", "target_vy", "attack_radius", "tolerance",
    "probe_length", "spread_speed", "dt", "clock" }
local SURROUND_FLAGS = { "spread", "hold", "probes" }
local SURROUND_MAP = { 5, 1, 1, 2, 3, 4, 6 } -- core: def, units, n, phase, stalled, flip_until, holders
local PROJECT_MAP = { 2, 1, 1 }              -- core: def, holders, n
local sdef = ffi.new("rvo_surround_def")
local gap_out = ffi.new("double[1]")
local ucap, ustalled, uflips, uphase, uholders = 0, nil, nil, nil, nil

-- def (argument arg) into sdef. (Errors point at the method's caller.)
local function surround_def(def, arg, fn)
    if type(def) ~= "table" then type_fail(arg, fn, "table", def, 4) end
    for k = 1, #SURROUND_NUMS do
        local v = def[SURROUND_NUMS[k]]
        if type(v) ~= "number" then
            arg_fail(arg, fn, format("field '%s': number expected, got %s", SURROUND_NUMS[k], type_name(v)), 4)
        end
        sdef[SURROUND_FIELDS[k]] = v
    end
    for k = 1, #SURROUND_FLAGS do
        local v = def[SURROUND_FLAGS[k]]
        if type(v) ~= "boolean" then
            arg_fail(arg, fn, format("field '%s': boolean expected, got %s", SURROUND_FLAGS[k], type_name(v)), 4)
        end
        sdef[SURROUND_FLAGS[k]] = v and 1 or 0
    end
end

-- The numbers list[1 .. len] (argument arg of fn) into out, a C array (nil:
-- the float scratch), which it returns; a non-number is named by its index.
-- level: as error's, counted from here.
local function list_numbers(list, len, arg, fn, level, out)
    local b = out or floats(len)
    for i = 1, len do
        local v = list[i]
        if type(v) ~= "number" then
            error(format("bad argument #%d to '%s' (number expected at index %d, got %s)", arg, fn, i,
                type_name(v)), level)
        end
        b[i - 1] = v
    end
    return b
end

function methods.surround_plan(self, units, phases, stalled, flips, def, holders)
    local fn = "surround_plan"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    local args = { units, phases, stalled, flips, def, holders }
    for arg = 1, 6 do
        if type(args[arg]) ~= "table" then type_fail(arg, fn, "table", args[arg]) end
    end
    surround_def(def, 5, fn)
    local ib, n = read_ids(units, fn)
    if n > ucap then
        ucap = n > 2 * ucap and n or 2 * ucap
        ustalled, uflips = ffi.new("double[?]", ucap), ffi.new("double[?]", ucap)
        uphase, uholders = ffi.new("uint8_t[?]", ucap), ffi.new("rvo_agent_id[?]", ucap)
    end
    local st, fl, ph, ho = ustalled, uflips, uphase, uholders
    list_numbers(phases, n, 2, fn, 3, st) -- (type-checked here, into st, which stalled overwrites)
    list_numbers(stalled, n, 3, fn, 3, st)
    list_numbers(flips, n, 4, fn, 3, fl)
    for k = 1, n do
        local v = phases[k]
        if v ~= 0 and v ~= 1 then arg_fail(2, fn, format("phase %d must be 0 or 1", k)) end
        ph[k - 1] = v
    end
    local nh = C.rvo_world_surround_plan(w, sdef, ib, n, ph, st, fl, ho, gap_out)
    if nh < 0 then core_fail(w, nh, fn, SURROUND_MAP) end
    for k = 1, n do
        phases[k], stalled[k], flips[k] = ph[k - 1], st[k - 1], fl[k - 1]
    end
    for k = 1, nh do
        holders[k] = tonumber(ho[k - 1])
    end
    clear_tail(holders, nh + 1)
    local gap = gap_out[0]
    if gap < 0 then return nh, nil end
    return nh, gap
end

function methods.surround_project(self, holders, def)
    local fn = "surround_project"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(holders) ~= "table" then type_fail(1, fn, "table", holders) end
    if type(def) ~= "table" then type_fail(2, fn, "table", def) end
    surround_def(def, 2, fn)
    local ib, n = read_ids(holders, fn)
    local st = C.rvo_world_surround_project(w, sdef, ib, n)
    if st ~= 0 then core_fail(w, st, fn, PROJECT_MAP) end
end

-- performance: zero-copy views, a `const float *` into the world (x of agent
-- k, 0-based in world order, at [2k], y at [2k + 1]); valid until the next
-- step, integrate, add_agent or remove_agent. Reading past 2 * agent_count
-- floats is undefined (it is a raw pointer).
local function view(fn, get)
    return function(self)
        local w = getmetatable(self) == World and self._w
        if not w then bad_self(self, fn) end
        return get(w)
    end
end
methods.positions_view = view("positions_view", C.rvo_world_positions_view)
methods.velocities_view = view("velocities_view", C.rvo_world_velocities_view)

---------------------------------------------------------------------------
-- Obstacles.

local OBSTACLE_MAP = { [1] = 1, [2] = 1, [3] = 2, [4] = 2 } -- core: xy, n, closed, side
local SIDES = { winding = 0, solid = 1, enclosure = 2 }

-- The flat list pts (argument arg) into the float scratch: buffer, length.
local function read_points(pts, arg, fn)
    local len = list_len(pts, #pts)
    if len % 2 ~= 0 then
        error(format("bad argument #%d to '%s' (even number of coordinates expected, got %d)", arg, fn, len), 3)
    end
    if len > 2 * 16777215 then
        error(format("bad argument #%d to '%s' (too many points)", arg, fn), 3)
    end
    return list_numbers(pts, len, arg, fn, 4), len
end

function methods.add_obstacle(self, pts, opts)
    local fn = "add_obstacle"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(pts) ~= "table" then type_fail(1, fn, "table", pts) end
    local closed, side = true, 0
    if opts ~= nil then
        if type(opts) ~= "table" then type_fail(2, fn, "table", opts) end
        local err = check_fields(opts, obstacle_known)
        if err then arg_fail(2, fn, err) end
        local c = opts.closed
        if type(c) == "boolean" then
            closed = c
        elseif c ~= nil then
            arg_fail(2, fn, "field 'closed': boolean expected, got " .. type_name(c))
        end
        local sd = opts.side
        if type(sd) == "string" then
            side = SIDES[sd]
            if not side then arg_fail(2, fn, "field 'side' must be 'solid', 'enclosure' or 'winding'") end
        elseif sd ~= nil then
            arg_fail(2, fn, "field 'side': string expected, got " .. type_name(sd))
        end
    end
    local b, len = read_points(pts, 1, fn)
    local id = C.rvo_world_add_obstacle_side(w, b, len / 2, closed, side)
    if id == 0 then core_fail(w, -1, fn, OBSTACLE_MAP) end
    return tonumber(id)
end

local SET_POINTS_MAP = { [1] = 1, [2] = 2, [3] = 2 } -- core: id, xy, n

function methods.set_obstacle_points(self, id, pts)
    local fn = "set_obstacle_points"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    if type(pts) ~= "table" then type_fail(2, fn, "table", pts) end
    local b, len = read_points(pts, 2, fn)
    local st = C.rvo_obstacle_set_points(w, to_id(id), b, len / 2)
    if st ~= 0 then core_fail(w, st, fn, SET_POINTS_MAP) end
end

local bool_out = ffi.new("bool[1]")

-- xy, closed (xy: buf when given)
function methods.obstacle_points(self, id, buf)
    local fn = "obstacle_points"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    if buf ~= nil and type(buf) ~= "table" then type_fail(2, fn, "table", buf) end
    id = to_id(id)
    local b = floats(64)
    local n = C.rvo_obstacle_points(w, id, b, floor(fcap / 2), bool_out)
    if n > floor(fcap / 2) then
        b = floats(2 * n)
        n = C.rvo_obstacle_points(w, id, b, floor(fcap / 2), bool_out)
    end
    if n < 0 then core_fail(w, n, fn) end
    local t = buf or {}
    for i = 1, 2 * n do
        t[i] = b[i - 1]
    end
    clear_tail(t, 2 * n + 1)
    return t, bool_out[0]
end

function methods.obstacles(self, buf)
    return all_ids(self, buf, "obstacles", C.rvo_world_obstacle_count, C.rvo_world_obstacle_ids)
end

---------------------------------------------------------------------------
-- Queries.


function methods.neighbors(self, id, buf)
    local fn = "neighbors"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    if buf ~= nil and type(buf) ~= "table" then type_fail(2, fn, "table", buf) end
    id = to_id(id)
    local b = id_buffer(64)
    local n = C.rvo_world_query_neighbors(w, id, b, icap)
    if n > icap then
        b = id_buffer(n)
        n = C.rvo_world_query_neighbors(w, id, b, icap)
    end
    if n < 0 then core_fail(w, n, fn) end
    if n > icap then n = icap end
    return id_list(b, n, buf)
end

function methods.query_radius(self, x, y, r, buf)
    local fn = "query_radius"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(x) ~= "number" then type_fail(1, fn, "number", x) end
    if type(y) ~= "number" then type_fail(2, fn, "number", y) end
    if type(r) ~= "number" then type_fail(3, fn, "number", r) end
    if buf ~= nil and type(buf) ~= "table" then type_fail(4, fn, "table", buf) end
    local b = id_buffer(64)
    local n = C.rvo_world_query_radius(w, x, y, r, b, icap)
    if n > icap then
        b = id_buffer(n)
        n = C.rvo_world_query_radius(w, x, y, r, b, icap)
    end
    if n < 0 then core_fail(w, n, fn) end
    if n > icap then n = icap end
    return id_list(b, n, buf)
end

function methods.query_obstacles(self, x, y, r, buf)
    local fn = "query_obstacles"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(x) ~= "number" then type_fail(1, fn, "number", x) end
    if type(y) ~= "number" then type_fail(2, fn, "number", y) end
    if type(r) ~= "number" then type_fail(3, fn, "number", r) end
    if buf ~= nil and type(buf) ~= "table" then type_fail(4, fn, "table", buf) end
    local b = id_buffer(64)
    local n = C.rvo_world_query_obstacles(w, x, y, r, b, icap)
    if n > icap then
        b = id_buffer(n)
        n = C.rvo_world_query_obstacles(w, x, y, r, b, icap)
    end
    if n < 0 then core_fail(w, n, fn) end
    if n > icap then n = icap end
    return id_list(b, n, buf)
end

function methods.line_of_sight(self, x1, y1, x2, y2, clearance)
    local fn = "line_of_sight"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(x1) ~= "number" then type_fail(1, fn, "number", x1) end
    if type(y1) ~= "number" then type_fail(2, fn, "number", y1) end
    if type(x2) ~= "number" then type_fail(3, fn, "number", x2) end
    if type(y2) ~= "number" then type_fail(4, fn, "number", y2) end
    if clearance == nil then
        clearance = 0
    elseif type(clearance) ~= "number" then
        type_fail(5, fn, "number", clearance)
    end
    local r = C.rvo_world_line_of_sight(w, x1, y1, x2, y2, clearance)
    if r < 0 then core_fail(w, r, fn) end
    return r > 0
end

-- Agents that deviated from their preferred velocity in the last solve.
function methods.avoiding(self, tolerance, buf)
    local fn = "avoiding"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if tolerance == nil then
        tolerance = 1e-4
    elseif type(tolerance) ~= "number" then
        type_fail(1, fn, "number", tolerance)
    end
    if buf ~= nil and type(buf) ~= "table" then type_fail(2, fn, "table", buf) end
    local cap = C.rvo_world_agent_count(w)
    local b = id_buffer(cap)
    -- at most every agent: one call is enough
    local n = C.rvo_world_avoiding(w, tolerance, b, cap)
    if n < 0 then core_fail(w, n, fn) end -- core: tolerance = 1, as in Lua
    if n > cap then n = cap end
    return id_list(b, n, buf)
end

local hit_out = ffi.new("rvo_ray_hit[1]")
local mask_check = ffi.new("rvo_agent_def[1]", { C.rvo_agent_def_default() })

-- A ray cast's optional mask (argument arg of method fn, whose caller the
-- errors point at): every bit when nil. The core takes a uint32_t: the
-- number is judged as set_mask judges it.
local function optional_mask(mask, arg, fn)
    if mask == nil then return 0xffffffff end
    if type(mask) ~= "number" then type_fail(arg, fn, "number", mask, 4) end
    if C.rvo_agent_def_set_param(mask_check, param_index.mask, mask, core_err) ~= 0 then
        arg_fail(arg, fn, ffi.string(core_err.message), 4)
    end
    return mask
end

function methods.ray_cast(self, x, y, dx, dy, max_dist, clearance, mask, ignore)
    local fn = "ray_cast"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(x) ~= "number" then type_fail(1, fn, "number", x) end
    if type(y) ~= "number" then type_fail(2, fn, "number", y) end
    if type(dx) ~= "number" then type_fail(3, fn, "number", dx) end
    if type(dy) ~= "number" then type_fail(4, fn, "number", dy) end
    if type(max_dist) ~= "number" then type_fail(5, fn, "number", max_dist) end
    if clearance == nil then
        clearance = 0
    elseif type(clearance) ~= "number" then
        type_fail(6, fn, "number", clearance)
    end
    mask = optional_mask(mask, 7, fn)
    local r
    if ignore == nil then
        -- core: x, y, dx, dy, max_dist, clearance, mask, hit = 1..8, as in Lua
        r = C.rvo_world_ray_cast(w, x, y, dx, dy, max_dist, clearance, mask, hit_out)
    else
        -- point-blank: ignore = the caster's id, or false for nobody
        local id = 0
        if ignore ~= false then
            if type(ignore) ~= "number" then type_fail(8, fn, "number or false", ignore) end
            id = to_id(ignore)
            if id == 0 then arg_fail(8, fn, "unknown or removed agent id") end
        end
        -- core: ..., mask, ignore, hit = 1..9, as in Lua
        r = C.rvo_world_ray_cast_from(w, x, y, dx, dy, max_dist, clearance, mask, id, hit_out)
    end
    if r < 0 then core_fail(w, r, fn) end
    if r == 0 then return nil end
    local h = hit_out[0]
    local agent, obstacle = h.agent, h.obstacle
    return {
        distance = h.distance,
        x = h.point.x,
        y = h.point.y,
        nx = h.normal.x,
        ny = h.normal.y,
        agent = agent ~= 0 and tonumber(agent) or nil,
        obstacle = obstacle ~= 0 and tonumber(obstacle) or nil,
    }
end
-- Never compiled: in a compiled loop this wrapper crashed LuaJIT
-- 2.1.0-beta3 (SIGSEGV in its machine code) in 4 of 200 runs of
-- rvo.surround's scene; interpreted, 0 of 800. It then costs about 1.6 us a
-- call instead of 0.26 (docs/performance.md).
if jit then
    jit.off(methods.ray_cast, true)
    jit.off(optional_mask) -- (its mask check, an FFI call, likewise)
end

-- world:ray_casts(rays [, out [, mask]]) (rvo.core's l_ray_casts): many
-- rays in one core call, 6 numbers per ray in, 3 per ray out (distance or
-- -1, agent id or 0, obstacle id or 0).
local hcap, hbuf = 16, ffi.new("rvo_ray_hit[16]")
local RAY_CASTS_MAP = { [1] = 1, [2] = 1, [3] = 3, [4] = 2 } -- core: rays, n, mask, hits

function methods.ray_casts(self, rays, out, mask)
    local fn = "ray_casts"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(rays) ~= "table" then type_fail(1, fn, "table", rays) end
    if out ~= nil and type(out) ~= "table" then type_fail(2, fn, "table", out) end
    mask = optional_mask(mask, 3, fn)
    local len = list_len(rays, #rays)
    if len % 6 ~= 0 then
        arg_fail(1, fn, format("expected 6 numbers per ray (x, y, dx, dy, max_dist, clearance), got %d", len))
    end
    local n = len / 6
    if n > 134217727 then arg_fail(1, fn, "too many rays") end
    local b = list_numbers(rays, len, 1, fn, 3)
    if n > hcap then
        hcap = n > 2 * hcap and n or 2 * hcap
        hbuf = ffi.new("rvo_ray_hit[?]", hcap)
    end
    local hits = hbuf
    local found = C.rvo_world_ray_casts(w, b, n, mask, hits)
    if found < 0 then core_fail(w, found, fn, RAY_CASTS_MAP) end
    local t = out or {}
    for k = 0, n - 1 do
        local h = hits[k]
        local agent, obstacle = tonumber(h.agent), tonumber(h.obstacle)
        t[3 * k + 1] = (agent ~= 0 or obstacle ~= 0) and h.distance or -1
        t[3 * k + 2] = agent
        t[3 * k + 3] = obstacle
    end
    clear_tail(t, 3 * n + 1)
    if out == nil then return t, found end
    return found
end

---------------------------------------------------------------------------
-- Debug view: the ORCA lines of one agent (as rvo.core's l_orca_lines).

local ORCA_LINES_MAP = { [1] = 1, [2] = 2, [3] = 3, [4] = 3 } -- core: id, dt, out, cap
local nobst_out = ffi.new("int32_t[1]")

function methods.orca_lines(self, id, dt, buf)
    local fn = "orca_lines"
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, fn) end
    if type(id) ~= "number" then type_fail(1, fn, "number", id) end
    if dt == nil then
        dt = 0
    elseif type(dt) ~= "number" then
        type_fail(2, fn, "number", dt)
    elseif dt <= 0 then
        arg_fail(2, fn, "dt must be > 0") -- 0 means time_step only in C
    end
    if buf ~= nil and type(buf) ~= "table" then type_fail(3, fn, "table", buf) end
    id = to_id(id)
    local cap = math.floor(fcap / 4)
    if cap < 64 then
        floats(4 * 64)
        cap = math.floor(fcap / 4)
    end
    local n = C.rvo_agent_orca_lines(w, id, dt, fbuf, cap, nobst_out)
    if n > cap then
        floats(4 * n)
        cap = math.floor(fcap / 4)
        n = C.rvo_agent_orca_lines(w, id, dt, fbuf, cap, nobst_out)
    end
    if n < 0 then core_fail(w, n, fn, ORCA_LINES_MAP) end
    local t = buf or {}
    local b = fbuf
    for i = 1, 4 * n do
        t[i] = b[i - 1]
    end
    clear_tail(t, 4 * n + 1)
    if buf == nil then return t, n, nobst_out[0] end
    return n, nobst_out[0]
end

---------------------------------------------------------------------------
-- Snapshots (as rvo.core's l_save / l_load).

function methods.save(self)
    local w = getmetatable(self) == World and self._w
    if not w then bad_self(self, "save") end
    local n = C.rvo_world_save(w, nil, 0)
    local buf = ffi.new("uint8_t[?]", n)
    C.rvo_world_save(w, buf, n)
    return ffi.string(buf, n)
end

local load_out = ffi.new("rvo_world *[1]")

local function load(s)
    local fn = "load"
    if type(s) ~= "string" then
        error(format("bad argument #1 to '%s' (string expected, got %s)", fn, type_name(s)), 2)
    end
    load_out[0] = nil
    local st = C.rvo_world_load(s, #s, nil, load_out, core_err)
    if st == -3 then
        error(fn .. ": not enough memory", 2)
    elseif st ~= 0 then
        error(format("bad argument #1 to '%s' (%s)", fn, ffi.string(core_err.message)), 2)
    end
    local w = load_out[0]
    load_out[0] = nil
    return setmetatable({ _w = ffi.gc(w, function(p) C.rvo_world_destroy(p) end) }, World)
end

return {
    new_world = new_world,
    load = load, -- snapshots
    version = ffi.string(C.rvo_version()),
    World = World, -- the metatable (for behaviour modules' type checks)
}
