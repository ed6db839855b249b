-- What the behaviour modules cost a frame (issue 19): 1000 agents crossing
-- with jitter steering, then the same frame with groups, a 16-unit surround
-- and locks in rvo.frame. Prints milliseconds per frame (CPU time).
--   meson devenv -C build --workdir "$PWD" lua5.4 tests/bench/modules_cost.lua   (or luajit)
local rvo = require("rvo")
local clock = os.clock
local N = 1000
local function scene(mods)
  local w = rvo.new_world{ time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 5 }
  local ids, goals = {}, {}
  for i = 0, N - 1 do
    local x, y = (i % 40) * 3 - 60, math.floor(i / 40) * 3 - 37
    ids[#ids+1] = w:add_agent(x, y); goals[#goals+1] = { -x, -y }
  end
  local g = require("rvo.groups").new(w, { "a", "b" })
  for k, id in ipairs(ids) do g:set(id, k % 2 == 0 and "a" or "b") end
  local hero = w:add_agent(0, 50, { weight = 0 })
  local s = require("rvo.surround").new(w, { target = hero, attack_radius = 3 })
  for k = 0, 15 do s:add(w:add_agent(10 * math.cos(k), 50 + 10 * math.sin(k))) end
  local j = require("rvo.jitter").new{ seed = 1 }
  local all = { groups = g, surround = s, jitter = j, locks = require("rvo.locks").new(w) }
  local f = require("rvo.frame").new(w, mods and all or { jitter = j })
  return w, f, ids, goals, j
end
local function run(mods)
  local w, f, ids, goals, j = scene(mods)
  for _ = 1, 20 do for k, id in ipairs(ids) do j:steer(w, id, goals[k][1], goals[k][2]) end; f:step() end
  local t_steer, t_step = 0, 0
  for _ = 1, 50 do
    local t0 = clock()
    for k, id in ipairs(ids) do j:steer(w, id, goals[k][1], goals[k][2]) end
    local t1 = clock(); f:step(); local t2 = clock()
    t_steer, t_step = t_steer + (t1 - t0), t_step + (t2 - t1)
  end
  return t_steer / 50 * 1000, t_step / 50 * 1000
end
local s0, p0 = run(false)
local _, p1 = run(true)
print(string.format("%s: steer %.2f ms, step (solve+integrate only) %.2f ms", rvo.backend, s0, p0))
print(string.format("with locks+groups+surround the step takes %.2f ms: the modules %.2f ms = %.0f%% of the step",
  p1, p1 - p0, 100 * (p1 - p0) / p0))
print(string.format("jitter steering (the script's, per agent) %.2f ms = %.0f%% of the step", s0, 100 * s0 / p0))
