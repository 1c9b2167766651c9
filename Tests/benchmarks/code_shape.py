#!/usr/bin/python3
"""The shape of a checkout: Swift and C files per folder of Sources, the largest files, the longest functions and
the two READMEs' lengths, so a tree can be compared with an older one (`git worktree add /tmp/old <commit>`).

    /usr/bin/python3 Tests/benchmarks/code_shape.py [checkout] [how many of each]

A function is counted from its declaration (`func`, `init`, `deinit`) to its closing brace. Not a test.
"""
import os
import re
import sys

DECLARATION = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|final|override|nonisolated|'
    r'mutating|convenience|required|package|class)\s+)*(func\s+([\w+\-*/<>=!&|^%~.]+)|init[?!]?|deinit)\b')
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        depth, opened = 0, False
        for j in range(i, min(len(lines), i + 2000)):
            code = STRING.sub('""', lines[j]).split("//")[0]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                yield j - i + 1, match.group(2) or match.group(1)
                break
            if not opened and j > i + 15:
                break


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    sources = os.path.join(root, "Sources")
    files, found = [], []
    print("files per folder (Swift and C):")
    for folder, _, names in sorted(os.walk(sources)):
        code = [n for n in names if n.endswith((".swift", ".c"))]
        if code:
            print("  %4d %s" % (len(code), os.path.relpath(folder, root)))
        for name in code:
            path = os.path.join(folder, name)
            files.append((sum(1 for _ in open(path, encoding="utf-8")), os.path.relpath(path, sources)))
            if name.endswith(".swift"):
                found += [(n, os.path.relpath(path, sources), f) for n, f in functions(path)]
    print("largest files (lines):")
    for lines, path in sorted(files, reverse=True)[:count]:
        print("  %5d %s" % (lines, path))
    print("longest functions (lines):")
    for lines, path, name in sorted(found, reverse=True)[:count]:
        print("  %5d %s %s" % (lines, path, name))
    print("functions over 60 lines: %d of %d" % (sum(1 for f in found if f[0] > 60), len(found)))
    for readme in ("README.md", "Tests/benchmarks/README.md"):
        path = os.path.join(root, readme)
        if os.path.exists(path):
            print("%s: %d lines" % (readme, sum(1 for _ in open(path, encoding="utf-8"))))


if __name__ == "__main__":
    main()
