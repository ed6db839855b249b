--- rvo.render — recorded runs as files, and files as pictures.
--
-- rvo.trace keeps paths in memory; this module writes them to a small text
-- file (with the obstacles, agent radii and the time step, which a trace
-- does not know), reads such a file back, and draws it as a still SVG
-- (paths, obstacles, final positions) or an animated SVG (SMIL: agents
-- move, no script needed; browsers play it). scripts/render is the
-- command-line front end. Pure Lua, byte-identical output on Lua 5.4 and
-- LuaJIT.
--
--   local render = require("rvo.render")
--   local tr = require("rvo.trace").new(world)
--   for _ = 1, 400 do world:step(); tr:record() end
--   assert(render.save(tr, "out/run.trace", { dt = world:time_step(), obstacles = { { pts = wall } } }))
--   local run = assert(render.load("out/run.trace"))
--   assert(render.animated_svg(run, { duration = 8 }):write("out/run.svg"))
--
-- File format (text, one item per line, numbers as %.17g so that they read
-- back bit for bit):
--   rvo-trace 1                        (2 when there are tracks)
--   dt <seconds per record>            (0 when unknown)
--   records <count>
--   obstacle <closed 0|1> x1 y1 x2 y2 ...          (there all along, unchanged)
--   track <id> <closed 0|1> <first record> <gone>  (an obstacle that changed: gone
--                                                   is the first record without
--                                                   it, 0 if none; version 2)
--   shape <id> <record> x1 y1 x2 y2 ...            (its points from that record on)
--   velocity <id> <record> vx vy                   (its velocity from that record on)
--   agent <id> <first record> <radius> x1 y1 x2 y2 ...
-- A track's shape and velocity lines follow it, records ascending; its
-- first shape is at its first record.

local check = require("rvo.check")
local show = check.show
local svg = require("rvo.svg")

local render = {}

local format, concat = string.format, table.concat
local floor, huge = math.floor, math.huge

local finite = check.finite

