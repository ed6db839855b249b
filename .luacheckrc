-- luacheck configuration: `luacheck lua tests examples` from the repository root.
-- The same code runs on Lua 5.4 and LuaJIT, so allow the union of their globals.
std = "max"
max_line_length = 120
codes = true

-- busted specs: describe/it/assert/spy/stub/mock/before_each/...
files["tests/**/*_spec.lua"] = { std = "+busted" }
files["tests/lua/**/*.lua"] = { std = "+busted" }

exclude_files = { "build*/**", "out/**", ".git/**" }

-- The LÖVE demo (issue 9): LÖVE's callbacks live in the global `love`.
files["examples/love/**/*.lua"] = { globals = { "love" } }
