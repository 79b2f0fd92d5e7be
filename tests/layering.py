#!/usr/bin/env python3
"""Checks that includes point one way between UniCL's layers.

    layering.py SOURCE_ROOT

Each folder may include itself and the folders listed for it; anything else
(a core header including the memory layer, the core naming the schedulers)
is a layering error. The build also enforces the link order (each layer is
a static library linking only those below it); this catches the includes,
which a link does not see when they are header-only.

It also checks that every call into a vendor is made in src/backend: the
other layers reach vendors only through the backend's named operations
(vendor_objects.hpp, vendor_commands.hpp, vendor_info.hpp, the endpoint),
never through a vendor's dispatch table (vendor_table()); and that src/api holds
entry points only: it defines no member of a core object and no function a
core header declares (an object's behaviour lives in the core file named
after it, as the core library defines what the core headers declare); and
that the include folders all layers share are src/ and include/ only; and
that only the core defines the ICD's object structs (`struct _cl_context`,
...): a vendor library of ours (the node client, the simulator ICD) names
its objects its own way, or one process would hold two different types of one
name, kept apart only by symbol visibility.
"""
import pathlib
import re
import sys

# folder -> folders it may include (besides itself)
ALLOWED = {
    'src/backend': set(),
    # What a kernel touches, as data: below the core, beside the backend.
    'src/access': set(),
    'src/core': {'src/access', 'src/backend'},
    'src/memory': {'src/core', 'src/access', 'src/backend'},
    'src/api': {'src/memory', 'src/core', 'src/access', 'src/backend'},
    'schedulers': {'src/core', 'src/access', 'src/backend'},
    # Above the API: a divided launch is built from UniCL's own entry points.
    'granularity': {'src/api', 'schedulers', 'src/core', 'src/access', 'src/backend'},
    # The kernel analysis (Clang, LLVM): a process of its own, writing what
    # it finds in src/access's terms; nothing of libunicl.so includes it.
    'analysis': {'src/access'},
    # Beside the core, in three rooms: what both ends share (the messages
    # first), rank 0's node client (a vendor library of its own) and
    # unicl-node; the two ends never include each other, and reach vendors
    # only as the backend does.
    'src/cluster/protocol': {'src/backend'},
    'src/cluster/client': {'src/cluster/protocol', 'src/backend'},
    'src/cluster/node': {'src/cluster/protocol', 'src/backend'},
    'icd/top': {'src/api', 'src/memory', 'src/core', 'src/access', 'src/backend', 'schedulers', 'granularity'},
}


def layer_of_file(rel):
    if rel.startswith('icd/'):
        return 'icd/top'
    for layer in ALLOWED:
        if rel.startswith(layer + '/'):
            return layer
    return None


def layer_of_include(inc):
    if inc.startswith('CL/'):
        return 'public'
    for prefix, layer in (('backend/', 'src/backend'), ('access/', 'src/access'), ('analysis/', 'analysis'),
                          ('core/', 'src/core'), ('memory/', 'src/memory'),
                          ('api/', 'src/api'), ('schedulers/', 'schedulers'),
                          ('granularity/', 'granularity'), ('cluster/protocol/', 'src/cluster/protocol'),
                          ('cluster/client/', 'src/cluster/client'), ('cluster/node/', 'src/cluster/node'),
                          ('cluster/', 'src/cluster')):
        if inc.startswith(prefix):
            return layer
    return None  # a file beside the includer


# A function defined at the top level of a file (its signature starts in the
# first column): `ret name(...) {`, `_cl_x::name(...) {`, `_cl_x::~_cl_x() {`.
TOP_LEVEL_DEFINITION = re.compile(r'^(?:[\w:<>,*&]+[ *&]+)*?((?:_cl_\w+::)?~?\w+)\(', re.M)


def api_defines_core(root):
    """Core members and core-declared functions defined in src/api."""
    declared = set()
    for header in root.glob('src/core/*.hpp'):
        declared.update(re.findall(r'\b(\w+)\(', header.read_text()))
    errors = []
    for path in sorted(root.glob('src/api/*.cpp')):
        text = path.read_text()
        for m in TOP_LEVEL_DEFINITION.finditer(text):
            # A definition, not a declaration or a call: its body follows.
            rest = text[m.end():]
            depth, i = 1, 0
            while i < len(rest) and depth:
                depth += rest[i] == '('
                depth -= rest[i] == ')'
                i += 1
            after = rest[i:].lstrip()
            if not after.startswith(('{', 'const {', ': ')):
                continue
            name = m.group(1)
            line = text[:m.start()].count('\n') + 1
            rel = path.relative_to(root).as_posix()
            if name.startswith('_cl_'):
                errors.append(f'{rel}:{line}: defines {name}, a member of a core object (its core file defines it)')
            elif name in declared and not name.startswith('cl'):
                errors.append(f'{rel}:{line}: defines {name}, which a core header declares')
    return errors


# The include folders every layer shares: src/ and include/ only. With the
# root or icd/ among them, any layer could name any folder from there (and a
# generated header could be reached by a bare name from anywhere).
SHARED_INCLUDES = re.compile(r"^unicl_inc = include_directories\(([^)]*)\)", re.M)


def shared_include_folders(root):
    m = SHARED_INCLUDES.search((root / 'meson.build').read_text())
    if not m:
        return ['meson.build: no unicl_inc = include_directories(...) found']
    folders = {f.strip().strip("'") for f in m.group(1).split(',')}
    extra = folders - {'src', 'include'}
    return [f'meson.build: unicl_inc shares {sorted(extra)} with every layer (only src and include)'] if extra else []


ICD_OBJECT_DEFINITION = re.compile(r'^\s*struct\s+(_cl_\w+)\s*[:{]', re.M)


def icd_objects_outside_core(root):
    errors = []
    for path in sorted(list(root.glob('src/**/*.[ch]pp')) + list(root.glob('tests/**/*.[ch]pp'))):
        rel = path.relative_to(root).as_posix()
        if rel.startswith('src/core/'):
            continue
        text = path.read_text()
        for m in ICD_OBJECT_DEFINITION.finditer(text):
            line = text[:m.start()].count('\n') + 1
            errors.append(f'{rel}:{line}: defines struct {m.group(1)}, which only src/core defines')
    return errors


def main():
    root = pathlib.Path(sys.argv[1])
    errors = api_defines_core(root) + shared_include_folders(root) + icd_objects_outside_core(root)
    for path in sorted(list(root.glob('src/**/*.[ch]pp')) + list(root.glob('schedulers/*.[ch]pp')) +
                       list(root.glob('granularity/*.[ch]pp')) + list(root.glob('analysis/*.[ch]pp')) +
                       list(root.glob('icd/*.[ch]pp'))):
        rel = path.relative_to(root).as_posix()
        layer = layer_of_file(rel)
        if layer is None:
            errors.append(f'{rel}: not in any layer')
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split('//')[0]
            if layer != 'src/backend' and re.search(r'\bvendor_table\(', code):
                errors.append(f'{rel}:{n}: calls a vendor through its dispatch table outside src/backend')
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if '..' in inc:
                errors.append(f'{rel}:{n}: relative include "{inc}" (name it from src/ or the root)')
                continue
            target = layer_of_include(inc)
            if target in (None, layer, 'public') or target in ALLOWED[layer]:
                continue
            errors.append(f'{rel}:{n}: {layer} includes {target} ("{inc}")')
    for e in errors:
        print(e)
    print(f'layering: {len(errors)} error(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
