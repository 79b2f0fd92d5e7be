#!/usr/bin/env python3
"""Runs the shell commands of the README and of docs/*.md as a reader would.

    docs_commands.py SOURCE_ROOT BUILD_ROOT

Every ```sh block runs in a folder where `build` is this build tree, with
UniCL installed beside the test vendors (a loader folder holding unicl.icd and
the vendors-test files, as OCL_ICD_VENDORS) and the build's `unicl` and
`unicl-node` on PATH, as after `meson install`. Skipped, and said so:
- a block whose first line is `# not run by the tests: REASON`;
- the README's two commands (the test command is what runs this test);
- a line naming a program the reader supplies (./app, ./my_program, hosts
  host1 and host2).
A block fails the test when a command of it fails (bash -e).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

PLACEHOLDERS = re.compile(r'\./app\b|\./my_\w+|\bhost1\b')


def blocks(path):
    text = open(path).read()
    for m in re.finditer(r'^( *)```sh\n(.*?)^\1```', text, flags=re.S | re.M):
        lines = [l.strip() for l in m.group(2).splitlines() if l.strip()]
        yield text[:m.start()].count('\n') + 1, lines


def main():
    source, build = sys.argv[1:3]
    work = tempfile.mkdtemp(prefix='unicl-docs-')
    os.symlink(build, os.path.join(work, 'build'))
    vendors = os.path.join(work, 'vendors')
    os.mkdir(vendors)
    for icd in glob.glob(os.path.join(build, 'vendors-test', '*.icd')) + [os.path.join(build, 'vendors-exclusive', 'unicl.icd')]:
        shutil.copy(icd, vendors)
    env = dict(os.environ)
    env.update({
        'PATH': os.pathsep.join([os.path.join(build, 'tools'), os.path.join(build, 'src', 'cluster', 'node'), env.get('PATH', '')]),
        'OCL_ICD_VENDORS': vendors, 'UNICL_VENDORS': os.path.join(build, 'vendors-test'),
        'POCL_DEVICES': 'pthread basic', 'XDG_CACHE_HOME': os.path.join(build, 'test-cache'),
        # Open MPI as root, and more ranks than cores, as the docs' mpirun lines need on a small machine.
        'OMPI_ALLOW_RUN_AS_ROOT': '1', 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM': '1', 'OMPI_MCA_rmaps_base_oversubscribe': '1',
    })
    env.pop('UNICL_LOG', None)
    failed, ran = [], 0
    pages = [os.path.join(source, 'README.md')] + sorted(glob.glob(os.path.join(source, 'docs', '*.md')))
    for page in pages:
        name = os.path.relpath(page, source)
        for line_no, lines in blocks(page):
            where = f'{name}:{line_no}'
            if lines and lines[0].startswith('# not run by the tests:'):
                print(f'{where}: not run ({lines[0][len("# not run by the tests:"):].strip()})')
                continue
            if any(l.startswith('bash tools/bootstrap.sh') for l in lines):
                print(f'{where}: not run (the two commands: the test command runs this test)')
                continue
            script = []
            for l in lines:
                if PLACEHOLDERS.search(l):
                    print(f'{where}: skips "{l}" (a program or host the reader supplies)')
                else:
                    script.append(l)
            if not script:
                continue
            ran += 1
            r = subprocess.run(['bash', '-e', '-c', '\n'.join(script)], cwd=work, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=300)
            status = 'ok' if r.returncode == 0 else f'FAILED (exit {r.returncode})'
            print(f'{where}: {len(script)} command(s) {status}')
            if r.returncode != 0:
                print(r.stdout[-3000:])
                failed.append(where)
    shutil.rmtree(work, ignore_errors=True)
    print(f'{ran} block(s) run, {len(failed)} failed')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