-- %.17g reads back bit for bit, but where the value lies exactly halfway
-- between two 17-digit decimals (its exact expansion has 18 digits, the
-- last a 5) Lua 5.4 (C's printf: to even) and LuaJIT (up) round it apart:
-- those are written with all 18 digits, exactly, on both.
local function num(v)
    local frac = format("%.40e", v):match("%.(%d+)e")
    if frac and frac:sub(17, 17) == "5" and not frac:find("[1-9]", 18) then
        return format("%.18g", v)
    end
    return format("%.17g", v)
end

local function check_points(pts, fname, argn, what)
    if type(pts) ~= "table" or #pts < 4 or #pts % 2 ~= 0 then
        error(format("bad argument #%d to '%s' (%s needs an even number (>= 4) of coordinates)",
            argn, fname, what), 3)
    end
    for i = 1, #pts do
        if not finite(pts[i]) then
            error(format("bad argument #%d to '%s' (%s: coordinate %d is not a finite number)", argn, fname, what,
                i), 3)
        end
    end
end

--- Writes trace `tr` (an rvo.trace) to `filename`. opts (optional):
--   dt         seconds between kept records (default 0: unknown);
--   obstacles  list of { pts = {x1, y1, ...}, closed = true|false } (closed by
--              default), drawn as they are instead of the obstacles the trace
--              recorded (default: the recorded ones: those that stayed as they
--              were from the first record on as `obstacle` lines, the others
--              as tracks);
--   radius     a number, or function(id) returning one (default 0.5).
-- Returns true, or nil and a message.
function render.save(tr, filename, opts)
    if type(tr) ~= "table" or type(tr.paths) ~= "function" then
        error(format("bad argument #1 to 'save' (trace expected, got %s)", type(tr)), 2)
    end
    if type(filename) ~= "string" then
        error(format("bad argument #2 to 'save' (string expected, got %s)", type(filename)), 2)
    end
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #3 to 'save' (options table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local dt = opts.dt or 0
    if not (finite(dt) and dt >= 0) then
        error("bad argument #3 to 'save' (dt must be a finite number >= 0)", 2)
    end
    local radius = opts.radius or 0.5
    if type(radius) ~= "function" and not (finite(radius) and radius > 0) then
        error("bad argument #3 to 'save' (radius must be a number > 0 or a function)", 2)
    end
    local out = { "rvo-trace 1", "dt " .. num(dt), "records " .. tr:count() }
    local function obstacle_line(closed, pts)
        local row = { "obstacle", closed == false and "0" or "1" }
        for k = 1, #pts do row[#row + 1] = num(pts[k]) end
        out[#out + 1] = concat(row, " ")
    end
    if opts.obstacles ~= nil then
        if type(opts.obstacles) ~= "table" then
            error("bad argument #3 to 'save' (obstacles must be a list)", 2)
        end
        for i, o in ipairs(opts.obstacles) do
            check_points(o.pts, "save", 3, "obstacle " .. i)
            obstacle_line(o.closed, o.pts)
        end
    elseif type(tr.obstacles) == "function" then
        for _, t in ipairs(tr:obstacles()) do
            if t.first == 1 and not t.gone and #t.shapes == 1 and #t.velocities == 0 then
                obstacle_line(t.closed, t.shapes[1].pts)
            else
                out[1] = "rvo-trace 2"
                out[#out + 1] = format("track %.0f %d %d %d", t.id, t.closed and 1 or 0, t.first, t.gone or 0)
                for _, s in ipairs(t.shapes) do
                    local row = { "shape", format("%.0f", t.id), tostring(s.record) }
                    for k = 1, #s.pts do row[#row + 1] = num(s.pts[k]) end
                    out[#out + 1] = concat(row, " ")
                end
                for _, v in ipairs(t.velocities) do
                    out[#out + 1] = format("velocity %.0f %d %s %s", t.id, v.record, num(v.vx), num(v.vy))
                end
            end
        end
    end
    for _, p in ipairs(tr:paths()) do
        local r = type(radius) == "function" and radius(p.id) or radius
        if not (finite(r) and r > 0) then
            error(format("bad argument #3 to 'save' (radius of agent %s must be a number > 0)", show(p.id)), 2)
        end
        local row = { "agent", format("%.0f", p.id), tostring(p.first), num(r) }
        for k = 1, #p.points do row[#row + 1] = num(p.points[k]) end
        out[#out + 1] = concat(row, " ")
    end
    out[#out + 1] = ""
    local f, err = io.open(filename, "wb")
    if not f then return nil, err end
    local ok, werr = f:write(concat(out, "\n"))
    f:close()
    if not ok then return nil, werr end
    return true
end

local function numbers(line, from, lineno)
    local t = {}
    for word in line:gmatch("%S+") do t[#t + 1] = word end
    local vals = {}
    for i = from, #t do
        local v = tonumber(t[i])
        if not finite(v) then return nil, format("line %d: '%s' is not a finite number", lineno, t[i]) end
        vals[#vals + 1] = v
    end
    return vals
end

--- Parses the text of a trace file. Returns { dt =, records =, obstacles =
-- { {closed =, pts =} }, tracks = { {id =, closed =, first =, gone = (nil
-- when it lasts), shapes = { {record =, pts =} }, velocities = { {record =,
-- vx =, vy =} }} }, agents = { {id =, first =, radius =, points =} } }, or
-- nil and a message naming the line.
function render.parse(text)
    if type(text) ~= "string" then
        error(format("bad argument #1 to 'parse' (string expected, got %s)", type(text)), 2)
    end
    local run = { dt = 0, records = nil, obstacles = {}, tracks = {}, agents = {} }
    local lineno = 0
    local track_of, version = {}, nil
    for line in (text:gsub("\r", "") .. "\n"):gmatch("(.-)\n") do
        lineno = lineno + 1
        local kind = line:match("^(%S+)")
        if lineno == 1 then
            version = line:match("^rvo%-trace (%d+)$")
            if not version then return nil, "not an rvo trace (first line must be 'rvo-trace 1')" end
            if version ~= "1" and version ~= "2" then
                return nil, "trace version " .. version .. " is not supported (1 and 2 are)"
            end
        elseif kind == "dt" or kind == "records" then
            local v, err = numbers(line, 2, lineno)
            if not v then return nil, err end
            if #v ~= 1 or v[1] < 0 then return nil, format("line %d: %s needs one number >= 0", lineno, kind) end
            if kind == "records" and floor(v[1]) ~= v[1] then
                return nil, format("line %d: records must be an integer", lineno)
            end
            run[kind] = v[1]
        elseif kind == "obstacle" then
            local v, err = numbers(line, 2, lineno)
            if not v then return nil, err end
            local closed = table.remove(v, 1)
            if (closed ~= 0 and closed ~= 1) or #v < 4 or #v % 2 ~= 0 then
                return nil, format("line %d: obstacle needs 0|1 and at least 2 points", lineno)
            end
            run.obstacles[#run.obstacles + 1] = { closed = closed == 1, pts = v }
        elseif (kind == "track" or kind == "shape" or kind == "velocity") and version == "1" then
            return nil, format("line %d: %s needs trace version 2", lineno, kind)
        elseif kind == "track" then
            local v, err = numbers(line, 2, lineno)
            if not v then return nil, err end
            local id, closed, first, gone = v[1], v[2], v[3], v[4]
            if #v ~= 4 or (closed ~= 0 and closed ~= 1) or first < 1 or floor(first) ~= first or gone < 0
                or floor(gone) ~= gone or (gone ~= 0 and gone <= first) or track_of[id] then
                return nil, format("line %d: track needs a new id, 0|1, first record >= 1 and 0 or a later"
                    .. " record", lineno)
            end
            local t = { id = id, closed = closed == 1, first = first, gone = gone ~= 0 and gone or nil,
                shapes = {}, velocities = {} }
            track_of[id] = t
            run.tracks[#run.tracks + 1] = t
        elseif kind == "shape" or kind == "velocity" then
            local v, err = numbers(line, 2, lineno)
            if not v then return nil, err end
            local t, rec = track_of[v[1]], v[2]
            local list = t and (kind == "shape" and t.shapes or t.velocities)
            local prev = list and list[#list]
            if not t or not rec or floor(rec) ~= rec or rec < t.first or (t.gone and rec >= t.gone)
                or (prev and rec <= prev.record) or (kind == "shape" and #list == 0 and rec ~= t.first) then
                return nil, format("line %d: %s needs the id of a track above and a record within it, after"
                    .. " the last", lineno, kind)
            end
            if kind == "shape" then
                if #v < 6 or #v % 2 ~= 0 then
                    return nil, format("line %d: shape needs at least 2 points", lineno)
                end
                local pts = {}
                for k = 3, #v do pts[#pts + 1] = v[k] end
                list[#list + 1] = { record = rec, pts = pts }
            else
                if #v ~= 4 then return nil, format("line %d: velocity needs vx and vy", lineno) end
                list[#list + 1] = { record = rec, vx = v[3], vy = v[4] }
            end
        elseif kind == "agent" then
            local v, err = numbers(line, 2, lineno)
            if not v then return nil, err end
            local id, first, r = v[1], v[2], v[3]
            if not (id and first and r) or #v < 5 or #v % 2 ~= 1 or first < 1 or floor(first) ~= first
                or r <= 0 then
                return nil, format("line %d: agent needs id, first record, radius > 0 and at least one point",
                    lineno)
            end
            local pts = {}
            for k = 4, #v do pts[#pts + 1] = v[k] end
            run.agents[#run.agents + 1] = { id = id, first = first, radius = r, points = pts }
        elseif line:match("%S") then
            return nil, format("line %d: unknown item '%s'", lineno, kind)
        end
    end
    local last = 0
    for _, a in ipairs(run.agents) do
        last = math.max(last, a.first - 1 + #a.points / 2)
    end
    for _, t in ipairs(run.tracks) do
        if #t.shapes == 0 then return nil, format("track %.0f has no shape", t.id) end
        last = math.max(last, t.shapes[#t.shapes].record, t.gone and t.gone - 1 or 0)
    end
    run.records = run.records or last
    if last > run.records then
        return nil, format("an agent has %d records, more than the %d the trace declares", last, run.records)
    end
    return run
end

--- Reads a trace file: the run (see parse), or nil and a message.
function render.load(filename)
    if type(filename) ~= "string" then
        error(format("bad argument #1 to 'load' (string expected, got %s)", type(filename)), 2)
    end
    local f, err = io.open(filename, "rb")
    if not f then return nil, err end
    local text = f:read("*a")
    f:close()
    local run, perr = render.parse(text)
    if not run then return nil, filename .. ": " .. perr end
    return run
end

local function bounds(run)
    local minx, miny, maxx, maxy = huge, huge, -huge, -huge
    local function grow(x, y, r)
        if x - r < minx then minx = x - r end
        if x + r > maxx then maxx = x + r end
        if y - r < miny then miny = y - r end
        if y + r > maxy then maxy = y + r end
    end
    for _, o in ipairs(run.obstacles) do
        for i = 1, #o.pts, 2 do grow(o.pts[i], o.pts[i + 1], 0) end
    end
    for _, t in ipairs(run.tracks or {}) do
        for _, s in ipairs(t.shapes) do
            for i = 1, #s.pts, 2 do grow(s.pts[i], s.pts[i + 1], 0) end
        end
    end
    for _, a in ipairs(run.agents) do
        for i = 1, #a.points, 2 do grow(a.points[i], a.points[i + 1], a.radius) end
    end
    if minx > maxx then return { -1, -1, 1, 1 } end
    local m = math.max(maxx - minx, maxy - miny, 1e-3) * 0.03
    return { minx - m, miny - m, maxx + m, maxy + m }
end

local XML = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }

local function colour(i, n)
    return svg.hue((i - 1) / math.max(n, 1))
end

local function check_run(run, fname)
    if type(run) ~= "table" or type(run.agents) ~= "table" or type(run.obstacles) ~= "table" then
        error(format("bad argument #1 to '%s' (run expected: see render.load)", fname), 3)
    end
end

local OBST_FILL = { fill = "#9aa0a8", stroke = "#555", stroke_width = 0.05 }
local OBST_LINE = { stroke = "#555", stroke_width = 0.25, stroke_linecap = "round" }

local function draw_obstacles(doc, run)
    for _, o in ipairs(run.obstacles) do
        if o.closed then
            doc:polygon(o.pts, OBST_FILL)
        else
            doc:polyline(o.pts, OBST_LINE)
        end
    end
end

-- The shape of track t at record r (the last one from r or before), or nil
-- when t is not there at r.
local function shape_at(t, r)
    if r < t.first or (t.gone and r >= t.gone) then return nil end
    local found = t.shapes[1]
    for _, s in ipairs(t.shapes) do
        if s.record > r then break end
        found = s
    end
    return found.pts
end

local function velocity_at(t, r)
    local vx, vy = 0, 0
    for _, v in ipairs(t.velocities) do
        if v.record > r then break end
        vx, vy = v.vx, v.vy
    end
    return vx, vy
end

-- Tracks in a still: up to 5 of its earlier shapes (evenly picked, the
-- first among them; those unlike the last and each other) as dashed
-- outlines, the last as an obstacle (none when removed), and an arrow of
-- the velocity over 1 s at its centre while it moves at the end.
local function exact_key(pts) -- (%a: the same text on both runtimes)
    local t = {}
    for i = 1, #pts do t[i] = format("%a", pts[i]) end
    return concat(t, " ")
end

local function draw_tracks_still(doc, run)
    local style = { fill = "none", stroke = "#555", stroke_width = 0.05, stroke_dasharray = "0.2 0.15" }
    for _, t in ipairs(run.tracks or {}) do
        local last = shape_at(t, run.records)
        local drawn = { [last and exact_key(last) or ""] = true }
        local n = #t.shapes - (last and 1 or 0)
        for k = 0, math.min(n, 5) - 1 do
            local pts = t.shapes[1 + floor(k * n / math.min(n, 5))].pts
            local key = exact_key(pts)
            if not drawn[key] then
                drawn[key] = true
                if t.closed then doc:polygon(pts, style) else doc:polyline(pts, style) end
            end
        end
        if last then
            if t.closed then doc:polygon(last, OBST_FILL) else doc:polyline(last, OBST_LINE) end
            local vx, vy = velocity_at(t, run.records)
            if vx ~= 0 or vy ~= 0 then
                local cx, cy, m = 0, 0, #last / 2
                for i = 1, #last, 2 do cx, cy = cx + last[i] / m, cy + last[i + 1] / m end
                doc:line(cx, cy, cx + vx, cy + vy, { stroke = "#c03030", stroke_width = 0.08 })
                doc:circle(cx + vx, cy + vy, 0.1, { fill = "#c03030" })
            end
        end
    end
end

-- The options colour, legend and scale (render.svg), checked.
local function check_key_opts(opts, fname)
    if opts.colour ~= nil and type(opts.colour) ~= "function" then
        error(format("bad argument #2 to '%s' (colour must be a function (agent, i) -> colour)", fname), 3)
    end
    if opts.legend ~= nil then
        local ok = type(opts.legend) == "table"
        for _, e in ipairs(ok and opts.legend or {}) do
            ok = ok and type(e) == "table" and type(e[1]) == "string" and type(e[2]) == "string"
        end
        if not ok then
            error(format("bad argument #2 to '%s' (legend must be a list of { label, colour })", fname), 3)
        end
    end
    if opts.scale ~= nil and not (finite(opts.scale) and opts.scale > 0) then
        error(format("bad argument #2 to '%s' (scale must be a finite number > 0)", fname), 3)
    end
end

-- The legend and the scale bar, in a strip under the run.
local function draw_key(doc, opts, strip)
    local b = doc:bounds()
    local w = b[3] - b[1]
    local y, fs = b[2] + strip * 0.45, strip * 0.38
    local x = b[1] + w * 0.02
    for _, e in ipairs(opts.legend or {}) do
        doc:circle(x + fs * 0.4, y + fs * 0.35, fs * 0.4, { fill = e[2] })
        doc:text(x + fs * 1.1, y, e[1], { font_size = fs })
        x = x + fs * (1.6 + 0.6 * #e[1])
    end
    if opts.scale then
        local x2 = b[3] - w * 0.02
        local x1 = x2 - opts.scale
        doc:line(x1, y + fs * 0.35, x2, y + fs * 0.35, { stroke = "#333", stroke_width = fs * 0.12 })
        for _, xe in ipairs { x1, x2 } do
            doc:line(xe, y + fs * 0.05, xe, y + fs * 0.65, { stroke = "#333", stroke_width = fs * 0.12 })
        end
        doc:text(x1 - fs * (0.6 * #(svg.format_number(opts.scale, 3) .. " m") + 0.4), y,
            svg.format_number(opts.scale, 3) .. " m", { font_size = fs })
    end
end

-- A document fitted to the run, with its obstacles and every path (and a
-- strip under them for the legend and the scale, when asked for).
local function base(run, opts, path_width, path_opacity, fname)
    check_key_opts(opts, fname)
    local box = bounds(run)
    local strip = 0
    if opts.legend or opts.scale then
        strip = (box[3] - box[1]) * 0.06
        box[2] = box[2] - strip
    end
    local doc = svg.new { width = opts.size or 800, viewbox = box, background = "white" }
    draw_obstacles(doc, run)
    if opts.still_tracks then draw_tracks_still(doc, run) end
    local simplify = require("rvo.trace").simplify
    local n = #run.agents
    for i, a in ipairs(run.agents) do
        local pts = simplify(a.points, opts.tolerance or 0.02)
        if #pts >= 4 then
            doc:path(pts, { stroke = opts.colour and opts.colour(a, i) or colour(i, n),
                stroke_width = a.radius * path_width, stroke_opacity = path_opacity })
        end
    end
    if strip > 0 then draw_key(doc, opts, strip) end
    return doc
end

local function title(doc, opts)
    if opts.title then
        local b = doc:bounds()
        doc:text(b[1] + (b[3] - b[1]) * 0.01, b[4] - (b[4] - b[2]) * 0.04, opts.title,
            { font_size = (b[3] - b[1]) * 0.025 })
    end
end

--- A still picture: obstacles (one that changed or went: up to 5 earlier
-- outlines dashed, its last filled, its last velocity as an arrow over 1
-- s), every path,
-- each agent's final disc.
-- opts: size (pixel width, default 800), title, tolerance (path
-- simplification in world units, default 0.02), colour (function (agent,
-- i) -> SVG colour, agent = run.agents[i] with its id; default one hue per
-- agent), legend (list of { label, colour }) and scale (the length of a
-- scale bar, in metres): both drawn in a strip under the run.
function render.svg(run, opts)
    check_run(run, "svg")
    opts = opts or {}
    local doc = base(run, setmetatable({ still_tracks = true }, { __index = opts }), 0.25, 0.7, "svg")
    local n = #run.agents
    for i, a in ipairs(run.agents) do
        doc:circle(a.points[#a.points - 1], a.points[#a.points], a.radius,
            { fill = opts.colour and opts.colour(a, i) or colour(i, n), fill_opacity = 0.85 })
    end
    title(doc, opts)
    return doc
end

--- An animated picture (SMIL): agents and obstacle tracks move (a track's
-- outline changes from frame to frame, and shows only while it exists)
-- over faint paths, looping.
-- opts: size (default 800), duration (seconds of one loop; default the
-- recorded time, records * dt, clamped to 2..30, or 10 when dt is 0),
-- frames (largest number of records used, evenly picked; default 300),
-- title, and colour, legend, scale as render.svg.
function render.animated_svg(run, opts)
    check_run(run, "animated_svg")
    opts = opts or {}
    local records = run.records
    local duration = opts.duration
    if duration == nil then
        duration = run.dt > 0 and math.min(math.max(records * run.dt, 2), 30) or 10
    end
    if not (finite(duration) and duration > 0) then
        error("bad argument #2 to 'animated_svg' (duration must be a finite number > 0)", 2)
    end
    local frames = opts.frames or 300
    if not (finite(frames) and frames >= 2 and floor(frames) == frames) then
        error("bad argument #2 to 'animated_svg' (frames must be an integer >= 2)", 2)
    end
    -- The records shown: evenly spread, first and last included.
    local pick = {}
    local shown = math.min(frames, records)
    for k = 0, shown - 1 do
        pick[#pick + 1] = shown == 1 and 1 or 1 + floor(k * (records - 1) / (shown - 1) + 0.5)
    end
    local doc = base(run, opts, 0.15, 0.25, "animated_svg")
    local n = #run.agents
    local fmt = function(v) return svg.format_number(v, 3) end
    local dur = fmt(duration) .. "s"
    local times = {}
    for k = 1, #pick do times[k] = fmt(#pick == 1 and 0 or (k - 1) / (#pick - 1)) end
    local kt = concat(times, ";")
    for _, t in ipairs(run.tracks or {}) do
        -- its outline at each frame (the previous one while it is away)
        local shapes, vis, prev, moves = {}, {}, nil, false
        for k, r in ipairs(pick) do
            local pts = shape_at(t, r)
            vis[k] = pts and "1" or "0"
            pts = pts or prev or t.shapes[1].pts
            local xy = {}
            for i = 1, #pts, 2 do xy[#xy + 1] = fmt(pts[i]) .. "," .. fmt(-pts[i + 1]) end
            shapes[k] = concat(xy, " ")
            moves = moves or (k > 1 and shapes[k] ~= shapes[k - 1])
            prev = pts
        end
        local anim = ""
        if moves then
            anim = format('<animate attributeName="points" dur="%s" repeatCount="indefinite" calcMode="discrete"'
                .. ' values="%s" keyTimes="%s"/>', dur, concat(shapes, ";"), kt)
        end
        local vs = concat(vis, ";")
        if vs:find("0", 1, true) then
            anim = anim .. format('<animate attributeName="opacity" dur="%s" repeatCount="indefinite" '
                .. 'calcMode="discrete" values="%s" keyTimes="%s"/>', dur, vs, kt)
        end
        if t.closed then
            doc:raw(format('<polygon points="%s" fill="%s" stroke="%s" stroke-width="%s">%s</polygon>', shapes[1],
                OBST_FILL.fill, OBST_FILL.stroke, fmt(OBST_FILL.stroke_width), anim))
        else
            doc:raw(format('<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" '
                .. 'stroke-linecap="round">%s</polyline>', shapes[1], OBST_LINE.stroke,
                fmt(OBST_LINE.stroke_width), anim))
        end
    end
    for i, a in ipairs(run.agents) do
        local last = a.first - 1 + #a.points / 2
        local xs, ys, vis = {}, {}, {}
        for k, r in ipairs(pick) do
            local j = r < a.first and a.first or (r > last and last or r)
            xs[k] = fmt(a.points[2 * (j - a.first) + 1])
            ys[k] = fmt(-a.points[2 * (j - a.first) + 2])
            vis[k] = (r >= a.first and r <= last) and "1" or "0"
        end
        local anim = format('<animate attributeName="cx" dur="%s" repeatCount="indefinite" values="%s" keyTimes="%s"/>'
            .. '<animate attributeName="cy" dur="%s" repeatCount="indefinite" values="%s" keyTimes="%s"/>',
            dur, concat(xs, ";"), kt, dur, concat(ys, ";"), kt)
        local vs = concat(vis, ";")
        if vs:find("0", 1, true) then
            anim = anim .. format('<animate attributeName="opacity" dur="%s" repeatCount="indefinite" '
                .. 'calcMode="discrete" values="%s" keyTimes="%s"/>', dur, vs, kt)
        end
        doc:raw(format('<circle cx="%s" cy="%s" r="%s" fill="%s">%s</circle>', xs[1], ys[1], fmt(a.radius),
            opts.colour and tostring(opts.colour(a, i)):gsub('[&<>"]', XML) or colour(i, n), anim))
    end
    title(doc, opts)
    return doc
end

return render
