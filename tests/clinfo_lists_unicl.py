#!/usr/bin/env python3
"""clinfo, a real OpenCL client, run in UniCL's exclusive mode (the
environment comes from meson): it must list exactly one platform, UniCL,
holding every device, and its full report must complete.

usage: clinfo_lists_unicl.py EXPECTED_DEVICE_COUNT [--no-query-errors]
With --no-query-errors, no query of the full report may fail (clinfo prints
"error -30" and the like for those).
Exits 77 (meson's "skipped") when clinfo is not installed.
"""
import re
import shutil
import subprocess
import sys

expected_devices = int(sys.argv[1])
no_query_errors = '--no-query-errors' in sys.argv[2:]
clinfo = shutil.which('clinfo')
if not clinfo:
    print('SKIP: clinfo is not installed (Debian package "clinfo")')
    sys.exit(77)


def run(*args):
    r = subprocess.run([clinfo, *args], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f'clinfo {" ".join(args)} exited {r.returncode}\n{r.stdout}\n{r.stderr}')
    return r.stdout


failures = []

listing = run('-l')
platforms = re.findall(r'^Platform #\d+: (.*)$', listing, re.M)
devices = re.findall(r'^ [+`]-- Device #\d+: (.*)$', listing, re.M)
if platforms != ['UniCL']:
    failures.append(f'clinfo -l platforms: {platforms}, expected only UniCL')
if len(devices) != expected_devices:
    failures.append(f'clinfo -l devices: {devices}, expected {expected_devices}')

raw = run('--raw')
raw_platforms = set(re.findall(r'^\[([^/\]]+)/\*\]\s+CL_PLATFORM_NAME\s+(.*)$', raw, re.M))
if raw_platforms != {('UNICL', 'UniCL')}:
    failures.append(f'clinfo --raw platforms: {raw_platforms}')
raw_devices = re.findall(r'^\[UNICL/(\d+)\]\s+CL_DEVICE_NAME\s+(.*)$', raw, re.M)
if len(raw_devices) != expected_devices:
    failures.append(f'clinfo --raw devices: {raw_devices}')

# The full report queries every property of every device (its later
# sections about default devices repeat names at a deeper indent).
report = run()
if len(re.findall(r'^  Device Name ', report, re.M)) != expected_devices:
    failures.append('full report does not describe every device')
if no_query_errors:
    failures += [f'a query failed: {line.strip()}' for line in report.splitlines() if re.search(r'error -?\d+', line)]

for f in failures:
    print('FAIL:', f)
print(f'{1 if not failures else 0} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
