-- Every misuse path: the exact message (identical on both backends), the
-- position of the caller's line, and a world that still works afterwards.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local support = dofile(dir .. "support.lua")
local rvo = require("rvo")
local error_of, nan, inf = support.error_of, support.nan, support.inf

local UNKNOWN_AGENT = "unknown or removed agent id"
local UNKNOWN_OBSTACLE = "unknown or removed obstacle id"
local NOT_SOLVED = "new velocities exist only between solve and integrate"

-- Each case: { expected message, function(w, a, b, stale) ... end [, prep] }
-- (see support.run_cases).
local function run_cases(cases)
    return support.run_cases(rvo, cases)
end

describe("new_world", function()
    local function new_world_error(params)
        return error_of(function() rvo.new_world(params) end)
    end

    it("rejects a non-table", function()
        assert.are.equal("bad argument #1 to 'new_world' (table expected, got string)", new_world_error("x"))
        assert.are.equal("bad argument #1 to 'new_world' (table expected, got number)", new_world_error(1))
        assert.are.equal("bad argument #1 to 'new_world' (table expected, got boolean)", new_world_error(false))
    end)

    it("rejects unknown and non-string keys, deterministically", function()
        assert.are.equal("bad argument #1 to 'new_world' (unknown field 'time_stepp')",
            new_world_error { time_stepp = 1 })
        assert.are.equal("bad argument #1 to 'new_world' (unknown field 'aa')",
            new_world_error { zz = 1, aa = 1, mm = 1, radius = 1 })
        assert.are.equal("bad argument #1 to 'new_world' (unknown field 'pvx')", new_world_error { pvx = 1 })
        assert.are.equal("bad argument #1 to 'new_world' (field names must be strings, got number)",
            new_world_error { 1, 2 })
        assert.are.equal("bad argument #1 to 'new_world' (field names must be strings, got boolean)",
            new_world_error { [true] = 1, zz = 2 })
    end)

    it("rejects wrong types of values", function()
        assert.are.equal("bad argument #1 to 'new_world' (field 'time_step': number expected, got string)",
            new_world_error { time_step = "0.1" })
        assert.are.equal("bad argument #1 to 'new_world' (field 'radius': number expected, got boolean)",
            new_world_error { radius = true })
        assert.are.equal("bad argument #1 to 'new_world' (field 'seed': number expected, got table)",
            new_world_error { seed = {} })
        -- fields are judged in a fixed order, whatever the table order
        assert.are.equal("bad argument #1 to 'new_world' (field 'time_step': number expected, got string)",
            new_world_error { threads = "x", radius = "x", time_step = "x" })
    end)

    it("rejects bad values with the core's words", function()
        local cases = {
            { { time_step = 0 }, "time_step must be > 0" },
            { { time_step = -1 }, "time_step must be > 0" },
            { { time_step = nan }, "time_step must be finite" },
            { { time_step = inf }, "time_step must be finite" },
            { { radius = 0 }, "radius must be > 0" },
            { { radius = -1 }, "radius must be > 0" },
            { { radius = nan }, "radius must be finite" },
            { { radius = 1e300 }, "radius must be finite" }, -- inf as a float
            { { max_speed = -1 }, "max_speed must be >= 0" },
            { { neighbor_dist = -0.5 }, "neighbor_dist must be >= 0" },
            { { time_horizon = 0 }, "time_horizon must be > 0" },
            { { time_horizon_obst = -inf }, "time_horizon_obst must be finite" },
            { { max_neighbors = 2.5 }, "max_neighbors must be an integer" },
            { { max_neighbors = nan }, "max_neighbors must be finite" },
            { { max_neighbors = inf }, "max_neighbors must be finite" },
            { { max_neighbors = -1 }, "max_neighbors must be in [0, 1024]" },
            { { max_neighbors = 1025 }, "max_neighbors must be in [0, 1024]" },
            { { max_neighbors = 1e15 }, "max_neighbors must be in [0, 1024]" },
            { { threads = 0 }, "threads must be in [1, 64]" },
            { { threads = 65 }, "threads must be in [1, 64]" },
            { { threads = -1e12 }, "threads must be in [1, 64]" },
            { { threads = 1.5 }, "threads must be an integer" },
            { { threads = nan }, "threads must be finite" },
            { { seed = -1 }, "seed must be an integer in 0..2^53" },
            { { seed = 0.5 }, "seed must be an integer in 0..2^53" },
            { { seed = 2 ^ 54 }, "seed must be an integer in 0..2^53" },
            { { seed = nan }, "seed must be an integer in 0..2^53" },
        }
        for _, c in ipairs(cases) do
            assert.are.equal("bad argument #1 to 'new_world' (" .. c[2] .. ")", new_world_error(c[1]))
        end
        -- limits themselves are fine
        rvo.new_world { max_neighbors = 0, seed = 0, threads = 1 }:destroy()
        rvo.new_world { max_neighbors = 1024, seed = 2 ^ 53, max_speed = 0, neighbor_dist = 0 }:destroy()
    end)
end)

