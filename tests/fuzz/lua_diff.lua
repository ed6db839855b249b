-- tests/fuzz/lua_diff.lua: differential fuzzing of rvo's Lua surface. Runs
-- the same seeded call sequences (tests/fuzz/lua_ops.lua) on Lua 5.4 (the C
-- module) and on LuaJIT (the FFI binding), side by side, and compares every
-- call: return values bit for bit, the error raised word for word, the
-- world's snapshot hash. Each runtime also checks its own oracles (lines
-- starting with "!"): errors carry messages, a call that raised changed
-- nothing, a saved and loaded copy goes on as the original.
--
--   lua5.4 tests/fuzz/lua_diff.lua [--seeds A-B | --seconds S] [--ops N]
--                                  [--batch K] [--first SEED]
--
-- Needs LUA_PATH / LUA_CPATH that find rvo on both interpreters (meson
-- devenv, or the meson test that runs it). A finding prints the seed, the
-- first operation that differs, and the sequence shrunk to the operations
-- that still show it; the exit status is 1. At the end it prints the counts:
-- sequences, operations, errors raised by kind.
--
-- Environment: RVO_LUA54 and RVO_LUAJIT name the interpreters (default
-- lua5.4 and luajit; a prefix such as "env LD_PRELOAD=... lua5.4" works).
local format, concat = string.format, table.concat

local here = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./")
local OPS_SCRIPT = here .. "lua_ops.lua"
local RUNTIMES = {
    { name = "lua5.4", cmd = os.getenv("RVO_LUA54") or "lua5.4" },
    { name = "luajit", cmd = os.getenv("RVO_LUAJIT") or "luajit" },
}

local opts = { ops = 200, batch = 10, first = 1 }
do
    local i = 1
    while arg[i] do
        local a, v = arg[i], arg[i + 1]
        if a == "--seeds" then
            local lo, hi = v:match("^(%d+)%-(%d+)$")
            opts.lo, opts.hi = tonumber(lo or v), tonumber(hi or v)
        elseif a == "--seconds" then
            opts.seconds = tonumber(v)
        elseif a == "--ops" then
            opts.ops = tonumber(v)
        elseif a == "--batch" then
            opts.batch = tonumber(v)
        elseif a == "--first" then
            opts.first = tonumber(v)
        else
            io.stderr:write("lua_diff.lua: unknown option " .. tostring(a) .. "\n")
            os.exit(2)
        end
        i = i + 2
    end
    if not opts.lo and not opts.seconds then opts.lo, opts.hi = 1, 20 end
end

local function shell_quote(s)
    return "'" .. s:gsub("'", "'\\''") .. "'"
end

local tmp = os.tmpname()

