#!/usr/bin/env python3
"""The main window stays wiring (issue 33): ui/main_window.cpp at most 300 lines, MainWindow at
most 20 data members. What it used to hold lives in ui/controllers/ (files, imports, exports,
the course, compare, presenter mode, the language) and ui/pages/ (the Explorer)."""
import pathlib, re, sys

MAX_LINES, MAX_MEMBERS = 300, 20
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
failures = []
lines = len((root / "ui/main_window.cpp").read_text(encoding="utf-8").splitlines())
if lines > MAX_LINES:
    failures.append(f"ui/main_window.cpp has {lines} lines (at most {MAX_LINES})")
header = (root / "ui/main_window.h").read_text(encoding="utf-8")
body = header[header.index("class MainWindow : public QMainWindow"):]
body = body[: body.index("\n};")]
# A data member: a declaration ending in `name_;` or `name_ = …;` (the project's member style).
members = re.findall(r"^\s+[^()\n]*?\b(\w+_)\s*(?:=[^;\n]*)?;\s*(?://.*)?$", body, re.M)
if len(members) > MAX_MEMBERS:
    failures.append(f"MainWindow has {len(members)} data members (at most {MAX_MEMBERS}): {', '.join(members)}")
for f in failures:
    print("main_window_shape:", f)
print(f"main_window_shape: {lines} lines, {len(members)} members")
sys.exit(1 if failures else 0)
