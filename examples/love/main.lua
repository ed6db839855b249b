--- rvo LÖVE demo: spawn crowds, give them goals, draw obstacles, switch
-- solvers and game features, and look inside one agent's avoidance.
--
--   scripts/love                     builds build/ if needed, then runs this
--   love examples/love               from the repository root, after scripts/setup
--
-- Environment: RVO_ROOT (repository root; default: two folders above this
-- one), RVO_BUILD_DIR (default "build", relative to the root), RVO_LIB (the
-- librvo to load, overrides the build folder). `--smoke FILE.png` (or
-- RVO_DEMO_SMOKE=FILE.png) runs a scripted scenario instead: it loads each
-- preset, spawns crowds, draws obstacles, toggles every feature, changes
-- the speed, selects an agent and hovers a neighbour, saves a screenshot to
-- FILE.png and quits (status 1 on any error).
--
-- The logic that needs no LÖVE (clock, scenes, states, panel links) is in
-- demo.lua beside this file, tested by tests/lua/love_demo_spec.lua.
--
-- Mouse: left button acts by mode (keys 1-5), right button sets the goal
-- of the current colour. Keys: see the help line (H hides it).

---------------------------------------------------------------------------
-- The scripted run: set up before anything can fail, so that an error
-- (even in require below) ends the process instead of showing LÖVE's error
-- screen forever.

local smoke_path = os.getenv("RVO_DEMO_SMOKE")
for i, a in ipairs(rawget(_G, "arg") or {}) do
    if a == "--smoke" then smoke_path = arg[i + 1] or "smoke.png" end
end
if smoke_path == "" then smoke_path = nil end
if smoke_path then
    love.errorhandler = function(msg)
        io.stderr:write(debug.traceback("rvo demo: " .. tostring(msg), 2), "\n")
        os.exit(1)
    end
end

---------------------------------------------------------------------------
-- Finding rvo: the Lua modules in <root>/lua, librvo in <root>/<build>/src.

local function setup_paths()
    local root = os.getenv("RVO_ROOT")
    if not root or root == "" then
        local src = love.filesystem.getSource()
        if src:sub(1, 1) ~= "/" then
            src = love.filesystem.getWorkingDirectory() .. "/" .. src
        end
        root = src:gsub("/+$", "") .. "/../.."
    end
    local build = os.getenv("RVO_BUILD_DIR")
    if not build or build == "" then build = "build" end
    if build:sub(1, 1) ~= "/" then build = root .. "/" .. build end
    -- <build>/lua: rvo/cdef.lua, generated from rvo.h when rvo is built
    package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. build .. "/lua/?.lua;" .. package.path
    package.cpath = build .. "/src/?.so;" .. package.cpath
    return root, build
end
setup_paths()

local rvo = require("rvo")
local demo = require("demo") -- examples/love/demo.lua: the logic tested without LÖVE

-- Behaviour modules, used when present: a missing one turns its toggle into
-- the demo's own small fallback (named "built-in" on screen).
local function optional(name)
    local ok, mod = pcall(require, name)
    if ok then return mod end
    if tostring(mod):find("module '" .. name .. "' not found", 1, true) then return nil end
    error(mod, 0) -- present but broken: say so
end
local jitter_mod = optional("rvo.jitter")
local locks_mod = optional("rvo.locks")
local groups_mod = optional("rvo.groups")
local surround_mod = optional("rvo.surround")

---------------------------------------------------------------------------
-- Settings.

local SCALE = 10          -- pixels per metre (+/- zoom)
local VSCALE = 18         -- pixels per m/s in the debug view
local RADIUS = demo.RADIUS -- m
local SPEED = demo.SPEED  -- m/s, preferred walking speed
local DT = demo.DT        -- s, the step; the simulation follows the clock (demo.new_clock), not the frame rate
local CROWD = 30          -- agents per click
local COLOURS = { { 0.95, 0.38, 0.32 }, { 0.32, 0.62, 1.0 }, { 0.42, 0.85, 0.42 }, { 0.75, 0.5, 1.0 } }
local GROUP_NAMES = { "red", "blue", "green", "purple" }
local FIELD_W, FIELD_H = 128, 80 -- m, the scenes' field (demo.scenes)
local MODES = { "crowd", "wall", "pillar", "select", "target" }
local SOLVERS = { "orca", "ue", "rvo" }

---------------------------------------------------------------------------
-- State.

local world
local colour_of = {}      -- id -> 1..3
local goals = {}          -- colour -> { x, y } in metres
local goal_of = {}        -- id -> { x, y }: an agent's own goal (the scenes' formations), before its colour's
local obstacles = {}      -- { id =, pts = {flat xy}, closed = }
local target = { x = 64, y = 40, r = 1.2 }
local mode = 1
local current = 1         -- colour of new crowds and of right-click goals
local feature = { jitter = false, locks = false, groups = false, surround = false }
local paused = false
local bars = 2            -- 2: status and help bars, 1: status only, 0: none (h)
local panel = { shown = true, big = false } -- the ORCA panel (p hides, o enlarges)
local clock = demo.new_clock(DT)
local scene_name = "opening"
local selected            -- agent id
local dragging            -- { kind = "wall" | "target", x0, y0 }
local stats = { ms = 0, mean = 0, steps = 0 }
local view = {}           -- selected agent's debug data of the last solve
local steerer, lockset, registry, attack -- module objects (nil when a module is missing)
local idbuf, posbuf = {}, {}
local camera = { x = 0, y = 0 } -- world point at the window's top left [m]

