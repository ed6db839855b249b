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
--   rvo-trace 1
--   dt <seconds per record>            (0 when unknown)
--   records <count>
--   obstacle <closed 0|1> x1 y1 x2 y2 ...
--   agent <id> <first record> <radius> x1 y1 x2 y2 ...

local check = require("rvo.check")
local show = check.show
local svg = require("rvo.svg")

local render = {}

local format, concat = string.format, table.concat
local floor, huge = math.floor, math.huge

local finite = check.finite

local function num(v)
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
--   obstacles  list of { pts = {x1, y1, ...}, closed = true|false } (closed by default);
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
    for i, o in ipairs(opts.obstacles or {}) do
        check_points(o.pts, "save", 3, "obstacle " .. i)
        local row = { "obstacle", o.closed == false and "0" or "1" }
        for k = 1, #o.pts do row[#row + 1] = num(o.pts[k]) end
        out[#out + 1] = concat(row, " ")
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
-- { {closed =, pts =} }, agents = { {id =, first =, radius =, points =} } },
-- or nil and a message naming the line.
function render.parse(text)
    if type(text) ~= "string" then
        error(format("bad argument #1 to 'parse' (string expected, got %s)", type(text)), 2)
    end
    local run = { dt = 0, records = nil, obstacles = {}, agents = {} }
    local lineno = 0
    for line in (text:gsub("\r", "") .. "\n"):gmatch("(.-)\n") do
        lineno = lineno + 1
        local kind = line:match("^(%S+)")
        if lineno == 1 then
            local version = line:match("^rvo%-trace (%d+)$")
            if not version then return nil, "not an rvo trace (first line must be 'rvo-trace 1')" end
            if version ~= "1" then return nil, "trace version " .. version .. " is not supported (1 is)" end
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

local function draw_obstacles(doc, run)
    for _, o in ipairs(run.obstacles) do
        if o.closed then
            doc:polygon(o.pts, { fill = "#9aa0a8", stroke = "#555", stroke_width = 0.05 })
        else
            doc:polyline(o.pts, { stroke = "#555", stroke_width = 0.25, stroke_linecap = "round" })
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

--- A still picture: obstacles, every path, each agent's final disc.
-- opts: size (pixel width, default 800), title, tolerance (path
-- simplification in world units, default 0.02), colour (function (agent,
-- i) -> SVG colour, agent = run.agents[i] with its id; default one hue per
-- agent), legend (list of { label, colour }) and scale (the length of a
-- scale bar, in metres): both drawn in a strip under the run.
function render.svg(run, opts)
    check_run(run, "svg")
    opts = opts or {}
    local doc = base(run, opts, 0.25, 0.7, "svg")
    local n = #run.agents
    for i, a in ipairs(run.agents) do
        doc:circle(a.points[#a.points - 1], a.points[#a.points], a.radius,
            { fill = opts.colour and opts.colour(a, i) or colour(i, n), fill_opacity = 0.85 })
    end
    title(doc, opts)
    return doc
end

--- An animated picture (SMIL): agents move over faint paths, looping.
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
    for i, a in ipairs(run.agents) do
        local last = a.first - 1 + #a.points / 2
        local xs, ys, vis, times = {}, {}, {}, {}
        for k, r in ipairs(pick) do
            local j = r < a.first and a.first or (r > last and last or r)
            xs[k] = fmt(a.points[2 * (j - a.first) + 1])
            ys[k] = fmt(-a.points[2 * (j - a.first) + 2])
            vis[k] = (r >= a.first and r <= last) and "1" or "0"
            times[k] = fmt(#pick == 1 and 0 or (k - 1) / (#pick - 1))
        end
        local kt = concat(times, ";")
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
