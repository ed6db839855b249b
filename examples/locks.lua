--- examples/locks.lua — Unreal's lock timers (rvo.locks) in a standard
-- crossing: two 3x3 squads cross at right angles at 30 Hz. Prints the
-- oscillation (sum over steps of |v(t) - v(t - dt)| per agent [m/s], while
-- more than 2 m from the goal, and over the whole run), the steps until
-- every agent is home and the worst overlap, without and with locks, for
-- each solver, with and without jitter; draws the ORCA + jitter runs side
-- by side (left: no locks, right: locks).
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/locks.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/locks.lua [--quick] [out.svg]
--
-- --quick: only ORCA with jitter. Exits with status 1 if the locks do not
-- lower the oscillation of that case.

local rvo = require("rvo")
local locks = require("rvo.locks")
local jitter = require("rvo.jitter")
local trace = require("rvo.trace")
local svg = require("rvo.svg")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: locks.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("locks.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/locks.svg"
end

-- The crossing of tests/lua/locks_spec.lua.
local function crossing(solver, amount, lock_opts)
    local ox = 0
    local w = rvo.new_world { time_step = 1 / 30, radius = 0.5, max_speed = 1.5, neighbor_dist = 10,
        time_horizon = 2, solver = solver }
    local agents, goals = {}, {}
    for i = 0, 2 do
        for k = 0, 2 do
            local dx, dy = 1.5 * i + 0.013 * ((i * 7 + k * 3) % 5), 1.5 * k + 0.011 * ((i * 3 + k * 5) % 7)
            agents[#agents + 1] = w:add_agent(ox - 14 - dx, dy - 1.5)
            goals[#goals + 1] = { ox + 18.5 - dx, dy - 1.5 }
            agents[#agents + 1] = w:add_agent(ox + dy - 1.5, -14 - dx)
            goals[#goals + 1] = { ox + dy - 1.5, 18.5 - dx }
        end
    end
    local n = #agents
    local L = lock_opts and locks.new(w, lock_opts)
    local j = jitter.new { seed = 1, amount = amount }
    local tr = trace.new(w)
    local prev = {}
    for i = 1, n do prev[i] = { 0, 0 } end
    local en_route, whole, worst, steps = 0, 0, -math.huge, nil
    for step = 1, 1500 do
        local done = true
        for i, id in ipairs(agents) do
            if j:steer(w, id, goals[i][1], goals[i][2]) > 0.05 then done = false end
        end
        if done then steps = step break end
        if L then L:step() else w:step() end
        tr:record()
        for i, id in ipairs(agents) do
            local vx, vy = w:velocity(id)
            local x, y = w:position(id)
            local dv = math.sqrt((vx - prev[i][1]) ^ 2 + (vy - prev[i][2]) ^ 2)
            whole = whole + dv
            if (x - goals[i][1]) ^ 2 + (y - goals[i][2]) ^ 2 > 4 then en_route = en_route + dv end
            prev[i][1], prev[i][2] = vx, vy
            for k = i + 1, n do
                local x2, y2 = w:position(agents[k])
                worst = math.max(worst, 1 - math.sqrt((x - x2) ^ 2 + (y - y2) ^ 2))
            end
        end
    end
    w:destroy()
    return { route = en_route / n, whole = whole / n, steps = steps, worst = worst, trace = tr }
end

print(string.format("standard crossing, 18 agents, dt 1/30 (%s)", rawget(_G, "jit") and "LuaJIT" or _VERSION))
print("| solver | jitter | oscillation en route: no locks -> locks | whole run | steps home | worst overlap |")
print("|---|---|---|---|---|---|")
local function fmt_steps(s) return s and tostring(s) or "> 1500" end
local shown
for _, solver in ipairs(quick and { "orca" } or { "orca", "ue", "rvo" }) do
    for _, amount in ipairs(quick and { 0.1 } or { 0, 0.1 }) do
        local a = crossing(solver, amount, nil)
        local b = crossing(solver, amount, {})
        print(string.format("| %s | %g | %.1f -> %.1f | %.1f -> %.1f | %s -> %s | %.1f%% -> %.1f%% |", solver, amount,
            a.route, b.route, a.whole, b.whole, fmt_steps(a.steps), fmt_steps(b.steps),
            math.max(0, 100 * a.worst), math.max(0, 100 * b.worst)))
        if solver == "orca" and amount == 0.1 then shown = { a, b } end
    end
end

local doc = svg.new { width = 1000, background = "white" }
for k, r in ipairs(shown) do
    local shift = (k - 1) * 40 -- the right-hand run drawn 40 m to the right
    local paths = r.trace:paths()
    for i, p in ipairs(paths) do
        local pts = trace.simplify(p.points, 0.01)
        for m = 1, #pts, 2 do pts[m] = pts[m] + shift end
        local c = svg.hue((i - 1) / #paths)
        doc:path(pts, { stroke = c, stroke_width = 0.08 })
        doc:circle(pts[#pts - 1], pts[#pts], 0.5, { fill = c })
    end
    doc:text(shift - 14, 21, string.format("%s: oscillation %.1f m/s per agent en route", k == 1 and
        "no locks" or "locks (0.2 s after avoid)", r.route), { font_size = 1.2 })
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
    io.stderr:write("locks.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end
print("svg: " .. out_path)
if not (shown[2].route < shown[1].route and shown[2].steps) then os.exit(1) end