describe("add_agent", function()
    it("rejects bad coordinates", function()
        run_cases {
            { "bad argument #1 to 'add_agent' (number expected, got nil)", function(w) w:add_agent() end },
            { "bad argument #2 to 'add_agent' (number expected, got nil)", function(w) w:add_agent(1) end },
            { "bad argument #1 to 'add_agent' (number expected, got string)", function(w) w:add_agent("1", 2) end },
            { "bad argument #2 to 'add_agent' (number expected, got string)", function(w) w:add_agent(1, "2") end },
            { "bad argument #1 to 'add_agent' (number expected, got rvo.world)", function(w) w:add_agent(w, 2) end },
            { "bad argument #1 to 'add_agent' (x must be finite)", function(w) w:add_agent(nan, 0) end },
            { "bad argument #2 to 'add_agent' (y must be finite)", function(w) w:add_agent(0, -inf) end },
            { "bad argument #1 to 'add_agent' (x must be within [-1e9, 1e9])", function(w) w:add_agent(2e9, 0) end },
        }
    end)

    it("rejects bad parameter tables", function()
        run_cases {
            { "bad argument #3 to 'add_agent' (table expected, got number)", function(w) w:add_agent(0, 0, 1) end },
            { "bad argument #3 to 'add_agent' (unknown field 'radus')",
                function(w) w:add_agent(0, 0, { radus = 1 }) end },
            { "bad argument #3 to 'add_agent' (unknown field 'threads')",
                function(w) w:add_agent(0, 0, { threads = 1 }) end },
            { "bad argument #3 to 'add_agent' (field names must be strings, got number)",
                function(w) w:add_agent(0, 0, { 0.5 }) end },
            { "bad argument #3 to 'add_agent' (field 'radius': number expected, got string)",
                function(w) w:add_agent(0, 0, { radius = "big" }) end },
            { "bad argument #3 to 'add_agent' (field 'pvy': number expected, got boolean)",
                function(w) w:add_agent(0, 0, { pvy = false }) end },
            { "bad argument #3 to 'add_agent' (radius must be > 0)",
                function(w) w:add_agent(0, 0, { radius = -1 }) end },
            { "bad argument #3 to 'add_agent' (radius must be > 0)",
                function(w) w:add_agent(0, 0, { radius = 0 }) end },
            { "bad argument #3 to 'add_agent' (radius must be finite)",
                function(w) w:add_agent(0, 0, { radius = nan }) end },
            { "bad argument #3 to 'add_agent' (max_speed must be >= 0)",
                function(w) w:add_agent(0, 0, { max_speed = -2 }) end },
            { "bad argument #3 to 'add_agent' (max_neighbors must be an integer)",
                function(w) w:add_agent(0, 0, { max_neighbors = 0.5 }) end },
            { "bad argument #3 to 'add_agent' (max_neighbors must be in [0, 1024])",
                function(w) w:add_agent(0, 0, { max_neighbors = 5000 }) end },
            { "bad argument #3 to 'add_agent' (time_horizon must be > 0)",
                function(w) w:add_agent(0, 0, { time_horizon = 0 }) end },
            { "bad argument #3 to 'add_agent' (vx must be finite)",
                function(w) w:add_agent(0, 0, { vx = nan }) end },
            { "bad argument #3 to 'add_agent' (pvy must be finite)",
                function(w) w:add_agent(0, 0, { pvy = inf }) end },
            -- coordinates are judged before the table
            { "bad argument #1 to 'add_agent' (x must be finite)",
                function(w) w:add_agent(nan, 0, { radius = -1 }) end },
        }
    end)
end)

