--- rvo.svg — a small, dependency-free SVG writer for plots of crowds.
--
-- Coordinates are world coordinates with +y up; the writer flips y so a
-- picture looks like the world seen from above. Output is deterministic:
-- the same calls give the same bytes on Lua 5.4 and LuaJIT (attributes are
-- written in sorted order, numbers with a fixed number of decimals).
--
--   local svg = require("rvo.svg")
--   local doc = svg.new{ width = 800 }             -- view box fits the drawing
--   doc:path({ 0, 0, 10, 5, 20, 0 }, { stroke = "red", stroke_width = 0.2 })
--   doc:circle(0, 0, 1.5, { fill = svg.hue(0.3) })
--   doc:text(0, -3, "start", { font_size = 2 })
--   assert(doc:write("out/picture.svg"))
--
-- Points are either flat arrays { x1, y1, x2, y2, ... } or arrays of pairs
-- { {x1, y1}, {x2, y2}, ... }. Style tables map attribute names to values;
-- underscores become hyphens (stroke_width -> stroke-width). The drawing
-- has no world dependency: it is plain data in, text out.

local check = require("rvo.check")
local show = check.show
local svg = {}

local Doc = {}
Doc.__index = Doc

local floor, huge = math.floor, math.huge
local format, concat = string.format, table.concat

local finite = check.finite

local function check_number(v, fname, argn, what)
    if not finite(v) then
        error(format("bad argument #%d to '%s' (%s must be a finite number, got %s)",
            argn, fname, what, show(v)), 3)
    end
end

-- Fixed decimals, trailing zeros dropped, never "-0".
local function fmt_num(v, decimals)
    local s = format("%." .. decimals .. "f", v)
    if s:find("%.") then
        s = s:gsub("0+$", ""):gsub("%.$", "")
    end
    if s == "-0" then
        s = "0"
    end
    return s
end
svg.format_number = function(v, decimals)
    return fmt_num(v, decimals or 3)
end

local function xml_escape(s)
    return (tostring(s):gsub("[&<>\"']", {
        ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;",
    }))
end
svg.escape = xml_escape

--- Normalises points to a flat array { x1, y1, ... }; checks every value.
local function flatten(points, fname, argn)
    if type(points) ~= "table" then
        error(format("bad argument #%d to '%s' (table of points expected, got %s)",
            argn, fname, type(points)), 3)
    end
    local flat = {}
    if type(points[1]) == "table" then
        for i = 1, #points do
            local p = points[i]
            if type(p) ~= "table" then
                error(format("bad argument #%d to '%s' (point %d is not a {x, y} pair)", argn, fname, i), 3)
            end
            local x, y = p[1] or p.x, p[2] or p.y
            check_number(x, fname, argn, "point " .. i .. " x")
            check_number(y, fname, argn, "point " .. i .. " y")
            flat[2 * i - 1], flat[2 * i] = x, y
        end
    else
        local n = #points
        if n % 2 ~= 0 then
            error(format("bad argument #%d to '%s' (flat point array needs an even length, got %d)",
                argn, fname, n), 3)
        end
        for i = 1, n do
            check_number(points[i], fname, argn, "coordinate " .. i)
            flat[i] = points[i]
        end
    end
    return flat
end

local function check_style(style, fname, argn)
    if style ~= nil and type(style) ~= "table" then
        error(format("bad argument #%d to '%s' (style table expected, got %s)", argn, fname, type(style)), 3)
    end
end