local function new_world()
    world = rvo.new_world(demo.world_def())
    colour_of, goals, goal_of, obstacles, selected, view = {}, {}, {}, {}, nil, {}
    stats.steps = 0
    steerer = jitter_mod and jitter_mod.new { seed = 1 } or nil
    lockset = locks_mod and locks_mod.new(world, { after_avoid = 0.25 }) or nil
    registry = groups_mod and groups_mod.new(world, GROUP_NAMES) or nil
    attack = nil
end

---------------------------------------------------------------------------
-- Features.

-- Groups on: colours walk through each other (each avoids its own colour
-- only); off: everybody avoids everybody.
local function apply_groups()
    if registry then
        for a = 1, #COLOURS do
            for b = 1, #COLOURS do
                if a == b or not feature.groups then
                    registry:avoids(GROUP_NAMES[a], GROUP_NAMES[b])
                else
                    registry:ignores(GROUP_NAMES[a], GROUP_NAMES[b])
                end
            end
        end
    else
        local ids = world:ids()
        for _, id in ipairs(ids) do
            local bit = 2 ^ (colour_of[id] - 1)
            world:set_groups(id, bit)
            world:set_mask(id, feature.groups and bit or 0xffffffff)
        end
    end
end

local function add_agent(x, y, colour)
    local id = world:add_agent(x, y)
    colour_of[id] = colour
    if registry then
        registry:set(id, GROUP_NAMES[colour])
    else
        local bit = 2 ^ (colour - 1)
        world:set_groups(id, bit)
        world:set_mask(id, feature.groups and bit or 0xffffffff)
    end
    if attack and colour == 1 then attack:add(id) end
    return id
end

-- A disc of agents around (x, y) on a sunflower pattern.
local function spawn_crowd(x, y, colour, n)
    for i = 0, (n or CROWD) - 1 do
        local r = 1.05 * math.sqrt(i + 0.5)
        local a = i * 2.39996323
        add_agent(x + r * math.cos(a), y + r * math.sin(a), colour)
    end
end