describe("ids", function()
    it("reports stale, removed and made-up ids", function()
        local cases = {}
        local methods = { "remove_agent", "position", "velocity", "pref_velocity", "radius", "max_speed",
            "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "neighbors" }
        for _, m in ipairs(methods) do
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w[m](w, stale) end }
            for _, v in ipairs { 0, -1, 1.5, nan, inf, 2 ^ 53 } do
                cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (" .. UNKNOWN_AGENT .. ")",
                    function(w) w[m](w, v) end }
            end
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (number expected, got nil)",
                function(w) w[m](w) end }
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (number expected, got string)",
                function(w, a) w[m](w, tostring(a)) end }
        end
        for _, m in ipairs { "set_position", "set_velocity", "set_pref_velocity" } do
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w[m](w, stale, 0, 0) end }
        end
        for _, m in ipairs { "set_radius", "set_max_speed", "set_neighbor_dist", "set_max_neighbors",
            "set_time_horizon", "set_time_horizon_obst" } do
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w[m](w, stale, 1) end }
        end
        cases[#cases + 1] = { "bad argument #1 to 'remove_agent' (" .. UNKNOWN_AGENT .. ")",
            function(w, a) w:remove_agent(a) end, function(w, a) w:remove_agent(a) end }
        run_cases(cases)
    end)

    it("reports an agent id used after its removal (while solved too)", function()
        local w = rvo.new_world()
        local a = w:add_agent(0, 0)
        w:solve()
        w:remove_agent(a)
        assert.are.equal("bad argument #1 to 'new_velocity' (" .. UNKNOWN_AGENT .. ")",
            error_of(function() w:new_velocity(a) end))
        assert.are.equal("bad argument #1 to 'set_new_velocity' (" .. UNKNOWN_AGENT .. ")",
            error_of(function() w:set_new_velocity(a, 1, 1) end))
        w:destroy()
    end)
end)

