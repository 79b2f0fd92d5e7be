#!/usr/bin/env python3
"""Every entry point of icd/entry_points.txt has a bad-input test case: a
TEST_CASE named after it in one of tests/test_bad_input_*.cpp.

usage: bad_input_covers_entry_points.py ENTRY_POINTS_TXT TEST_SOURCE...
"""
import re
import sys

entry_points = [line.strip() for line in open(sys.argv[1])
                if line.strip() and not line.startswith('#')]
covered = set()
for source in sys.argv[2:]:
    covered.update(re.findall(r'TEST_CASE\("(cl\w+)', open(source).read()))
missing = [e for e in entry_points if e not in covered]
for e in missing:
    print('FAIL: no bad-input test case for', e)
print(f'{len(entry_points) - len(missing)} passed, {len(missing)} failed')
sys.exit(1 if missing else 0)
