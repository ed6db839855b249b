-- rvo.follow — path following: turns each agent's path corners into a
-- preferred velocity every frame, so that avoidance (the world's solve)
-- bends the agents around each other while they walk their paths.
--
--   local follow = require("rvo.follow")
--   local f = follow.new(world, { mesh = mesh })   -- mesh: a rvo.nav navmesh (optional)
--   f:set_goal(id, gx, gy)                         -- path from the mesh
--   f:set_path(id, { x1, y1, x2, y2, ... })        -- or any path of corners
--   for frame = 1, n do f:update(); world:step() end
--   if f:arrived(id) then ... end
--
-- Per agent and frame: the target is the current corner; it advances to the
-- next one when the agent comes within corner_dist of it (and the next one
-- is in plain sight), or as soon as the next corner is in sight for its
-- disc (world:line_of_sight past the world's obstacles).
-- Towards the last corner the speed ramps down over slow_dist and the agent
-- stops within arrive_dist (or near it, once it stops getting closer). With a mesh, an agent whose target went out of
-- sight (the crowd pushed it round a door jamb) or that was pushed farther
-- than repath_dist off its path asks for a new path. Only + - * / and sqrt
-- and the world's own queries, agents in the order they were given paths:
-- the same inputs give the same velocities on both runtimes.
--
-- Talks to the world through its public methods only (position, radius,
-- max_speed, line_of_sight, set_pref_velocity), so it works on either
-- backend.

local check = require("rvo.check")
local error, type, setmetatable, format, sqrt, huge = error, type, setmetatable, string.format, math.sqrt, math.huge

local follow = {}

local Follower = {}
Follower.__index = Follower
follow.Follower = Follower

local OPTIONS = {
    mesh = true, corner_dist = true, arrive_dist = true, slow_dist = true, repath_dist = true, speed = true,
    clearance = true, repath_wait = true, settle = true, bias = true,
}

local function argfail(fn, arg, why)
    error(format("bad argument #%d to '%s' (%s)", arg, fn, why), 3)
end

local finite = check.finite

--- A follower for world. opts (all optional):
--   mesh         a rvo.nav navmesh, for set_goal and repaths
--   corner_dist  advance to the next corner within this distance [m] (1)
--   arrive_dist  stop within this distance of the last corner [m] (0.25)
--   settle       also stop within slow_dist of it after this many updates
--                without getting closer (its spot is taken) (50; 0 = never)
--   slow_dist    slow down over this distance before it [m] (2)
--   repath_dist  ask for a new path when pushed this far off the path [m] (3; 0 = never)
--   repath_wait  updates between two new paths asked for a hidden target (10)
--   clearance    a corner counts as reached once the next one is in sight for a
--                disc of this radius [m] (default: the agent's radius)
--   speed        walking speed [m/s] (default: each agent's max_speed)
--   bias         sideways part of the preferred velocity, to the right, as a
--                fraction of the speed (0.1): agents meeting head-on pass (left
--                out where it would steer into an obstacle within 1 m)
function follow.new(world, opts)
    local rvo = require("rvo")
    if not rvo.is_world(world) then
        error(format("bad argument #1 to 'new' (rvo.world expected, got %s)", type(world)), 2)
    end
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #2 to 'new' (table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local bad
    for k in pairs(opts) do
        if type(k) ~= "string" then
            error("bad argument #2 to 'new' (field names must be strings, got " .. type(k) .. ")", 2)
        end
        if not OPTIONS[k] and (bad == nil or k < bad) then bad = k end
    end
    if bad then error("bad argument #2 to 'new' (unknown field '" .. bad .. "')", 2) end
    local nums = { "arrive_dist", "bias", "clearance", "corner_dist", "repath_dist", "repath_wait", "settle",
        "slow_dist", "speed" }
    for _, k in ipairs(nums) do
        local v = opts[k]
        if v ~= nil and not (finite(v) and v >= 0) then
            error(format("bad argument #2 to 'new' (field '%s' must be a finite number >= 0)", k), 2)
        end
    end
    if opts.mesh ~= nil and (type(opts.mesh) ~= "table" or type(opts.mesh.find_path) ~= "function") then
        error("bad argument #2 to 'new' (field 'mesh' must be a navmesh)", 2)
    end
    return setmetatable({
        world = world,
        mesh = opts.mesh,
        corner_dist = opts.corner_dist or 1,
        arrive_dist = opts.arrive_dist or 0.25,
        slow_dist = opts.slow_dist or 2,
        repath_dist = opts.repath_dist or 3,
        speed = opts.speed,
        clearance = opts.clearance,
        repath_wait = opts.repath_wait or 10,
        settle = opts.settle or 50,
        bias = opts.bias or 0.1,
        doors = {},   -- nav.door's, see add_door
        order = {},   -- agent ids in the order they got a path
        state = {},   -- id -> { path = flat corners, k = target corner, goal = {x, y}, arrived = bool }
        repaths = 0,  -- paths asked for again (for reports and tests)
    }, Follower)
end

local check_self = check.self_checker(Follower)

local function track(self, id, st)
    if not self.state[id] then
        self.order[#self.order + 1] = id
    end
    self.state[id] = st
end

--- Gives agent id a path: a flat list of corners {x1, y1, ...} (at least
-- one). The agent heads for the first corner that is not where it stands.
function Follower:set_path(id, path)
    check_self(self, "set_path")
    if not self.world:is_valid(id) then argfail("set_path", 1, "unknown or removed agent id") end
    if type(path) ~= "table" then argfail("set_path", 2, "table expected, got " .. type(path)) end
    local n = #path
    if n < 2 or n % 2 ~= 0 then argfail("set_path", 2, "a path needs an even number (>= 2) of coordinates") end
    local copy = {}
    for i = 1, n do
        if not finite(path[i]) then argfail("set_path", 2, format("coordinate %d must be a finite number", i)) end
        copy[i] = path[i]
    end
    track(self, id, { path = copy, k = 1, goal = { copy[n - 1], copy[n] }, arrived = false })
end

--- Asks the mesh for a path from the agent's position to (gx, gy) and
-- follows it. Returns true, or nil and the mesh's message (start or goal
-- off the mesh); a goal that cannot be reached is walked towards as far as
-- the mesh goes (the second result is then true).
function Follower:set_goal(id, gx, gy)
    check_self(self, "set_goal")
    if not self.mesh then error("set_goal: this follower has no mesh (follow.new(world, { mesh = ... }))", 2) end
    if not self.world:is_valid(id) then argfail("set_goal", 1, "unknown or removed agent id") end
    if not finite(gx) then argfail("set_goal", 2, "goal x must be a finite number") end
    if not finite(gy) then argfail("set_goal", 3, "goal y must be a finite number") end
    local x, y = self.world:position(id)
    local path, partial = self.mesh:find_path(x, y, gx, gy)
    if not path then return nil, partial end
    track(self, id, { path = path, k = 1, goal = { gx, gy }, arrived = false })
    return true, partial
end

--- Stops following agent id (its preferred velocity is left as it is).
function Follower:remove(id)
    check_self(self, "remove")
    if self.state[id] then
        self.state[id] = nil
        local order = self.order
        for i = 1, #order do
            if order[i] == id then
                table.remove(order, i)
                break
            end
        end
    end
end

--- True once agent id reached the end of its path.
function Follower:arrived(id)
    check_self(self, "arrived")
    local st = self.state[id]
    return st ~= nil and st.arrived
end

--- The corners agent id still has to walk to (flat list), or nil.
function Follower:remaining(id)
    check_self(self, "remaining")
    local st = self.state[id]
    if not st then return nil end
    local out = {}
    for i = 2 * st.k - 1, #st.path do
        out[#out + 1] = st.path[i]
    end
    return out
end

-- Distance from (px, py) to segment a-b.
local function seg_dist(px, py, ax, ay, bx, by)
    local dx, dy = bx - ax, by - ay
    local len2 = dx * dx + dy * dy
    local t = 0
    if len2 > 0 then
        t = ((px - ax) * dx + (py - ay) * dy) / len2
        if t < 0 then t = 0 elseif t > 1 then t = 1 end
    end
    local qx, qy = ax + t * dx - px, ay + t * dy - py
    return sqrt(qx * qx + qy * qy)
end

-- One agent's target for this update: advances past reached corners and
-- asks for new paths; returns x, y (its position), tx, ty (where it heads)
-- and its speed, or nil once it has arrived (its preferred velocity is
-- then 0).
local function plan(self, id, st)
    local world = self.world
    local x, y = world:position(id)
    local path = st.path
    local last = #path / 2
    if st.arrived then
        world:set_pref_velocity(id, 0, 0)
        return nil
    end
    -- pushed off the path: ask again (not while a door's lanes steer it
    -- off the path's line)
    if self.mesh and self.repath_dist > 0 and st.k > 1 and not st.in_door then
        local i = 2 * st.k
        if seg_dist(x, y, path[i - 3], path[i - 2], path[i - 1], path[i]) > self.repath_dist then
            local p = self.mesh:find_path(x, y, st.goal[1], st.goal[2])
            if p then
                st.path, st.k, path, last = p, 1, p, #p / 2
                self.repaths = self.repaths + 1
            end
        end
    end
    -- advance past corners that are reached (and the next one is at least
    -- in plain sight: a door jamb is rounded, not cut), or whose successor
    -- is in sight for the agent's disc (it was pushed or cut the corner)
    local clear = self.clearance or world:radius(id)
    while st.k < last do
        local cx, cy = path[2 * st.k - 1], path[2 * st.k]
        local dx, dy = cx - x, cy - y
        local nx, ny = path[2 * st.k + 1], path[2 * st.k + 2]
        local near = dx * dx + dy * dy <= self.corner_dist * self.corner_dist
        if (near and world:line_of_sight(x, y, nx, ny, 0)) or world:line_of_sight(x, y, nx, ny, clear) then
            st.k = st.k + 1
        else
            break
        end
    end
    -- the target went out of sight for the agent's disc (it was pushed
    -- round a corner): ask again, at most every repath_wait updates (the
    -- 0.9 keeps a corner just advanced to from being lost at once)
    st.wait = (st.wait or 0) - 1
    if self.mesh and st.wait <= 0 and not st.in_door and
        not world:line_of_sight(x, y, path[2 * st.k - 1], path[2 * st.k], 0.9 * clear) then
        st.wait = self.repath_wait
        local p = self.mesh:find_path(x, y, st.goal[1], st.goal[2])
        if p then
            st.path, st.k, path, last = p, 2, p, #p / 2
            if last < 2 then st.k = 1 end
            self.repaths = self.repaths + 1
        end
    end
    local tx, ty = path[2 * st.k - 1], path[2 * st.k]
    local dx, dy = tx - x, ty - y
    local d = sqrt(dx * dx + dy * dy)
    local speed = self.speed or world:max_speed(id)
    if st.k == last then
        -- near the end but no closer for settle updates (the spot is taken
        -- by agents that stand there): that is as far as it gets
        if d < (st.best or huge) - 0.01 then
            st.best, st.since = d, 0
        else
            st.since = (st.since or 0) + 1
        end
        if d <= self.arrive_dist or (self.settle > 0 and d < self.slow_dist and st.since >= self.settle) then
            st.arrived = true
            world:set_pref_velocity(id, 0, 0)
            return nil
        end
        if d < self.slow_dist then
            speed = speed * d / self.slow_dist
        end
    end
    return x, y, tx, ty, speed
end

-- Sets agent id's preferred velocity from x, y towards tx, ty at speed
-- (in_door: a door's lanes steer it, which keep it right already).
local function drive(self, id, x, y, tx, ty, speed, in_door)
    local world = self.world
    local dx, dy = tx - x, ty - y
    local d = sqrt(dx * dx + dy * dy)
    if d > 0 then
        -- keep a little to the right: two agents meeting head-on (whose
        -- symmetric preferences would deadlock ORCA) pass each other; but
        -- not into a wall or a door jamb (look 1 m ahead), and not in a
        -- door's lane (it would press the lane against the jamb)
        local s, b = speed / d, in_door and 0 or self.bias * speed / d
        if b > 0 then
            local clear = self.clearance or world:radius(id)
            local ux, uy = dx / d + dy * self.bias / d, dy / d - dx * self.bias / d
            local look = d < 1 and d or 1
            if not world:line_of_sight(x, y, x + ux * look, y + uy * look, 0.9 * clear) then b = 0 end
        end
        world:set_pref_velocity(id, dx * s + dy * b, dy * s - dx * b)
    else
        world:set_pref_velocity(id, 0, 0)
    end
end

-- The corner agent st heads for through door d: the first of its remaining
-- corners beyond the door's wall (from where it stands), if its path
-- crosses the wall's line there within depth of the opening (not at
-- another door); else nil.
local function door_target(d, st, x, y)
    local ux, uy = d[3] - d[1], d[4] - d[2]
    local len = sqrt(ux * ux + uy * uy)
    ux, uy = ux / len, uy / len
    local nx, ny = uy, -ux
    local cx, cy = (d[1] + d[3]) / 2, (d[2] + d[4]) / 2
    local side = (x - cx) * nx + (y - cy) * ny
    local half = d[5] / 2
    local path = st.path
    local ax, ay, sa = x, y, side
    for i = st.k, #path / 2 do
        local px, py = path[2 * i - 1], path[2 * i]
        local s = (px - cx) * nx + (py - cy) * ny
        if (s > half and side <= half) or (s < -half and side >= -half) then
            -- where the path's leg into that corner crosses the centre line
            local k = (sa ~= s) and sa / (sa - s) or 0
            if k < 0 then k = 0 elseif k > 1 then k = 1 end
            local w = (ax + k * (px - ax) - cx) * ux + (ay + k * (py - ay) - cy) * uy
            if math.abs(w) <= len / 2 + d[6] then return px, py end
            return nil
        end
        ax, ay, sa = px, py, s
    end
    return nil
end

--- Adds a door (rvo.nav's nav.door): agents whose path goes through it
-- keep to its right half and fall in behind their own flow, so that two
-- crowds pass each other in it (nav.door_steer). Returns the door.
function Follower:add_door(door)
    check_self(self, "add_door")
    local nav = require("rvo.nav")
    if getmetatable(door) ~= nav.Door then
        argfail("add_door", 1, "door expected (rvo.nav's nav.door), got " .. type(door))
    end
    self.doors[#self.doors + 1] = door
    return door
end

--- Sets the preferred velocity of every followed agent; agents removed
-- from the world are dropped. Returns how many are still walking.
function Follower:update()
    check_self(self, "update")
    local order, kept = self.order, {}
    local plans = {} -- { id, x, y, tx, ty, speed } of the walking agents, in order
    for i = 1, #order do
        local id = order[i]
        if self.world:is_valid(id) then
            kept[#kept + 1] = id
            local x, y, tx, ty, speed = plan(self, id, self.state[id])
            if x then plans[#plans + 1] = { id, x, y, tx, ty, speed } end
        else
            self.state[id] = nil
        end
    end
    self.order = kept
    if #self.doors > 0 and #plans > 0 then
        local nav = require("rvo.nav")
        local xy, radii = {}, {}
        for i, p in ipairs(plans) do
            xy[2 * i - 1], xy[2 * i], radii[i] = p[2], p[3], self.world:radius(p[1])
        end
        local steered = {}
        for _, p in ipairs(plans) do self.state[p[1]].in_door = false end
        for _, d in ipairs(self.doors) do
            local targets, through = {}, {}
            for i, p in ipairs(plans) do
                local gx, gy = door_target(d, self.state[p[1]], p[2], p[3])
                through[i] = gx ~= nil
                -- (an agent whose path avoids the door heads for a point on
                -- its own side: the door leaves it alone)
                targets[2 * i - 1], targets[2 * i] = gx or p[2], gy or p[3]
            end
            local out = nav.door_steer(d, xy, radii, targets)
            for i, p in ipairs(plans) do
                local ox, oy = out[2 * i - 1], out[2 * i]
                if not through[i] then ox, oy = targets[2 * i - 1], targets[2 * i] end
                -- a corner of the door's lanes: walk there at full speed, if
                -- no wall is in the way (the lanes know no pillar near the
                -- door; the path does)
                if not steered[i] and (ox ~= targets[2 * i - 1] or oy ~= targets[2 * i]) and
                    self.world:line_of_sight(p[2], p[3], ox, oy, 0) then
                    steered[i] = true
                    p[4], p[5], p[6], p[7] = ox, oy, self.speed or self.world:max_speed(p[1]), true
                    self.state[p[1]].in_door = true
                end
            end
        end
    end
    for _, p in ipairs(plans) do
        drive(self, p[1], p[2], p[3], p[4], p[5], p[6], p[7])
    end
    return #plans
end

return follow
