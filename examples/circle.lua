--- examples/circle.lua — the classic ORCA circle: agents on a circle swap to
-- the antipode. Prints a summary and writes an SVG of every path.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/circle.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/circle.lua [--quick] [out.svg]
--
-- Full run: 250 agents on a circle of radius 200 (RVO2's Circle example,
-- the scene of tests/data/rvo2/rvo2_circle250_pref2). --quick: 50
-- agents on a circle of radius 40 (the same spacing), for smoke tests.
-- Exits with status 1 if the agents do not all arrive within the step cap.

local rvo = require("rvo")
local trace = require("rvo.trace")

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: circle.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("circle.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end

-- The scene.
local N = quick and 50 or 250
local CIRCLE = quick and 40 or 200
local MAX_STEPS = quick and 1000 or 3000
local RADIUS, MAX_SPEED = 1.5, 2

if not out_path then
    -- <repo>/out/circle.svg, wherever the script is run from.
    local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
    local root = dir:match("^(.*)[/\\]examples$") or (dir == "examples" and ".") or (dir .. "/..")
    out_path = root .. "/out/" .. (quick and "circle-quick.svg" or "circle.svg")
end

local world = rvo.new_world{
    time_step = 0.25, neighbor_dist = 15, max_neighbors = 10,
    time_horizon = 10, time_horizon_obst = 10, radius = RADIUS, max_speed = MAX_SPEED,
}

local goals = {}
for i = 0, N - 1 do
    local a = i * 2 * math.pi / N
    local x, y = CIRCLE * math.cos(a), CIRCLE * math.sin(a)
    world:add_agent(x, y)
    goals[2 * i + 1], goals[2 * i + 2] = -x, -y
end

-- Agents are in creation order in the bulk calls (no agent is removed here).
local ids = {}
do
    local r = world:ids(ids)
    if type(r) == "table" then ids = r end
end
assert(#ids == N, "expected " .. N .. " agents")

local pos = {}
local tr = trace.new(world)

local function set_pref_velocities()
    world:positions(pos)
    local done = true
    for i = 1, N do
        local gx, gy = goals[2 * i - 1] - pos[2 * i - 1], goals[2 * i] - pos[2 * i]
        local d2 = gx * gx + gy * gy
        if d2 > RADIUS * RADIUS then done = false end
        if d2 > MAX_SPEED * MAX_SPEED then
            local s = MAX_SPEED / math.sqrt(d2)
            gx, gy = gx * s, gy * s
        end
        world:set_pref_velocity(ids[i], gx, gy)
    end
    return done
end

-- Worst overlap (ri + rj - distance) over all pairs, with a uniform grid of
-- cells as wide as the contact distance: only the 3x3 neighbouring cells
-- can hold overlapping agents.
local CELL = 2 * RADIUS
local function worst_overlap()
    local cells, keys = {}, {}
    local floor = math.floor
    for i = 1, N do
        local cx, cy = floor(pos[2 * i - 1] / CELL), floor(pos[2 * i] / CELL)
        local key = (cx + 1048576) * 2097152 + (cy + 1048576)
        keys[i] = key
        local c = cells[key]
        if c then c[#c + 1] = i else cells[key] = { i } end
    end
    local worst = -math.huge
    local contact = 2 * RADIUS
    for i = 1, N do
        local xi, yi, key = pos[2 * i - 1], pos[2 * i], keys[i]
        for dx = -1, 1 do
            for dy = -1, 1 do
                local c = cells[key + dx * 2097152 + dy]
                if c then
                    for k = 1, #c do
                        local j = c[k]
                        if j > i then
                            local ex, ey = pos[2 * j - 1] - xi, pos[2 * j] - yi
                            local o = contact - math.sqrt(ex * ex + ey * ey)
                            if o > worst then worst = o end
                        end
                    end
                end
            end
        end
    end
    return worst
end

local steps, step_time = 0, 0
local worst, worst_step = -math.huge, 0
local done = set_pref_velocities()
while not done and steps < MAX_STEPS do
    local t0 = os.clock()
    world:step()
    step_time = step_time + (os.clock() - t0)
    steps = steps + 1
    tr:record()
    done = set_pref_velocities() -- also reads the new positions
    local w = worst_overlap()
    if w > worst then worst, worst_step = w, steps end
end

local runtime = (jit and jit.version) or _VERSION
print(string.format("circle: %d agents on a circle of radius %g, dt 0.25, %s", N, CIRCLE, runtime))
if done then
    print(string.format("steps: %d (every agent within %g of its goal)", steps, RADIUS))
else
    print(string.format("steps: %d (cap reached: some agents did not arrive)", steps))
end
if worst > 0 then
    print(string.format("worst overlap: %.3f (%.1f%% of ri+rj) at step %d", worst, 100 * worst / (2 * RADIUS),
        worst_step))
else
    print(string.format("worst overlap: none (closest pair %.3f apart)", -worst))
end
print(string.format("step time: %.3f ms per step (mean of %d, os.clock around world:step)",
    steps > 0 and step_time / steps * 1000 or 0, steps))

local title = string.format("%d agents, %d steps", N, steps)
local opts = { tolerance = 0.05, title = title, size = 800, point_radius = RADIUS, width = 0.3 }
local ok, err = tr:write_svg(out_path, opts)
if not ok then
    -- The output folder may not exist yet.
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, err = tr:write_svg(out_path, opts)
    end
end
if ok then
    print("svg: " .. out_path)
else
    io.stderr:write("circle.lua: cannot write " .. out_path .. ": " .. tostring(err) .. "\n")
    os.exit(1)
end

if not done then os.exit(1) end
