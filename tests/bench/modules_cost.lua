-- What the behaviour modules cost a frame (issue 19): 1000 agents crossing
-- with jitter steering, then the same frame with groups, a 16-unit surround
-- and locks in rvo.frame. Prints milliseconds per frame (CPU time), the
-- best of 5 rounds (each the mean of 50 frames after 20), the plain and the
-- full frame alternating so that a busy machine slows both alike.
--   meson devenv -C build --workdir "$PWD" lua5.4 tests/bench/modules_cost.lua   (or luajit)
-- In instructions instead: the scene for a number of frames, each frame's
-- cost the difference of two runs (the set-up cancels):
--   MODE=plain|steer2|full meson devenv -C build --workdir "$PWD" valgrind --tool=callgrind \
--     --callgrind-out-file=/dev/null luajit tests/bench/modules_cost.lua frames 50   (and 0)
-- plain: steer_all + a frame with jitter only; steer2: the same with
-- steer_all twice (a second steerer of the same seed: the same draws), so
-- steer2 - plain is steer_all's cost; full: steer_all + every module. Per
-- frame, (Ir(50) - Ir(0)) / 50 of each; the figure of issue 19 is
-- (full - plain + steer) / (plain - steer).
local rvo = require("rvo")
local clock = os.clock
local N, ROUNDS = 1000, 5
local function scene(mods)
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
    local j = require("rvo.jitter").new { seed = 1 }
    local all = { groups = g, surround = s, jitter = j, locks = require("rvo.locks").new(w) }
    local f = require("rvo.frame").new(w, mods and all or { jitter = j })
    return w, f, ids, goals, j
end
if arg[1] == "frames" then
    local mode, frames = os.getenv("MODE") or "full", tonumber(arg[2]) or 50
    local w, f, ids, goals, j = scene(mode == "full")
    local j2 = require("rvo.jitter").new { seed = 1 }
    for _ = 1, 20 + frames do
        if mode == "steer2" then j2:steer_all(w, ids, goals) end
        j:steer_all(w, ids, goals)
        f:step()
    end
    do return end
end
-- ms per frame: steering (per agent with steer, or steer_all), f:step()
local function run(mods, bulk)
    local w, f, ids, goals, j = scene(mods)
    local function steer()
        if bulk then
            j:steer_all(w, ids, goals)
        else
            for k, id in ipairs(ids) do j:steer(w, id, goals[2 * k - 1], goals[2 * k]) end
        end
    end
    for _ = 1, 20 do
        steer()
        f:step()
    end
    local t_steer, t_step = 0, 0
    for _ = 1, 50 do
        local t0 = clock()
        steer()
        local t1 = clock()
        f:step()
        local t2 = clock()
        t_steer, t_step = t_steer + (t1 - t0), t_step + (t2 - t1)
    end
    w:destroy()
    return t_steer / 50 * 1000, t_step / 50 * 1000
end
local best = { math.huge, math.huge, math.huge, math.huge }
for _ = 1, ROUNDS do
    local s_agent, p0 = run(false, false)
    local s_bulk, p1 = run(true, true)
    local r = { s_agent, s_bulk, p0, p1 }
    for k = 1, 4 do best[k] = math.min(best[k], r[k]) end
end
local s_agent, s_bulk, p0, p1 = best[1], best[2], best[3], best[4]
print(string.format("%s: steer per agent %.3f ms, steer_all %.3f ms; step (solve+integrate only) %.3f ms",
    rvo.backend, s_agent, s_bulk, p0))
print(string.format("with locks+groups+surround the step takes %.3f ms: the modules %.3f ms = %.0f%% of the step",
    p1, p1 - p0, 100 * (p1 - p0) / p0))
print(string.format("jitter steering per agent (j:steer) %.3f ms = %.0f%% of the step", s_agent, 100 * s_agent / p0))
print(string.format("issue 19: steer_all + locks + groups + surround %.3f ms = %.0f%% of the step",
    s_bulk + p1 - p0, 100 * (s_bulk + p1 - p0) / p0))
