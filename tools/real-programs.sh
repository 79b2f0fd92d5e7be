#!/usr/bin/env bash
# Real programs through the composite device, against PoCL directly: not
# part of CI (it needs ffmpeg, python3-opencv and, for the third part,
# pyopencl's own tests, none of which the suite depends on).
#
#   bash tools/real-programs.sh [PYOPENCL_TEST_DIR]     (SKIP_FFMPEG=1: without part 1)
#
# 1. ffmpeg's OpenCL filters (Debian's ffmpeg 5.1) on a generated clip:
#    each frame's MD5 on PoCL's first device directly, and through UniCL's
#    composite of PoCL pthread + basic with UNICL_DIVIDE_FACTOR=2.
# 2. OpenCV's transparent API (python3-opencv): the digests of
#    tools/real_programs/opencv_tapi.py, the same two ways.
# 3. With a folder of pyopencl's tests (its repository's test/, for the
#    pyopencl Debian ships): the suite on PoCL pthread directly and through
#    the composite: every test that passes directly must pass through it.
# For 1 and 2 it prints which kernels ran in pieces over both devices (from
# UNICL_TRACE and UNICL_LOG=2). Exits non-zero if an output differs.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
work=$(mktemp -d /tmp/unicl-real-programs.XXXXXX)
export POCL_DEVICES="pthread basic"
direct=(env OCL_ICD_VENDORS="$build/vendors-test/pocl.icd")
composite=(env OCL_ICD_VENDORS="$build/vendors-exclusive" UNICL_VENDORS="$build/vendors-test/pocl.icd"
           UNICL_COMPOSITE=1 UNICL_DIVIDE_FACTOR=2 XDG_CACHE_HOME="$work/cache" UNICL_LOG=2)
status=0

compare() {  # NAME DIRECT_OUTPUT COMPOSITE_OUTPUT
  if cmp -s "$2" "$3"; then echo "$1: byte-identical"; else echo "$1: DIFFERENT"; diff "$2" "$3" | head -5; status=1; fi
}

ffmpeg_filter() {  # FILTER FORMAT
  ffmpeg -hide_banner -loglevel error -init_hw_device opencl=ocl:0.0 -filter_hw_device ocl \
    -f lavfi -i testsrc2=size=256x144:rate=5 -frames:v 5 \
    -vf "format=$2,hwupload,$1,hwdownload,format=$2" -f framemd5 -
}

if command -v ffmpeg >/dev/null && [[ -z ${SKIP_FFMPEG:-} ]]; then
  # deshake_opencl is left out: it gathers feature points with global
  # atomics, and its output differs from run to run on PoCL pthread alone.
  for f in avgblur_opencl boxblur_opencl "convolution_opencl=0m=0 -1 0 -1 5 -1 0 -1 0" unsharp_opencl sobel_opencl \
           prewitt_opencl roberts_opencl erosion_opencl dilation_opencl transpose_opencl pad_opencl=w=300:h=200 \
           nlmeans_opencl "colorkey_opencl=color=black;rgba"; do
    filter=${f%;*} format=yuv420p
    [[ $f == *";"* ]] && format=${f#*;}
    "${direct[@]}" bash -c "$(declare -f ffmpeg_filter); ffmpeg_filter '$filter' $format" > "$work/direct" 2>&1
    "${composite[@]}" UNICL_TRACE="$work/trace.json" bash -c "$(declare -f ffmpeg_filter); ffmpeg_filter '$filter' $format" \
      > "$work/composite" 2> "$work/log"
    compare "ffmpeg ${filter%%=*}" "$work/direct" "$work/composite"
    python3 "$repo/tools/real_programs/pieces.py" "$work/trace.json" "$work/log"
  done
else
  echo "ffmpeg: not installed (apt-get install ffmpeg) or SKIP_FFMPEG set"
fi

if /usr/bin/python3 -c "import cv2" 2>/dev/null; then
  "${direct[@]}" OPENCV_OPENCL_DEVICE=":CPU:0" /usr/bin/python3 "$repo/tools/real_programs/opencv_tapi.py" > "$work/direct" 2>/dev/null
  "${composite[@]}" OPENCV_OPENCL_DEVICE=":CPU:0" UNICL_TRACE="$work/trace.json" \
    /usr/bin/python3 "$repo/tools/real_programs/opencv_tapi.py" \
    > "$work/composite" 2> "$work/log"
  # OpenCV sizes its sum's reduction by CL_DEVICE_MAX_COMPUTE_UNITS (the
  # composite's is its members' sum): a different command, whose float
  # result differs; compared apart.
  grep -v '^sum ' "$work/direct" > "$work/direct.cmp"
  grep -v '^sum ' "$work/composite" > "$work/composite.cmp"
  compare "OpenCV T-API (all but sum)" "$work/direct.cmp" "$work/composite.cmp"
  python3 "$repo/tools/real_programs/pieces.py" "$work/trace.json" "$work/log"
else
  echo "OpenCV: python3-opencv not installed (apt-get install python3-opencv)"
fi

if (($# >= 1)); then
  for how in direct composite; do
    if [[ $how == direct ]]; then run=("${direct[@]}" PYOPENCL_TEST="portable:pthread")
    else run=("${composite[@]}" PYOPENCL_TEST=UniCL); fi
    # Each run compiles from nothing (PoCL's and pyopencl's caches in a
    # folder of its own): most of the suite's time is compiling, and a warm
    # cache on one side only made the composite look 12.6x slower.
    run+=(XDG_CACHE_HOME="$work/cache-pyopencl-$how")
    (cd "$work" && "${run[@]}" /usr/bin/python3 -m pytest -q -p no:cacheprovider -rA "$1" > "$work/pytest-$how" 2>&1)
    # A test's id names the device it ran on: compared without it.
    grep -E '^PASSED ' "$work/pytest-$how" | sed -E "s/<pyopencl\.Device '[^']*' on '[^']*'>/<device>/; s/<pyopencl\.Platform '[^']*'>/<platform>/" \
      | sort > "$work/passed-$how"
    echo "pyopencl tests, $how: $(tail -1 "$work/pytest-$how")"
    grep -E '^FAILED ' "$work/pytest-$how" | cut -c1-160
  done
  # Every test that passes directly must pass through the composite (which
  # may pass more: pyopencl expects some to fail by PoCL's vendor name).
  missing=$(comm -23 "$work/passed-direct" "$work/passed-composite")
  if [[ ! -s $work/passed-direct ]]; then
    echo "pyopencl: no test passed directly: is $1 pyopencl's test folder?"; status=1
  elif [[ -z $missing ]]; then
    echo "pyopencl: every test that passes directly passes through the composite" \
         "($(comm -13 "$work/passed-direct" "$work/passed-composite" | wc -l) more pass there)"
  else
    echo "pyopencl: passing directly, not through the composite:"; echo "$missing" | head -5; status=1
  fi
fi
rm -rf "$work"
exit $status
