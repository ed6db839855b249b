-- Where rvo.locks spends a frame: 1000 agents on a 3 m grid crossing to
-- the mirrored point, CPU ms per phase (update, solve, after_solve,
-- integrate, after_integrate), mean of 50 steps after 20.
--   meson devenv -C build --workdir "$PWD" lua5.4 tests/bench/locks_phases.lua   (or luajit)
local rvo = require("rvo")
local clock = os.clock
local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 5 }
local ids, goals = {}, {}
for i = 0, 999 do
    local x, y = (i % 40) * 3 - 60, math.floor(i / 40) * 3 - 37
    ids[#ids + 1] = w:add_agent(x, y)
    goals[#goals + 1] = { -x, -y }
end
local L = require("rvo.locks").new(w)
local t = { update = 0, solve = 0, after_solve = 0, integrate = 0, after_integrate = 0 }
for s = 1, 70 do
    for k, id in ipairs(ids) do
        local x, y = w:position(id)
        w:set_pref_velocity(id, goals[k][1] - x, goals[k][2] - y)
    end
    local t0 = clock()
    L:update(0.1)
    local t1 = clock()
    w:solve()
    local t2 = clock()
    L:after_solve()
    local t3 = clock()
    w:integrate()
    local t4 = clock()
    L:after_integrate(0.1)
    local t5 = clock()
    if s > 20 then
        t.update, t.solve = t.update + t1 - t0, t.solve + t2 - t1
        t.after_solve, t.integrate = t.after_solve + t3 - t2, t.integrate + t4 - t3
        t.after_integrate = t.after_integrate + t5 - t4
    end
end
for _, k in ipairs { "update", "solve", "after_solve", "integrate", "after_integrate" } do
    io.write(string.format("%s %.3f ms  ", k, t[k] / 50 * 1000))
end
print(rvo.backend)
