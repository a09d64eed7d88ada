"""callgrind_costs.py FILE: prints "INSTRUCTIONS MALLOCS OURS" for one callgrind output file.

INSTRUCTIONS: the whole run's. MALLOCS: the calls to malloc. OURS: the instructions outside libmicrohttpd:
the whole run's less libmicrohttpd's own and those of the C library functions libmicrohttpd calls (its
memset of each connection's pool, its memcpy, its system call wrappers), so what remains is the daemon's
code, the Swift runtime and the C library as the daemon calls them.
"""
import re
import sys

names = {}


def resolve(kind, rest):
    """callgrind compresses names: "(id) name" the first time, "(id)" after."""
    match = re.match(r"\((\d+)\)(?: (.*))?$", rest)
    if not match:
        return rest
    table = names.setdefault(kind, {})
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table.get(match.group(1), "")


def is_mhd(obj):
    return obj is not None and "libmicrohttpd" in obj


def is_libc(obj):
    return obj is not None and ("libc.so" in obj or "ld-linux" in obj)


instructions, mallocs, mhd = None, 0, 0
obj = callee_obj = callee = None
in_call = False
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    if not line:
        continue
    key, sep, rest = line.partition("=")
    if sep and key in ("ob", "fn", "cob", "cfn", "fl", "fi", "fe", "cfi", "cfl", "calls"):
        if key == "ob":
            obj = resolve("ob", rest)
        elif key == "fn":
            resolve("fn", rest)
            callee_obj = None
        elif key == "cob":
            callee_obj = resolve("ob", rest)
        elif key == "cfn":
            callee = resolve("fn", rest)
        elif key == "calls":
            in_call = True
            if callee == "malloc":
                mallocs += int(rest.split()[0])
        continue
    if line.startswith(("summary:", "totals:")):
        instructions = int(line.split()[1])
        continue
    if line[0].isdigit() or line[0] in "+-*":
        parts = line.split()
        cost = int(parts[1]) if len(parts) > 1 else 0
        if in_call:
            # The inclusive cost of one call: libmicrohttpd's calls into the C library are libmicrohttpd's.
            target = callee_obj if callee_obj is not None else obj
            if is_mhd(obj) and is_libc(target):
                mhd += cost
            in_call = False
            callee_obj = None
        elif is_mhd(obj):
            mhd += cost
print(instructions, mallocs, None if instructions is None else instructions - mhd)
