#!/usr/bin/env python3
"""PyOpenCL, a real OpenCL client, on UniCL in exclusive mode (the
environment comes from meson): it must find the UniCL platform, build a
program and run a kernel with correct results on every device, alone and in
one context of all devices.

usage: pyopencl_runs_on_unicl.py EXPECTED_DEVICE_COUNT
Exits 77 (meson's "skipped") when python3-pyopencl is not installed.
"""
import os
import subprocess
import sys

try:
    import numpy as np
    import pyopencl as cl
except ImportError:
    # The Debian package installs for the system interpreter, which may not
    # be the first python3 on PATH.
    system_python = '/usr/bin/python3'
    if (os.path.exists(system_python) and os.path.realpath(system_python) != os.path.realpath(sys.executable)
            and subprocess.run([system_python, '-c', 'import pyopencl, numpy'],
                               capture_output=True).returncode == 0):
        os.execv(system_python, [system_python, *sys.argv])
    print('SKIP: python3-pyopencl is not installed')
    sys.exit(77)

expected_devices = int(sys.argv[1])
SOURCE = """
__kernel void saxpy(__global const float *x, __global float *y, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
"""
N = 64  # oclgrind simulates each work-item: keep it small
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print('FAIL:', what)


platforms = cl.get_platforms()
check([p.name for p in platforms] == ['UniCL'], f'platforms: {[p.name for p in platforms]}')
unicl = next(p for p in platforms if p.name == 'UniCL')
devices = unicl.get_devices()
check(len(devices) == expected_devices, f'{len(devices)} devices, expected {expected_devices}')

x = np.arange(N, dtype=np.float32)
y0 = np.full(N, 2.0, dtype=np.float32)


def saxpy(ctx, queue, program, a):
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y0)
    program.saxpy(queue, (N,), None, xb, yb, np.float32(a))
    out = np.empty_like(y0)
    cl.enqueue_copy(queue, out, yb)
    return out


for d in devices:
    check(d.platform == unicl, f'{d.name}: device platform is not UniCL')
    ctx = cl.Context([d])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, SOURCE).build()
    out = saxpy(ctx, queue, program, 3.0)
    check(np.array_equal(out, 3.0 * x + y0), f'{d.name}: wrong result {out[:4]}...')

# One context of every device, a queue and a run on each.
ctx = cl.Context(devices)
program = cl.Program(ctx, SOURCE).build()
for i, d in enumerate(devices):
    out = saxpy(ctx, cl.CommandQueue(ctx, d), program, float(i + 1))
    check(np.array_equal(out, (i + 1) * x + y0), f'{d.name} in the shared context: wrong result {out[:4]}...')

print(f'{1 if not failures else 0} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
