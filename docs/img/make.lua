-- docs/img/make.lua — remakes the README pictures of a four-way crossing:
-- a trace file (out/crossing.trace), a still SVG and an animated SVG.
--   meson devenv -C build --workdir "$PWD" lua5.4 docs/img/make.lua
--   (then: scripts/render [--animate] out/crossing.trace docs/img/...)
local rvo = require("rvo")
local trace = require("rvo.trace")
local render = require("rvo.render")
local jitter = require("rvo.jitter")

local world = rvo.new_world { time_step = 0.25, radius = 0.5, max_speed = 1.6, neighbor_dist = 8,
    max_neighbors = 10, time_horizon = 4, time_horizon_obst = 2 }
local pillar = {}
for k = 0, 7 do
    local a = k * math.pi / 4 + math.pi / 8
    pillar[#pillar + 1] = 2 * math.cos(a)
    pillar[#pillar + 1] = 2 * math.sin(a)
end
world:add_obstacle(pillar)

-- Four squads of 9 walk to the opposite side through the middle.
local goals, squad = {}, {}
for side = 0, 3 do
    local ax, ay = math.cos(side * math.pi / 2), math.sin(side * math.pi / 2)
    for row = 0, 2 do
        for col = -1, 1 do
            local d, s = 14 + 1.3 * row, 1.3 * col
            local x, y = ax * d - ay * s, ay * d + ax * s
            local id = world:add_agent(x, y)
            goals[id] = { -ax * d - ay * s, -ay * d + ax * s }
            squad[id] = side + 1
        end
    end
end

local steer = jitter.new { seed = 3 }
local tr = trace.new(world)
local ids = world:ids()
for _ = 1, 300 do
    for _, id in ipairs(ids) do
        steer:steer(world, id, goals[id][1], goals[id][2])
    end
    world:step()
    tr:record()
end
os.execute("mkdir -p out")
assert(render.save(tr, "out/crossing.trace", { dt = world:time_step(), obstacles = { { pts = pillar } },
    radius = function(id) return world:radius(id) end }))
local run = assert(render.load("out/crossing.trace"))
-- one colour per squad (the LÖVE demo's), named by where it starts; a 5 m bar
local COLOURS = { "#e0564a", "#4a8fe0", "#4fb35a", "#9a62d9" }
local key = { colour = function(a) return COLOURS[squad[a.id]] end, scale = 5, legend = {
    { "from east", COLOURS[1] }, { "from north", COLOURS[2] }, { "from west", COLOURS[3] },
    { "from south", COLOURS[4] } } }
assert(render.svg(run, { size = 480, colour = key.colour, legend = key.legend, scale = key.scale })
    :write("docs/img/crossing.svg"))
assert(render.animated_svg(run, { size = 480, frames = 75, colour = key.colour, legend = key.legend,
    scale = key.scale }):write("docs/img/crossing-animated.svg"))
print("wrote out/crossing.trace, docs/img/crossing.svg, docs/img/crossing-animated.svg")
