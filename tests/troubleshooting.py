#!/usr/bin/python3
"""troubleshooting.py SOURCE_DIR: every message docs/troubleshooting.md
quotes in a ```message block is one the tools can print.

Each line of such a block is a message as a tool prints it. Its variable
parts are masked: text in single quotes, byte counts (23.8 GB), numbers,
the operating system's error texts (os.strerror) and a tool's leading
"NAME: error: ". What is left is a list of fixed pieces, and each piece
of two words or more must be made of the sources' strings (gen/,
play/, common/, scripts/: in C++ each string literal, adjacent literals
joined as the compiler joins them; in scripts, the file's text): of
stretches of three words or more found in one of them, and of words that
are a whole C++ literal of their own (a phase's name, a piece set's, a
role such as "the output", which the code joins in). Fails naming each
message with a piece that cannot be made so, and the piece."""
import os
import re
import sys

source = sys.argv[1]
page = os.path.join(source, "docs", "troubleshooting.md")

# The string literals of the sources.
literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
adjacent = re.compile(r'"\s*(?://[^\n]*\n\s*)*"')  # "a" "b", across lines and comments
texts = []
for room in ("gen", "play", "common", "scripts"):
    for folder, _, files in os.walk(os.path.join(source, room)):
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith((".cpp", ".h", ".cu")):
                code = adjacent.sub("", open(path, encoding="utf-8", errors="replace").read())
                texts += [m.group(1).replace('\\"', '"').replace("\\\\", "\\") for m in literal.finditer(code)]
            elif folder.endswith("scripts") or name.endswith((".py", ".sh")):
                texts.append(open(path, encoding="utf-8", errors="replace").read())
corpus = "\n\x00".join(texts)

# The OS's error texts, longest first (so that a longer one is masked whole).
os_errors = sorted({os.strerror(n) for n in range(1, 134)} - {""}, key=len, reverse=True)
masks = [r"^[\w.]+: error: ",                        # the tools' error prefix, added where the error is caught
         "|".join(re.escape(e) for e in os_errors),  # strerror texts
         r"'[^']*'",                                 # quoted names, paths, values
         r"[\w./-]*\.h5(?:\.partial|\.lock)?\b|(?<![\w.])/[\w./-]+",  # table files, absolute paths
         r"--[a-z][a-z-]*",                          # option names
         r"\b(?:tetrominoes|rectangles|pentominoes|float64|float32)\b",  # piece sets, precisions
         r"(?<= in )\.(?=[: ])",                     # the current directory
         r"\d+(?:\.\d+)?(?:e[-+]?\d+)? ?[KMGTP]i?B\b",   # byte counts
         r"\(pid [^)]*\)",                           # a holder's pid
         r"\{[\d,]*\}",                              # classes {0,1,2,3}
         r"\d[\d.,]*"]                               # numbers
variable = re.compile("|".join("(?:%s)" % m for m in masks))

messages = []
fence = None
for number, line in enumerate(open(page, encoding="utf-8"), 1):
    if fence is None and line.startswith("```message"):
        fence = number
    elif fence is not None and line.startswith("```"):
        fence = None
    elif fence is not None and line.strip():
        messages.append((number, line.rstrip("\n")))

# The short C++ literals, whole: stripped ("compute") or as written (" and ").
whole = {t.strip() for t in texts if 4 <= len(t.strip()) < 40} | {t for t in texts if 4 <= len(t) < 40}


def words(text):
    return len(re.findall(r"[A-Za-z]+", text))


def made(piece):
    """Whether the piece is a run of stretches, each at word boundaries:
    no letters at all, a whole short literal, or three words or more found
    in one string of the sources."""
    cuts = [0] + [m.start() for m in re.finditer(r"(?<=[^\w-])(?=[\w-])|(?<=[\w-])(?=[^\w-])", piece)] + [len(piece)]
    reach = {0}
    for i, start in enumerate(cuts):
        if start not in reach:
            continue
        for end in cuts[i + 1:]:
            stretch = piece[start:end]
            if words(stretch) == 0 or stretch.strip() in whole or stretch in whole or (words(stretch) >= 3 and stretch in corpus):
                reach.add(end)
    return len(piece) in reach


failures = 0
for number, message in messages:
    pieces = [p for p in variable.split(message) if p and words(p) >= 2]
    missing = [p for p in pieces if p not in corpus and not made(p)]
    if missing or not pieces:
        failures += 1
        print("FAIL: docs/troubleshooting.md:%d: %r: %s" % (
            number, message, "no tool prints %r" % missing[0] if missing else "nothing fixed to look for"))
print("%d messages quoted in docs/troubleshooting.md, %d not printed by any tool" % (len(messages), failures))
sys.exit(1 if failures or not messages else 0)
