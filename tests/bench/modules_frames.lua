-- The scene of modules_cost.lua run for a number of frames, for counting
-- instructions (issue 19): the frame's cost is the difference of two runs,
-- so the set-up cancels.
--   MODE=plain|steer2|full meson devenv -C build --workdir "$PWD" \
--     valgrind --tool=callgrind --callgrind-out-file=/dev/null luajit tests/bench/modules_frames.lua 50   (and 0)
-- plain: steer_all + a frame with jitter only; steer2: the same with
-- steer_all twice (a second steerer of the same seed: the same draws), so
-- steer2 - plain is steer_all's cost; full: steer_all + every module.
-- Per frame, (Ir(50) - Ir(0)) / 50 of each; the figure of issue 19 is
-- (full - plain + steer) / (plain - steer).
local rvo = require("rvo")
local N = 1000
local mode, frames = os.getenv("MODE") or "full", tonumber(arg[1]) or 50
local w = rvo.new_world { time_step = 0.1, radius = 0.5, max_speed = 2, neighbor_dist = 5 }
local ids, goals = {}, {}
for i = 0, N - 1 do
    local x, y = (i % 40) * 3 - 60, math.floor(i / 40) * 3 - 37
    ids[#ids + 1] = w:add_agent(x, y)
    goals[#goals + 1] = -x
    goals[#goals + 1] = -y
end
local g = require("rvo.groups").new(w, { "a", "b" })
for k, id in ipairs(ids) do g:set(id, k % 2 == 0 and "a" or "b") end
local hero = w:add_agent(0, 50, { weight = 0 })
local s = require("rvo.surround").new(w, { target = hero, attack_radius = 3 })
for k = 0, 15 do s:add(w:add_agent(10 * math.cos(k), 50 + 10 * math.sin(k))) end
local jitter = require("rvo.jitter")
local j, j2 = jitter.new { seed = 1 }, jitter.new { seed = 1 }
local all = { groups = g, surround = s, jitter = j, locks = require("rvo.locks").new(w) }
local f = require("rvo.frame").new(w, mode == "full" and all or { jitter = j })
for _ = 1, 20 + frames do
    if mode == "steer2" then j2:steer_all(w, ids, goals) end
    j:steer_all(w, ids, goals)
    f:step()
end
