--- rvo.trace — record agent paths from a world and draw them with rvo.svg.
--
-- Talks to the world through its public methods only (world:ids() and
-- world:positions(buf)), so it works the same on Lua 5.4 and LuaJIT.
--
--   local trace = require("rvo.trace")
--   local tr = trace.new(world)      -- records the starting positions
--   for _ = 1, 100 do world:step(); tr:record() end
--   tr:write_svg("out/run.svg", { tolerance = 0.05 })
--
-- Agents added later start their path at the record they first appear in;
-- removed agents keep the path they had. Paths are kept in the order agents
-- first appeared (then world order), so output is deterministic.
--
-- Obstacles are recorded too (world:obstacles(), obstacle_points and
-- obstacle_velocity): added, removed, reshaped and moving ones, each as a
-- track of the shapes and velocities it had and the records it had them
-- from (see Trace:obstacles; opts.obstacles = false records none).

local svg = require("rvo.svg")

local trace = {}

local Trace = {}
Trace.__index = Trace

local format = string.format

-- world:ids() may return a table, or fill a buffer and return a count.
local function read_ids(world, buf)
    local r = world:ids(buf)
    if type(r) == "table" then
        return r, #r
    end
    return buf, r
end

--- Starts a trace. opts.every = k keeps one record in k (default 1);
-- opts.record_now = false skips recording the current state.
function trace.new(world, opts)
    if type(world) ~= "table" and type(world) ~= "userdata" and type(world) ~= "cdata" then
        error(format("bad argument #1 to 'new' (world expected, got %s)", type(world)), 2)
    end
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #2 to 'new' (options table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local every = opts.every or 1
    if type(every) ~= "number" or every < 1 or every ~= math.floor(every) then
        error("bad argument #2 to 'new' (every must be an integer >= 1)", 2)
    end
    if opts.obstacles ~= nil and type(opts.obstacles) ~= "boolean" then
        error("bad argument #2 to 'new' (obstacles must be a boolean)", 2)
    end
    local self = setmetatable({
        world = world,
        every = every,
        calls = 0,       -- record() calls
        records = 0,     -- states kept
        last_kept = 0,   -- the call number of the last kept state
        order = {},      -- ids in order of first appearance
        by_id = {},      -- id -> { id =, first =, points = {x1, y1, ...} }
        idbuf = {},
        posbuf = {},
        with_obstacles = opts.obstacles ~= false and world.obstacles ~= nil, -- (a stand-in world may have none)
        obst_order = {}, -- obstacle ids in order of first appearance
        obst_by_id = {}, -- id -> track (see Trace:obstacles)
        obst_ids = {},
        obst_pts = {},
    }, Trace)
    if opts.record_now ~= false then
        self:record(true)
    end
    return self
end

--- Records the world's current positions (if this call is one of `every`,
-- or force is true). Returns the number of agents recorded, or 0.
function Trace:record(force)
    self.calls = self.calls + 1
    if not force and (self.calls - 1) % self.every ~= 0 then
        return 0
    end
    return self:_keep()
end

