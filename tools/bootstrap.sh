#!/usr/bin/env bash
# From a fresh Debian 12 to a working UniCL, in one command (run as root):
#
#   bash tools/bootstrap.sh demo   installs what is missing, builds what the
#                                  demo runs (the library, the tool, two
#                                  samples), shows
#                                  `unicl info` and runs the vector_scale sample
#                                  on PoCL (two devices) and oclgrind at once,
#                                  then the tiled Cholesky sample on a
#                                  device-less queue (UniCL places each task)
#   bash tools/bootstrap.sh test   installs what is missing, builds everything
#                                  (warnings are errors), runs the
#                                  whole test suite, then the threaded tests in
#                                  a build with ThreadSanitizer (all but the
#                                  two slowest, scheduling and divide: see
#                                  sanitize); exits non-zero on any failure
#                                  (CI, about 18 minutes on two cores)
#   bash tools/bootstrap.sh sanitize
#                                  the whole suite in a build with
#                                  AddressSanitizer and UBSan, then all the
#                                  threaded tests under ThreadSanitizer (about
#                                  20 minutes more; run once per change of
#                                  substance, before it lands)
#
# Build folders: $BUILD_DIR (default build), $ASAN_BUILD_DIR (default
# build-asan) and $TSAN_BUILD_DIR (default build-tsan), inside the repository.
set -euo pipefail

readonly PACKAGES=(
  opencl-headers opencl-c-headers opencl-clhpp-headers ocl-icd-libopencl1 ocl-icd-opencl-dev
  libhwloc-dev libopenmpi-dev openmpi-bin catch2 meson ninja-build pkg-config g++ python3
  pocl-opencl-icd oclgrind clinfo python3-pyopencl python3-matplotlib libsocl-1.3-0 iproute2
  llvm-15-dev libclang-15-dev libclang-cpp15-dev libclang-common-15-dev
)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_dir=${BUILD_DIR:-build}
asan_build_dir=${ASAN_BUILD_DIR:-build-asan}
tsan_build_dir=${TSAN_BUILD_DIR:-build-tsan}
# The tests whose commands run on several threads at once (application
# threads, the work queue, device workers, vendor threads), for the
# ThreadSanitizer pass. sim-icd runs its instrumented program through a
# Python script, which works: the program is a process of its own.
readonly TSAN_TESTS=(thread_safety events scheduling divide sim-icd vendor_failures vendor_failures_unmap slow_vendor_call)
# CI's ThreadSanitizer pass (`test`) leaves out the two slowest of them,
# scheduling and divide (about 70 and 140 s instrumented, and their build),
# and sim-icd, the test double's own threads (its instrumented program is
# the longest build of the pass, about 35 s on two cores, for no UniCL
# code the others do not run): `sanitize` runs them all, with the whole
# suite under AddressSanitizer.
readonly TSAN_CI_TESTS=(thread_safety events vendor_failures vendor_failures_unmap slow_vendor_call)
jobs=$(nproc 2>/dev/null || echo 2)
failure_summary=$(mktemp)
trap 'rm -f "$failure_summary"' EXIT

usage() {
  echo "usage: bash tools/bootstrap.sh demo|test|sanitize" >&2
  exit 2
}

step() { printf '\n==== [%s] %s\n' "$(date +%T)" "$*"; }

# Installs the PACKAGES not yet installed; $1: the command being run (for the message).
install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    echo "all ${#PACKAGES[@]} packages present"
    return
  fi
  if ((EUID != 0)); then
    echo "missing packages: ${missing[*]}; run this script as root to install them: sudo bash tools/bootstrap.sh $1" >&2
    exit 1
  fi
  step "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q </dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# Configures build folder $1 the first time, with the meson options that
# follow it.
configure() {
  local dir=$1
  shift
  if [[ ! -f $dir/build.ninja ]]; then
    meson setup "$dir" "$@"
  fi
}

# The ninja targets the demo runs: the library, the tool and two samples.
# Tests, benchmarks and sanitizer helpers are most of the build (about 300
# targets) and the demo needs none of them.
readonly DEMO_TARGETS=(libunicl.so tools/unicl analysis/unicl-analyze samples/vector_scale samples/cholesky)

