--- The LÖVE demo's logic that needs no LÖVE (examples/love/main.lua loads
-- it with require("demo"); tests/lua/love_demo_spec.lua tests it under plain
-- Lua): the world settings, the fixed-step clock, plain steering, the preset
-- scenes, agent states, the worst overlap, and which neighbour or obstacle
-- edge made each ORCA line of the debug panel.
local demo = {}

demo.DT = 1 / 60      -- s, the step
demo.RADIUS = 0.45    -- m
demo.SPEED = 3        -- m/s, preferred walking speed
demo.MAX_STEPS = 8    -- steps per frame at most at 1x (a slow frame slows the run, never floods it)
demo.SPEEDS = { 0.25, 0.5, 1, 2, 4 } -- simulation speeds ([ and ])

-- The demo's world definition (a fresh table each call).
function demo.world_def()
    return { time_step = demo.DT, radius = demo.RADIUS, max_speed = demo.SPEED * 1.2, neighbor_dist = 6,
        max_neighbors = 12, time_horizon = 2, time_horizon_obst = 1 }
end

---------------------------------------------------------------------------
-- The clock: fixed steps of dt following the wall clock times a speed, so
-- the simulated time depends on the elapsed time only, never on how it was
-- cut into frames. Time is kept as the total clock time (scaled) and the
-- steps done, not as a running remainder, so rounding cannot lose a step.

local Clock = {}
Clock.__index = Clock

function demo.new_clock(dt, max_steps)
    return setmetatable({ dt = dt or demo.DT, max_steps = max_steps or demo.MAX_STEPS, speed = 1,
        total = 0, done = 0 }, Clock)
end

-- Steps due after a frame of `elapsed` seconds (at most max_steps x speed;
-- beyond that the rest is dropped: too slow for real time).
function Clock:advance(elapsed)
    self.total = self.total + elapsed * self.speed
    local due = math.floor(self.total / self.dt + 1e-7) - self.done
    local cap = math.ceil(self.max_steps * math.max(1, self.speed))
    if due > cap then
        due = cap
        self.total = (self.done + due) * self.dt
    end
    if due < 0 then due = 0 end
    self.done = self.done + due
    return due
end

-- While paused (or after a step by hand) the clock restarts from now.
function Clock:reset()
    self.total, self.done = 0, 0
end

