-- rvo.libfind: where rvo.ffi looks for librvo. A pure function, so the
-- Windows list (DLL names, LÖVE folders) is checked here on any OS, with
-- stubbed files; runs on both runtimes.
local libfind = require("rvo.libfind")

-- A package.searchpath over a set of existing files.
local function searchpath_in(files)
    return function(name, path)
        for template in path:gmatch("[^;]+") do
            local file = template:gsub("%?", name)
            if files[file] then return file end
        end
        return nil
    end
end

local function no_env() return nil end

local function love_stub(source, base, fused)
    return { filesystem = {
        getSource = function() return source end,
        getSourceBaseDirectory = function() return base end,
        isFused = function() return fused end,
    } }
end

local function index_of(list, value)
    for i = 1, #list do
        if list[i] == value then return i end
    end
    return nil
end

describe("rvo.libfind", function()
    it("names the DLL as MinGW and MSVC builds do", function()
        for _, name in ipairs({ "librvo-0.dll", "rvo.dll", "librvo.dll" }) do
            assert.is_truthy(index_of(libfind.windows_names, name), name)
        end
    end)

    it("tries $RVO_LIB alone when it is set", function()
        local list = libfind.candidates({ os = "Windows", getenv = function() return "D:/x/rvo.dll" end,
            searchpath = searchpath_in({ ["librvo-0.dll"] = true }), cpath = "?.dll" })
        assert.are.same({ "D:/x/rvo.dll" }, list)
    end)

    it("off Windows: librvo on cpath, else the installed copy, then the system's", function()
        local found = libfind.candidates({ os = "Linux", getenv = no_env, cpath = "/b/src/?.so;;",
            searchpath = searchpath_in({ ["/b/src/librvo.so"] = true }) })
        assert.are.same({ "/b/src/librvo.so" }, found)
        local list = libfind.candidates({ os = "Linux", getenv = no_env, cpath = "/b/src/?.so",
            searchpath = searchpath_in({}), libpath = { "/p/lib/librvo.so" },
            love = love_stub("/games/g", "/games", false), script = "/games/g/main.lua", here = "/games/g/rvo" })
        assert.are.same({ "/p/lib/librvo.so", "rvo" }, list)
    end)

    it("on Windows finds each DLL name on cpath, with backslashes", function()
        for _, name in ipairs(libfind.windows_names) do
            local list = libfind.candidates({ os = "Windows", getenv = no_env, cpath = "C:/game/?.dll;.\\?.dll",
                searchpath = searchpath_in({ ["C:/game/" .. name] = true }) })
            assert.are.same({ "C:\\game\\" .. name }, list)
        end
    end)

    it("in an unpacked LÖVE game: the game folder, then beside it, then the system's", function()
        local list = libfind.candidates({ os = "Windows", getenv = no_env, cpath = "?.dll",
            searchpath = searchpath_in({}), love = love_stub("C:/games/mygame", "C:/games", false) })
        assert.are.equal("C:\\games\\mygame\\librvo-0.dll", list[1])
        assert.is_truthy(index_of(list, "C:\\games\\mygame\\rvo.dll"))
        assert.is_true(index_of(list, "C:\\games\\mygame\\librvo.dll") < index_of(list, "C:\\games\\librvo-0.dll"))
        assert.are.equal("rvo", list[#list])
    end)

    it("in a .love: beside the .love only (a zip cannot hold a loadable DLL)", function()
        local list = libfind.candidates({ os = "Windows", getenv = no_env,
            love = love_stub("C:/games/mygame.love", "C:/games", false) })
        assert.are.equal("C:\\games\\librvo-0.dll", list[1])
        for i = 1, #list do
            assert.is_falsy(list[i]:find("mygame.love", 1, true), list[i])
        end
    end)

    it("in a fused game: beside the .exe", function()
        local list = libfind.candidates({ os = "Windows", getenv = no_env,
            love = love_stub("C:/Program Files/Game/game.exe", "C:/Program Files/Game", true) })
        assert.are.equal("C:\\Program Files\\Game\\librvo-0.dll", list[1])
        assert.is_falsy(index_of(list, "C:\\Program Files\\Game\\game.exe\\librvo-0.dll"))
    end)

    it("beside the script and beside the rvo folder, after the installed copy", function()
        local list = libfind.candidates({ os = "Windows", getenv = no_env, libpath = { "C:/rvo/bin/librvo-0.dll" },
            script = "D:\\work\\sim.lua", here = "D:/work/lib/rvo" })
        assert.are.equal("C:\\rvo\\bin\\librvo-0.dll", list[1])
        assert.is_truthy(index_of(list, "D:\\work\\librvo-0.dll"))
        assert.is_truthy(index_of(list, "D:\\work\\lib\\rvo.dll"))
        assert.is_true(index_of(list, "D:\\work\\librvo-0.dll") < index_of(list, "D:\\work\\lib\\librvo-0.dll"))
        assert.are.equal("rvo", list[#list])
    end)

    it("finds librvo_nav for rvo.nav the same way, under $RVO_NAV_LIB", function()
        local env = function(v) return v == "RVO_NAV_LIB" and "C:/n.dll" or nil end
        assert.are.same({ "C:/n.dll" }, libfind.candidates({ name = "rvo_nav", env = "RVO_NAV_LIB", getenv = env }))
        local list = libfind.candidates({ name = "rvo_nav", env = "RVO_NAV_LIB", os = "Windows", getenv = no_env,
            searchpath = searchpath_in({ ["C:/g/librvo_nav-0.dll"] = true }), cpath = "C:/g/?.dll" })
        assert.are.same({ "C:\\g\\librvo_nav-0.dll" }, list)
        list = libfind.candidates({ name = "rvo_nav", os = "Windows", getenv = no_env, script = "C:/g/main.lua" })
        assert.are.same({ "C:\\g\\librvo_nav-0.dll", "C:\\g\\rvo_nav-0.dll", "C:\\g\\rvo_nav.dll",
            "C:\\g\\librvo_nav.dll", "rvo_nav" }, list)
    end)

    it("lists a folder once", function()
        local list = libfind.candidates({ os = "Windows", getenv = no_env, script = "C:/g/main.lua",
            love = love_stub("C:/g", "C:/", false) })
        local n = 0
        for i = 1, #list do
            if list[i] == "C:\\g\\librvo-0.dll" then n = n + 1 end
        end
        assert.are.equal(1, n)
    end)
end)
