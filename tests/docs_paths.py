#!/usr/bin/env python3
"""Checks that the documents name what the sources hold.

    docs_paths.py SOURCE_ROOT

Every file docs/*.md and README.md name in backquotes (a path with a folder and an
extension, outside the build folder) exists, and every `Type::member` they
name is in the sources (`Type::member(` in a definition, or `member`
declared inside a class or struct `Type`). Prints what is
missing and exits 1 if anything is.
"""
import pathlib
import re
import sys

FOLDERS = ('src/', 'schedulers/', 'granularity/', 'analysis/', 'icd/', 'tests/', 'tools/', 'bench/', 'docs/',
           'samples/', 'conformance/', 'include/')
PATH = re.compile(r'`([\w./-]+/[\w.-]+\.\w+)`')
MEMBER = re.compile(r'`(~?\w+)::(~?\w+)`')


def sources(root):
    for folder in FOLDERS[:6] + ('include/',):
        for path in (root / folder).rglob('*'):
            if path.suffix in ('.cpp', '.hpp', '.h', '.c'):
                yield path.read_text(errors='replace')


def defined(texts, type_name, member):
    qualified = re.compile(r'\b' + re.escape(type_name) + r'::' + re.escape(member) + r'\s*\(')
    in_class = re.compile(r'\b(?:struct|class)\s+' + re.escape(type_name) + r'\b[^;]*?\{', re.S)
    declared = re.compile(r'\b' + re.escape(member) + r'\b\s*[({;=\[]')
    for text in texts:
        if qualified.search(text):
            return True
        for m in in_class.finditer(text):
            # The class body: up to the brace that closes it.
            depth, i = 1, m.end()
            while i < len(text) and depth:
                depth += {'{': 1, '}': -1}.get(text[i], 0)
                i += 1
            if declared.search(text[m.end():i]):
                return True
    return False


def main():
    root = pathlib.Path(sys.argv[1])
    missing = []
    texts = list(sources(root))
    for doc_path in sorted(root.glob('docs/*.md')) + [root / 'README.md']:
        doc = doc_path.read_text()
        name = doc_path.relative_to(root)
        for path in sorted(set(PATH.findall(doc))):
            if path.startswith(FOLDERS) and not (root / path).exists():
                missing.append(f'{name} names file {path}')
        for type_name, member in sorted(set(MEMBER.findall(doc))):
            if not defined(texts, type_name, member):
                missing.append(f'{name} names {type_name}::{member}')
    for what in missing:
        print(f'{what}, which the sources do not hold')
    print(f'docs_paths: {len(missing)} missing')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
