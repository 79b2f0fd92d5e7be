#!/bin/sh
# Runs every benchmark against BUILD_DIR and prints a summary table.
#   bench/run.sh BUILD_DIR
# One process sees both UniCL and the vendors it wraps (UniCL skips its own
# .icd when it loads vendors), so each ratio compares runs of the same
# process under the same load.
set -u
B=${1:?usage: bench/run.sh BUILD_DIR}
B=$(cd "$B" && pwd)
shift
for exe in bench-enqueue-overhead bench-roundtrip bench-cross-vendor bench-sched-overhead bench-real-mix \
           bench-host-swap bench-slices bench-sim-compare bench-divide bench-composite bench-cluster bench-cluster-scaling; do
  [ -x "$B/bench/$exe" ] || { echo "missing $B/bench/$exe: build first (ninja -C $B)" >&2; exit 1; }
done

# Loader folder: UniCL beside PoCL and oclgrind.
both="$B/bench/vendors-both"
mkdir -p "$both"
cp "$B"/vendors-test/*.icd "$B/vendors-exclusive/unicl.icd" "$both/"

# SOCL, as a measured reference: its own .icd plus PoCL's, in a child process.
socl_lib=$(dpkg -L libsocl-1.3-0 2>/dev/null | grep -E '/libsocl[^/]*\.so\.[0-9]+$' | head -n 1)
socl_args=""
if [ -n "$socl_lib" ] && [ -f "$B/vendors-test/pocl.icd" ]; then
  socl="$B/bench/vendors-socl"
  mkdir -p "$socl"
  echo "$socl_lib" > "$socl/socl.icd"
  cp "$B/vendors-test/pocl.icd" "$socl/"
  socl_args="--socl-vendors $socl"
fi

export OCL_ICD_VENDORS="$both"
export UNICL_VENDORS="$B/vendors-test"
export POCL_DEVICES="pthread basic"

# CSV files and their PNG charts (bench/plot.py) from the scheduling benchmarks.
out="$B/bench/results"
mkdir -p "$out"

summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
echo "UniCL benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average:$(uptime | sed 's/.*load average://')"
echo "build: $B"
echo
status=0
run() {
  name=$1
  shift
  start=$(date +%s)
  timeout 240 "$B/bench/$name" "$@" > "$summary.out" 2>&1
  rc=$?
  grep -v '^SUMMARY|' "$summary.out"
  grep '^SUMMARY|' "$summary.out" >> "$summary"
  if [ $rc -ne 0 ]; then
    echo "SUMMARY|$name|run failed (exit $rc)|-|-|FAILED" >> "$summary"
    status=1
  fi
  echo "($name: $(( $(date +%s) - start )) s)"
  echo
  rm -f "$summary.out"
}
# shellcheck disable=SC2086
run bench-enqueue-overhead $socl_args
run bench-roundtrip
run bench-cross-vendor
# Device-less queues and their policies. Each starts its performance models
# from an empty temporary XDG_CACHE_HOME and calibrates them itself.
# shellcheck disable=SC2086
run bench-sched-overhead $socl_args --out "$out"
run bench-real-mix --out "$out"
run bench-host-swap --out "$out"
# Two devices updating disjoint slices of one buffer (coherence per byte range).
run bench-slices --out "$out"
run bench-slices --mode split --out "$out"
# The simulated 1 CPU + 3 GPUs (tests/sim_icd): the benchmark points UniCL
# at the simulator itself (UNICL_VENDORS, UNICL_SIM_CONFIG=bench/sim_machine.conf).
if [ -f "$B/tests/sim_icd/vendors/unicl-sim.icd" ] && [ -f "$B/tests/sim_icd/libunicl-sim.so" ]; then
  run bench-sim-compare ${socl_lib:+--socl-lib "$socl_lib"} --out "$out"
  # Divided launches (divide functions, the built-in divider) on the same machine.
  run bench-divide --out "$out"
  run bench-composite
else
  echo "SUMMARY|sim-compare|not run: the simulator is not built ($B/tests/sim_icd)|-|-|FAILED" >> "$summary"
fi
# Contexts across nodes: each starts its own mpirun jobs (rank 0 and
# unicl-node ranks on this machine).
run bench-cluster
run bench-cluster-scaling --out "$out"

echo "Summary ($(date -u '+%Y-%m-%d %H:%M UTC'))"
{
  echo "benchmark|case|measured|target|verdict"
  cut -d'|' -f2- "$summary"
} | column -t -s '|'
echo
echo "CSV and PNG files: $out"
grep -q '|MISSED$\||FAILED$' "$summary" && status=1
exit $status
