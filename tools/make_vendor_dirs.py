#!/usr/bin/env python3
"""Creates the build tree's vendor folders (see src/meson.build).

usage: make_vendor_dirs.py BUILD_ROOT UNICL_ICD
  BUILD_ROOT/vendors-exclusive/unicl.icd      -> UniCL only
  BUILD_ROOT/vendors/{unicl.icd, system .icd} -> UniCL beside the system's vendors
  BUILD_ROOT/vendors-test/{pocl,oclgrind}.icd -> the real vendors tests use, by absolute path
"""
import glob
import os
import shutil
import sys

build, unicl_icd = sys.argv[1], sys.argv[2]
lib = os.path.join(os.path.dirname(unicl_icd), 'libunicl.so')


def write(folder, name, line):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'w') as f:
        f.write(line + '\n')


write(os.path.join(build, 'vendors-exclusive'), 'unicl.icd', lib)
write(os.path.join(build, 'vendors'), 'unicl.icd', lib)
for icd in sorted(glob.glob('/etc/OpenCL/vendors/*.icd')):
    shutil.copy(icd, os.path.join(build, 'vendors', os.path.basename(icd)))

LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib']
test_vendors = {
    'pocl.icd': ['libpocl.so.2*', 'libpocl.so.*', 'libpocl.so'],
    'oclgrind.icd': ['oclgrind/liboclgrind-rt-icd.so', 'liboclgrind-rt-icd.so'],
}
tests_dir = os.path.join(build, 'vendors-test')
os.makedirs(tests_dir, exist_ok=True)
for name, patterns in test_vendors.items():
    for pattern in patterns:
        found = sorted(p for d in LIB_DIRS for p in glob.glob(os.path.join(d, pattern)) if os.path.isfile(p))
        if found:
            write(tests_dir, name, os.path.realpath(found[0]))
            break
