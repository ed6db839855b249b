--- rvo LÖVE demo: spawn crowds, give them goals, draw obstacles, switch
-- solvers and game features, and look inside one agent's avoidance.
--
--   scripts/love                     builds build/ if needed, then runs this
--   love examples/love               from the repository root, after scripts/setup
--
-- Environment: RVO_ROOT (repository root; default: two folders above this
-- one), RVO_BUILD_DIR (default "build", relative to the root), RVO_LIB (the
-- librvo to load, overrides the build folder). `--smoke FILE.png` (or
-- RVO_DEMO_SMOKE=FILE.png) runs a scripted scenario instead: it spawns
-- crowds, draws obstacles, toggles every feature, selects an agent, saves a
-- screenshot to FILE.png and quits (status 1 on any error).
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
local RADIUS = 0.45       -- m
local SPEED = 3           -- m/s, preferred walking speed
local DT = 1 / 60         -- s, the step; the simulation follows the clock, not the frame rate
local MAX_STEPS = 8       -- steps per frame at most (a slow frame slows the run, never floods it)
local CROWD = 30          -- agents per click
local COLOURS = { { 0.95, 0.38, 0.32 }, { 0.32, 0.62, 1.0 }, { 0.42, 0.85, 0.42 } }
local GROUP_NAMES = { "red", "blue", "green" }
local MODES = { "crowd", "wall", "pillar", "select", "target" }
local SOLVERS = { "orca", "ue", "rvo" }

---------------------------------------------------------------------------
-- State.

local world
local colour_of = {}      -- id -> 1..3
local goals = {}          -- colour -> { x, y } in metres
local obstacles = {}      -- { id =, pts = {flat xy}, closed = }
local target = { x = 64, y = 40, r = 1.2 }
local mode = 1
local current = 1         -- colour of new crowds and of right-click goals
local feature = { jitter = false, locks = false, groups = false, surround = false }
local paused, show_help = false, true
local selected            -- agent id
local dragging            -- { kind = "wall" | "target", x0, y0 }
local stats = { ms = 0, mean = 0, steps = 0 }
local view = {}           -- selected agent's debug data of the last solve
local steerer, lockset, registry, attack -- module objects (nil when a module is missing)
local idbuf, posbuf = {}, {}
local camera = { x = 0, y = 0 } -- world point at the window's top left [m]

local function new_world()
    world = rvo.new_world { time_step = DT, radius = RADIUS, max_speed = SPEED * 1.2, neighbor_dist = 6,
        max_neighbors = 12, time_horizon = 2, time_horizon_obst = 1 }
    colour_of, goals, obstacles, selected, view = {}, {}, {}, nil, {}
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
        for a = 1, 3 do
            for b = 1, 3 do
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