demo() {
  step "building what the demo runs ($build_dir)"
  configure "$build_dir"
  ninja -C "$build_dir" -j"$jobs" "${DEMO_TARGETS[@]}"
  local b=$repo/$build_dir
  # The test vendor folder names PoCL and oclgrind by path: Debian registers
  # PoCL in /etc/OpenCL/vendors but not oclgrind.
  local vendors=$b/vendors-test
  export POCL_DEVICES=${POCL_DEVICES:-pthread basic}

  step "unicl info"
  "$b/tools/unicl" info --vendors "$vendors"

  if command -v clinfo >/dev/null; then
    step "what an unmodified program sees in exclusive mode: clinfo -l"
    "$b/tools/unicl" run --vendors "$vendors" -- clinfo -l
  fi

  step "vector_scale through UniCL: one context, PoCL basic + pthread + oclgrind"
  local start end
  start=$(date +%s%N)
  "$b/tools/unicl" run --vendors "$vendors" -- "$b/samples/vector_scale"
  end=$(date +%s%N)
  echo "vector_scale process, start to exit: $(((end - start) / 1000000)) ms"

  step "tiled Cholesky through UniCL on one device-less queue: the heft policy places each tile task"
  "$b/tools/unicl" run --vendors "$vendors" --scheduler heft -- "$b/samples/cholesky" --queue device-less --size 128
}

# The tests of a sanitizer build whose program is built there ("tests"), or
# the build targets those tests need ("targets"); further arguments name
# the tests instead. A client built elsewhere (clinfo, python) cannot load
# an instrumented libunicl.so: the sanitizer runtime must come first in a
# process, so those tests run in the normal pass only. Building only what
# the tests need leaves out the benchmarks.
sanitizer_selection() {
  python3 - "$@" <<'EOF'
import json, os, subprocess, sys
build, what, names = os.path.abspath(sys.argv[1]), sys.argv[2], set(sys.argv[3:])
def introspect(kind):
    return json.loads(subprocess.check_output(['meson', 'introspect', build, kind]))
tests = []
for t in introspect('--tests'):
    if names:
        if t['name'] in names:
            tests.append(t)
    elif os.path.abspath(t['cmd'][0]).startswith(build + os.sep):
        tests.append(t)
    elif what == 'tests':
        print(f"sanitizer pass skips {t['name']}: {t['cmd'][0]} is not built with the sanitizers", file=sys.stderr)
if names and len(tests) != len(names):
    sys.exit(f"no such tests in {build}: {sorted(names - {t['name'] for t in tests})}")
if what == 'tests':
    print('\n'.join(t['name'] for t in tests))
else:
    files = {t['id']: t['filename'] for t in introspect('--targets')}
    needed = {d for t in tests for d in t['depends']}
    print('\n'.join(sorted({os.path.relpath(f, build) for d in needed for f in files.get(d, [])})))
EOF
}

