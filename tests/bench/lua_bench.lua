-- Timing of the named scenes of tests/bench/scenes.h driven from Lua, as a
-- game drives a world: every frame it reads positions, sets preferred
-- velocities towards the goals and steps. Runs on Lua 5.4 (rvo.core) and on
-- LuaJIT (rvo.ffi); the scenes are generated with the same numbers as in C.
--
--   lua_bench.lua scenario n threads warm steps style mode
--     scenario  circle | random | plaza | blocks
--     style     simple  one world:position and one world:set_pref_velocity
--                       call per agent per frame (the simplest script)
--               bulk    world:positions(buf) and world:set_pref_velocities(buf)
--                       on Lua tables, one call each per frame
--               view    LuaJIT: world:positions_view() (zero-copy) and
--                       set_pref_velocities on an FFI float array
--     mode      default | plain (rvo2_compat: exactly RVO2's work)
--
-- Prints one CSV line:
--   scenario,n,threads,runtime,ms_per_step,us_per_agent_step,bytes_per_agent,
--   mode,clock,api_pct,script_pct
-- runtime is <interpreter>-<style>; ms_per_step is the whole frame (script and
-- step); api_pct is the time spent inside the rvo calls that move the data
-- (position/set_pref_velocity or the bulk calls) as a percentage of the time
-- in world:step; script_pct the whole script part (api calls plus the
-- steering arithmetic) likewise; bytes_per_agent the growth of the process'
-- resident memory over the run, per agent.
local rvo = require("rvo")

local scenario = arg[1] or "circle"
local n = tonumber(arg[2] or "1000")
local threads = tonumber(arg[3] or "1")
local warm = tonumber(arg[4] or "100")
local steps = tonumber(arg[5] or "200")
local style = arg[6] or "simple"
local mode = arg[7] or "default"
local jit_on = rawget(_G, "jit") ~= nil
local ffi = jit_on and require("ffi") or nil
local interp = jit_on and "luajit" or "lua5.4"

local function usage(msg)
    io.stderr:write("lua_bench: ", msg, "\n")
    os.exit(2)
end
if scenario ~= "circle" and scenario ~= "random" and scenario ~= "plaza" and scenario ~= "blocks" then
    usage("unknown scenario " .. scenario)
end
if not n or n < 1 or not threads or not warm or not steps then usage("bad numbers") end
if style ~= "simple" and style ~= "bulk" and style ~= "view" then usage("unknown style " .. style) end
if style == "view" and not jit_on then usage("style view needs LuaJIT") end
if mode ~= "default" and mode ~= "plain" then usage("unknown mode " .. mode) end

---------------------------------------------------------------------------
-- Clocks: wall time for the run, CPU time (one thread) for the parts.

-- One thread: the process' CPU time (fair on a shared machine; time spent
-- waiting for a core is not counted). More threads: wall time.
local wall
if ffi then
    ffi.cdef [[
    typedef struct { long tv_sec; long tv_nsec; } rvo_bench_timespec;
    int clock_gettime(int clk, rvo_bench_timespec *ts);
    ]]
    local ts = ffi.new("rvo_bench_timespec")
    local which = threads == 1 and 2 or 1 -- CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC
    wall = function()
        ffi.C.clock_gettime(which, ts)
        return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
    end
elseif threads == 1 then
    wall = os.clock
else
    -- Lua 5.4 has no wall clock finer than a second: ask date(1), and take
    -- off the time one such call adds between two readings.
    local function date()
        local p = io.popen("date +%s.%N")
        local s = p:read("*l")
        p:close()
        return tonumber(s)
    end
    local popen_cost = math.huge -- the least of a few: never take off too much
    for _ = 1, 3 do
        local a = date()
        popen_cost = math.min(popen_cost, date() - a)
    end
    local first = true
    wall = function()
        local t = date()
        if first then
            first = false
            return t
        end
        return t - popen_cost
    end
end
local clock = os.clock

local function rss_bytes()
    local f = io.open("/proc/self/statm", "r")
    if not f then return 0 end
    local _, resident = f:read("*n", "*n")
    f:close()
    return (resident or 0) * 4096
end

---------------------------------------------------------------------------
-- The scenes (same generator and numbers as scenes.h).

local floor, sqrt, cos, sin = math.floor, math.sqrt, math.cos, math.sin
local seed = 42
local function rand()
    -- seed = seed * 1103515245 + 12345 mod 2^32, exact in doubles
    local lo = seed % 65536
    local hi = floor(seed / 65536)
    seed = (1103515245 * lo + ((1103515245 * hi) % 65536) * 65536 + 12345) % 4294967296
    return floor(seed / 256) / 16777216
end

local params = { time_step = 0.25, neighbor_dist = 15, max_neighbors = 10, time_horizon = 10,
    time_horizon_obst = 10, radius = 1.5, max_speed = 2, threads = threads, rvo2_compat = mode == "plain" }
local pref_speed = 2
if scenario == "blocks" then
    n = 100
    params.time_horizon, params.time_horizon_obst, params.radius = 5, 5, 2
    pref_speed = 1
end

local rss0 = rss_bytes()
local world = rvo.new_world(params)
local gx, gy, ids = {}, {}, {}
local side = sqrt(n) * 6
local SPACING, PILLAR = 24, 4

local function add(x, y, goal_x, goal_y)
    local i = #ids + 1
    ids[i] = world:add_agent(x, y)
    gx[i], gy[i] = goal_x, goal_y
end

local function square(x0, y0, x1, y1)
    world:add_obstacle({ x0, y0, x1, y0, x1, y1, x0, y1 })
