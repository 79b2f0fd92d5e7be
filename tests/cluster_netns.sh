#!/bin/sh
# Separate "hosts" on this machine for the cluster test: network namespaces
# joined by a bridge, each with an address of its own, so that an Open MPI
# job's ranks talk TCP between addresses as between machines.
#   cluster_netns.sh up TAG NET N    bridge TAG-br at NET.1/24, namespaces
#                                    TAG-1..N at NET.2 .. NET.(N+1)
#   cluster_netns.sh down TAG N      removes them
# (cluster_netns_agent.sh starts a node's Open MPI daemon inside its namespace.)
set -e
cmd=$1 tag=$2
case "$cmd" in
  up)
    net=$3 n=$4
    ip link add "$tag-br" type bridge
    ip addr add "$net.1/24" dev "$tag-br"
    ip link set "$tag-br" up
    i=1
    while [ "$i" -le "$n" ]; do
      ip netns add "$tag-$i"
      ip link add "$tag-v$i" type veth peer name "$tag-p$i"
      ip link set "$tag-p$i" netns "$tag-$i"
      ip link set "$tag-v$i" master "$tag-br"
      ip link set "$tag-v$i" up
      ip netns exec "$tag-$i" ip addr add "$net.$((i + 1))/24" dev "$tag-p$i"
      ip netns exec "$tag-$i" ip link set "$tag-p$i" up
      ip netns exec "$tag-$i" ip link set lo up
      i=$((i + 1))
    done
    ;;
  down)
    n=$3 i=1
    while [ "$i" -le "$n" ]; do
      ip netns del "$tag-$i" 2>/dev/null || true
      ip link del "$tag-v$i" 2>/dev/null || true
      rm -rf "/tmp/$tag-$i"  # the daemon's temporary folder (cluster_netns_agent.sh)
      i=$((i + 1))
    done
    ip link del "$tag-br" 2>/dev/null || true
    ;;
  *) echo "usage: $0 up TAG NET N | down TAG N" >&2; exit 2 ;;
esac
