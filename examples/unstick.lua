--- examples/unstick.lua — stall events and rvo.unstick on deadlocked scenes.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/unstick.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/unstick.lua [--quick] [out.svg]
--
-- Exactly symmetric scenes (no jitter) where ORCA's answer for every agent
-- is to wait: two agents head-on, a swap in a 2.3 m corridor, four agents
-- meeting at a crossroads. Each runs twice: plain, where the world reports
-- the agents as stalled and they never arrive, and with rvo.unstick, which
-- escalates for the stalled agents (jitter, side bias, weights) until they
-- pass. The worlds use the soft mode (world:set_strict_overlap(false)):
-- plain ORCA deadlocks there as in RVO2, while the default mode's hard
-- bodies let stalled agents that want opposite ways take turns by
-- themselves. --quick: the crossroads only. Writes an SVG of the unstick
-- runs' paths (default out/unstick.svg). Exits 1 if a plain run arrives or
-- an unstick run does not.

local rvo = require("rvo")
local unstick = require("rvo.unstick")
local trace = require("rvo.trace")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: unstick.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("unstick.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/" .. (quick and "unstick-quick.svg" or "unstick.svg")
end

local DT, SPEED, MAX_STEPS = 0.1, 1.5, 400

-- The scenes, side by side (offset in x) so that one SVG shows them all.
local SCENES = {
    { name = "head-on", starts = { { -5, 0 }, { 5, 0 } } },
    { name = "corridor", starts = { { -6, 0 }, { 6, 0 } }, walls = { { -8, 1.15, 8, 1.15 }, { -8, -1.15, 8, -1.15 } } },
    { name = "crossroads", starts = { { 6, 0 }, { 0, 6 }, { -6, 0 }, { 0, -6 } } },
}
if quick then SCENES = { SCENES[3] } end

-- Runs one scene; returns the step everyone arrived (or nil), the longest
-- stall reported, and the trace.
local function run(scene, with_unstick, ox)
    local w = rvo.new_world { time_step = DT, radius = 0.5, max_speed = SPEED, neighbor_dist = 10,
        time_horizon = 2, time_horizon_obst = 1 }
    w:set_strict_overlap(false) -- plain ORCA: symmetric deadlocks stay (see the top)
    for _, wall in ipairs(scene.walls or {}) do
        w:add_obstacle({ wall[1] + ox, wall[2], wall[3] + ox, wall[4] }, { closed = false })
    end
    local ids, goals = {}, {}
    for i, p in ipairs(scene.starts) do
        ids[i] = w:add_agent(p[1] + ox, p[2])
        goals[i] = { -p[1] + ox, -p[2] }
    end
    local tr = trace.new(w)
    local u = unstick.new { seed = 3 }
    local longest = 0
    for step = 1, MAX_STEPS do
        local home = true
        for i, id in ipairs(ids) do
            local x, y = w:position(id)
            local dx, dy = goals[i][1] - x, goals[i][2] - y
            local d = math.sqrt(dx * dx + dy * dy)
            if d > 0.05 then home = false end
            local s = math.min(SPEED, d / DT)
            if d > 0 then w:set_pref_velocity(id, dx / d * s, dy / d * s) else w:set_pref_velocity(id, 0, 0) end
        end
        if home then return step, longest, tr end
        if with_unstick then u:apply(w) end
        w:step()
        tr:record()
        local _, times, n = w:stalled()
        for k = 1, n do longest = math.max(longest, times[k]) end
    end
    return nil, longest, tr
end

local ok = true
local traces = {}
for k, scene in ipairs(SCENES) do
    local ox = (k - 1) * 20
    local plain, plain_stall = run(scene, false, ox)
    local fixed, _, tr = run(scene, true, ox)
    print(string.format("%-10s plain: %s (longest stall reported %.1f s); with unstick: %s", scene.name,
        plain and ("home after " .. plain .. " steps") or ("stuck for " .. MAX_STEPS .. " steps"), plain_stall,
        fixed and ("home after " .. fixed .. " steps") or "still stuck"))
    ok = ok and plain == nil and fixed ~= nil
    traces[#traces + 1] = tr
end

-- Paths of the unstick runs, one trace per scene, in one document.
local svg = require("rvo.svg")
local doc = svg.new { width = 900, background = "white" }
for _, tr in ipairs(traces) do
    tr:finish()
    tr:draw(doc, { tolerance = 0.02, point_radius = 0.5, width = 0.08 })
end
for k, scene in ipairs(SCENES) do
    for _, wall in ipairs(scene.walls or {}) do
        local ox = (k - 1) * 20
        doc:line(wall[1] + ox, wall[2], wall[3] + ox, wall[4], { stroke = "#444", stroke_width = 0.15 })
    end
end
local written, err = doc:write(out_path)
if not written then
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        written, err = doc:write(out_path)
    end
end
if written then
    print("svg: " .. out_path)
else
    io.stderr:write("unstick.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end
if not ok then os.exit(1) end