-- The next speed up (dir 1) or down (-1) in demo.SPEEDS; returns it.
function Clock:change_speed(dir)
    local k = 1
    for i, s in ipairs(demo.SPEEDS) do if s <= self.speed then k = i end end
    k = math.max(1, math.min(#demo.SPEEDS, k + dir))
    self:reset()
    self.speed = demo.SPEEDS[k]
    return self.speed
end

---------------------------------------------------------------------------
-- Steering: straight to the goal at SPEED, slowing down to stop on it.

function demo.pref_velocity(x, y, gx, gy, speed, dt)
    local dx, dy = gx - x, gy - y
    local d = math.sqrt(dx * dx + dy * dy)
    if d <= 1e-9 then return 0, 0 end
    local s = math.min(speed or demo.SPEED, d / (dt or demo.DT))
    return dx / d * s, dy / d * s
end

---------------------------------------------------------------------------
-- Scenes. A scene's build(b) calls
--   b.agent(x, y, colour [, gx, gy])   an agent; with its own goal, or the colour's
--   b.obstacle(pts, closed)            closed: a polygon (counter-clockwise); open: a wall
--   b.goal(colour, x, y)               the goal of a colour's agents without their own
-- in a 128 x 80 m field (the window at 10 pixels per metre).

-- Offsets of a crowd's i-th member (0-based) on a sunflower pattern.
function demo.sunflower(i)
    local r, a = 1.05 * math.sqrt(i + 0.5), i * 2.39996323
    return r * math.cos(a), r * math.sin(a)
end

-- An octagon around (x, y), counter-clockwise.
function demo.octagon(x, y, r)
    local pts = {}
    for k = 0, 7 do
        local a = k * math.pi / 4 + math.pi / 8
        pts[2 * k + 1], pts[2 * k + 2] = x + r * math.cos(a), y + r * math.sin(a)
    end
    return pts
end

-- A crowd of n around (x, y) walking to (gx, gy): each member to its place
-- in the same formation there (a crowd arrives as a disc, not a pile).
local function crowd(b, n, x, y, colour, gx, gy)
    for i = 0, n - 1 do
        local ox, oy = demo.sunflower(i)
        b.agent(x + ox, y + oy, colour, gx + ox, gy + oy)
    end
end

demo.scenes = {
    { name = "opening", text = "two crowds swap through a pillar", build = function(b)
        for i = 0, 29 do
            local ox, oy = demo.sunflower(i)
            b.agent(25 + ox, 40 + oy, 1)
            b.agent(103 + ox, 40 + oy, 2)
        end
        b.goal(1, 103, 40)
        b.goal(2, 25, 40)
        b.obstacle(demo.octagon(64, 40, 3), true)
    end },
    { name = "circle swap", text = "60 on a circle walk to the opposite point", build = function(b)
        local n = 60
        for i = 0, n - 1 do
            local a = 2 * math.pi * i / n
            local c, s = math.cos(a), math.sin(a)
            b.agent(64 + 32 * c, 40 + 32 * s, math.floor(3 * i / n) + 1, 64 - 32 * c, 40 - 32 * s)
        end
    end },
    { name = "corridor", text = "two crowds swap through a 10 m corridor", build = function(b)
        b.obstacle({ 36, 35, 92, 35 }, false)
        b.obstacle({ 36, 45, 92, 45 }, false)
        crowd(b, 30, 18, 40, 1, 110, 40)
        crowd(b, 30, 110, 40, 2, 18, 40)
    end },
    { name = "bottleneck", text = "a crowd of 60 through a 4 m gap", build = function(b)
        b.obstacle({ 64, 6, 64, 38 }, false)
        b.obstacle({ 64, 42, 64, 74 }, false)
        crowd(b, 60, 36, 40, 1, 96, 40)
    end },
    { name = "crossing", text = "four squads cross at right angles", build = function(b)
        crowd(b, 20, 26, 40, 1, 102, 40)
        crowd(b, 20, 102, 40, 2, 26, 40)
        crowd(b, 20, 64, 12, 3, 64, 68)
        crowd(b, 20, 64, 68, 4, 64, 12)
    end },
    { name = "rally point", text = "four squads gather at one point", build = function(b)
        -- the places of one disc of 80 around the point, nearest places to
        -- the agents nearest the point (first come, inner place)
        local starts = { { 22, 14, 1 }, { 106, 14, 2 }, { 22, 66, 3 }, { 106, 66, 4 } }
        local agents = {}
        for _, s in ipairs(starts) do
            for i = 0, 19 do
                local ox, oy = demo.sunflower(i)
                agents[#agents + 1] = { x = s[1] + ox, y = s[2] + oy, c = s[3], k = #agents }
            end
        end
        local function d2(a) return (a.x - 64) ^ 2 + (a.y - 40) ^ 2 end
        table.sort(agents, function(p, q) return d2(p) < d2(q) or (d2(p) == d2(q) and p.k < q.k) end)
        local places = {}
        for i = 0, #agents - 1 do
            local ox, oy = demo.sunflower(i)
            places[#places + 1] = { 64 + ox * 1.1, 40 + oy * 1.1 }
        end
        -- each agent takes the free place nearest to it, in that order
        for _, a in ipairs(agents) do
            local best, bd = nil, math.huge
            for j, p in ipairs(places) do
                local d = (p[1] - a.x) ^ 2 + (p[2] - a.y) ^ 2
                if not p.taken and d < bd then best, bd = j, d end
            end
            places[best].taken = true
            b.agent(a.x, a.y, a.c, places[best][1], places[best][2])
        end
    end },
}

---------------------------------------------------------------------------
-- Agent states, for colouring: "locked", "arrived" (within reach of its
-- goal, even if still pushing into a crowd there), "stalled" (stall time at
-- the world's threshold), or "walking".
-- reach: for an agent's own goal place, one radius; for a goal a whole
-- colour shares, the radius of the disc its n agents pack into.

function demo.reach(n_sharing)
    if not n_sharing then return demo.RADIUS * 2 end
    return 1.05 * math.sqrt(n_sharing) + demo.RADIUS * 2
end

function demo.state(world, id, gx, gy, reach)
    if world:is_locked(id) then return "locked" end
    if gx then
        local x, y = world:position(id)
        if (x - gx) ^ 2 + (y - gy) ^ 2 <= reach * reach then return "arrived" end
    end
    local _, min_time = world:stall_threshold()
    if world:stall_time(id) >= min_time then return "stalled" end
    return "walking"
end

-- The worst overlap between neighbours, as a fraction of ri + rj (0: none),
-- and the pair.
function demo.worst_overlap(world, ids)
    local worst, wa, wb = 0, nil, nil
    for _, a in ipairs(ids) do
        local ax, ay = world:position(a)
        local ra = world:radius(a)
        for _, b in ipairs(world:neighbors(a)) do
            local bx, by = world:position(b)
            local r = ra + world:radius(b)
            local f = (r - math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)) / r
            if f > worst then worst, wa, wb = f, a, b end
        end
    end
    return worst, wa, wb
end

---------------------------------------------------------------------------
-- What made each ORCA line of an agent (the lines of world:orca_lines(id),
-- n of them, the first nobst from obstacles, then one per neighbour in the
-- order of world:neighbors(id) -- except that a neighbour the agent leaves
-- all the avoiding to (share 0) gives no line; then the neighbours are not
-- linked, as which one gave none is not known here).
--
-- An obstacle line is matched to the edge it touches: the edge, scaled
-- into velocity space by 1 / time_horizon_obst, lies on the line's
-- forbidden side at one radius (x the same scale) from it, and touches it
-- there; a line through the origin (the agent already within a radius of
-- an edge) goes to the nearest edge. edges: { {x1, y1, x2, y2}, ... }.
--
-- Returns src (line number 1..n -> { agent = id } or { edge = k }) and
-- line_of (neighbour id -> line number).
function demo.link_lines(world, id, lines, n, nobst, neighbors, edges)
    local src, line_of = {}, {}
    if n - nobst == #neighbors then
        for k, nb in ipairs(neighbors) do
            src[nobst + k], line_of[nb] = { agent = nb }, nobst + k
        end
    end
    if nobst == 0 or not edges or #edges == 0 then return src, line_of end
    local px, py = world:position(id)
    local r = world:radius(id)
    local th = world:time_horizon_obst(id)
    local k = 1 / math.max(th, 1e-6)
    for i = 1, nobst do
        local lx, ly, dx, dy = lines[4 * i - 3], lines[4 * i - 2], lines[4 * i - 1], lines[4 * i]
        local best, score = nil, math.huge
        if lx * lx + ly * ly < 1e-12 then
            for e, s in ipairs(edges) do
                local ex, ey = s[3] - s[1], s[4] - s[2]
                local t = ((px - s[1]) * ex + (py - s[2]) * ey) / math.max(ex * ex + ey * ey, 1e-12)
                t = math.max(0, math.min(1, t))
                local d = (s[1] + t * ex - px) ^ 2 + (s[2] + t * ey - py) ^ 2
                if d < score then best, score = e, d end
            end
        else
            for e, s in ipairs(edges) do
                local m = math.huge
                for v = 1, 3, 2 do
                    local qx, qy = k * (s[v] - px) - lx, k * (s[v + 1] - py) - ly
                    m = math.min(m, qx * dy - qy * dx - k * r)
                end
                if m >= -1e-3 and m < score then best, score = e, m end
            end
        end
        if best then src[i] = { edge = best } end
    end
    return src, line_of
end

return demo