local function add_obstacle(pts, closed)
    obstacles[#obstacles + 1] = { id = world:add_obstacle(pts, { closed = closed }), pts = pts, closed = closed }
end

local function add_wall(x1, y1, x2, y2) add_obstacle({ x1, y1, x2, y2 }, false) end

-- An octagon, counter-clockwise: a solid pillar.
local function add_pillar(x, y, r) add_obstacle(demo.octagon(x, y, r), true) end

-- Every obstacle edge, { x1, y1, x2, y2 } (for the panel's links).
local function obstacle_edges()
    local edges = {}
    for _, o in ipairs(obstacles) do
        local p, n = o.pts, #o.pts / 2
        for i = 1, o.closed and n or n - 1 do
            local j = i % n + 1
            edges[#edges + 1] = { p[2 * i - 1], p[2 * i], p[2 * j - 1], p[2 * j], obstacle = o }
        end
    end
    return edges
end

local function nearest_agent(x, y, within)
    local near = world:query_radius(x, y, within)
    return near[1]
end

-- Surround: the red crowd attacks the target. rvo.surround runs the seed's
-- two-phase attack (probe rays, then holding the ring with the tangential
-- projection); the ring grows with the number of attackers.
local function ring_radius(n)
    return math.max(target.r + RADIUS * 2 + 0.5, n * RADIUS * 2.3 / (2 * math.pi))
end

local function start_attack()
    local reds = {}
    for _, id in ipairs(world:ids()) do
        if colour_of[id] == 1 then reds[#reds + 1] = id end
    end
    attack = surround_mod.new(world, { target = { target.x, target.y }, attack_radius = ring_radius(#reds),
        tolerance = 0.5 })
    for _, id in ipairs(reds) do attack:add(id) end
end

-- Without rvo.surround: each attacker takes a slot on a ring around the
-- target, slots handed out in the order of the attackers' angles so that
-- nobody crosses the ring.
local surround_slots = {}
local function plan_surround(ids)
    local attackers = {}
    for _, id in ipairs(ids) do
        if colour_of[id] == 1 then
            local x, y = world:position(id)
            attackers[#attackers + 1] = { id = id, a = math.atan2(y - target.y, x - target.x) }
        end
    end
    table.sort(attackers, function(p, q) return p.a < q.a or (p.a == q.a and p.id < q.id) end)
    local n = #attackers
    local ring = ring_radius(n)
    surround_slots = {}
    for i, p in ipairs(attackers) do
        local a = attackers[1].a + (i - 1) * 2 * math.pi / n
        surround_slots[p.id] = { target.x + ring * math.cos(a), target.y + ring * math.sin(a) }
    end
end

local function steer(id, gx, gy)
    if feature.jitter and steerer then
        steerer:steer(world, id, gx, gy, SPEED)
        return
    end
    local x, y = world:position(id)
    world:set_pref_velocity(id, demo.pref_velocity(x, y, gx, gy, SPEED, DT))
end

---------------------------------------------------------------------------
-- One step: preferred velocities, solve, (locks), debug capture, integrate.

-- What the selected agent sees: its ORCA lines for the current state, and
-- the velocity the solve chose (between solve and integrate) or the one it
-- moves with (when selected while paused).
local function capture_view()
    if not (selected and world:is_valid(selected)) then
        selected, view = nil, {}
        return
    end
    local lines, n, nobst = world:orca_lines(selected, DT)
    local nvx, nvy
    if world:is_solved() then
        nvx, nvy = world:new_velocity(selected)
    else
        nvx, nvy = world:velocity(selected)
    end
    local pvx, pvy = world:pref_velocity(selected)
    view = {
        lines = lines, n = n, nobst = nobst, neighbors = world:neighbors(selected),
        pvx = pvx, pvy = pvy, nvx = nvx, nvy = nvy, locked = world:is_locked(selected), edges = obstacle_edges(),
    }
    -- which neighbour or edge made each line (the panel's hover)
    view.src, view.line_of = demo.link_lines(world, selected, lines, n, nobst, view.neighbors, view.edges)
end

local function step()
    local ids = world:ids()
    local attacking = feature.surround and not attack
    if attacking then plan_surround(ids) end
    for _, id in ipairs(ids) do
        local goal = attacking and surround_slots[id] or goal_of[id] or goals[colour_of[id]]
        if not (attack and colour_of[id] == 1) then -- (attack:before_solve steers the red ones)
            if goal then steer(id, goal[1], goal[2]) else world:set_pref_velocity(id, 0, 0) end
        end
    end
    local t0 = love.timer.getTime()
    if attack then
        attack:set_target(target.x, target.y)
        attack:before_solve(DT)
    end
    if feature.locks and lockset then lockset:update(DT) end
    world:solve(DT)
    if attack then attack:after_solve() end
    if feature.locks then
        if lockset then
            lockset:after_solve()
        else
            for _, id in ipairs((world:avoiding())) do world:lock(id, world:new_velocity(id)) end
        end
    end
    local solve_ms = (love.timer.getTime() - t0) * 1000
    capture_view()
    local t1 = love.timer.getTime()
    world:integrate(DT)
    if feature.locks and not lockset then
        for _, id in ipairs(world:ids()) do if world:is_locked(id) then world:unlock(id) end end
    end
    stats.ms = solve_ms + (love.timer.getTime() - t1) * 1000
    stats.steps = stats.steps + 1
    stats.mean = stats.mean + (stats.ms - stats.mean) / math.min(stats.steps, 60)
end

---------------------------------------------------------------------------
-- Toggles (keys and the scripted run share them).

local actions = {}
function actions.solver()
    local cur = world:solver()
    for i, s in ipairs(SOLVERS) do
        if s == cur then world:set_solver(SOLVERS[i % #SOLVERS + 1]) return end
    end
end
function actions.jitter() feature.jitter = not feature.jitter end
function actions.locks()
    feature.locks = not feature.locks
    if not feature.locks then
        if lockset then lockset:release_all() end
        for _, id in ipairs(world:ids()) do if world:is_locked(id) then world:unlock(id) end end
    end
end
function actions.groups() feature.groups = not feature.groups; apply_groups() end
function actions.surround()
    feature.surround = not feature.surround
    if feature.surround and surround_mod then
        start_attack()
    else
        attack = nil
    end
end

---------------------------------------------------------------------------
-- The view and the scenes.

-- Heights of the status bar (top) and the help bar (bottom), in pixels.
local HELP_LINES = 3
local function bar_heights()
    return bars >= 1 and 22 or 0, bars >= 2 and (HELP_LINES * 18 + 4) or 0
end

-- Zoom and pan so that the scenes' field fills the window between the bars.
local function fit_view()
    local w, h = love.graphics.getWidth(), love.graphics.getHeight()
    local top, bottom = bar_heights()
    SCALE = math.min(w / FIELD_W, (h - top - bottom) / FIELD_H)
    camera.x = -(w / SCALE - FIELD_W) / 2
    camera.y = -top / SCALE - ((h - top - bottom) / SCALE - FIELD_H) / 2
end

-- A fresh world with scene k of demo.scenes (1: the opening scene, 2..6:
-- the presets on F1..F5); the solver and the features stay as they were.
local function load_scene(k)
    local sc = demo.scenes[k]
    local solver = world:solver()
    world:destroy()
    new_world()
    world:set_solver(solver)
    sc.build {
        agent = function(x, y, c, gx, gy)
            local id = add_agent(x, y, c)
            if gx then goal_of[id] = { gx, gy } end
        end,
        obstacle = add_obstacle,
        goal = function(c, x, y) goals[c] = { x, y } end,
    }
    apply_groups()
    if feature.surround and surround_mod then start_attack() end
    scene_name = sc.name
    clock:reset()
    fit_view()
end

---------------------------------------------------------------------------
-- Scripted run (smoke test): frame -> action.

local mouse_at -- the scripted run's mouse position (screen), for hovering

local function scenario()
    local W, H = FIELD_W, FIELD_H
    local s = {}
    for k = 1, 5 do s[k] = function() love.keypressed("f" .. k) end end -- each preset, 4 steps
    for f, a in pairs {
        [6] = function()
            love.keypressed("c")
            spawn_crowd(W * 0.2, H * 0.3, 1, 40)
            spawn_crowd(W * 0.8, H * 0.35, 2, 40)
            spawn_crowd(W * 0.5, H * 0.8, 3, 40)
            goals[1] = { W * 0.8, H * 0.6 }
            goals[2] = { W * 0.2, H * 0.6 }
            goals[3] = { W * 0.5, H * 0.15 }
            add_wall(W * 0.45, H * 0.3, W * 0.55, H * 0.5)
            add_pillar(W * 0.35, H * 0.55, 2)
            add_pillar(W * 0.65, H * 0.45, 1.5)
            scene_name = "scripted"
        end,
        [20] = actions.jitter,
        [30] = actions.solver, -- ue
        [40] = actions.solver, -- rvo
        [50] = actions.solver, -- orca
        [55] = actions.groups,
        [60] = actions.locks,
        [65] = function()
            target.x, target.y = W * 0.36, H * 0.5
            actions.surround()
        end,
        [70] = function() love.keypressed("]") end, -- 2x: 8 steps a frame
        [80] = function() for _ = 1, 3 do love.keypressed("[") end end, -- 0.25x: 1 step a frame
        [90] = function() for _ = 1, 2 do love.keypressed("]") end end, -- 1x: 4 steps a frame
        [100] = function() love.keypressed("p"); love.keypressed("o"); love.keypressed("h") end,
        [110] = function() love.keypressed("p"); love.keypressed("o"); love.keypressed("h"); love.keypressed("h") end,
        [130] = function()
            spawn_crowd(W * 0.1, H * 0.9, 1, 8) -- joins the attack
            add_wall(W * 0.1, H * 0.1, W * 0.3, H * 0.12)
            love.keypressed("x") -- and takes it back
        end,
        [150] = function()
            selected = nearest_agent(W * 0.5, H * 0.5, 100)
        end,
        [160] = function() love.keypressed("space") end, -- pause
        [161] = function() -- one step while paused fills the panel
            view = {}
            love.keypressed("n")
            if not (view.n and view.n > 0) then error("smoke: the panel is empty after a step while paused") end
            print(string.format("rvo demo smoke: a step while paused drew %d lines", view.n))
        end,
        [162] = function() love.keypressed("space") end, -- and on
        [179] = function() -- hover the selected agent's first neighbour: its line lights up
            local nb = view.neighbors and view.neighbors[1]
            if nb then
                local x, y = world:position(nb)
                mouse_at = { (x - camera.x) * SCALE, (y - camera.y) * SCALE }
            end
        end,
        [180] = function()
            love.graphics.captureScreenshot(function(image)
                local f = assert(io.open(smoke_path, "wb"))
                f:write(image:encode("png"):getString())
                f:close()
                smoke_path = false -- written: quit on the next frame
            end)
        end,
    } do s[f] = a end
    return s
end
local script, frame = nil, 0

---------------------------------------------------------------------------
-- LÖVE callbacks.

function love.load()
    if smoke_path then script = scenario() end
    love.graphics.setBackgroundColor(0.08, 0.09, 0.11)
    love.graphics.setLineJoin("bevel")
    new_world()
    load_scene(1) -- the opening scene
end

function love.update(elapsed)
    if script then
        frame = frame + 1
        if smoke_path == false then
            print(string.format("rvo demo smoke: %d agents, %d obstacles, %d steps (%.3f s simulated at %gx)"
                .. ", %.3f ms/step (mean of the last 60), solver %s, jitter %s, locks %s, groups %s, surround %s",
                world:agent_count(), world:obstacle_count(), stats.steps, stats.steps * DT, clock.speed,
                stats.mean, world:solver(),
                jitter_mod and "rvo.jitter" or "built-in", locks_mod and "rvo.locks" or "built-in",
                groups_mod and "rvo.groups" or "built-in", surround_mod and "rvo.surround" or "built-in"))
            love.event.quit(0)
            return
        end
        if script[frame] then script[frame]() end
    end
    if paused then
        clock:reset()
        return
    end
    -- the scripted run: frames of 4 steps at 1x, whatever the real frame rate (reproducible)
    for _ = 1, clock:advance(script and 4 * DT or elapsed or DT) do step() end
end

-- World drawing is translated by the camera (arrow keys pan); to_world
-- maps a mouse position to the world.
local function to_screen(x, y) return x * SCALE, y * SCALE end
local function to_world(px, py) return px / SCALE + camera.x, py / SCALE + camera.y end

local function draw_arrow(x, y, vx, vy, r, g, b, scale)
    local ex, ey = x + vx * scale, y + vy * scale
    love.graphics.setColor(r, g, b)
    love.graphics.setLineWidth(2)
    love.graphics.line(x, y, ex, ey)
    local l = math.sqrt(vx * vx + vy * vy)
    if l > 1e-6 then
        local ux, uy = vx / l, vy / l
        love.graphics.polygon("fill", ex + ux * 6, ey + uy * 6, ex - uy * 4, ey + ux * 4, ex + uy * 4, ey - ux * 4)
    end
end

-- The selected agent. In the world: its neighbours (white lines) and its
-- preferred (cyan) and chosen (yellow) velocity. In the panel at the top
-- right, velocity space around it: a 1 m/s grid, the max_speed circle,
-- each ORCA line (orange: from an obstacle, red: from an agent; numbered),
-- the region every line allows in green, and the same two velocities. The
-- chosen velocity is the point of the green region nearest the preferred
-- one (when there is such a region; otherwise ORCA takes the
-- least-violating velocity). Hovering a line lights up the neighbour or the
-- obstacle edge that made it (demo.link_lines), hovering a neighbour or an
-- edge lights up its line.
local function panel_rect()
    local size = panel.big and 420 or 260
    local top = bar_heights()
    return love.graphics.getWidth() - size - 10, top + 10, size
end

-- The part of polygon poly ({x1, y1, ...}) left of the line through (px, py)
-- along (dx, dy): an ORCA line's allowed side.
local function clip_left(poly, px, py, dx, dy)
    local out, n = {}, #poly / 2
    local function side(i) return dx * (poly[2 * i] - py) - dy * (poly[2 * i - 1] - px) end
    for i = 1, n do
        local j = i % n + 1
        local si, sj = side(i), side(j)
        if si >= 0 then out[#out + 1], out[#out + 2] = poly[2 * i - 1], poly[2 * i] end
        if (si >= 0) ~= (sj >= 0) then
            local t = si / (si - sj)
            out[#out + 1] = poly[2 * i - 1] + t * (poly[2 * j - 1] - poly[2 * i - 1])
            out[#out + 1] = poly[2 * i] + t * (poly[2 * j] - poly[2 * i])
        end
    end
    return out
end

-- What the mouse points at: the number of an ORCA line of the selected
-- agent (over the panel: the line under it; over the world: the line of the
-- neighbour or obstacle edge under it), or nil.
local function hovered_line()
    if not (selected and world:is_valid(selected) and view.lines) then return nil end
    local mx, my
    if mouse_at then mx, my = mouse_at[1], mouse_at[2] else mx, my = love.mouse.getPosition() end
    local px0, py0, size = panel_rect()
    if panel.shown and mx >= px0 and mx <= px0 + size and my >= py0 and my <= py0 + size then
        local k = size / 2 / (world:max_speed(selected) * 1.5)
        local vx, vy = (mx - px0 - size / 2) / k, (my - py0 - size / 2) / k
        local best, bd = nil, 6 / k -- within 6 pixels
        for i = 1, view.n do
            local l = view.lines
            local d = math.abs((vx - l[4 * i - 3]) * l[4 * i] - (vy - l[4 * i - 2]) * l[4 * i - 1])
            if d < bd then best, bd = i, d end
        end
        return best
    end
    local x, y = to_world(mx, my)
    for _, nb in ipairs(view.neighbors or {}) do
        if world:is_valid(nb) then
            local nx, ny = world:position(nb)
            local r = world:radius(nb) + 0.2
            if (nx - x) ^ 2 + (ny - y) ^ 2 <= r * r and view.line_of[nb] then return view.line_of[nb] end
        end
    end
    for i = 1, view.nobst or 0 do
        local e = view.src[i] and view.edges[view.src[i].edge]
        if e then
            local ex, ey = e[3] - e[1], e[4] - e[2]
            local t = math.max(0, math.min(1, ((x - e[1]) * ex + (y - e[2]) * ey) / (ex * ex + ey * ey)))
            if (e[1] + t * ex - x) ^ 2 + (e[2] + t * ey - y) ^ 2 < 0.25 then return i end
        end
    end
    return nil
end

local function draw_selected(hover)
    if not (selected and world:is_valid(selected)) then return end
    local sx, sy = to_screen(world:position(selected))
    love.graphics.setLineWidth(1)
    love.graphics.setColor(1, 1, 1, 0.45)
    for _, nb in ipairs(view.neighbors or {}) do
        if world:is_valid(nb) then
            local nx, ny = to_screen(world:position(nb))
            love.graphics.line(sx, sy, nx, ny)
        end
    end
    local src = hover and view.src[hover]
    if src and src.agent and world:is_valid(src.agent) then
        local nx, ny = to_screen(world:position(src.agent))
        love.graphics.setColor(0.3, 1, 1)
        love.graphics.setLineWidth(3)
        love.graphics.line(sx, sy, nx, ny)
        love.graphics.circle("line", nx, ny, world:radius(src.agent) * SCALE + 4)
    elseif src and src.edge then
        local e = view.edges[src.edge]
        love.graphics.setColor(0.3, 1, 1)
        love.graphics.setLineWidth(5)
        love.graphics.line(e[1] * SCALE, e[2] * SCALE, e[3] * SCALE, e[4] * SCALE)
    end
    if view.pvx then
        draw_arrow(sx, sy, view.nvx, view.nvy, 1, 0.9, 0.2, VSCALE)
        draw_arrow(sx, sy, view.pvx, view.pvy, 0.3, 0.9, 1, VSCALE)
    end
    love.graphics.setColor(1, 1, 1)
    love.graphics.setLineWidth(2)
    love.graphics.circle("line", sx, sy, world:radius(selected) * SCALE + 3)
end

-- The velocity-space panel of the selected agent (screen coordinates).
local function draw_panel(hover)
    if not (panel.shown and selected and world:is_valid(selected)) then return end
    local px0, py0, size = panel_rect()
    local cx, cy = px0 + size / 2, py0 + size / 2
    local vmax = world:max_speed(selected)
    local k = size / 2 / (vmax * 1.5) -- pixels per m/s
    love.graphics.setColor(0, 0, 0, 0.75)
    love.graphics.rectangle("fill", px0, py0, size, size)
    love.graphics.setScissor(px0, py0, size, size)
    local lines, big = view.lines or {}, vmax * 4
    -- 1 m/s grid
    love.graphics.setColor(1, 1, 1, 0.08)
    love.graphics.setLineWidth(1)
    for g = -math.floor(vmax * 1.5), math.floor(vmax * 1.5) do
        love.graphics.line(cx + g * k, py0, cx + g * k, py0 + size)
        love.graphics.line(px0, cy + g * k, px0 + size, cy + g * k)
    end
    -- the allowed region (every line's left side), in velocity space
    local region = { -big, -big, big, -big, big, big, -big, big }
    for i = 0, (view.n or 0) - 1 do
        region = clip_left(region, lines[4 * i + 1], lines[4 * i + 2], lines[4 * i + 3], lines[4 * i + 4])
        if #region < 6 then break end
    end
    if #region >= 6 then
        local pts = {}
        for i = 1, #region, 2 do pts[i], pts[i + 1] = cx + region[i] * k, cy + region[i + 1] * k end
        love.graphics.setColor(0.2, 0.75, 0.35, 0.35)
        love.graphics.polygon("fill", pts)
    end
    for i = 0, (view.n or 0) - 1 do
        local lx, ly, dx, dy = lines[4 * i + 1], lines[4 * i + 2], lines[4 * i + 3], lines[4 * i + 4]
        local ax, ay = cx + (lx - dx * big) * k, cy + (ly - dy * big) * k
        local bx, by = cx + (lx + dx * big) * k, cy + (ly + dy * big) * k
        local obst = i < view.nobst
        if hover == i + 1 then
            love.graphics.setColor(0.3, 1, 1)
            love.graphics.setLineWidth(3)
        else
            love.graphics.setColor(obst and 1 or 0.95, obst and 0.6 or 0.25, 0.1, 0.9)
            love.graphics.setLineWidth(1.5)
        end
        love.graphics.line(ax, ay, bx, by)
        -- the line's number, at its point nearest the centre (a tick on the forbidden side)
        local t = -(lx * dx + ly * dy)
        local mx, my = cx + (lx + t * dx) * k, cy + (ly + t * dy) * k
        love.graphics.line(mx, my, mx + dy * 6, my - dx * 6)
        love.graphics.print(tostring(i + 1), mx - dy * 12 - 3, my + dx * 12 - 6)
    end
    love.graphics.setScissor()
    love.graphics.setColor(1, 1, 1, 0.5)
    love.graphics.setLineWidth(1)
    love.graphics.circle("line", cx, cy, vmax * k)
    love.graphics.line(cx - 4, cy, cx + 4, cy)
    love.graphics.line(cx, cy - 4, cx, cy + 4)
    if view.pvx then
        draw_arrow(cx, cy, view.nvx, view.nvy, 1, 0.9, 0.2, k)
        draw_arrow(cx, cy, view.pvx, view.pvy, 0.3, 0.9, 1, k)
    end
    love.graphics.setColor(0.85, 0.85, 0.85)
    local linked = view.n == view.nobst or next(view.line_of or {}) ~= nil
    love.graphics.print(string.format("#%d: %d lines (%d obstacle)%s%s", selected, view.n or 0,
        view.nobst or 0, view.locked and " locked" or "", linked and "" or "; a neighbour gave none"),
        px0 + 4, py0 + size - 18)
    love.graphics.print(string.format("grid 1 m/s, circle %.1f m/s; green: allowed", vmax), px0 + 4, py0 + 2)
    love.graphics.setColor(0.3, 0.9, 1)
    love.graphics.print("preferred", px0 + 4, py0 + 16)
    love.graphics.setColor(1, 0.9, 0.2)
    love.graphics.print("chosen", px0 + 74, py0 + 16)
    love.graphics.setColor(0.3, 1, 1)
    love.graphics.print("hover: source", px0 + 124, py0 + 16)
end

-- Agent states (demo.state) and the status figures, once per step.
local states = { step = -1 }
local function update_states(ids, n)
    if states.step == stats.steps and states.world == world and states.n == n then return end
    local sharing = {} -- agents per colour goal (the reach of a shared goal grows with them)
    for i = 1, n do
        local id = ids[i]
        if not goal_of[id] then sharing[colour_of[id]] = (sharing[colour_of[id]] or 0) + 1 end
    end
    local stalled = 0
    for i = 1, n do
        local id = ids[i]
        local g = goal_of[id] or goals[colour_of[id]]
        local s = demo.state(world, id, g and g[1], g and g[2], demo.reach(not goal_of[id] and sharing[colour_of[id]]
            or nil))
        states[i] = s
        if s == "stalled" then stalled = stalled + 1 end
    end
    states.step, states.world, states.n, states.stalled = stats.steps, world, n, stalled
    states.overlap = demo.worst_overlap(world, world:ids())
end

local HELP = {
    "left: 1 crowd  2 wall (drag)  3 pillar  4 select  5 target (drag)   right: goal of the current colour   "
        .. "tab: colour   F1-F5: circle swap, corridor, bottleneck, crossing, rally point   c: clear",
    "s: solver  j: jitter  l: locks  g: groups (colours walk through each other)  a: surround   space: pause  "
        .. "n: one step  [ ]: speed 0.25x-4x  +/-: zoom  arrows: pan  f: fit  x: undo  del: remove  esc: quit",
    "agents: bright walking, dim arrived, yellow ring stalled, white ring locked   selected: neighbours (white), "
        .. "preferred (cyan), chosen (yellow)   p: ORCA panel  o: bigger panel (hover a line or a neighbour)  "
        .. "h: bars",
}

function love.draw()
    local hover = hovered_line()
    love.graphics.push()
    love.graphics.translate(-camera.x * SCALE, -camera.y * SCALE)
    -- obstacles
    for _, o in ipairs(obstacles) do
        local pts = {}
        for i = 1, #o.pts do pts[i] = o.pts[i] * SCALE end
        if o.closed then
            love.graphics.setColor(0.45, 0.47, 0.52)
            love.graphics.polygon("fill", pts)
        else
            love.graphics.setColor(0.7, 0.72, 0.78)
            love.graphics.setLineWidth(4)
            love.graphics.line(pts)
        end
    end
    -- goals and target
    for c, g in pairs(goals) do
        local gx, gy = to_screen(g[1], g[2])
        love.graphics.setColor(COLOURS[c][1], COLOURS[c][2], COLOURS[c][3], 0.8)
        love.graphics.setLineWidth(2)
        local m = 4 + 3 * c -- one size per colour: goals on one spot stay apart
        love.graphics.line(gx - m, gy - m, gx + m, gy + m)
        love.graphics.line(gx - m, gy + m, gx + m, gy - m)
    end
    if feature.surround or MODES[mode] == "target" then
        local tx, ty = to_screen(target.x, target.y)
        love.graphics.setColor(0.9, 0.3, 0.9)
        love.graphics.setLineWidth(3)
        love.graphics.circle("line", tx, ty, target.r * SCALE)
    end
    -- agents, one bulk read; bright: walking, dim: arrived, rings: stalled, locked
    local n = world:ids(idbuf)
    world:positions(posbuf)
    update_states(idbuf, n)
    local r = RADIUS * SCALE
    for i = 1, n do
        local id = idbuf[i]
        local c = COLOURS[colour_of[id]] or COLOURS[1]
        local f = states[i] == "arrived" and 0.5 or 1
        love.graphics.setColor(c[1] * f, c[2] * f, c[3] * f)
        love.graphics.circle("fill", posbuf[2 * i - 1] * SCALE, posbuf[2 * i] * SCALE, r)
    end
    love.graphics.setLineWidth(2)
    for i = 1, n do
        local s = states[i]
        if s == "stalled" or s == "locked" then
            if s == "stalled" then love.graphics.setColor(1, 0.85, 0.1) else love.graphics.setColor(1, 1, 1, 0.9) end
            love.graphics.circle("line", posbuf[2 * i - 1] * SCALE, posbuf[2 * i] * SCALE, r + 1)
        end
    end
    draw_selected(hover)
    if dragging and dragging.kind == "wall" then
        local mx, my = to_world(love.mouse.getPosition())
        love.graphics.setColor(1, 1, 1, 0.6)
        love.graphics.setLineWidth(2)
        love.graphics.line(dragging.x0 * SCALE, dragging.y0 * SCALE, mx * SCALE, my * SCALE)
    end
    love.graphics.pop()
    draw_panel(hover)
    -- status and help
    local w, h = love.graphics.getWidth(), love.graphics.getHeight()
    local top, bottom = bar_heights()
    if top > 0 then
        love.graphics.setColor(0, 0, 0, 0.6)
        love.graphics.rectangle("fill", 0, 0, w, top)
        love.graphics.setColor(1, 1, 1)
        local function on(name, mod)
            return name .. " " .. (feature[name] and "on" or "off") .. (mod and "" or " (built-in)")
        end
        love.graphics.print(string.format(
            "%d agents  t %.1f s  %gx  %.2f ms/step  %d fps  |  stalled %d  overlap %.0f%%  |  %s  %s  %s  %s  %s"
            .. "  |  %s  %s%s",
            world:agent_count(), stats.steps * DT, clock.speed, stats.mean, love.timer.getFPS(),
            states.stalled or 0, (states.overlap or 0) * 100, world:solver(), on("jitter", jitter_mod),
            on("locks", locks_mod), on("groups", groups_mod), on("surround", surround_mod), MODES[mode],
            scene_name, paused and "  PAUSED" or ""), 6, 4)
        local c = COLOURS[current]
        love.graphics.setColor(c[1], c[2], c[3])
        love.graphics.circle("fill", w - 14, 11, 6)
    end
    if bottom > 0 then
        love.graphics.setColor(0, 0, 0, 0.6)
        love.graphics.rectangle("fill", 0, h - bottom, w, bottom)
        love.graphics.setColor(0.85, 0.85, 0.85)
        for i, text in ipairs(HELP) do love.graphics.print(text, 6, h - bottom + 2 + (i - 1) * 18) end
    end
end

-- A point inside a closed obstacle moves to just outside its nearest edge
-- (a goal or target there would be unreachable).
local function outside_obstacles(x, y)
    for _, o in ipairs(obstacles) do
        local p, n = o.pts, #o.pts / 2
        local inside = false
        for i = 1, n do
            local j = i % n + 1
            local xi, yi, xj, yj = p[2 * i - 1], p[2 * i], p[2 * j - 1], p[2 * j]
            if (yi > y) ~= (yj > y) and x < xi + (y - yi) * (xj - xi) / (yj - yi) then inside = not inside end
        end
        if o.closed and inside then
            local mx, my = 0, 0 -- the vertices' mean: outside is away from it
            for i = 1, n do mx, my = mx + p[2 * i - 1] / n, my + p[2 * i] / n end
            local best, bx, by = math.huge, x, y
            for i = 1, n do
                local j = i % n + 1
                local ax, ay, ex, ey = p[2 * i - 1], p[2 * i], p[2 * j - 1], p[2 * j]
                local dx, dy = ex - ax, ey - ay
                local t = math.max(0, math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
                local qx, qy = ax + t * dx, ay + t * dy
                local d = (qx - x) ^ 2 + (qy - y) ^ 2
                if d < best then
                    local l = math.sqrt(dx * dx + dy * dy)
                    local nx, ny = dy / l, -dx / l
                    if nx * (qx - mx) + ny * (qy - my) < 0 then nx, ny = -nx, -ny end
                    best, bx, by = d, qx + nx * RADIUS * 2, qy + ny * RADIUS * 2 -- a body width out
                end
            end
            x, y = bx, by
        end
    end
    return x, y
end

function love.mousepressed(px, py, button)
    local x, y = to_world(px, py)
    states.step = -1 -- (goals and agents may change: new states)
    if button == 2 then
        goals[current] = { outside_obstacles(x, y) }
        for id, c in pairs(colour_of) do
            if c == current then goal_of[id] = nil end -- the whole colour follows
        end
        return
    end
    if button ~= 1 then return end
    local m = MODES[mode]
    if m == "crowd" then
        spawn_crowd(x, y, current)
    elseif m == "wall" then
        dragging = { kind = "wall", x0 = x, y0 = y }
    elseif m == "pillar" then
        add_pillar(x, y, 1.5)
    elseif m == "select" then
        selected = nearest_agent(x, y, 2)
        capture_view()
    elseif m == "target" then
        target.x, target.y = outside_obstacles(x, y)
        dragging = { kind = "target" }
    end
end

function love.mousemoved(px, py)
    if dragging and dragging.kind == "target" then
        target.x, target.y = outside_obstacles(to_world(px, py))
    end
end

function love.mousereleased(px, py, button)
    if button == 1 and dragging and dragging.kind == "wall" then
        local x, y = to_world(px, py)
        if (x - dragging.x0) ^ 2 + (y - dragging.y0) ^ 2 > 0.25 then add_wall(dragging.x0, dragging.y0, x, y) end
    end
    dragging = nil
end

function love.keypressed(key)
    local k = tonumber(key)
    if k and MODES[k] then
        mode = k
    elseif key == "tab" then
        current = current % #COLOURS + 1
    elseif key == "s" then
        actions.solver()
    elseif key == "j" then
        actions.jitter()
    elseif key == "l" then
        actions.locks()
    elseif key == "g" then
        actions.groups()
    elseif key == "a" then
        actions.surround()
    elseif key == "space" then
        paused = not paused
    elseif key == "left" or key == "right" or key == "up" or key == "down" then
        local d = 100 / SCALE -- 100 pixels
        camera.x = camera.x + (key == "left" and -d or key == "right" and d or 0)
        camera.y = camera.y + (key == "up" and -d or key == "down" and d or 0)
    elseif key == "n" and paused then
        step() -- one step, to study it
    elseif key == "[" or key == "]" then
        clock:change_speed(key == "]" and 1 or -1)
    elseif key:match("^f%d$") and demo.scenes[tonumber(key:sub(2)) + 1] then
        load_scene(tonumber(key:sub(2)) + 1)
    elseif key == "f" then
        fit_view()
    elseif key == "p" then
        panel.shown = not panel.shown
    elseif key == "o" then
        panel.big = not panel.big
    elseif key == "=" or key == "+" or key == "-" then
        local f = key == "-" and 1 / 1.25 or 1.25
        SCALE = math.max(3, math.min(40, SCALE * f))
    elseif key == "h" then
        bars = (bars + 2) % 3 -- both bars, status only, none
    elseif key == "x" and #obstacles > 0 then
        world:remove_obstacle(obstacles[#obstacles].id)
        obstacles[#obstacles] = nil
    elseif key == "delete" and selected then
        if attack then attack:remove(selected) end
        world:remove_agent(selected)
        colour_of[selected], goal_of[selected], selected, view = nil, nil, nil, {}
    elseif key == "c" then
        local keep = { solver = world:solver() }
        world:destroy()
        new_world()
        world:set_solver(keep.solver)
        apply_groups()
        if feature.surround and surround_mod then start_attack() end
        scene_name = "empty"
    elseif key == "escape" then
        love.event.quit()
    end
end
