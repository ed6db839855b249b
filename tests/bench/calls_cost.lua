-- What the binding costs per call, for callgrind: 100 agents, then ITER
-- rounds of world:position(id) + world:set_pref_velocity(id, x, y) for
-- each agent. Run it with ITER and with 0 and subtract: what is left is the
-- loop, the two method lookups, the two calls and their work, per pair
-- (docs/performance.md says how):
--
--   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
--       lua5.4 tests/bench/calls_cost.lua 1000      (and 0)
--   pair = (Ir(1000) - Ir(0)) / (1000 * 100)
--
-- Runs on Lua 5.4 (rvo.core) and LuaJIT (rvo.ffi). A second argument
-- "time" prints ns per pair by os.clock instead (on LuaJIT the compiled
-- loop; give many rounds).
local rvo = require("rvo")

local iter = tonumber(arg[1] or "1000")
local timed = arg[2] == "time"
local N = 100
local w = rvo.new_world({ time_step = 0.1 })
local ids = {}
for i = 1, N do
    ids[i] = w:add_agent(i * 3, 0)
end

local t0 = os.clock()
for _ = 1, iter do
    for i = 1, N do
        local id = ids[i]
        local x, y = w:position(id)
        w:set_pref_velocity(id, -x, y)
    end
end
local t1 = os.clock()
if timed then
    io.write(string.format("%.2f ns per pair (%d pairs)\n", (t1 - t0) * 1e9 / (iter * N), iter * N))
end
-- Every call ran: positions unchanged, so the last preferred velocity is known.
local vx = w:pref_velocity(ids[N])
assert(iter == 0 or vx == -N * 3, "set_pref_velocity did not run")
w:destroy()
