--- examples/level.lua — 200 agents cross a level through its doors: the
-- level is an OBJ file (examples/level/level.obj), Recast builds its
-- navmesh, the navmesh's outline becomes the world's walls, Detour finds
-- each agent's path and rvo.follow walks it while ORCA keeps the agents
-- apart. Prints a summary and writes an SVG of the walls and every path.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/level.lua [--quick] [out.svg]
--   meson devenv -C build --workdir "$PWD" luajit examples/level.lua [--quick] [out.svg]
--
-- Full run: 100 agents start in the west rooms and walk to the east room,
-- 100 walk the other way, through the pillar hall. --quick: 40 agents and
-- at most 900 steps, for smoke tests. Exits with status 1 if an agent
-- leaves the walkable area or not all arrive within the step cap.
--
-- Two navmeshes come from the one level: `walk` is eroded by the agents'
-- radius (Recast's agent_radius), so paths keep clear of walls; `walls` is
-- not eroded, and its outline is where the walls really are: obstacles
-- there keep agents' discs off the walls without narrowing the doors twice.
--
-- Loaded with loadfile(path)("--as-module") it returns the scenario
-- function instead of running it (tests/lua/follow_spec.lua uses that).

local rvo = require("rvo")
local nav = require("rvo.nav")
local follow = require("rvo.follow")
local trace = require("rvo.trace")
local svg = require("rvo.svg")

local script_dir = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./")

-- Even-odd point in the area bounded by loops.
local function inside(loops, x, y)
    local c = false
    for _, p in ipairs(loops) do
        local n = #p / 2
        local j = n
        for i = 1, n do
            local xi, yi, xj, yj = p[2 * i - 1], p[2 * i], p[2 * j - 1], p[2 * j]
            if (yi > y) ~= (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi then
                c = not c
            end
            j = i
        end
    end
    return c
end

local function clearance(loops, x, y)
    local best = math.huge
    for _, p in ipairs(loops) do
        local n = #p / 2
        local j = n
        for i = 1, n do
            local ax, ay, bx, by = p[2 * j - 1], p[2 * j], p[2 * i - 1], p[2 * i]
            local dx, dy = bx - ax, by - ay
            local t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
            if t < 0 then t = 0 elseif t > 1 then t = 1 end
            local qx, qy = ax + t * dx - x, ay + t * dy - y
            local d = math.sqrt(qx * qx + qy * qy)
            if d < best then best = d end
            j = i
        end
    end
    return best
end

-- A reproducible generator (exact integers below 2^53 on both runtimes).
local function lcg(seed)
    local s = seed
    return function()
        s = (s * 16807) % 2147483647
        return s / 2147483647
    end
end

--- Runs the scenario. opts: agents (200), max_steps (4000), seed (12345), check_every
-- (steps between walkable-area checks, 5), record (a rvo.trace is kept),
-- obj (path of the level). Returns a report table.
local function run(opts)
    opts = opts or {}
    local n_agents = opts.agents or 200
    local max_steps = opts.max_steps or 4000
    local check_every = opts.check_every or 5
    local radius = 0.35
    local level = nav.load_obj(opts.obj or (script_dir .. "level/level.obj"))
    local walk = nav.build { verts = level.verts, tris = level.tris, cell_size = 0.2, agent_radius = radius }
    local walls = nav.build { verts = level.verts, tris = level.tris, cell_size = 0.2, agent_radius = 0,
        edge_max_error = 0.5 }
    local world = rvo.new_world {
        time_step = 0.1, radius = radius, max_speed = 1.4, neighbor_dist = 4, max_neighbors = 10,
        time_horizon = 2, time_horizon_obst = 0.5,
    }
    local obstacle_ids = nav.add_outline(world, walls)
    local loops, holes = walls:boundary()
    local f = follow.new(world, { mesh = walk, corner_dist = 0.8, arrive_dist = 0.3, slow_dist = 1.5 })

    -- West agents start in rooms A (north) and B (south), east agents in
    -- room C; each walks to a spot on the other side.
    local rnd = lcg(opts.seed or 12345)
    local ids, goals = {}, {}
    local half = math.floor(n_agents / 2)
    local function grid(k, count, x0, y0, x1, y1)
        -- k-th (0-based) of count cells in a grid over the box, jittered
        local cols = math.ceil(math.sqrt(count * (x1 - x0) / (y1 - y0)))
        local rows = math.ceil(count / cols)
        local cx, cy = k % cols, math.floor(k / cols)
        local w, h = (x1 - x0) / cols, (y1 - y0) / rows
        return x0 + (cx + 0.3 + 0.4 * rnd()) * w, y0 + (cy + 0.3 + 0.4 * rnd()) * h
    end
    -- Goals are the cells of a grid too (in a shuffled order), so that no
    -- two agents are sent to the same spot.
    local function shuffled(count)
        local t = {}
        for k = 1, count do t[k] = k - 1 end
        for k = count, 2, -1 do
            local j = math.floor(rnd() * k) + 1
            t[k], t[j] = t[j], t[k]
        end
        return t
    end
    local east_count, west_count = n_agents - half, half
    local to_c, to_a, to_b = shuffled(half), shuffled(math.floor((east_count + 1) / 2)),
        shuffled(math.floor(east_count / 2))
    for i = 1, n_agents do
        local x, y, gx, gy
        if i <= half then
            local k = i - 1
            if k % 2 == 0 then
                x, y = grid(math.floor(k / 2), math.floor((half + 1) / 2), 1, 16, 13, 29) -- room A
            else
                x, y = grid(math.floor(k / 2), math.floor(half / 2), 1, 1, 13, 14) -- room B
            end
            gx, gy = grid(to_c[i], west_count, 35, 1, 47, 29) -- room C
        else
            local k = i - half - 1
            x, y = grid(k, east_count, 35, 1, 47, 29) -- room C
            if k % 2 == 0 then
                gx, gy = grid(to_a[math.floor(k / 2) + 1], #to_a, 1, 16, 13, 29)
            else
                gx, gy = grid(to_b[math.floor(k / 2) + 1], #to_b, 1, 1, 13, 14)
            end
        end
        ids[i] = world:add_agent(x, y)
        goals[i] = { gx, gy }
        assert(f:set_goal(ids[i], gx, gy))
    end

    local tr = opts.record and trace.new(world, { every = 5 }) or nil
    local outside, worst = 0, math.huge
    local steps = 0
    local t0 = os.clock()
    local function check()
        for i = 1, n_agents do
            local x, y = world:position(ids[i])
            if not inside(loops, x, y) then outside = outside + 1 end
            local c = clearance(loops, x, y)
            if c < worst then worst = c end
        end
    end
    check()
    while steps < max_steps do
        if f:update() == 0 then break end
        world:step()
        steps = steps + 1
        if tr then tr:record() end
        if steps % check_every == 0 then check() end
    end
    check()
    local seconds = os.clock() - t0
    local arrived = 0
    for i = 1, n_agents do
        if f:arrived(ids[i]) then arrived = arrived + 1 end
    end
    if tr then tr:finish() end
    return {
        world = world, walk = walk, walls = walls, loops = loops, holes = holes, trace = tr, follower = f,
        ids = ids, goals = goals,
        agents = n_agents, steps = steps, arrived = arrived, outside = outside, worst_clearance = worst,
        radius = radius, repaths = f.repaths, obstacles = #obstacle_ids, seconds = seconds,
    }
end

if ... == "--as-module" then
    return run
end

local quick, out_path = false, nil
for _, a in ipairs(arg or {}) do
    if a == "--quick" then
        quick = true
    elseif a == "-h" or a == "--help" then
        print("usage: level.lua [--quick] [output.svg]")
        os.exit(0)
    elseif a:sub(1, 1) == "-" then
        io.stderr:write("level.lua: unknown option " .. a .. "\n")
        os.exit(2)
    else
        out_path = a
    end
end
if not nav.has_navmesh then
    io.stderr:write("level.lua: navmesh building is not available (build with librecast-dev installed)\n")
    os.exit(1)
end
if not out_path then
    local root = script_dir:match("^(.*)[/\\]examples[/\\]$") or (script_dir .. "..")
    out_path = root .. "/out/" .. (quick and "level-quick.svg" or "level.svg")
end

local r = run { agents = quick and 40 or 200, max_steps = quick and 900 or 4000, record = true }

-- Drawing: the walkable area in light grey (holes white), walls' outline,
-- then the paths.
local doc = svg.new { width = 1000, background = "white" }
for i, p in ipairs(r.loops) do
    doc:polygon(p, { fill = r.holes[i] and "white" or "#eeeeee", stroke = "#333333", stroke_width = 0.15 })
end
r.trace:draw(doc, { tolerance = 0.05, width = 0.06, point_radius = 0.15 })
doc:text(0, 31, string.format("%d agents, %d steps, %d arrived", r.agents, r.steps, r.arrived), { font_size = 1 })
local ok, why = doc:write(out_path)
if not ok then
    -- The output folder may not exist yet.
    local dir = out_path:match("^(.*)[/\\]")
    if dir then
        os.execute('mkdir -p "' .. dir:gsub('"', '\\"') .. '"')
        ok, why = doc:write(out_path)
    end
end
if not ok then
    io.stderr:write("level.lua: " .. tostring(why) .. "\n")
    os.exit(1)
end

print(string.format("level: %d agents, %d obstacle loops, %d steps (%.1f s simulated), %d arrived, %d repaths",
    r.agents, r.obstacles, r.steps, r.steps * 0.1, r.arrived, r.repaths))
print(string.format("walkable area: %d agent checks outside, smallest wall clearance %.3f m (radius %.2f)",
    r.outside, r.worst_clearance, r.radius))
print(string.format("%.2f ms per step (%s, incl. path following and checks)", 1000 * r.seconds / math.max(r.steps, 1),
    rvo.backend))
print("wrote " .. out_path)
if r.outside > 0 or r.arrived < r.agents then
    os.exit(1)
end
