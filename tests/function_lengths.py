#!/usr/bin/env python3
"""Checks that src/api holds entry points short enough to read at once.

    function_lengths.py SOURCE_ROOT [LIMIT]

An entry point checks its arguments, then makes one call into the object it
concerns (docs/architecture.md, "checks, then one call"): each function
defined at the top level of src/api/*.cpp, from its signature's first line
to its closing brace, is at most LIMIT lines (40 by default). Prints each
one over, longest first, and exits 1 if there is any.
"""
import pathlib
import re
import sys

# A definition's first line starts in the first column and is not a
# preprocessor line, comment, label, namespace, type or closing brace.
SIGNATURE = re.compile(r'^(?!namespace\b|struct\b|class\b|enum\b|using\b|template\b|static_assert\b|extern\b|#|//|}|\s)'
                       r'.*\b(~?\w+)\(')


def functions(text):
    """(name, first line, length) of each top-level function in `text`."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = SIGNATURE.match(lines[i])
        if not m or lines[i].rstrip().endswith(';'):
            i += 1
            continue
        # The body ends at the first closing brace in the first column.
        end = i
        while end < len(lines) and not lines[end].startswith('}'):
            if lines[end].rstrip().endswith(';') and end == i:
                break
            end += 1
        if end < len(lines) and lines[end].startswith('}') and '{' in ''.join(lines[i:end + 1]):
            yield m.group(1), i + 1, end - i + 1
            i = end + 1
        else:
            i += 1


def main():
    root = pathlib.Path(sys.argv[1])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    over = []
    for path in sorted(root.glob('src/api/*.cpp')):
        for name, line, length in functions(path.read_text()):
            if length > limit:
                over.append((length, f'{path.relative_to(root)}:{line}', name))
    for length, where, name in sorted(over, reverse=True):
        print(f'{where}: {name} is {length} lines (at most {limit})')
    print(f'function_lengths: {len(over)} function(s) over {limit} lines in src/api')
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main())
