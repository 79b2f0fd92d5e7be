#!/usr/bin/env python3
"""Generate UniCL's ICD dispatch table from the Khronos header and one list.

Inputs: the system's CL/cl_icd.h (slot order and every entry point's exact
signature), UniCL's CL/cl_ext_unicl.h (the signatures of its own extension
functions, from their clXxxUNICL_fn typedefs), the system's CL/cl_ext.h (those
of the Khronos extension functions UniCL forwards, from their clXxxKHR_fn
typedefs) and icd/entry_points.txt (the
entry points UniCL implements, one name per line). Outputs:
  api_decls.hpp     - declarations of unicl::api::<name> for implemented calls
  dispatch_table.cpp - the cl_icd_dispatch instance, a typed stub for every slot
                       UniCL does not implement (returns the spec's error), and
                       the name -> address table used by
                       clGetExtensionFunctionAddress.
With --slots FILE: also FILE, one UNICL_DISPATCH_SLOT(name) line per member of
cl_icd_dispatch in the header's order (an X-macro: the backend visits every slot
of a vendor's table with it, backend/vendor_execution.cpp).
With --refusals (libunicl.so's table, not the node client's): the stubs say why
they refuse (core/refusal.hpp), and a second table whose entries record their
names for those messages, which objects carry when UNICL_LOG is 2 or more
(dispatch_in_use()).
Nothing here is written by hand per entry point, so a new header release only
needs a rebuild.
"""
import os
import re
import subprocess
import sys