--- Creates a document.
-- opts.width, opts.height: size in pixels. If only one is given the other
--   follows the aspect ratio of the view box; default width 800.
-- opts.viewbox (or opts.bounds): { minx, miny, maxx, maxy } in world units
--   (+y up). Without it the view box fits everything drawn, plus margin.
-- opts.margin: world units added around the fitted bounds (default 2% of
--   the larger extent, at least 1e-3).
-- opts.background: fill colour of a full-size rectangle behind everything.
-- opts.decimals: decimals written for coordinates (default 3).
function svg.new(opts)
    if opts ~= nil and type(opts) ~= "table" then
        error(format("bad argument #1 to 'new' (options table expected, got %s)", type(opts)), 2)
    end
    opts = opts or {}
    local self = setmetatable({
        width = opts.width,
        height = opts.height,
        margin = opts.margin,
        background = opts.background,
        decimals = opts.decimals or 3,
        items = {},
        minx = huge, miny = huge, maxx = -huge, maxy = -huge,
    }, Doc)
    for _, k in ipairs({ "width", "height", "margin" }) do
        if opts[k] ~= nil and not (finite(opts[k]) and opts[k] >= 0) then
            error(format("bad argument #1 to 'new' (%s must be a finite number >= 0)", k), 2)
        end
    end
    if not (type(self.decimals) == "number" and self.decimals >= 0 and self.decimals <= 9
            and floor(self.decimals) == self.decimals) then
        error("bad argument #1 to 'new' (decimals must be an integer in 0..9)", 2)
    end
    local vb = opts.viewbox or opts.bounds
    if vb ~= nil then
        if type(vb) ~= "table" then
            error("bad argument #1 to 'new' (viewbox must be a table {minx, miny, maxx, maxy})", 2)
        end
        local a, b, c, d = vb[1] or vb.minx, vb[2] or vb.miny, vb[3] or vb.maxx, vb[4] or vb.maxy
        if not (finite(a) and finite(b) and finite(c) and finite(d) and c > a and d > b) then
            error("bad argument #1 to 'new' (viewbox needs finite minx < maxx and miny < maxy)", 2)
        end
        self.viewbox = { a, b, c, d }
    end
    return self
end

function Doc:_grow(x, y, r)
    r = r or 0
    if x - r < self.minx then self.minx = x - r end
    if x + r > self.maxx then self.maxx = x + r end
    if y - r < self.miny then self.miny = y - r end
    if y + r > self.maxy then self.maxy = y + r end
end

function Doc:_num(v)
    return fmt_num(v, self.decimals)
end

