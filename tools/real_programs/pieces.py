# Per kernel of a UNICL_TRACE file: how many commands ran it and on which
# devices; with the UNICL_LOG=2 output given, only the kernels UniCL did not
# say it ran whole ("in pieces").
import collections, json, sys

trace = json.load(open(sys.argv[1]))
whole = set()
if len(sys.argv) > 2:
    for line in open(sys.argv[2], errors="replace"):
        if line.startswith("unicl: kernel ") and " runs whole" in line and "analysis" not in line:
            whole.add(line.split()[2])
devices = {e["tid"]: e["args"]["name"].split("-")[0] for e in trace["traceEvents"] if e.get("ph") == "M"}
ran = collections.defaultdict(set)
count = collections.Counter()
for e in trace["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") == "command" and e["name"] not in {"read", "write", "copy", "fill", "map", "unmap", "marker"}:
        ran[e["name"]].add(devices.get(e["tid"], str(e["tid"])))
        count[e["name"]] += 1
for name in sorted(ran):
    verdict = "whole" if name in whole else "in pieces" if len(ran[name]) > 1 else "one device"
    print(f"  {name}: {count[name]} commands on {'+'.join(sorted(ran[name]))}: {verdict}")
