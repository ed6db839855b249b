#!/usr/bin/env python3
"""gen_cdef.py OUT.lua NAME=HEADER... [methods=METHODS.def] -- the LuaJIT FFI declarations of C headers.
gen_cdef.py --install CDEF.lua DIR... -- `meson install`: copies it into DIR/rvo.

Writes a Lua module (rvo/cdef.lua) returning { NAME = "declarations", ... }
and, from src/lua/methods.def, methods = { { "name", "SHAPE", "core_function" }, ... }
(the one-call world methods that rvo.ffi makes by shape, as rvo.core does):
each header's own declarations as ffi.cdef takes them. Comments, #include,
#define and every conditional block except the include guard are dropped
(so no system header is expanded and nothing depends on the host),
RVO_API is removed and enums become int (the same ABI; the FFI bindings
pass and compare plain numbers). Fails on anything it does not expect, so
that a header change that the FFI cannot take is seen at build time.
"""
import os
import re
import shutil
import sys


def strip_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise ValueError("unterminated comment")
            # keep line breaks so that directives stay on lines of their own
            out.append("\n" * text.count("\n", i, j + 2) or " ")
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def declarations(text, name):
    text = strip_comments(text.replace("\\\n", " "))
    lines = text.split("\n")
    kept, depth_skip, stack = [], 0, []
    for k, line in enumerate(lines):
        s = line.strip()
        if not s.startswith("#"):
            if depth_skip == 0:
                kept.append(line.rstrip())
            continue
        m = re.match(r"#\s*(\w+)\s*(.*)", s)
        word, rest = m.group(1), m.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            # The include guard (#ifndef X then #define X) is the only block kept.
            nxt = next((l.strip() for l in lines[k + 1:] if l.strip()), "")
            guard = word == "ifndef" and re.match(r"#\s*define\s+" + re.escape(rest) + r"\s*$", nxt)
            stack.append(not guard)
            if not guard:
                depth_skip += 1
        elif word in ("elif", "else"):
            if not stack or not stack[-1]:
                raise ValueError(f"{name}: #{word} in the include guard")
        elif word == "endif":
            if stack.pop():
                depth_skip -= 1
        elif word not in ("define", "include", "undef", "pragma"):
            raise ValueError(f"{name}: unexpected #{word}")
    if stack:
        raise ValueError(f"{name}: unbalanced #if")
    body = "\n".join(kept)
    body = re.sub(r"\bRVO_API\b\s*", "", body)
    body = re.sub(r"typedef\s+enum\s+\w*\s*\{[^}]*\}\s*(\w+)\s*;", r"typedef int \1;", body)
    if re.search(r"\benum\b|#|\bRVO_[A-Z_]+\b|extern", body):
        raise ValueError(f"{name}: left over after preprocessing: an enum, macro or directive")
    out = [re.sub(r"[ \t]+", " ", l).rstrip() if l.strip() else "" for l in body.split("\n")]
    out = [l for l in out if l]
    # indentation: continuation lines and struct fields keep 4 spaces
    out = [("    " + l.lstrip()) if l.startswith(" ") else l for l in out]
    return "\n".join(out) + "\n"


def method_list(text, name):
    """The METHOD(name, SHAPE, function) lines of methods.def, as Lua."""
    rows = []
    for line in strip_comments(text).split("\n"):
        s = line.strip()
        if not s:
            continue
        m = re.fullmatch(r"METHOD\(\s*(\w+)\s*,\s*([A-Z_]+)\s*,\s*(rvo_\w+)\s*\)", s)
        if not m:
            raise ValueError(f"{name}: not a METHOD(name, SHAPE, function) line: {s}")
        rows.append('        { "%s", "%s", "%s" },\n' % m.groups())
    return "".join(rows)


def install(src, dirs):
    # As Meson installs: DIR under the prefix, or absolute; both under DESTDIR.
    for d in dirs:
        if os.path.isabs(d):
            destdir = os.environ.get("DESTDIR", "")
            d = destdir + d if destdir else d
        else:
            d = os.path.join(os.environ["MESON_INSTALL_DESTDIR_PREFIX"], d)
        dest = os.path.join(d, "rvo", "cdef.lua")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        if not os.environ.get("MESON_INSTALL_QUIET"):
            print("Installing " + src + " to " + os.path.dirname(dest))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--install":
        return install(argv[2], argv[3:])
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    parts, names = [], []
    for arg in argv[2:]:
        key, path = arg.split("=", 1)
        if key == "methods":
            with open(path, encoding="utf-8") as f:
                parts.append("    methods = {\n" + method_list(f.read(), os.path.basename(path)) + "    },\n")
            names.append(os.path.basename(path))
            continue
        with open(path, encoding="utf-8") as f:
            decl = declarations(f.read(), os.path.basename(path))
        if "]==]" in decl:
            raise ValueError("the declarations hold the long-string delimiter")
        names.append(os.path.basename(path))
        parts.append(f"    {key} = [==[\n{decl}]==],\n")
    text = ("-- rvo.cdef: the FFI declarations of " + ", ".join(names) + ",\n"
            "-- generated by lua/gen_cdef.py when rvo is built (do not edit).\n"
            "return {\n" + "".join(parts) + "}\n")
    tmp = argv[1] + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