function Trace:_keep()
    local world = self.world
    local ids, n = read_ids(world, self.idbuf)
    local pos = self.posbuf
    local np = world:positions(pos)
    if type(np) == "table" then
        pos, np = np, math.floor(#np / 2)
    end
    if np ~= n then
        error(format("trace: world:ids() gave %d agents but world:positions() gave %d", n, np), 2)
    end
    self.records = self.records + 1
    self.last_kept = self.calls
    local by_id, order = self.by_id, self.order
    for i = 1, n do
        local id = ids[i]
        local p = by_id[id]
        if not p then
            p = { id = id, first = self.records, points = {} }
            by_id[id] = p
            order[#order + 1] = id
        end
        local pts = p.points
        pts[#pts + 1] = pos[2 * i - 1]
        pts[#pts + 1] = pos[2 * i]
    end
    if self.with_obstacles then
        self:_keep_obstacles()
    end
    return n
end

local function same_points(a, b)
    if #a ~= #b then return false end
    for i = 1, #a do
        if a[i] ~= b[i] then return false end
    end
    return true
end

-- Each live obstacle's shape and velocity, kept where they changed; an
-- obstacle no longer there gets `gone`, the record it was first missing in.
function Trace:_keep_obstacles()
    local world, rec = self.world, self.records
    local ids = self.obst_ids
    local r = world:obstacles(ids)
    local n = r
    if type(r) == "table" then ids, n = r, #r end
    local by_id, order, seen = self.obst_by_id, self.obst_order, {}
    for i = 1, n do
        local id = ids[i]
        seen[id] = true
        local t = by_id[id]
        local pts, closed = world:obstacle_points(id, self.obst_pts)
        local vx, vy = world:obstacle_velocity(id)
        if not t then
            t = { id = id, first = rec, closed = closed, shapes = {}, velocities = {} }
            by_id[id] = t
            order[#order + 1] = id
        end
        local shapes = t.shapes
        local last = shapes[#shapes]
        if not last or not same_points(last.pts, pts) then
            local copy = {}
            for k = 1, #pts do copy[k] = pts[k] end
            shapes[#shapes + 1] = { record = rec, pts = copy }
        end
        local vels = t.velocities
        local lv = vels[#vels]
        if (lv and (lv.vx ~= vx or lv.vy ~= vy)) or (not lv and (vx ~= 0 or vy ~= 0)) then
            vels[#vels + 1] = { record = rec, vx = vx, vy = vy }
        end
    end
    for _, id in ipairs(order) do
        local t = by_id[id]
        if not t.gone and not seen[id] then
            t.gone = rec
        end
    end
end

--- The obstacles recorded, in order of first appearance: each { id =,
-- first = the record it appeared in, gone = the first record it was missing
-- from (nil while it lasts), closed =, shapes = { { record =, pts = flat
-- xy }, ... } (a shape lasts from its record to the next one's),
-- velocities = { { record =, vx =, vy = }, ... } (changes only; none while
-- it stands) }.
function Trace:obstacles()
    local out = {}
    for i, id in ipairs(self.obst_order) do
        out[i] = self.obst_by_id[id]
    end
    return out
end

--- Records the final state if the last record() call was skipped by `every`.
function Trace:finish()
    if self.calls > 0 and self.last_kept ~= self.calls then
        self:_keep()
    end
    return self
end

--- Number of states kept.
function Trace:count()
    return self.records
end

--- The path of one agent: { id =, first = record index, points = flat xy }, or nil.
function Trace:path(id)
    return self.by_id[id]
end

--- Every path, in order of first appearance.
function Trace:paths()
    local out = {}
    for i, id in ipairs(self.order) do
        out[i] = self.by_id[id]
    end
    return out
end

--- { minx, miny, maxx, maxy } over every recorded point, or nil when empty.
function Trace:bounds()
    local minx, miny, maxx, maxy = math.huge, math.huge, -math.huge, -math.huge
    for _, id in ipairs(self.order) do
        local pts = self.by_id[id].points
        for i = 1, #pts, 2 do
            local x, y = pts[i], pts[i + 1]
            if x < minx then minx = x end
            if x > maxx then maxx = x end
            if y < miny then miny = y end
            if y > maxy then maxy = y end
        end
    end
    if minx > maxx then return nil end
    return { minx, miny, maxx, maxy }
end

--- Ramer-Douglas-Peucker simplification of a flat xy array: drops points
-- closer than tolerance to the line kept. Endpoints are always kept.
function trace.simplify(flat, tolerance)
    local n = math.floor(#flat / 2)
    if not tolerance or tolerance <= 0 or n <= 2 then
        local copy = {}
        for i = 1, #flat do copy[i] = flat[i] end
        return copy
    end
    local keep = { [1] = true, [n] = true }
    local stack = { 1, n }
    local tol2 = tolerance * tolerance
    while #stack > 0 do
        local b = stack[#stack]; stack[#stack] = nil
        local a = stack[#stack]; stack[#stack] = nil
        local ax, ay = flat[2 * a - 1], flat[2 * a]
        local dx, dy = flat[2 * b - 1] - ax, flat[2 * b] - ay
        local len2 = dx * dx + dy * dy
        local worst, worst_i = -1, nil
        for i = a + 1, b - 1 do
            local px, py = flat[2 * i - 1] - ax, flat[2 * i] - ay
            local d2
            if len2 == 0 then
                d2 = px * px + py * py
            else
                local t = (px * dx + py * dy) / len2
                if t < 0 then t = 0 elseif t > 1 then t = 1 end
                local ex, ey = px - t * dx, py - t * dy
                d2 = ex * ex + ey * ey
            end
            if d2 > worst then worst, worst_i = d2, i end
        end
        if worst_i and worst > tol2 then
            keep[worst_i] = true
            stack[#stack + 1] = a; stack[#stack + 1] = worst_i
            stack[#stack + 1] = worst_i; stack[#stack + 1] = b
        end
    end
    local out = {}
    for i = 1, n do
        if keep[i] then
            out[#out + 1] = flat[2 * i - 1]
            out[#out + 1] = flat[2 * i]
        end
    end
    return out
end

local function style_for(spec, default, index, count, id)
    if type(spec) == "function" then
        return spec(index, count, id)
    end
    return spec or default
end

--- Draws every path into an svg document (see rvo.svg) and returns it.
-- opts.tolerance: simplify paths to this many world units (default 0: no).
-- opts.color(i, n, id): colour of path i of n (default: a hue wheel).
-- opts.path_style, opts.start_style, opts.end_style: style tables, or
--   functions (i, n, id) returning one; false draws nothing of that kind.
-- opts.point_radius: radius of start/end markers (default 1% of extent).
-- opts.width: stroke width of paths (default 0.2% of extent).
function Trace:draw(doc, opts)
    opts = opts or {}
    local b = self:bounds() or { 0, 0, 1, 1 }
    local ext = math.max(b[3] - b[1], b[4] - b[2], 1e-6)
    local pr = opts.point_radius or ext * 0.004
    local sw = opts.width or ext * 0.002
    local color = opts.color or function(i, n) return svg.hue((i - 1) / n) end
    local n = #self.order
    for i, id in ipairs(self.order) do
        local p = self.by_id[id]
        local c = color(i, n, id)
        local pts = trace.simplify(p.points, opts.tolerance)
        if opts.path_style ~= false and #pts >= 4 then
            doc:path(pts, style_for(opts.path_style, { stroke = c, stroke_width = sw, stroke_opacity = 0.8 },
                i, n, id))
        end
        if opts.start_style ~= false then
            doc:circle(pts[1], pts[2], pr, style_for(opts.start_style, { fill = "none", stroke = c,
                stroke_width = sw }, i, n, id))
        end
        if opts.end_style ~= false then
            doc:circle(pts[#pts - 1], pts[#pts], pr, style_for(opts.end_style, { fill = c }, i, n, id))
        end
    end
    return doc
end

--- A new svg document (auto-fitted, white background) with the paths drawn.
-- opts as for draw, plus opts.size (pixel width, default 800) and opts.title.
function Trace:to_svg(opts)
    opts = opts or {}
    local doc = svg.new{ width = opts.size or 800, background = opts.background or "white" }
    self:draw(doc, opts)
    if opts.title then
        local b = self:bounds() or { 0, 0, 1, 1 }
        local ext = math.max(b[3] - b[1], b[4] - b[2], 1e-6)
        doc:text(b[1], b[4] + ext * 0.01, opts.title, { font_size = ext * 0.025 })
    end
    return doc
end

--- Writes to_svg(opts) to a file; returns true, or nil and a message.
function Trace:write_svg(filename, opts)
    return self:to_svg(opts):write(filename)
end

trace.Trace = Trace
return trace
