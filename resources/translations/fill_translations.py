#!/usr/bin/env python3
"""Fills resources/translations/*.ts from the dictionary in zh_CN.json after `cmake --build
build/dev --target update_translations` has extracted new strings: en gets the source text,
zh_CN the translation (a missing one is reported and left unfinished, which fails the tests)."""
import html, json, re, sys, pathlib

here = pathlib.Path(__file__).resolve().parent
zh = json.loads((here / "zh_CN.json").read_text(encoding="utf-8"))
missing = []

def fill(path, lang):
    text = path.read_text(encoding="utf-8")
    def repl(m):
        source_xml = m.group(1)
        source = html.unescape(source_xml)
        if lang == "en":
            target = source
        else:
            target = zh.get(source)
            if target is None:
                missing.append(source)
                return m.group(0)
        return "<source>%s</source>\n        <translation>%s</translation>" % (source_xml, html.escape(target, quote=False))
    text = re.sub(r"<source>(.*?)</source>\s*<translation[^>]*>.*?</translation>", repl, text, flags=re.S)
    path.write_text(text, encoding="utf-8")

fill(here / "parascope_en.ts", "en")
fill(here / "parascope_zh_CN.ts", "zh")
for m in sorted(set(missing)):
    print("missing zh_CN translation:", repr(m), file=sys.stderr)
sys.exit(1 if missing else 0)
