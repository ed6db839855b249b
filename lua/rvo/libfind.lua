-- rvo.libfind — the places rvo.ffi tries, in order, to load librvo (and
-- rvo.nav librvo_nav): candidates() is a pure function of what it is given,
-- so that tests can check the Windows list on any OS; load() loads.
--
--   1. $RVO_LIB (or $RVO_NAV_LIB), if set: that file only.
--   2. package.searchpath on package.cpath: librvo (on Windows each DLL
--      name below); the first file found is the one, as before.
--   3. the installed copy named by rvo.libpath (`meson install`).
--   4. Windows only: the game's folder in LÖVE (beside the .exe of a fused
--      game; in the game folder or beside the .love otherwise), beside the
--      script (arg[0]) and beside the rvo folder, each under every DLL name.
--   5. the name alone, for the system's search ("rvo": librvo.so, rvo.dll).
-- Elsewhere than Windows the list is what rvo.ffi always tried.

local libfind = {}

-- What Windows builds call the DLL: MinGW with meson (soversion 0),
-- MSVC with meson, MSVC or CMake by hand, MinGW by hand.
function libfind.windows_names_of(name)
    return { "lib" .. name .. "-0.dll", name .. "-0.dll", name .. ".dll", "lib" .. name .. ".dll" }
end
libfind.windows_names = libfind.windows_names_of("rvo")

local function dirname(path)
    return type(path) == "string" and path:match("^(.*)[/\\]") or nil
end

-- opts: name ("rvo" or "rvo_nav"; "rvo" if nil), env (the variable; RVO_LIB
-- if nil), os (ffi.os), getenv, searchpath (package.searchpath or nil), cpath,
-- libpath (rvo.libpath's table or nil), love (the love table or nil),
-- script (arg[0] or nil), here (the folder of rvo/ffi.lua or nil).
function libfind.candidates(opts)
    local name = opts.name or "rvo"
    local names = libfind.windows_names_of(name)
    local env = opts.getenv and opts.getenv(opts.env or "RVO_LIB")
    if env and env ~= "" then
        return { env }
    end
    local windows = opts.os == "Windows"
    local function native(path) -- LoadLibrary wants backslashes
        return windows and (path:gsub("/", "\\")) or path
    end
    if opts.searchpath and opts.cpath then
        local bases = { "lib" .. name }
        if windows then
            bases = {}
            for i, file in ipairs(names) do
                bases[i] = file:gsub("%.dll$", "")
            end
        end
        for _, base in ipairs(bases) do
            local path = opts.searchpath(base, opts.cpath)
            if path then
                return { native(path) }
            end
        end
    end
    local list = {}
    if type(opts.libpath) == "table" then
        for i = 1, #opts.libpath do
            list[#list + 1] = native(opts.libpath[i])
        end
    end
    if windows then
        local folders = {}
        local fs = type(opts.love) == "table" and opts.love.filesystem
        if type(fs) == "table" then
            local base = fs.getSourceBaseDirectory and fs.getSourceBaseDirectory()
            if fs.isFused and fs.isFused() then
                folders[#folders + 1] = base -- the .exe's folder
            else
                -- an unpacked game folder; a .love is a zip and cannot hold a loadable DLL
                local source = fs.getSource and fs.getSource()
                if type(source) == "string" and not source:lower():match("%.love$") then
                    folders[#folders + 1] = source
                end
                folders[#folders + 1] = base -- beside the game folder or the .love
            end
        end
        folders[#folders + 1] = dirname(opts.script)
        folders[#folders + 1] = dirname(opts.here)
        local seen = {}
        for i = 1, #folders do
            local folder = type(folders[i]) == "string" and folders[i]:gsub("[/\\]+$", "")
            if folder and folder ~= "" and not seen[folder] then
                seen[folder] = true
                for _, file in ipairs(names) do
                    list[#list + 1] = native(folder .. "/" .. file)
                end
            end
        end
    end
    list[#list + 1] = name
    return list
end

-- Loads the first candidate that loads (ffi: LuaJIT's ffi module); the
-- last one's error if none does. installed: rvo.libpath's list (or .nav).
function libfind.load(ffi, name, env, installed)
    local argv = rawget(_G, "arg")
    local list = libfind.candidates({
        name = name, env = env, os = ffi.os, getenv = os.getenv, searchpath = package.searchpath,
        cpath = package.cpath, libpath = installed, love = rawget(_G, "love"),
        script = type(argv) == "table" and argv[0] or nil,
        here = debug.getinfo(1, "S").source:match("^@(.*)[/\\]"), -- the rvo folder
    })
    for i = 1, #list - 1 do
        local ok, lib = pcall(ffi.load, list[i])
        if ok then return lib end
    end
    return ffi.load(list[#list])
end

return libfind
