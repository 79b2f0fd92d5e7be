#!/usr/bin/env python3
"""Runs test_sim_icd once per scenario (README.md, "Tests").

The simulator reads its configuration once per process, so each machine
description needs its own run of the test program; each run selects the
test cases of its scenario by Catch tag.

usage: run_scenarios.py TEST_PROGRAM TESTS_SOURCE_DIR SIM_VENDORS_DIR SIM_ICD BUILD_ROOT [catch args...]
"""
import os
import subprocess
import sys

exe, tests_dir, sim_vendors, sim_icd, build_root = sys.argv[1:6]
extra = sys.argv[6:]
conf = lambda name: os.path.join(tests_dir, name)
pocl_icd = os.path.join(build_root, 'vendors-test', 'pocl.icd')

direct = {'OCL_ICD_VENDORS': sim_vendors}
scenarios = [
    ('timing.conf', '[timing],[parser]', dict(direct, UNICL_SIM_CONFIG=conf('timing.conf'))),
    ('many.conf', '[many]', dict(direct, UNICL_SIM_CONFIG=conf('many.conf'))),
    ('no_move.conf', '[nomove]', dict(direct, UNICL_SIM_CONFIG=conf('no_move.conf'))),
    ('no configuration', '[noconfig]', dict(direct)),
    ('unreadable configuration', '[noconfig]', dict(direct, UNICL_SIM_CONFIG=conf('missing.conf'))),
    ('invalid UNICL_SIM_FAIL', '[noconfig]',
     dict(direct, UNICL_SIM_CONFIG=conf('timing.conf'), UNICL_SIM_FAIL='clEnqueueReadBuffer:CL_NO_SUCH_ERROR')),
    ('injected failures', '[fail]',
     dict(direct, UNICL_SIM_CONFIG=conf('timing.conf'),
          UNICL_SIM_FAIL='clEnqueueReadBuffer:CL_OUT_OF_RESOURCES:after=2,clEnqueueMapBuffer:CL_MAP_FAILURE')),
    ('correctness.conf on PoCL', '[correctness]',
     dict(direct, UNICL_SIM_CONFIG=conf('correctness.conf'), UNICL_SIM_POCL_VENDORS=pocl_icd, POCL_DEVICES='pthread')),
    # UniCL in exclusive mode, loading only the simulator.
    ('through UniCL', '[unicl]',
     {'OCL_ICD_VENDORS': os.path.join(build_root, 'vendors-exclusive'), 'UNICL_VENDORS': sim_icd,
      'UNICL_SIM_CONFIG': conf('timing.conf')}),
]

# Nothing of the caller's OpenCL setup leaks into a scenario.
base = {k: v for k, v in os.environ.items()
        if k not in ('OCL_ICD_VENDORS', 'OCL_ICD_FILENAMES', 'UNICL_VENDORS', 'UNICL_SIM_CONFIG',
                     'UNICL_SIM_POCL_VENDORS', 'UNICL_SIM_FAIL', 'POCL_DEVICES')}
failed = []
for name, tags, env in scenarios:
    if 'POCL_DEVICES' in env and not os.path.exists(pocl_icd):
        print(f'=== {name}: skipped, no {pocl_icd}', flush=True)
        continue
    print(f'=== {name}: {tags}', flush=True)
    if subprocess.run([exe, tags] + extra, env=dict(base, **env)).returncode != 0:
        failed.append(name)
print('=== failed: ' + ', '.join(failed) if failed else '=== all scenarios passed', flush=True)
sys.exit(1 if failed else 0)