-- Runs seeds lo..hi (keep: nil or "1,5,9") on both runtimes at once; returns
-- the two outputs as arrays of lines, the last one "exit N".
local function run_both(lo, hi, keep)
    local files, parts = {}, {}
    for k, rt in ipairs(RUNTIMES) do
        files[k] = tmp .. "." .. k
        parts[k] = format("(timeout 300 %s %s %d %d %d %s > %s 2>&1; echo \"exit $?\" >> %s) &",
            rt.cmd, shell_quote(OPS_SCRIPT), lo, hi, opts.ops, keep or "all", files[k], files[k])
    end
    os.execute(concat(parts, " ") .. " wait")
    local outs = {}
    for k = 1, #RUNTIMES do
        local lines = {}
        local f = io.open(files[k], "r")
        if f then
            for line in f:lines() do lines[#lines + 1] = line end
            f:close()
        end
        os.remove(files[k])
        outs[k] = lines
    end
    return outs[1], outs[2]
end

-- The first finding in two outputs: { seed, op, what, a, b } or nil.
local function first_finding(a, b)
    local seed
    for i = 1, math.max(#a, #b) do
        local x, y = a[i], b[i]
        local s = x and x:match("^seed (%d+)")
        if s then seed = tonumber(s) end
        for k, line in ipairs { x, y } do
            if line and line:sub(1, 1) == "!" then
                return { seed = seed, op = tonumber(line:match("^! (%d+)")), what = RUNTIMES[k].name .. " " .. line,
                    a = x, b = y }
            end
        end
        if x ~= y then
            local op = tonumber((x or ""):match("^(%d+) ")) or tonumber((y or ""):match("^(%d+) "))
            return { seed = seed, op = op, what = "the runtimes differ", a = x, b = y }
        end
        if x and x:match("^exit [1-9]") then
            return { seed = seed, what = "both runtimes failed: " .. x, a = x, b = y }
        end
    end
    return nil
end

local function keep_string(list)
    local t = {}
    for i, k in ipairs(list) do t[i] = tostring(k) end
    return concat(t, ",")
end

-- Shrinks a finding of one seed by cutting operations (delta debugging on
-- the list of operations up to the one that shows it).
local function shrink(finding)
    local seed = finding.seed
    local list = {}
    for i = 1, finding.op or opts.ops do list[i] = i end
    local function still(l)
        local a, b = run_both(seed, seed, keep_string(l))
        return first_finding(a, b) ~= nil
    end
    if not still(list) then return list end
    local chunk = math.floor(#list / 2)
    while chunk >= 1 do
        local i, cut = 1, false
        while i <= #list do
            local trial = {}
            for k = 1, #list do
                if k < i or k >= i + chunk then trial[#trial + 1] = list[k] end
            end
            if #trial > 0 and still(trial) then
                list, cut = trial, true
            else
                i = i + chunk
            end
        end
        if not cut then chunk = math.floor(chunk / 2) end
    end
    return list
end

local stats = { sequences = 0, ops = 0, errors = 0, shadowed = 0, kinds = {}, classes = {} }

-- A coarse class of an error message, for the summary.
local CLASSES = {
    { "wrong type", "expected, got" },
    { "stale, foreign or made-up id", "unknown or removed" },
    { "destroyed world", "destroyed" },
    { "wrong phase", "between solve and integrate" },
    { "wrong phase", "call solve first" },
    { "wrong phase", "call it between" },
    { "wrong phase", "call before_solve first" },
    { "bad snapshot", "snapshot" },
    { "out of range, NaN or inf", "must be" },
    { "out of range, NaN or inf", "within" },
    { "unknown option or field", "unknown" },
}
local function class_of(msg)
    for _, c in ipairs(CLASSES) do
        if msg:find(c[2], 1, true) then return c[1] end
    end
    return "other"
end

-- Errors by kind: the message without its position and numbers.
local function count_kinds(lines)
    for _, line in ipairs(lines) do
        local msg = line:match(" error \"(.*)\" | ")
        if msg then
            local kind = msg:gsub("^[^:]*:%d+: ", ""):gsub("%-?%d[%w.+-]*", "N")
            stats.kinds[kind] = (stats.kinds[kind] or 0) + 1
            local c = class_of(kind)
            stats.classes[c] = (stats.classes[c] or 0) + 1
        end
        local ops, errs, shadowed = line:match("^done (%d+) (%d+) (%d+)")
        if ops then
            stats.ops = stats.ops + tonumber(ops)
            stats.errors = stats.errors + tonumber(errs)
            stats.shadowed = stats.shadowed + tonumber(shadowed)
        end
    end
end

local function report_finding(f)
    print(format("FINDING in seed %s at operation %s: %s", tostring(f.seed), tostring(f.op), f.what))
    print("  " .. RUNTIMES[1].name .. ": " .. tostring(f.a))
    print("  " .. RUNTIMES[2].name .. ": " .. tostring(f.b))
    if f.seed then
        local list = shrink(f)
        local a, b = run_both(f.seed, f.seed, keep_string(list))
        local g = first_finding(a, b)
        print(format("shrunk to %d operation(s): lua_ops.lua %d %d %d %s", #list, f.seed, f.seed, opts.ops,
            keep_string(list)))
        for _, line in ipairs(a) do
            if line:match("^%d+ ") or line:match("^!") then print("  " .. RUNTIMES[1].name .. " " .. line) end
        end
        if g then
            print("  first difference:")
            print("  " .. RUNTIMES[1].name .. ": " .. tostring(g.a))
            print("  " .. RUNTIMES[2].name .. ": " .. tostring(g.b))
        end
    end
end

local start = os.time()
local seed = opts.lo or opts.first
local last = opts.hi
local findings = 0
while true do
    if last and seed > last then break end
    if opts.seconds and os.time() - start >= opts.seconds then break end
    local hi = seed + opts.batch - 1
    if last and hi > last then hi = last end
    local a, b = run_both(seed, hi)
    stats.sequences = stats.sequences + (hi - seed + 1)
    count_kinds(a)
    local f = first_finding(a, b)
    if f == nil and a[#a] ~= "exit 0" then
        f = { seed = nil, what = "lua_ops.lua failed", a = a[#a], b = b[#b] }
    end
    if f then
        findings = findings + 1
        report_finding(f)
        break
    end
    seed = hi + 1
end

print(format("%d sequences, %d operations (each on both runtimes), %d errors raised, %d calls repeated on a"
    .. " loaded copy", stats.sequences, stats.ops, stats.errors, stats.shadowed))
local classes = {}
for k, n in pairs(stats.classes) do classes[#classes + 1] = { k, n } end
table.sort(classes, function(x, y) return x[2] > y[2] or (x[2] == y[2] and x[1] < y[1]) end)
print("errors by class:")
for _, c in ipairs(classes) do print(format("  %9d  %s", c[2], c[1])) end
local kinds = {}
for k, n in pairs(stats.kinds) do kinds[#kinds + 1] = { k, n } end
table.sort(kinds, function(x, y) return x[2] > y[2] or (x[2] == y[2] and x[1] < y[1]) end)
print(format("errors by kind (%d kinds, %s):", #kinds, RUNTIMES[1].name))
for i = 1, math.min(#kinds, 25) do
    print(format("  %7d  %s", kinds[i][2], kinds[i][1]))
end
os.remove(tmp)
print(findings == 0 and "no finding" or "FINDING (see above)")
os.exit(findings == 0 and 0 or 1)