def balanced(text, start):
    """Index just past the parenthesised group opening at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == '(':
            depth += 1
        elif text[i] == ')':
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError('unbalanced parentheses')


def parse_typedefs(header, pattern=r'cl_api_(\w+)'):
    """Signatures from the preprocessed header (so #ifdef'd variants resolve),
    from typedefs of function pointers whose name matches `pattern` (its
    group: the entry point's name): cl_icd.h's cl_api_<name>, or UniCL's
    <name>_fn for its own extension functions."""
    sigs = {}
    for m in re.finditer(r'typedef\s+([\w\s\*]+?)\s*\(\s*\*\s*' + pattern + r'\s*\)\s*\(', header):
        ret, name = ' '.join(m.group(1).split()), m.group(2)
        open_paren = m.end() - 1
        params = header[open_paren + 1:balanced(header, open_paren) - 1]
        sigs[name] = (ret, ' '.join(params.split()))
    return sigs


def preprocess(path, include_dir):
    cc = os.environ.get('CC', 'cc')
    pre = subprocess.run([cc, '-E', '-P', '-DCL_TARGET_OPENCL_VERSION=300',
                          '-DCL_USE_DEPRECATED_OPENCL_1_0_APIS', '-DCL_USE_DEPRECATED_OPENCL_1_1_APIS',
                          '-DCL_USE_DEPRECATED_OPENCL_1_2_APIS', '-DCL_USE_DEPRECATED_OPENCL_2_0_APIS',
                          '-DCL_USE_DEPRECATED_OPENCL_2_1_APIS', '-DCL_USE_DEPRECATED_OPENCL_2_2_APIS',
                          '-I', include_dir, path], check=True, capture_output=True, text=True).stdout
    return re.sub(r'__attribute__\s*\(\(.*?\)\)', '', pre)


def parse_slots(header):
    body = header[header.index('typedef struct _cl_icd_dispatch'):]
    body = body[body.index('{') + 1:body.index('} cl_icd_dispatch;')]
    body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    body = re.sub(r'//[^\n]*', '', body)
    return [re.match(r'\s*cl_api_(\w+)\s+(\w+)\s*$', d.strip()).group(2)
            for d in body.split(';') if d.strip()]


def split_params(params):
    if params.strip() in ('', 'void'):
        return []
    parts, depth, cur = [], 0, ''
    for ch in params:
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    parts.append(cur.strip())
    return parts


def stub_params(params):
    """The parameter list with the error-code out-parameter named errcode_ret
    (headers leave some parameters unnamed); other names are dropped by
    leaving them as given."""
    out, has_err = [], False
    for p in split_params(params):
        if re.fullmatch(r'cl_int\s*\*\s*(errcode_ret)?', p):
            p, has_err = 'cl_int *errcode_ret', True
        out.append(p)
    return ', '.join(out), has_err


def main():
    argv = sys.argv[1:]
    slots_out = None
    if '--slots' in argv:
        i = argv.index('--slots')
        slots_out = argv[i + 1]
        del argv[i:i + 2]
    args = [a for a in argv if a != '--refusals']
    refusals = '--refusals' in argv
    header_path, ext_header_path, list_path, decls_out, table_out = args
    header = open(header_path).read()
    pre = preprocess(header_path, os.path.dirname(os.path.dirname(os.path.abspath(header_path))))
    sigs = parse_typedefs(pre)
    sigs.update(parse_typedefs(
        preprocess(ext_header_path, os.path.dirname(os.path.dirname(os.path.abspath(ext_header_path)))),
        r'(\w+UNICL)_fn'))
    # Khronos extension functions UniCL forwards (cl_khr_command_buffer), from
    # their clXxxKHR_fn typedefs in CL/cl_ext.h beside CL/cl_icd.h.
    khr_header = os.path.join(os.path.dirname(os.path.abspath(header_path)), 'cl_ext.h')
    sigs.update({name: sig for name, sig in parse_typedefs(
        preprocess(khr_header, os.path.dirname(os.path.dirname(os.path.abspath(khr_header)))),
        r'(\w+KHR)_fn').items() if name not in sigs})
    slots = parse_slots(header)
    if slots_out:
        with open(slots_out, 'w') as f:
            f.write('// Generated by icd/gen_dispatch.py from CL/cl_icd.h: every slot of\n')
            f.write('// cl_icd_dispatch. Define UNICL_DISPATCH_SLOT(name) before including.\n')
            for n in slots:
                f.write(f'UNICL_DISPATCH_SLOT({n})\n')
    implemented = [l.split('#')[0].strip() for l in open(list_path)]
    implemented = [n for n in implemented if n]
    missing = [n for n in implemented if n not in sigs and n != 'clIcdGetPlatformIDsKHR']
    if missing:
        sys.exit('entry points not in cl_icd.h: ' + ', '.join(missing))

    with open(decls_out, 'w') as f:
        f.write(f'// Generated by icd/gen_dispatch.py from CL/cl_icd.h and {os.path.basename(list_path)}.\n')
        f.write('#pragma once\n#include "backend/cl_headers.hpp"\nnamespace unicl::api {\n')
        for n in implemented:
            if n in sigs:
                ret, params = sigs[n]
                f.write(f'{ret} CL_API_CALL {n}({params});\n')
        f.write('cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id *, cl_uint *);\n')
        f.write('void *extension_function_address(const char *name);\n')
        f.write('}  // namespace unicl::api\n')

    with open(table_out, 'w') as f:
        f.write(f'// Generated by icd/gen_dispatch.py from CL/cl_icd.h and {os.path.basename(list_path)}.\n')
        f.write(f'#include "{os.path.basename(decls_out)}"\n#include <cstring>\n#include <string_view>\n\n')
        if refusals:
            f.write('#include "core/refusal.hpp"\n#include "core/runtime.hpp"\n\n')
        f.write('namespace unicl::api {\nnamespace {\n')
        f.write('// Slots UniCL does not implement: the spec error for an absent optional feature.\n')
        for s in slots:
            if s in implemented or s not in sigs:
                continue
            ret, params = sigs[s]
            params, has_err = stub_params(params)
            f.write(f'{ret} CL_API_CALL stub_{s}({params}) {{\n')
            def refused(code):
                return f'refuse({code}, "UniCL does not implement {s}")' if refusals else code
            if ret == 'cl_int':
                f.write(f'  return {refused("CL_INVALID_OPERATION")};\n')
            elif ret == 'void':
                pass
            else:
                if has_err:
                    f.write(f'  if (errcode_ret) *errcode_ret = {refused("CL_INVALID_OPERATION")};\n')
                f.write('  return nullptr;\n')
            f.write('}\n')
        if refusals:
            f.write('''
// The entries of the logging table (UNICL_LOG=2): each records the entry
// point's name for the refusals made while it runs (core/refusal.hpp).
template <auto Entry, const char *Name>
struct Logged;
template <class R, class... A, R(CL_API_CALL *Entry)(A...), const char *Name>
struct Logged<Entry, Name> {
  static R CL_API_CALL call(A... args) {
    EntryPointScope scope(Name);
    return Entry(args...);
  }
};

''')
        def target(s):
            return s if s in implemented else f'stub_{s}'
        named = [s for s in slots if s in sigs] + [n for n in implemented if n in sigs and n not in slots]
        for s in named if refusals else []:
            f.write(f'constexpr char kName_{s}[] = "{s}";\n')
        f.write('}  // namespace\n\n')
        for table, wrap in (('dispatch_table', False), ('logged_dispatch_table', True))[:2 if refusals else 1]:
            f.write(f'extern const cl_icd_dispatch {table};\nconst cl_icd_dispatch {table} = {{\n')
            for s in slots:
                if s in sigs:
                    entry = f'&{target(s)}'
                    f.write(f'    &Logged<{entry}, kName_{s}>::call,\n' if wrap else f'    {entry},\n')
                else:
                    f.write(f'    nullptr,  // {s}: not declared on this platform\n')
            f.write('};\n\n')
        if refusals:
            f.write('''const cl_icd_dispatch *dispatch_in_use() {
  return Runtime::get().log_level() >= kLogRefusals ? &logged_dispatch_table : &dispatch_table;
}

''')
        f.write('void *extension_function_address(const char *name) {\n')
        f.write('  if (!name) return nullptr;\n  std::string_view n(name);\n')
        if refusals:
            f.write('  const bool logged = dispatch_in_use() == &logged_dispatch_table;\n')
        # Only extension functions are looked up by name; core ones are linked.
        for n in implemented:
            if n.endswith(('KHR', 'EXT', 'UNICL')):
                plain = f'reinterpret_cast<void *>(&{n})'
                address = f'logged ? reinterpret_cast<void *>(&Logged<&{n}, kName_{n}>::call) : {plain}' if refusals else plain
                f.write(f'  if (n == "{n}") return {address};\n')
        f.write('  return nullptr;\n}\n')
        f.write('}  // namespace unicl::api\n')


if __name__ == '__main__':
    main()
