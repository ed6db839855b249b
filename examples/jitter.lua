--- examples/jitter.lua — three symmetric scenes that deadlock under plain
-- ORCA and finish once rvo.jitter perturbs the preferred velocities:
-- two agents head-on, four crossing at a point, two swapping in a corridor.
-- The worlds use the soft mode (world:set_strict_overlap(false)), plain ORCA
-- as in RVO2: the default mode's hard bodies break such deadlocks by
-- themselves once the agents have stood for the stall time (later than
-- jitter does).
-- Writes an SVG: top row without jitter (grey discs: where they stall), bottom
-- row with jitter (the paths).
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/jitter.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/jitter.lua [--quick] [out.svg]
--
-- --quick caps the runs at 300 steps (the scenes finish in about 100).
-- Exits with status 1 if a jittered scene does not finish.

local rvo = require("rvo")
local jitter = require("rvo.jitter")
local trace = require("rvo.trace")
local svg = require("rvo.svg")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: jitter.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("jitter.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/jitter.svg"
end

local MAX_STEPS = quick and 300 or 1000
local RADIUS = 0.5
local SCENES = {
    { name = "head-on", starts = { { -5, 0 }, { 5, 0 } } },
    { name = "four-way cross", starts = { { 6, 0 }, { 0, 6 }, { -6, 0 }, { 0, -6 } } },
    { name = "corridor swap", starts = { { -6, 0 }, { 6, 0 } },
        walls = { { -8, 1.15, 8, 1.15 }, { -8, -1.15, 8, -1.15 } } },
}

-- Runs one scene shifted by (ox, oy); returns the steps taken (nil: not all
-- arrived), the trace and the world's final positions.
local function run(scene, ox, oy, amount, seed)
    local w = rvo.new_world { time_step = 0.1, radius = RADIUS, max_speed = 1.5, neighbor_dist = 10,
        time_horizon = 2, time_horizon_obst = 1 }
    w:set_strict_overlap(false) -- plain ORCA (see the top)
    for _, wall in ipairs(scene.walls or {}) do
        w:add_obstacle({ wall[1] + ox, wall[2] + oy, wall[3] + ox, wall[4] + oy }, { closed = false })
    end
    local agents, goals = {}, {}
    for i, p in ipairs(scene.starts) do
        agents[i] = w:add_agent(p[1] + ox, p[2] + oy)
        goals[i] = { ox - p[1], oy - p[2] }
    end
    local j = jitter.new { seed = seed, amount = amount }
    local tr = trace.new(w)
    local steps
    for step = 0, MAX_STEPS do
        local done = true
        for i, id in ipairs(agents) do
            if j:steer(w, id, goals[i][1], goals[i][2]) > 0.05 then done = false end
        end
        if done then steps = step break end
        w:step()
        tr:record()
    end
    local final = {}
    for i, id in ipairs(agents) do final[i] = { w:position(id) } end
    w:destroy()
    return steps, tr, final
end

local doc = svg.new { width = 900, background = "white" }
local ok_all = true
for k, scene in ipairs(SCENES) do
    local ox = (k - 1) * 20
    local plain_steps, plain_trace, stuck = run(scene, ox, 10, 0, 1)
    local steps, tr = run(scene, ox, -10, 0.1, 1)
    for row, oy in ipairs { 10, -10 } do
        for _, wall in ipairs(scene.walls or {}) do
            doc:line(wall[1] + ox, wall[2] + oy, wall[3] + ox, wall[4] + oy, { stroke = "#444", stroke_width = 0.15 })
        end
        local t = row == 1 and plain_trace or tr
        t:draw(doc, { point_radius = RADIUS, width = 0.08, tolerance = 0.01 })
    end
    for _, p in ipairs(stuck) do
        doc:circle(p[1], p[2], RADIUS, { fill = "#888", fill_opacity = 0.5 })
    end
    local plain_label = plain_steps and (plain_steps .. " steps") or ("stalled after " .. MAX_STEPS .. " steps")
    doc:text(ox - 7, 17.5, scene.name .. ", no jitter: " .. plain_label, { font_size = 0.9 })
    doc:text(ox - 7, -2.5, scene.name .. ", jitter 0.1: " .. (steps and (steps .. " steps") or "did not finish"),
        { font_size = 0.9 })
    print(string.format("%-15s no jitter: %-28s jitter (seed 1, amount 0.1): %s", scene.name, plain_label,
        steps and (steps .. " steps") or "did not finish"))
    ok_all = ok_all and steps ~= nil
end

local ok, err = doc:write(out_path)
if not ok then
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, err = doc:write(out_path)
    end
end
if not ok then
    io.stderr:write("jitter.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end
print("svg: " .. out_path)
if not ok_all then os.exit(1) end
