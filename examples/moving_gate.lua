--- examples/moving_gate.lua — moving obstacles: a gate that slides open and
-- shut, and a cart driving across a crowd's way.
--
--   meson devenv -C build --workdir "$PWD" lua5.4 examples/moving_gate.lua [options]
--     --scene gate|cart   (default gate)
--     --solver orca|ue|rvo (default orca)
--     --soft              the soft overlap mode (default: strict, hard bodies)
--     --compat            rvo2_compat: no overlap passes, only the solver keeps
--                         agents out of obstacles
--     --svg DIR           write DIR/moving-<scene>.svg and DIR/moving-<scene>-animated.svg
--     --quick             fewer steps
--
-- gate: a wall across the way with a 3 m doorway, a gate in it that slides
-- up 3 m (1 m/s, world:set_obstacle_velocity) from 1 s, and back down from
-- 22 s; 12 agents walk from the left to the right through it. cart: a
-- 2 x 1.2 m box crossing at 1.2 m/s through 12 agents walking right.
-- Prints the step by which every agent has arrived (within 0.3 m of its
-- goal; "-" if some never did) and the worst intrusion seen after any step:
-- how far an agent's disc reached into an obstacle (radius less the
-- distance of its centre from the outline, on the free side) [m].
-- Exits 1 if an agent ends inside an obstacle (but with --compat, where
-- nothing pushes it out).

local rvo = require("rvo")
local trace = require("rvo.trace")
local render = require("rvo.render")

local scene, solver, soft, compat, svg_dir, quick = "gate", "orca", false, false, nil, false
local args = arg or {}
local i = 1
while i <= #args do
    local a = args[i]
    if a == "--scene" or a == "--solver" or a == "--svg" then
        local v = args[i + 1]
        if not v then
            io.stderr:write("moving_gate.lua: " .. a .. " needs a value\n")
            os.exit(2)
        end
        if a == "--scene" then scene = v elseif a == "--solver" then solver = v else svg_dir = v end
        i = i + 1
    elseif a == "--soft" then
        soft = true
    elseif a == "--compat" then
        compat = true
    elseif a == "--quick" then
        quick = true
    else
        io.stderr:write("usage: moving_gate.lua [--scene gate|cart] [--solver orca|ue|rvo] [--soft] [--compat]"
            .. " [--svg DIR] [--quick]\n")
        os.exit(2)
    end
    i = i + 1
end
if scene ~= "gate" and scene ~= "cart" then
    io.stderr:write("moving_gate.lua: --scene must be gate or cart\n")
    os.exit(2)
end

local DT = 0.1
local world = rvo.new_world { time_step = DT, radius = 0.4, max_speed = 1.5, neighbor_dist = 6,
    max_neighbors = 10, time_horizon = 3, time_horizon_obst = 2 }
world:set_solver(solver)
world:set_strict_overlap(not soft)
world:set_rvo2_compat(compat)

local function box(x0, y0, x1, y1) return { x0, y0, x1, y0, x1, y1, x0, y1 } end

local gate, cart
local goals = {}
if scene == "gate" then
    world:add_obstacle(box(-0.3, 1.5, 0.3, 7))   -- the wall above the doorway
    world:add_obstacle(box(-0.3, -7, 0.3, -1.5)) -- and below it
    gate = world:add_obstacle(box(-0.2, -1.5, 0.2, 1.5))
    for k = 0, 11 do
        local id = world:add_agent(-9 + 1.1 * (k % 3), -1.65 + 1.1 * math.floor(k / 3))
        goals[id] = { 8 + 1.1 * (k % 3), -1.65 + 1.1 * math.floor(k / 3) }
    end
else
    cart = world:add_obstacle(box(-1, -9, 1, -7.8))
    world:set_obstacle_velocity(cart, 0, 1.2)
    for k = 0, 11 do
        local id = world:add_agent(-8 + 1.1 * (k % 4), -1.65 + 1.1 * math.floor(k / 4))
        goals[id] = { 8 + 1.1 * (k % 4), -1.65 + 1.1 * math.floor(k / 4) }
    end
end

-- Distance from (x, y) to the outline of the polygon pts, negative inside.
local function signed_distance(pts, x, y)
    local n, best, inside = #pts / 2, math.huge, false
    for k = 1, n do
        local ax, ay = pts[2 * k - 1], pts[2 * k]
        local j = k % n + 1
        local bx, by = pts[2 * j - 1], pts[2 * j]
        local dx, dy = bx - ax, by - ay
        local t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
        t = t < 0 and 0 or (t > 1 and 1 or t)
        local ex, ey = ax + t * dx - x, ay + t * dy - y
        best = math.min(best, math.sqrt(ex * ex + ey * ey))
        if (ay > y) ~= (by > y) and x < ax + (y - ay) / (by - ay) * (bx - ax) then inside = not inside end
    end
    return inside and -best or best
end

local ids = world:ids()
local tr = svg_dir and trace.new(world) or nil
local steps = quick and 150 or 400
local worst, arrived_at, inside_at_end = 0, nil, 0
for step = 1, steps do
    if gate and step == 11 then world:set_obstacle_velocity(gate, 0, 1) end
    if gate and step == 41 then world:set_obstacle_velocity(gate, 0, 0) end
    if gate and step == 221 then world:set_obstacle_velocity(gate, 0, -1) end
    if gate and step == 251 then world:set_obstacle_velocity(gate, 0, 0) end
    local all = true
    for _, id in ipairs(ids) do
        local x, y = world:position(id)
        local gx, gy = goals[id][1], goals[id][2]
        local dx, dy = gx - x, gy - y
        local d = math.sqrt(dx * dx + dy * dy)
        all = all and d < 0.3
        local s = d > 1e-9 and math.min(1.5, d / 0.5) / d or 0
        world:set_pref_velocity(id, dx * s, dy * s)
    end
    if all and not arrived_at then arrived_at = step - 1 end
    world:step()
    if tr then tr:record() end
    inside_at_end = 0
    for _, o in ipairs(world:obstacles()) do
        local pts = world:obstacle_points(o)
        for _, id in ipairs(ids) do
            local x, y = world:position(id)
            local d = signed_distance(pts, x, y)
            worst = math.max(worst, world:radius(id) - d)
            if d < 0 then inside_at_end = inside_at_end + 1 end
        end
    end
end

local far = 0
for _, id in ipairs(ids) do
    local x, y = world:position(id)
    far = math.max(far, math.sqrt((goals[id][1] - x) ^ 2 + (goals[id][2] - y) ^ 2))
end
print(string.format("%s, %s%s: arrived by step %s, worst intrusion %.3f m (farthest from its goal at the end"
    .. " %.2f m)", scene, solver, (soft and " (soft)" or "") .. (compat and " (rvo2_compat)" or ""),
    arrived_at and tostring(arrived_at) or "-",
    math.max(worst, 0), far))
io.stdout:flush()

if svg_dir then
    os.execute('mkdir -p "' .. svg_dir .. '"')
    local file = os.tmpname()
    assert(render.save(tr, file, { dt = DT, radius = 0.4 }))
    local run = assert(render.load(file))
    os.remove(file)
    local base = svg_dir .. "/moving-" .. scene
    assert(render.svg(run, { size = 480 }):write(base .. ".svg"))
    assert(render.animated_svg(run, { size = 480, frames = 100 }):write(base .. "-animated.svg"))
    print("wrote " .. base .. ".svg, " .. base .. "-animated.svg")
end
if inside_at_end > 0 and not compat then
    io.stderr:write("moving_gate.lua: " .. inside_at_end .. " agent(s) inside an obstacle at the end\n")
    os.exit(1)
end
