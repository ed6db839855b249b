-- Writes level.obj beside this script: the level of examples/level.lua.
--   lua5.4 examples/level/make_level.lua   (or luajit)
--
-- A y-up Wavefront OBJ as a level editor exports one (metres): a floor
-- 48 x 30 m (OBJ x, z; world x, y) split by 3 m high walls 0.4 m thick
-- into two west rooms (A north, B south, joined by a door), a pillar hall
-- in the middle (4 x 5 square pillars of 1 m) and an east room C. Two
-- doors lead from the west rooms into the hall, two from the hall into C.
-- Every door is 3 m wide. Walls and pillars are closed boxes without a top
-- face (their tops would be walkable ledges to Recast).

local dir = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./")
local H, T = 3, 0.4 -- wall height and thickness

local out = {}
local nv = 0
local function v(x, y, z)
    out[#out + 1] = string.format("v %g %g %g", x, y, z)
    nv = nv + 1
    return nv
end
local function f(...)
    out[#out + 1] = "f " .. table.concat({ ... }, " ")
end

-- A box over [x0, x1] x [z0, z1] (OBJ x, z) from the floor to H: four sides.
local function box(x0, z0, x1, z1)
    local xs, zs = { x0, x1, x1, x0 }, { z0, z0, z1, z1 }
    local bottom, top = {}, {}
    for i = 1, 4 do bottom[i] = v(xs[i], 0, zs[i]) end
    for i = 1, 4 do top[i] = v(xs[i], H, zs[i]) end
    for i = 1, 4 do
        local j = i % 4 + 1
        f(bottom[i], bottom[j], top[j], top[i])
    end
end

-- A wall along x (at z = z, from x0 to x1) or along z, minus its doors
-- ({from, to} pairs along the wall).
local function wall_x(z, x0, x1, doors)
    local at = x0
    for _, d in ipairs(doors or {}) do
        box(at, z - T / 2, d[1], z + T / 2)
        at = d[2]
    end
    box(at, z - T / 2, x1, z + T / 2)
end
local function wall_z(x, z0, z1, doors)
    local at = z0
    for _, d in ipairs(doors or {}) do
        box(x - T / 2, at, x + T / 2, d[1])
        at = d[2]
    end
    box(x - T / 2, at, x + T / 2, z1)
end

out[#out + 1] = "# rvo example level (examples/level/make_level.lua): y up; world x = x, world y = z"
out[#out + 1] = "o level"
out[#out + 1] = "g floor"
-- upward floor: seen from +y the corners run (x0,z0) (x0,z1) (x1,z1) (x1,z0)
local a, b, c, d = v(0, 0, 0), v(48, 0, 0), v(48, 0, 30), v(0, 0, 30)
f(a, d, c, b)
out[#out + 1] = "g walls"
wall_x(0, -T / 2, 48 + T / 2)
wall_x(30, -T / 2, 48 + T / 2)
wall_z(0, T / 2, 30 - T / 2)
wall_z(48, T / 2, 30 - T / 2)
wall_x(15, T / 2, 14 - T / 2, { { 5.5, 8.5 } })               -- A | B, door at x 5.5..8.5
wall_z(14, T / 2, 30 - T / 2, { { 5, 8 }, { 22, 25 } })         -- west rooms | hall
wall_z(34, T / 2, 30 - T / 2, { { 8, 11 }, { 19, 22 } })        -- hall | C
out[#out + 1] = "g pillars"
for px = 18, 30, 4 do
    for pz = 5, 25, 5 do
        box(px - 0.5, pz - 0.5, px + 0.5, pz + 0.5)
    end
end

local file = assert(io.open(dir .. "level.obj", "w"))
file:write(table.concat(out, "\n"), "\n")
file:close()
print(string.format("wrote %slevel.obj: %d vertices", dir, nv))