end

if scenario == "blocks" then
    local corner = { { 1, 1, -75, -75 }, { -1, 1, 75, -75 }, { 1, -1, -75, 75 }, { -1, -1, 75, 75 } }
    square(-40, 10, -10, 40)
    square(10, 10, 40, 40)
    square(10, -40, 40, -10)
    square(-40, -40, -10, -10)
    for i = 0, 4 do
        for j = 0, 4 do
            for c = 1, 4 do
                local k = corner[c]
                add(k[1] * (55 + i * 10), k[2] * (55 + j * 10), k[3], k[4])
            end
        end
    end
elseif scenario == "circle" then
    local R = math.max(200, n * 1.5 * 2.2 / (2 * math.pi))
    for i = 0, n - 1 do
        local a = i * 2 * math.pi / n
        local x, y = R * cos(a), R * sin(a)
        add(x, y, -x, -y)
    end
elseif scenario == "plaza" then
    local cells = floor(side / SPACING)
    for j = 0, cells - 1 do
        for i = 0, cells - 1 do
            local cx = -side / 2 + SPACING / 2 + i * SPACING
            local cy = -side / 2 + SPACING / 2 + j * SPACING
            square(cx - PILLAR / 2, cy - PILLAR / 2, cx + PILLAR / 2, cy + PILLAR / 2)
        end
    end
    local function blocked(x, y)
        local half = PILLAR / 2 + 3
        local cx = floor((x + side / 2) / SPACING) * SPACING - side / 2 + SPACING / 2
        local cy = floor((y + side / 2) / SPACING) * SPACING - side / 2 + SPACING / 2
        return math.abs(x - cx) < half and math.abs(y - cy) < half
    end
    local function point()
        local x, y
        repeat
            x = (rand() - 0.5) * side
            y = (rand() - 0.5) * side
        until not blocked(x, y)
        return x, y
    end
    for _ = 1, n do
        local x, y = point()
        add(x, y, point())
    end
else
    for _ = 1, n do
        local x, y = (rand() - 0.5) * side, (rand() - 0.5) * side
        add(x, y, (rand() - 0.5) * side, (rand() - 0.5) * side)
    end
end

---------------------------------------------------------------------------
-- One frame in each style; returns the CPU seconds spent in the rvo calls.

local speed_sq = pref_speed * pref_speed
local frame

if style == "simple" then
    frame = function()
        local t0 = clock()
        for i = 1, n do
            local id = ids[i]
            local x, y = world:position(id)
            local dx, dy = gx[i] - x, gy[i] - y
            local d2 = dx * dx + dy * dy
            if d2 > speed_sq then
                local k = pref_speed / sqrt(d2)
                dx, dy = dx * k, dy * k
            end
            world:set_pref_velocity(id, dx, dy)
        end
        return clock() - t0 -- the calls are the loop: counted whole
    end
elseif style == "bulk" then
    local pos, pref = {}, {}
    for i = 1, 2 * n do pref[i] = 0 end
    frame = function()
        local t0 = clock()
        world:positions(pos)
        local t1 = clock()
        for i = 1, n do
            local dx, dy = gx[i] - pos[2 * i - 1], gy[i] - pos[2 * i]
            local d2 = dx * dx + dy * dy
            if d2 > speed_sq then
                local k = pref_speed / sqrt(d2)
                dx, dy = dx * k, dy * k
            end
            pref[2 * i - 1], pref[2 * i] = dx, dy
        end
        local t2 = clock()
        world:set_pref_velocities(pref)
        return (t1 - t0) + (clock() - t2)
    end
else
    local pref = ffi.new("float[?]", 2 * n)
    local goal = ffi.new("float[?]", 2 * n)
    for i = 1, n do
        goal[2 * i - 2], goal[2 * i - 1] = gx[i], gy[i]
    end
    frame = function()
        local t0 = clock()
        local p = world:positions_view()
        local t1 = clock()
        for i = 0, 2 * n - 2, 2 do
            local dx, dy = goal[i] - p[i], goal[i + 1] - p[i + 1]
            local d2 = dx * dx + dy * dy
            if d2 > speed_sq then
                local k = pref_speed / sqrt(d2)
                dx, dy = dx * k, dy * k
            end
            pref[i], pref[i + 1] = dx, dy
        end
        local t2 = clock()
        world:set_pref_velocities(pref)
        return (t1 - t0) + (clock() - t2)
    end
end

for _ = 1, warm do
    frame()
    world:step()
end
collectgarbage()
local api, script, stepped = 0, 0, 0
local w0 = wall()
for _ = 1, steps do
    local t0 = clock()
    api = api + frame()
    local t1 = clock()
    world:step()
    local t2 = clock()
    script = script + (t1 - t0)
    stepped = stepped + (t2 - t1)
end
local total = wall() - w0
-- (date(1)'s cost varies on a loaded machine: never below the script's share)
if total < script then total = script + stepped / threads end
local ms = total * 1000 / steps
-- With threads > 1, CPU time in step overstates its wall time: take the
-- step's wall share as the total minus the (one-threaded) script part.
local step_time = threads > 1 and math.max(total - script, 1e-9) or stepped
local bytes = (rss_bytes() - rss0) / n
io.write(string.format("%s,%d,%d,%s-%s,%.4f,%.4f,%.0f,%s,%s,%.1f,%.1f\n", scenario, n, threads, interp, style, ms,
    ms * 1000 / n, bytes, mode, threads == 1 and "cpu" or "wall", 100 * api / step_time, 100 * script / step_time))
world:destroy()
