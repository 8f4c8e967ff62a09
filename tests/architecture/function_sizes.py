#!/usr/bin/env python3
"""No function in core/, ui/ or app/ over 80 lines (a diagnostic rule in core/estimate/rules_*.cpp: 60),
except those the allow-list names with a reason.

    function_sizes.py <repo> [--list]

A function is a body opened at namespace or class scope after a parameter list ("f(...) {",
"f(...) const {", "X::X(...) : a(b) {"); its length runs from the first line of its declaration to
its closing brace. Lambdas and local classes count as part of the function they sit in. Comments,
strings and character literals are blanked before braces are matched, so a "{" in a string or a
comment does not count.

tests/architecture/function-size-allowlist.txt lists "path function lines reason". An entry fails
when the function grew past the lines written there (split it, or raise the number in a commit
that says why), when it is back under the limit (delete the entry), or when it is gone.
--list prints every function over the limit with its length.
"""
import os
import re
import sys

LIMIT = 80
# Tighter limits where the design asks for them: a diagnostic rule is one short check.
TIGHTER = (("core/estimate/rules_", 60),)
FOLDERS = ("core", "ui", "app")
EXTENSIONS = (".cpp", ".h", ".cu", ".cuh")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|return)\s*\(")
SIGNATURE_END = re.compile(r"\)\s*(const\s*)?(noexcept\s*(\([^)]*\))?\s*)?(override\s*|final\s*)*(->\s*[\w:<>,\s*&]+)?$")


def blank(text):
    """Comments, strings and character literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            j = n if end < 0 else end + len(m.group(1) if m else "") + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):  # digit separator 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, length) of every function body opened at namespace or class scope."""
    text = blank(open(path, encoding="utf-8").read())
    found = []
    stack = []  # per open brace: "function" or "scope" (namespace, class, other)
    header_start = 0  # index after the last ; { or } at this level
    line_of = [0] * (len(text) + 1)
    line = 1
    for i, c in enumerate(text):
        line_of[i] = line
        if c == "\n":
            line += 1
    parens = 0  # a ";" inside "for (...;...)" does not end a declaration
    for i, c in enumerate(text):
        if c == "(":
            parens += 1
        elif c == ")":
            parens = max(0, parens - 1)
        elif c == "{":
            header = text[header_start:i].strip()
            in_function = any(scope[0] == "function" for scope in stack)
            is_function = (not in_function and SIGNATURE_END.search(header_tail(header)) is not None
                           and not CONTROL.search(header) and "=" not in header.split("(")[0])
            if is_function:
                name = function_name(header)
                start = header_start + len(text[header_start:i]) - len(text[header_start:i].lstrip())
                stack.append(("function", name, line_of[start]))
            else:
                stack.append(("scope",))
            header_start = i + 1
        elif c == "}":
            if stack:
                top = stack.pop()
                if top[0] == "function":
                    found.append((top[1], top[2], line_of[i] - top[2] + 1))
            header_start = i + 1
        elif c == ";" and parens == 0:
            header_start = i + 1
    return found


def header_tail(header):
    """The part of a declaration before a constructor's initializer list."""
    depth = 0
    for k, ch in enumerate(header):
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == ":" and depth == 0 and header[k - 1:k] != ":" and header[k + 1:k + 2] != ":" and header[:k].rstrip().endswith(")"):
            return header[:k].rstrip()
    return header


def function_name(header):
    head = header_tail(header)
    head = re.sub(r"\s+", " ", head)
    m = re.search(r"([~\w:]+|operator\s*[^\s(]+)\s*\(", head)
    return m.group(1) if m else head[:40]


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    listing = "--list" in sys.argv
    allow = {}
    allow_path = os.path.join(repo, "tests/architecture/function-size-allowlist.txt")
    for raw in open(allow_path, encoding="utf-8"):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        path, name, lines, reason = (raw.split(None, 3) + [""])[:4]
        if not reason:
            print(f"{allow_path}: {path} {name}: the entry gives no reason")
            return 1
        allow[(path, name)] = int(lines)
    over, seen, count = [], set(), 0
    for folder in FOLDERS:
        for root, _, files in os.walk(os.path.join(repo, folder)):
            for f in sorted(files):
                if not f.endswith(EXTENSIONS):
                    continue
                full = os.path.join(root, f)
                rel = os.path.relpath(full, repo)
                limit = next((n for prefix, n in TIGHTER if rel.startswith(prefix)), LIMIT)
                for name, first, length in functions(full):
                    count += 1
                    if length <= limit:
                        continue
                    if listing:
                        print(f"{rel} {name} {length}")
                    key = (rel, name)
                    if key in allow:
                        seen.add(key)
                        if length > allow[key]:
                            over.append(f"  {rel}:{first} {name}: {length} lines, the allow-list says at most {allow[key]}")
                    else:
                        over.append(f"  {rel}:{first} {name}: {length} lines (limit {limit})")
    stale = [f"  {p} {n}: not over {LIMIT} lines any more (or gone): delete the entry" for (p, n) in allow if (p, n) not in seen]
    if count < 500:
        print(f"function_sizes: only {count} functions found under {repo}: wrong folder?")
        return 1
    if over or stale:
        print("function_sizes: functions over the limit:\n" + "\n".join(over + stale))
        return 1
    print(f"function_sizes: {count} functions in {', '.join(FOLDERS)}; {len(allow)} on the allow-list, none other over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