# Configures build folder $1 with -Db_sanitize=$2 (first time), builds what
# the tests run there need and runs them: the tests named after $2, else
# every test whose program is built there. Unoptimised: a sanitizer build is
# compiled from scratch every CI run, and compile time there outweighs the
# slower tests. Returns non-zero on any failure.
sanitizer_pass() {
  local dir=$1 sanitize=$2
  shift 2
  local tests=() targets=()
  if [[ -f $dir/build.ninja ]] || meson setup "$dir" -Db_sanitize="$sanitize" --buildtype=debug; then
    ninja -C "$dir" build.ninja >/dev/null  # introspection up to date with the sources
    mapfile -t tests < <(sanitizer_selection "$dir" tests "$@")
    mapfile -t targets < <(sanitizer_selection "$dir" targets "$@")
  fi
  if ((${#tests[@]} == 0)); then
    echo "no tests to run in $dir" >&2
    return 1
  fi
  ninja -C "$dir" -j"$jobs" "${targets[@]}" && run_suite "$dir" --timeout-multiplier 3 "${tests[@]}"
}

# Runs the whole suite in one build folder; returns its status. A failure's
# summary is kept for the end of the run: CI shows only the output's tail.
run_suite() {
  local dir=$1
  shift
  meson test -C "$dir" --print-errorlogs "$@" || {
    local status=$?
    failed_tests "$dir" >>"$failure_summary"
    return $status
  }
}

# The tests that did not pass in build folder $1's last run, each with the
# last lines it printed.
failed_tests() {
  python3 - "$1" <<'EOF'
import json, sys
for line in open(f'{sys.argv[1]}/meson-logs/testlog.json'):
    t = json.loads(line)
    if t['result'] in ('OK', 'SKIP', 'EXPECTEDFAIL'):
        continue
    print(f"-- {sys.argv[1]}: {t['name']}: {t['result']} after {t['duration']:.1f} s; its last lines:")
    print('\n'.join((t.get('stdout') or '').splitlines()[-25:]))
EOF
}

# Returns the status of the whole suite in the normal build.
normal_pass() {
  step "build and test ($build_dir)"
  # A new compiler warning fails the build here (CI): the default build
  # prints none. The lock rules are checked while the tests run
  # (src/backend/lock_rules.hpp).
  configure "$build_dir" --werror -Dlock_checks=true
  meson configure "$build_dir" -Dwerror=true -Dlock_checks=true
  ninja -C "$build_dir" -j"$jobs" && run_suite "$build_dir"
}

# Returns the status of the whole suite (what can be instrumented) under
# AddressSanitizer and UBSan.
asan_pass() {
  step "build and test with AddressSanitizer and UBSan ($asan_build_dir)"
  # Leaks are checked; the suppressions cover only the vendor libraries'
  # own allocations (PoCL, LLVM, oclgrind), never UniCL's. The new/delete
  # size check is off: oclgrind 21.10 deletes its image objects through a
  # base-class pointer in clReleaseMemObject, with or without UniCL.
  # __tls_get_addr is not intercepted: with the vendors' LLVMs loaded, the
  # leak checker's record of dynamic TLS goes wrong (a range at 0x754) and
  # its tracer crashes at exit ("Tracer caught signal 11"), whatever the
  # program did; leaks are still checked. Host code runs several times
  # slower under the sanitizers: the checks of how fast timed work ran are
  # the normal pass's (UNICL_TEST_UNTIMED, tests/support/cl_test.hpp).
  ASAN_OPTIONS=detect_leaks=1:new_delete_type_mismatch=0:intercept_tls_get_addr=0 \
    LSAN_OPTIONS=suppressions=$repo/tests/lsan.supp:print_suppressions=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 UNICL_TEST_UNTIMED=1 \
    sanitizer_pass "$asan_build_dir" address,undefined
}

# Returns the status of the threaded tests under ThreadSanitizer: those
# named as arguments, else all of them.
tsan_pass() {
  local tests=("$@")
  ((${#tests[@]})) || tests=("${TSAN_TESTS[@]}")
  step "build and test the threaded tests with ThreadSanitizer ($tsan_build_dir)"
  # Any report fails its test (exit status 66). PoCL and oclgrind are not
  # instrumented: their own memory accesses are not seen, only what they
  # do through the C library (malloc, memcpy, pthreads), so a report there
  # is a real race between calls into them. tests/tsan.supp holds the few
  # proven to be inside a vendor library alone.
  TSAN_OPTIONS=second_deadlock_stack=1:suppressions=$repo/tests/tsan.supp UNICL_TEST_UNTIMED=1 \
    sanitizer_pass "$tsan_build_dir" thread "${tests[@]}"
}

# CI's ThreadSanitizer pass (TSAN_CI_TESTS).
tsan_ci_pass() { tsan_pass "${TSAN_CI_TESTS[@]}"; }

# Runs the passes named as arguments, all of them even when one fails;
# returns non-zero if any failed.
run_passes() {
  local status=0 pass
  for pass in "$@"; do
    "$pass" || status=1
  done
  if ((status == 0)); then
    step "all tests passed"
  else
    step "FAILURES above; the tests that failed:"
    cat "$failure_summary"
  fi
  return $status
}

(($# == 1)) || usage
case $1 in
  demo) install_missing demo; demo ;;
  test) install_missing test; run_passes normal_pass tsan_ci_pass ;;
  sanitize) install_missing sanitize; run_passes asan_pass tsan_pass ;;
  *) usage ;;
esac