-- "x,y x,y ..." with y flipped.
function Doc:_coords(flat)
    local out = {}
    for i = 1, #flat, 2 do
        self:_grow(flat[i], flat[i + 1])
        out[#out + 1] = self:_num(flat[i]) .. "," .. self:_num(-flat[i + 1])
    end
    return concat(out, " ")
end

local function attrs(style, defaults)
    local merged = {}
    if defaults then
        for k, v in pairs(defaults) do merged[k] = v end
    end
    if style then
        for k, v in pairs(style) do
            if type(k) == "string" then merged[k] = v end
        end
    end
    local keys = {}
    for k, v in pairs(merged) do
        if v ~= false then keys[#keys + 1] = k end
    end
    table.sort(keys)
    local out = {}
    for i = 1, #keys do
        local k, v = keys[i], merged[keys[i]]
        if type(v) == "number" then
            if not finite(v) then
                error(format("style attribute '%s' must be a finite number, got %s", k, show(v)), 3)
            end
            v = fmt_num(v, 6)
        end
        out[#out + 1] = format(' %s="%s"', (k:gsub("_", "-")), xml_escape(v))
    end
    return concat(out)
end

local LINE_DEFAULTS = { fill = "none", stroke = "black" }

--- A path through the points ("M x y L ..."); closed = true appends "Z".
function Doc:path(points, style, closed)
    local flat = flatten(points, "path", 1)
    check_style(style, "path", 2)
    if #flat < 2 then return self end
    local parts = {}
    for i = 1, #flat, 2 do
        self:_grow(flat[i], flat[i + 1])
        parts[#parts + 1] = (i == 1 and "M" or "L") .. self:_num(flat[i]) .. " " .. self:_num(-flat[i + 1])
    end
    if closed then parts[#parts + 1] = "Z" end
    self.items[#self.items + 1] = format('<path d="%s"%s/>', concat(parts, " "),
        attrs(style, LINE_DEFAULTS))
    return self
end

--- An open polyline (fill none, stroke black unless styled).
function Doc:polyline(points, style)
    local flat = flatten(points, "polyline", 1)
    check_style(style, "polyline", 2)
    if #flat < 2 then return self end
    self.items[#self.items + 1] = format('<polyline points="%s"%s/>', self:_coords(flat),
        attrs(style, LINE_DEFAULTS))
    return self
end

--- A closed polygon (filled grey unless styled).
function Doc:polygon(points, style)
    local flat = flatten(points, "polygon", 1)
    check_style(style, "polygon", 2)
    if #flat < 2 then return self end
    self.items[#self.items + 1] = format('<polygon points="%s"%s/>', self:_coords(flat),
        attrs(style, { fill = "#bbb", stroke = "black" }))
    return self
end

function Doc:line(x1, y1, x2, y2, style)
    check_number(x1, "line", 1, "x1"); check_number(y1, "line", 2, "y1")
    check_number(x2, "line", 3, "x2"); check_number(y2, "line", 4, "y2")
    check_style(style, "line", 5)
    self:_grow(x1, y1); self:_grow(x2, y2)
    self.items[#self.items + 1] = format('<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>',
        self:_num(x1), self:_num(-y1), self:_num(x2), self:_num(-y2), attrs(style, { stroke = "black" }))
    return self
end

function Doc:circle(x, y, r, style)
    check_number(x, "circle", 1, "x"); check_number(y, "circle", 2, "y"); check_number(r, "circle", 3, "r")
    if r < 0 then error("bad argument #3 to 'circle' (r must be >= 0)", 2) end
    check_style(style, "circle", 4)
    self:_grow(x, y, r)
    self.items[#self.items + 1] = format('<circle cx="%s" cy="%s" r="%s"%s/>',
        self:_num(x), self:_num(-y), self:_num(r), attrs(style))
    return self
end

--- Text anchored at (x, y). style.font_size is in world units (SVG default
-- 16 user units otherwise, which is large on small drawings).
function Doc:text(x, y, str, style)
    check_number(x, "text", 1, "x"); check_number(y, "text", 2, "y")
    if str == nil then error("bad argument #3 to 'text' (string expected, got nil)", 2) end
    check_style(style, "text", 4)
    self:_grow(x, y)
    self.items[#self.items + 1] = format('<text x="%s" y="%s"%s>%s</text>',
        self:_num(x), self:_num(-y), attrs(style, { font_family = "sans-serif" }), xml_escape(str))
    return self
end

--- Raw markup appended as is (comments, <g> wrappers, definitions).
function Doc:raw(markup)
    self.items[#self.items + 1] = tostring(markup)
    return self
end

--- The view box in world units { minx, miny, maxx, maxy } (+y up).
function Doc:bounds()
    if self.viewbox then
        local v = self.viewbox
        return { v[1], v[2], v[3], v[4] }
    end
    local minx, miny, maxx, maxy = self.minx, self.miny, self.maxx, self.maxy
    if minx > maxx then
        minx, miny, maxx, maxy = 0, 0, 1, 1 -- nothing drawn
    end
    local ext = math.max(maxx - minx, maxy - miny)
    local m = self.margin or math.max(ext * 0.02, 1e-3)
    if maxx - minx < 1e-9 then minx, maxx = minx - 0.5, maxx + 0.5 end
    if maxy - miny < 1e-9 then miny, maxy = miny - 0.5, maxy + 0.5 end
    return { minx - m, miny - m, maxx + m, maxy + m }
end

function Doc:tostring()
    local b = self:bounds()
    local w, h = b[3] - b[1], b[4] - b[2]
    local pw, ph = self.width, self.height
    if not pw and not ph then pw = 800 end
    if not ph then ph = pw * h / w end
    if not pw then pw = ph * w / h end
    local out = {
        '<?xml version="1.0" encoding="UTF-8"?>',
        format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="%s %s %s %s">',
            fmt_num(pw, 2), fmt_num(ph, 2), self:_num(b[1]), self:_num(-b[4]), self:_num(w), self:_num(h)),
    }
    if self.background then
        out[#out + 1] = format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>',
            self:_num(b[1]), self:_num(-b[4]), self:_num(w), self:_num(h), xml_escape(self.background))
    end
    for i = 1, #self.items do
        out[#out + 1] = self.items[i]
    end
    out[#out + 1] = "</svg>"
    out[#out + 1] = ""
    return concat(out, "\n")
end
Doc.__tostring = Doc.tostring

--- Writes the document; returns true, or nil and a message.
function Doc:write(filename)
    if type(filename) ~= "string" then
        error(format("bad argument #1 to 'write' (string expected, got %s)", type(filename)), 2)
    end
    local f, err = io.open(filename, "wb")
    if not f then return nil, err end
    local ok, werr = f:write(self:tostring())
    f:close()
    if not ok then return nil, werr end
    return true
end

--- A colour for t in [0, 1): the hue wheel at fixed saturation and lightness.
function svg.hue(t, saturation, lightness)
    t = t - floor(t)
    return format("hsl(%s,%s%%,%s%%)", fmt_num(t * 360, 1),
        fmt_num(saturation or 70, 1), fmt_num(lightness or 45, 1))
end

svg.Doc = Doc
return svg
