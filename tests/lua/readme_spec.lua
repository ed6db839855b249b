-- The README is the user guide: its first lines give the two commands, it
-- stays short, every Lua block in it parses, and the quick start runs and
-- does what its last comment says. Runs on both runtimes.
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local loadstr = rawget(_G, "loadstring") or load

local function readme()
    local f = assert(io.open(dir .. "../../README.md", "rb"))
    local text = f:read("*a")
    f:close()
    return text
end

local function lua_blocks(text)
    local blocks = {}
    for code in text:gmatch("\n```lua\n(.-)\n```") do blocks[#blocks + 1] = code end
    return blocks
end

describe("README.md", function()
    it("names the demo and test commands in its first 15 lines, in at most 400 lines", function()
        local text = readme()
        local lines = {}
        for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
        local head = table.concat(lines, "\n", 1, 15)
        assert.is_truthy(head:find("scripts/demo", 1, true))
        assert.is_truthy(head:find("scripts/test", 1, true))
        assert.is_true(#lines <= 400, #lines .. " lines")
    end)

    it("has Lua blocks that all parse", function()
        local blocks = lua_blocks(readme())
        assert.is_true(#blocks >= 10)
        for i, code in ipairs(blocks) do
            local f, err = loadstr(code, "=README block " .. i)
            assert.is_truthy(f, err)
        end
    end)

    it("has a quick start that runs: agent a ends near (10, 0)", function()
        local code = lua_blocks(readme())[1]
        assert.is_truthy(code:find("require(\"rvo\")", 1, true))
        local printed = {}
        local env = setmetatable({ print = function(...) printed[#printed + 1] = { ... } end }, { __index = _G })
        local f = assert(loadstr(code, "=quick start"))
        if rawget(_G, "setfenv") then setfenv(f, env) else f = assert(load(code, "=quick start", "t", env)) end
        f()
        assert.are.equal(1, #printed)
        local x, y = printed[1][1], printed[1][2]
        assert.is_true(math.abs(x - 10) < 0.05 and math.abs(y) < 0.05, x .. ", " .. y)
    end)
end)
