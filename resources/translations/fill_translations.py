#!/usr/bin/env python3
"""Fills resources/translations/*.ts from the dictionary in zh_CN.json after `cmake --build
build/dev --target update_translations` has extracted new strings: en gets the source text,
zh_CN the translation (a missing one is reported and left unfinished, which fails the tests)."""
import html, json, re, sys, pathlib

here = pathlib.Path(__file__).resolve().parent
zh = json.loads((here / "zh_CN.json").read_text(encoding="utf-8"))
missing = []

def english_forms(source):
    """A %n message's English singular and plural: "%n call(s)" -> "%n call", "%n calls"."""
    return [re.sub(r"(\w+)\(s\)", r"\1", source), re.sub(r"(\w+)\(s\)", r"\1s", source)]

def fill(path, lang):
    text = path.read_text(encoding="utf-8")
    def repl(m):
        numerus = m.group(1) is not None
        source_xml = m.group(2)
        source = html.unescape(source_xml)
        if lang == "en":
            forms = english_forms(source) if numerus else [source]
        else:
            target = zh.get(source)
            if target is None:
                missing.append(source)
                return m.group(0)
            forms = [target] # Chinese has one plural form
        head = '<message numerus="yes">' if numerus else "<message>"
        if numerus:
            body = "".join("\n            <numerusform>%s</numerusform>" % html.escape(f, quote=False) for f in forms)
            translation = "<translation>%s\n        </translation>" % body
        else:
            translation = "<translation>%s</translation>" % html.escape(forms[0], quote=False)
        return "%s\n        %s<source>%s</source>\n        %s" % (head, m.group(3), source_xml, translation)
    text = re.sub(r'<message( numerus="yes")?>\s*((?:<location[^>]*/>\s*)*)<source>(.*?)</source>\s*<translation[^>]*>.*?</translation>',
                  lambda m: repl(FakeMatch(m)), text, flags=re.S)
    path.write_text(text, encoding="utf-8")

class FakeMatch:
    """Groups as repl() reads them: 1 numerus, 2 source, 3 the location lines kept in front."""
    def __init__(self, m):
        self.m = m
    def group(self, i):
        if i == 0:
            return self.m.group(0)
        if i == 1:
            return self.m.group(1)
        if i == 2:
            return self.m.group(3)
        locations = self.m.group(2)
        return locations.strip() + "\n        " if locations.strip() else ""

fill(here / "parascope_en.ts", "en")
fill(here / "parascope_zh_CN.ts", "zh")
for m in sorted(set(missing)):
    print("missing zh_CN translation:", repr(m), file=sys.stderr)
sys.exit(1 if missing else 0)
