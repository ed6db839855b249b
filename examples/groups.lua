--- examples/groups.lua — avoidance groups by name with rvo.groups: two red
-- squads cross head-on and walk through each other (red ignores red), while
-- a blue squad crossing their path is avoided by both and avoids them.
-- Half way, the last blue soldier defects to red (a membership change at
-- run time). Writes an SVG of the paths (red and blue) and prints the
-- closest approach between allies and between enemies.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/groups.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/groups.lua [--quick] [out.svg]
--
-- --quick: squads of 4 instead of 9. Exits with status 1 if enemies overlap
-- by more than 2% of their radius sum or not everybody arrives.

local rvo = require("rvo")
local groups = require("rvo.groups")
local jitter = require("rvo.jitter")
local trace = require("rvo.trace")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: groups.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("groups.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not out_path then
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/groups.svg"
end

local SIDE = quick and 2 or 3 -- squads of SIDE x SIDE
local RADIUS = 0.5
local world = rvo.new_world { time_step = 0.1, radius = RADIUS, max_speed = 1.5, neighbor_dist = 8,
    max_neighbors = 12, time_horizon = 2 }
local g = groups.new(world, { "red", "blue" })
g:ignores("red", "red")

local agents, goals, team = {}, {}, {}
local function squad(cx, cy, gx, gy, name)
    for i = 0, SIDE - 1 do
        for k = 0, SIDE - 1 do
            local dx, dy = (i - (SIDE - 1) / 2) * 1.6, (k - (SIDE - 1) / 2) * 1.6
            local id = world:add_agent(cx + dx, cy + dy)
            g:set(id, name)
            agents[#agents + 1] = id
            goals[#goals + 1] = { gx + dx, gy + dy }
            team[id] = name
        end
    end
end
squad(-12, 0, 12, 0, "red")
squad(12, 0.3, -12, 0.3, "red")
squad(0, -14, 0, 14, "blue") -- crosses the reds' meeting point a little later

local j = jitter.new { seed = 3, amount = 0.05 }
local tr = trace.new(world)
local closest_allies, closest_enemies = math.huge, math.huge
local defector = agents[#agents]
local steps, arrived = 0, false
for step = 1, 400 do
    local done = true
    for i, id in ipairs(agents) do
        if j:steer(world, id, goals[i][1], goals[i][2]) > 0.05 then done = false end
    end
    if done then arrived = true break end
    if step == 120 then
        g:leave(defector, "blue"):join(defector, "red")
        team[defector] = "red"
    end
    world:step()
    tr:record()
    steps = step
    for a = 1, #agents do
        local ax, ay = world:position(agents[a])
        for b = a + 1, #agents do
            local bx, by = world:position(agents[b])
            local d = math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
            if team[agents[a]] == team[agents[b]] then
                if team[agents[a]] == "red" then closest_allies = math.min(closest_allies, d) end
            else
                closest_enemies = math.min(closest_enemies, d)
            end
        end
    end
end

local contact = 2 * RADIUS
print(string.format("%d red + %d blue agents, %d steps, %s (%s)", 2 * SIDE * SIDE, SIDE * SIDE, steps,
    arrived and "all arrived" or "NOT all arrived", rawget(_G, "jit") and "LuaJIT" or _VERSION))
print(string.format("closest allies (red-red): %.3f m apart (%.0f%% overlap: they walk through)",
    closest_allies, math.max(0, 100 * (contact - closest_allies) / contact)))
print(string.format("closest enemies (red-blue): %.3f m apart (contact at %.1f)", closest_enemies, contact))

local function colour(_, _, id)
    if id == defector then return "purple" end
    return team[id] == "red" and "#c0392b" or "#2c6fbb"
end
local opts = { tolerance = 0.01, point_radius = RADIUS, width = 0.08, color = colour,
    title = "red ignores red, red and blue avoid each other; purple: blue turned red at step 120" }
local ok, err = tr:write_svg(out_path, opts)
if not ok then
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, err = tr:write_svg(out_path, opts)
    end
end
if not ok then
    io.stderr:write("groups.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end
print("svg: " .. out_path)
if closest_enemies < contact * 0.98 or not arrived then os.exit(1) end