local function add_wall(x1, y1, x2, y2)
    local pts = { x1, y1, x2, y2 }
    obstacles[#obstacles + 1] = { id = world:add_obstacle(pts, { closed = false }), pts = pts, closed = false }
end

-- An octagon, counter-clockwise: a solid pillar.
local function add_pillar(x, y, r)
    local pts = {}
    for k = 0, 7 do
        local a = k * math.pi / 4 + math.pi / 8
        pts[#pts + 1] = x + r * math.cos(a)
        pts[#pts + 1] = y + r * math.sin(a)
    end
    obstacles[#obstacles + 1] = { id = world:add_obstacle(pts), pts = pts, closed = true }
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
    local dx, dy = gx - x, gy - y
    local d = math.sqrt(dx * dx + dy * dy)
    local s = math.min(SPEED, d / DT)
    if d > 1e-9 then world:set_pref_velocity(id, dx / d * s, dy / d * s) else world:set_pref_velocity(id, 0, 0) end
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
        pvx = pvx, pvy = pvy, nvx = nvx, nvy = nvy, locked = world:is_locked(selected),
    }
end

local function step()
    local ids = world:ids()
    local attacking = feature.surround and not attack
    if attacking then plan_surround(ids) end
    for _, id in ipairs(ids) do
        local goal = attacking and surround_slots[id] or goals[colour_of[id]]
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
-- Scripted run (smoke test): frame -> action.

local function scenario()
    local W, H = love.graphics.getWidth() / SCALE, love.graphics.getHeight() / SCALE
    return {
        [1] = function()
            spawn_crowd(W * 0.2, H * 0.3, 1, 40)
            spawn_crowd(W * 0.8, H * 0.35, 2, 40)
            spawn_crowd(W * 0.5, H * 0.8, 3, 40)
            goals[1] = { W * 0.8, H * 0.6 }
            goals[2] = { W * 0.2, H * 0.6 }
            goals[3] = { W * 0.5, H * 0.15 }
            add_wall(W * 0.45, H * 0.3, W * 0.55, H * 0.5)
            add_pillar(W * 0.35, H * 0.55, 2)
            add_pillar(W * 0.65, H * 0.45, 1.5)
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
        [130] = function()
            spawn_crowd(W * 0.1, H * 0.9, 1, 8) -- joins the attack
            add_wall(W * 0.1, H * 0.1, W * 0.3, H * 0.12)
            love.keypressed("x") -- and takes it back
        end,
        [150] = function()
            selected = nearest_agent(W * 0.5, H * 0.5, 100)
        end,
        [180] = function()
            love.graphics.captureScreenshot(function(image)
                local f = assert(io.open(smoke_path, "wb"))
                f:write(image:encode("png"):getString())
                f:close()
                smoke_path = false -- written: quit on the next frame
            end)
        end,
    }
end
local script, frame = nil, 0
local steps_per_frame = 1 -- the scripted run: a fixed number per frame (reproducible)
local clock_debt = 0      -- seconds of simulation the clock is ahead of the world

---------------------------------------------------------------------------
-- LÖVE callbacks.

function love.load()
    if smoke_path then
        script = scenario()
        steps_per_frame = 4 -- 12 s of crowd in 180 frames
    end
    love.graphics.setBackgroundColor(0.08, 0.09, 0.11)
    love.graphics.setLineJoin("bevel")
    new_world()
    if not smoke_path then
        -- A starting scene.
        spawn_crowd(25, 40, 1)
        spawn_crowd(103, 40, 2)
        goals[1], goals[2] = { 103, 40 }, { 25, 40 }
        add_pillar(64, 40, 3)
    end
end

function love.update(elapsed)
    if script then
        frame = frame + 1
        if smoke_path == false then
            print(string.format("rvo demo smoke: %d agents, %d obstacles, %d steps, %.3f ms/step (mean of the last 60)"
                .. ", solver %s, jitter %s, locks %s, groups %s, surround %s", world:agent_count(),
                world:obstacle_count(), stats.steps, stats.mean, world:solver(),
                jitter_mod and "rvo.jitter" or "built-in", locks_mod and "rvo.locks" or "built-in",
                groups_mod and "rvo.groups" or "built-in", surround_mod and "rvo.surround" or "built-in"))
            love.event.quit(0)
            return
        end
        if script[frame] then script[frame]() end
    end
    if script then
        if not paused then
            for _ = 1, steps_per_frame do step() end
        end
        return
    end
    if paused then
        clock_debt = 0
        return
    end
    clock_debt = clock_debt + (elapsed or DT)
    local n = 0
    while clock_debt >= DT and n < MAX_STEPS do
        step()
        clock_debt, n = clock_debt - DT, n + 1
    end
    if n == MAX_STEPS then clock_debt = 0 end -- (too slow for real time: drop the rest)
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
-- least-violating velocity).
local PANEL = 260

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
local function draw_selected()
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
    if view.pvx then
        draw_arrow(sx, sy, view.nvx, view.nvy, 1, 0.9, 0.2, VSCALE)
        draw_arrow(sx, sy, view.pvx, view.pvy, 0.3, 0.9, 1, VSCALE)
    end
    love.graphics.setColor(1, 1, 1)
    love.graphics.setLineWidth(2)
    love.graphics.circle("line", sx, sy, world:radius(selected) * SCALE + 3)
end

-- The velocity-space panel of the selected agent (screen coordinates).
local function draw_panel()
    if not (selected and world:is_valid(selected)) then return end
    local px0, py0 = love.graphics.getWidth() - PANEL - 10, 32
    local cx, cy = px0 + PANEL / 2, py0 + PANEL / 2
    local vmax = world:max_speed(selected)
    local k = PANEL / 2 / (vmax * 1.5) -- pixels per m/s
    love.graphics.setColor(0, 0, 0, 0.75)
    love.graphics.rectangle("fill", px0, py0, PANEL, PANEL)
    love.graphics.setScissor(px0, py0, PANEL, PANEL)
    local lines, big = view.lines or {}, vmax * 4
    -- 1 m/s grid
    love.graphics.setColor(1, 1, 1, 0.08)
    love.graphics.setLineWidth(1)
    for g = -math.floor(vmax * 1.5), math.floor(vmax * 1.5) do
        love.graphics.line(cx + g * k, py0, cx + g * k, py0 + PANEL)
        love.graphics.line(px0, cy + g * k, px0 + PANEL, cy + g * k)
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
        love.graphics.setColor(obst and 1 or 0.95, obst and 0.6 or 0.25, 0.1, 0.9)
        love.graphics.setLineWidth(1.5)
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
    love.graphics.print(string.format("#%d: %d lines (%d obstacle)%s", selected, view.n or 0,
        view.nobst or 0, view.locked and " locked" or ""), px0 + 4, py0 + PANEL - 18)
    love.graphics.print(string.format("grid 1 m/s, circle %.1f m/s; green: allowed", vmax), px0 + 4, py0 + 2)
    love.graphics.setColor(0.3, 0.9, 1)
    love.graphics.print("preferred", px0 + 4, py0 + 16)
    love.graphics.setColor(1, 0.9, 0.2)
    love.graphics.print("chosen", px0 + 74, py0 + 16)
end

function love.draw()
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
    -- agents, one bulk read
    local n = world:ids(idbuf)
    world:positions(posbuf)
    local r = RADIUS * SCALE
    for i = 1, n do
        local id = idbuf[i]
        local c = COLOURS[colour_of[id]] or COLOURS[1]
        love.graphics.setColor(c[1], c[2], c[3])
        love.graphics.circle("fill", posbuf[2 * i - 1] * SCALE, posbuf[2 * i] * SCALE, r)
    end
    if feature.locks then
        love.graphics.setColor(1, 1, 1, 0.8)
        love.graphics.setLineWidth(1)
        for i = 1, n do
            if world:is_locked(idbuf[i]) then
                love.graphics.circle("line", posbuf[2 * i - 1] * SCALE, posbuf[2 * i] * SCALE, r + 1)
            end
        end
    end
    draw_selected()
    if dragging and dragging.kind == "wall" then
        local mx, my = to_world(love.mouse.getPosition())
        love.graphics.setColor(1, 1, 1, 0.6)
        love.graphics.setLineWidth(2)
        love.graphics.line(dragging.x0 * SCALE, dragging.y0 * SCALE, mx * SCALE, my * SCALE)
    end
    love.graphics.pop()
    draw_panel()
    -- status and help
    local c = COLOURS[current]
    love.graphics.setColor(0, 0, 0, 0.6)
    love.graphics.rectangle("fill", 0, 0, love.graphics.getWidth(), 22)
    love.graphics.setColor(1, 1, 1)
    local function on(name, mod)
        return (feature[name] and "on" or "off") .. (mod and "" or " (built-in)")
    end
    love.graphics.print(string.format(
        "%d agents  %.2f ms/step  %d fps  |  solver %s  jitter %s  locks %s  groups %s  surround %s  |  mode %s%s",
        world:agent_count(), stats.mean, love.timer.getFPS(), world:solver(), on("jitter", jitter_mod),
        on("locks", locks_mod), on("groups", groups_mod), on("surround", surround_mod), MODES[mode],
        paused and "  PAUSED" or ""), 6, 4)
    love.graphics.setColor(c[1], c[2], c[3])
    love.graphics.circle("fill", love.graphics.getWidth() - 14, 11, 6)
    if show_help then
        local h = love.graphics.getHeight()
        love.graphics.setColor(0, 0, 0, 0.6)
        love.graphics.rectangle("fill", 0, h - 40, love.graphics.getWidth(), 40)
        love.graphics.setColor(0.85, 0.85, 0.85)
        love.graphics.print("left: 1 crowd  2 wall (drag)  3 pillar  4 select  5 target (drag)   right: goal of the "
            .. "current colour   tab: colour   s: solver  j: jitter  l: locks (white ring: locked)  g: groups  "
            .. "a: surround", 6, h - 36)
        love.graphics.print("selected: neighbours (white), preferred (cyan), chosen (yellow); panel: ORCA "
            .. "half-planes   space: pause  n: one step  +/-: zoom  arrows: pan  x: undo  del: remove  c: clear  "
            .. "h: help",
            6, h - 18)
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
    if button == 2 then
        goals[current] = { outside_obstacles(x, y) }
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
    elseif key == "=" or key == "+" or key == "-" then
        local f = key == "-" and 1 / 1.25 or 1.25
        SCALE = math.max(3, math.min(40, SCALE * f))
    elseif key == "h" then
        show_help = not show_help
    elseif key == "x" and #obstacles > 0 then
        world:remove_obstacle(obstacles[#obstacles].id)
        obstacles[#obstacles] = nil
    elseif key == "delete" and selected then
        if attack then attack:remove(selected) end
        world:remove_agent(selected)
        colour_of[selected], selected, view = nil, nil, {}
    elseif key == "c" then
        local keep = { solver = world:solver() }
        world:destroy()
        new_world()
        world:set_solver(keep.solver)
        apply_groups()
        if feature.surround and surround_mod then start_attack() end
    elseif key == "escape" then
        love.event.quit()
    end
end
