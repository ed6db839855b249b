-- rvo.obj — a Wavefront OBJ reader for level geometry (what level editors
-- export), pure Lua, the same on Lua 5.4 and LuaJIT.
--
--   local level = require("rvo.obj").load("examples/level/level.obj")
--   level.verts   -- {x1, y1, z1, x2, ...} as in the file (y up)
--   level.tris    -- {a1, b1, c1, ...} 1-based; polygons become fans
--   level.groups  -- group ("g"/"o") name of each triangle, "" when none
--
-- Reads v and f lines (f with v, v/vt, v/vt/vn, v//vn and negative
-- relative indices); texture coordinates, normals, materials, smoothing
-- groups and lines are ignored. Errors name the file and line.

local format, tonumber, floor = string.format, tonumber, math.floor

local obj = {}

-- A decimal number (tonumber alone differs between runtimes on "nan",
-- "inf" and hex).
local function number(s)
    if s and s:match("^[+-]?%d*%.?%d*[eE]?[+-]?%d*$") and s:match("%d") then
        return tonumber(s)
    end
end

local function fail(name, line, why, level)
    error(format("load_obj: %s:%d: %s", name, line, why), level + 1)
end

-- Parses OBJ text; name is used in messages. level: error level of the
-- public caller.
local function parse(text, name, level)
    local verts, tris, groups = {}, {}, {}
    local nv, group = 0, ""
    local lineno = 0
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        lineno = lineno + 1
        line = line:gsub("#.*$", ""):gsub("\r$", "")
        local kw, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
        if kw == "v" then
            local x, y, z = rest:match("^(%S+)%s+(%S+)%s+(%S+)")
            x, y, z = number(x), number(y), number(z)
            if not (x and y and z) then
                fail(name, lineno, "a vertex needs three numbers", level + 1)
            end
            if x ~= x or y ~= y or z ~= z or x == math.huge or x == -math.huge or y == math.huge or
                y == -math.huge or z == math.huge or z == -math.huge then
                fail(name, lineno, "vertex coordinates must be finite", level + 1)
            end
            verts[3 * nv + 1], verts[3 * nv + 2], verts[3 * nv + 3] = x, y, z
            nv = nv + 1
        elseif kw == "f" then
            local idx = {}
            for tok in rest:gmatch("%S+") do
                local ref = tok:match("^([^/]*)")
                local i = ref:match("^[+-]?%d+$") and tonumber(ref)
                if not i or floor(i) ~= i or i == 0 then
                    fail(name, lineno, format("bad vertex reference '%s'", tok), level + 1)
                end
                if i < 0 then i = nv + 1 + i end
                if i < 1 or i > nv then
                    fail(name, lineno, format("vertex %s is not defined (%d so far)", tok, nv), level + 1)
                end
                idx[#idx + 1] = i
            end
            if #idx < 3 then
                fail(name, lineno, "a face needs three vertices", level + 1)
            end
            for k = 2, #idx - 1 do
                local n = #tris
                tris[n + 1], tris[n + 2], tris[n + 3] = idx[1], idx[k], idx[k + 1]
                groups[#groups + 1] = group
            end
        elseif kw == "g" or kw == "o" then
            group = rest
        end
    end
    return { verts = verts, tris = tris, groups = groups }
end

--- Parses OBJ text (name: for messages, default "obj").
function obj.parse(text, name)
    if type(text) ~= "string" then
        error(format("bad argument #1 to 'parse' (string expected, got %s)", type(text)), 2)
    end
    local r = parse(text, name or "obj", 2)
    return r
end

--- Reads an OBJ file. level: internal (rvo.nav.load_obj passes its own).
function obj.load(path, level)
    level = (level or 1) + 1
    if type(path) ~= "string" then
        error(format("bad argument #1 to 'load_obj' (string expected, got %s)", type(path)), level)
    end
    local f, why = io.open(path, "rb")
    if not f then
        error(format("bad argument #1 to 'load_obj' (%s)", why), level)
    end
    local text = f:read("*a")
    f:close()
    local r = parse(text, path, level)
    return r
end

return obj