describe("per-agent setters", function()
    it("reject bad values", function()
        local cases = {}
        for _, m in ipairs { "set_position", "set_velocity", "set_pref_velocity" } do
            local xname = m == "set_position" and "x" or "vx"
            local yname = m == "set_position" and "y" or "vy"
            local function case(expected, f) cases[#cases + 1] = { expected, f } end
            case("bad argument #2 to '" .. m .. "' (number expected, got nil)", function(w, a) w[m](w, a) end)
            case("bad argument #3 to '" .. m .. "' (number expected, got nil)", function(w, a) w[m](w, a, 1) end)
            case("bad argument #2 to '" .. m .. "' (number expected, got string)",
                function(w, a) w[m](w, a, "1", 1) end)
            case("bad argument #3 to '" .. m .. "' (number expected, got table)",
                function(w, a) w[m](w, a, 1, {}) end)
            case("bad argument #1 to '" .. m .. "' (number expected, got nil)",
                function(w) w[m](w, nil, 1, 1) end)
            case("bad argument #2 to '" .. m .. "' (" .. xname .. " must be finite)",
                function(w, a) w[m](w, a, nan, 1) end)
            case("bad argument #3 to '" .. m .. "' (" .. yname .. " must be finite)",
                function(w, a) w[m](w, a, 1, inf) end)
            case("bad argument #3 to '" .. m .. "' (" .. yname .. " must be within [-1e9, 1e9])",
                function(w, a) w[m](w, a, 1, -3e9) end)
            -- the id is judged before the values
            case("bad argument #1 to '" .. m .. "' (" .. UNKNOWN_AGENT .. ")",
                function(w, _, _, stale) w[m](w, stale, nan, nan) end)
        end
        local params = {
            { "radius", -1, "radius must be > 0" },
            { "radius", 0, "radius must be > 0" },
            { "radius", nan, "radius must be finite" },
            { "max_speed", -0.5, "max_speed must be >= 0" },
            { "neighbor_dist", -1, "neighbor_dist must be >= 0" },
            { "neighbor_dist", inf, "neighbor_dist must be finite" },
            { "max_neighbors", 1.5, "max_neighbors must be an integer" },
            { "max_neighbors", -1, "max_neighbors must be in [0, 1024]" },
            { "max_neighbors", 1025, "max_neighbors must be in [0, 1024]" },
            { "max_neighbors", nan, "max_neighbors must be finite" },
            { "time_horizon", 0, "time_horizon must be > 0" },
            { "time_horizon_obst", -1, "time_horizon_obst must be > 0" },
        }
        for _, p in ipairs(params) do
            local m = "set_" .. p[1]
            cases[#cases + 1] = { "bad argument #2 to '" .. m .. "' (" .. p[3] .. ")",
                function(w, a) w[m](w, a, p[2]) end }
            cases[#cases + 1] = { "bad argument #2 to '" .. m .. "' (number expected, got nil)",
                function(w, a) w[m](w, a) end }
            cases[#cases + 1] = { "bad argument #2 to '" .. m .. "' (number expected, got string)",
                function(w, a) w[m](w, a, "1") end }
        end
        run_cases(cases)
    end)

    it("leave the value unchanged on error", function()
        local w = rvo.new_world()
        local a = w:add_agent(0, 0, { radius = 0.75, max_neighbors = 5 })
        pcall(w.set_radius, w, a, -1)
        pcall(w.set_max_neighbors, w, a, 2.5)
        pcall(w.set_position, w, a, 1, nan)
        assert.are.equal(0.75, w:radius(a))
        assert.are.equal(5, w:max_neighbors(a))
        assert.are.same({ 0, 0 }, { w:position(a) })
        w:destroy()
    end)
end)

describe("phases", function()
    it("rejects bad time steps", function()
        run_cases {
            { "bad argument #1 to 'step' (number expected, got string)", function(w) w:step("0.1") end },
            { "bad argument #1 to 'step' (dt must be > 0)", function(w) w:step(-1) end },
            { "bad argument #1 to 'step' (dt must be > 0)", function(w) w:step(0) end },
            { "bad argument #1 to 'step' (dt must be finite)", function(w) w:step(nan) end },
            { "bad argument #1 to 'solve' (number expected, got boolean)", function(w) w:solve(true) end },
            { "bad argument #1 to 'solve' (dt must be > 0)", function(w) w:solve(0) end },
            { "bad argument #1 to 'solve' (dt must be finite)", function(w) w:solve(inf) end },
            { "bad argument #1 to 'integrate' (number expected, got table)", function(w) w:integrate({}) end },
            { "bad argument #1 to 'set_time_step' (number expected, got nil)", function(w) w:set_time_step() end },
            { "bad argument #1 to 'set_time_step' (time_step must be > 0)", function(w) w:set_time_step(0) end },
            { "bad argument #1 to 'set_time_step' (time_step must be finite)",
                function(w) w:set_time_step(nan) end },
        }
    end)

    it("rejects integrate before solve and new velocities outside the solved phase", function()
        run_cases {
            { "integrate: call solve first", function(w) w:integrate() end },
            { "integrate: call solve first", function(w) w:integrate(0.1) end },
            { "integrate: call solve first", function(w) w:integrate() end, function(w) w:step() end },
            { "integrate: call solve first", function(w) w:integrate() end,
                function(w) w:solve(); w:integrate() end },
            { "new_velocity: " .. NOT_SOLVED, function(w, a) w:new_velocity(a) end },
            { "set_new_velocity: " .. NOT_SOLVED, function(w, a) w:set_new_velocity(a, 1, 0) end },
            { "set_new_velocity: " .. NOT_SOLVED, function(w, a) w:set_new_velocity(a, 1, 0) end,
                function(w) w:step() end },
            { "set_new_velocities: " .. NOT_SOLVED, function(w) w:set_new_velocities { 0, 0, 0, 0 } end },
        }
    end)

    it("keeps a solved world solved after a rejected integrate", function()
        local w = rvo.new_world()
        w:add_agent(0, 0, { pvx = 1 })
        w:solve()
        assert.are.equal("bad argument #1 to 'integrate' (dt must be > 0)",
            error_of(function() w:integrate(-1) end))
        assert.is_true(w:is_solved())
        w:integrate()
        w:destroy()
    end)

    it("rejects bad post-processed velocities while solved", function()
        local w = rvo.new_world()
        local a = w:add_agent(0, 0, { pvx = 1 })
        w:solve()
        assert.are.equal("bad argument #2 to 'set_new_velocity' (vx must be finite)",
            error_of(function() w:set_new_velocity(a, nan, 0) end))
        assert.are.equal("bad argument #3 to 'set_new_velocity' (number expected, got nil)",
            error_of(function() w:set_new_velocity(a, 0) end))
        assert.are.equal("bad argument #1 to 'set_new_velocities' (value 2 must be finite and within [-1e9, 1e9])",
            error_of(function() w:set_new_velocities { 0, nan } end))
        assert.are.same({ 1, 0 }, { w:new_velocity(a) })
        w:integrate()
        w:destroy()
    end)
end)

describe("bulk calls", function()
    it("reject bad buffers", function()
        local cases = {}
        for _, m in ipairs { "ids", "positions", "velocities", "new_velocities" } do
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (table expected, got number)",
                function(w) w[m](w, 4) end }
            cases[#cases + 1] = { "bad argument #1 to '" .. m .. "' (table expected, got string)",
                function(w) w[m](w, "buf") end }
        end
        for _, m in ipairs { "set_pref_velocities", "set_new_velocities" } do
            local function case(expected, f)
                cases[#cases + 1] = { expected, f, function(w) if m == "set_new_velocities" then w:solve() end end }
            end
            case("bad argument #1 to '" .. m .. "' (table expected, got nil)", function(w) w[m](w) end)
            case("bad argument #1 to '" .. m .. "' (expected 4 numbers (2 per agent), got 3)",
                function(w) w[m](w, { 1, 2, 3 }) end)
            case("bad argument #1 to '" .. m .. "' (expected 4 numbers (2 per agent), got 6)",
                function(w) w[m](w, { 1, 2, 3, 4, 5, 6 }) end)
            case("bad argument #1 to '" .. m .. "' (expected 4 numbers (2 per agent), got 0)",
                function(w) w[m](w, {}) end)
            case("bad argument #1 to '" .. m .. "' (number expected at index 3, got string)",
                function(w) w[m](w, { 1, 2, "3", 4 }) end)
            case("bad argument #1 to '" .. m .. "' (number expected at index 2, got boolean)",
                function(w) w[m](w, { 1, true, 3, 4 }) end)
            case("bad argument #1 to '" .. m .. "' (value 3 must be finite and within [-1e9, 1e9])",
                function(w) w[m](w, { 1, 2, nan, 4 }) end)
            case("bad argument #1 to '" .. m .. "' (value 4 must be finite and within [-1e9, 1e9])",
                function(w) w[m](w, { 1, 2, 3, 1e300 }) end)
        end
        run_cases(cases)
    end)

    it("change nothing when rejected", function()
        local w, a, b = support.scene(rvo)
        pcall(w.set_pref_velocities, w, { 5, 5, 5, nan })
        assert.are.same({ 1, 0 }, { w:pref_velocity(a) })
        assert.are.same({ -1, 0 }, { w:pref_velocity(b) })
        w:destroy()
    end)
end)

describe("obstacles", function()
    it("reject bad input", function()
        local square = { -1, -1, 1, -1, 1, 1, -1, 1 }
        local removed_obstacle
        run_cases {
            { "bad argument #1 to 'add_obstacle' (table expected, got nil)", function(w) w:add_obstacle() end },
            { "bad argument #1 to 'add_obstacle' (table expected, got number)", function(w) w:add_obstacle(1, 2) end },
            { "bad argument #1 to 'add_obstacle' (even number of coordinates expected, got 5)",
                function(w) w:add_obstacle { 0, 0, 1, 0, 1 } end },
            { "bad argument #1 to 'add_obstacle' (number expected at index 4, got string)",
                function(w) w:add_obstacle { 0, 0, 1, "0", 1, 1 } end },
            { "bad argument #1 to 'add_obstacle' (coordinate 5 must be finite and within [-1e9, 1e9])",
                function(w) w:add_obstacle { 0, 0, 1, 0, nan, 1 } end },
            { "bad argument #1 to 'add_obstacle' (an obstacle needs at least 2 distinct points)",
                function(w) w:add_obstacle {} end },
            { "bad argument #1 to 'add_obstacle' (an obstacle needs at least 2 distinct points)",
                function(w) w:add_obstacle { 1, 1, 1, 1, 1, 1 } end },
            { "bad argument #1 to 'add_obstacle' (a closed obstacle needs a non-zero area"
                .. " (use closed = false for a line))",
                function(w) w:add_obstacle { 0, 0, 1, 0, 2, 0 } end },
            { "bad argument #2 to 'add_obstacle' (table expected, got boolean)",
                function(w) w:add_obstacle(square, true) end },
            { "bad argument #2 to 'add_obstacle' (unknown field 'close')",
                function(w) w:add_obstacle(square, { close = false }) end },
            { "bad argument #2 to 'add_obstacle' (field 'closed': boolean expected, got number)",
                function(w) w:add_obstacle(square, { closed = 1 }) end },
            { "bad argument #1 to 'remove_obstacle' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:remove_obstacle(1) end },
            { "bad argument #1 to 'remove_obstacle' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:remove_obstacle(removed_obstacle) end,
                function(w) removed_obstacle = w:add_obstacle(square); w:remove_obstacle(removed_obstacle) end },
            { "bad argument #1 to 'remove_obstacle' (" .. UNKNOWN_OBSTACLE .. ")",
                function(w) w:remove_obstacle(-3) end },
            { "bad argument #1 to 'remove_obstacle' (number expected, got nil)",
                function(w) w:remove_obstacle() end },
            { "bad argument #1 to 'obstacle_valid' (number expected, got string)",
                function(w) w:obstacle_valid("1") end },
        }
    end)
end)

describe("queries", function()
    it("reject bad input", function()
        run_cases {
            { "bad argument #2 to 'neighbors' (table expected, got number)", function(w, a) w:neighbors(a, 1) end },
            { "bad argument #1 to 'query_radius' (number expected, got nil)", function(w) w:query_radius() end },
            { "bad argument #3 to 'query_radius' (number expected, got nil)", function(w) w:query_radius(0, 0) end },
            { "bad argument #4 to 'query_radius' (table expected, got string)",
                function(w) w:query_radius(0, 0, 1, "t") end },
            { "bad argument #1 to 'query_radius' (x must be finite)", function(w) w:query_radius(nan, 0, 1) end },
            { "bad argument #2 to 'query_radius' (y must be finite)", function(w) w:query_radius(0, inf, 1) end },
            { "bad argument #3 to 'query_radius' (radius must be within [0, 1e9])",
                function(w) w:query_radius(0, 0, -1) end },
            { "bad argument #3 to 'query_radius' (radius must be within [0, 1e9])",
                function(w) w:query_radius(0, 0, nan) end },
            { "bad argument #4 to 'line_of_sight' (number expected, got nil)",
                function(w) w:line_of_sight(0, 0, 1) end },
            { "bad argument #5 to 'line_of_sight' (number expected, got string)",
                function(w) w:line_of_sight(0, 0, 1, 1, "0") end },
            { "bad argument #1 to 'line_of_sight' (x1 must be finite)",
                function(w) w:line_of_sight(nan, 0, 1, 1) end },
            { "bad argument #4 to 'line_of_sight' (y2 must be within [-1e9, 1e9])",
                function(w) w:line_of_sight(0, 0, 1, 2e9) end },
            { "bad argument #5 to 'line_of_sight' (clearance must be within [0, 1e9])",
                function(w) w:line_of_sight(0, 0, 1, 1, -1) end },
        }
    end)
end)

describe("self", function()
    local METHOD_ARGS = {
        -- enough valid-looking arguments that only self can be wrong
        add_agent = { 0, 0 }, add_obstacle = { { 0, 0, 1, 0, 0, 1 } }, position = { 1 },
    }

    it("rejects calls on something that is not a world", function()
        local w = rvo.new_world()
        -- other userdata too (a file, a view): the Lua 5.4 binding's fast
        -- self check reads a tag inside the userdata
        for name, f in pairs(getmetatable(w).__index) do
            for _, bad in ipairs { 1, "world", {}, false, io.stdout, w:positions_view() } do
                local args = METHOD_ARGS[name] or {}
                assert.are.equal("calling '" .. name .. "' on bad self",
                    error_of(function() f(bad, args[1], args[2]) end))
            end
            assert.are.equal("calling '" .. name .. "' on bad self", error_of(function() f() end))
        end
        w:destroy()
    end)

    it("rejects every call but destroy and is_destroyed on a destroyed world", function()
        local w = rvo.new_world()
        local a = w:add_agent(0, 0)
        w:destroy()
        for name, f in pairs(getmetatable(w).__index) do
            if name ~= "destroy" and name ~= "is_destroyed" then
                assert.are.equal("attempt to use a destroyed rvo.world",
                    error_of(function() f(w, a, 1, 1) end))
            end
        end
        assert.are.equal("attempt to use a destroyed rvo.world", error_of(function() w:step() end))
        assert.are.equal("attempt to use a destroyed rvo.world", error_of(function() w:position(a) end))
        w:destroy()
        assert.is_true(w:is_destroyed())
        assert.are.equal("rvo.world (destroyed)", tostring(w))
    end)

    it("puts no position on errors raised from a C caller such as pcall", function()
        local w = rvo.new_world()
        local ok, msg = pcall(w.position, w, "x")
        assert.is_false(ok)
        assert.are.equal("bad argument #1 to 'position' (number expected, got string)", msg)
        ok, msg = pcall(w.add_agent, w, 0, 0, { radius = -1 })
        assert.is_false(ok)
        assert.are.equal("bad argument #3 to 'add_agent' (radius must be > 0)", msg)
        w:destroy()
    end)
end)
