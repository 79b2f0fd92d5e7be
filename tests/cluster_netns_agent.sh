#!/bin/sh
# Open MPI's remote launcher (plm_rsh_agent) for the namespaces of
# cluster_netns.sh, in place of ssh: "HOST COMMAND..." runs COMMAND (a
# node's daemon) inside the namespace holding HOST's address. The tag comes
# from UNICL_NETNS_TAG; NET.(i+1) is namespace TAG-i.
host=$1
shift
i=$((${host##*.} - 1))
exec ip netns exec "$UNICL_NETNS_TAG-$i" sh -c "$*"
