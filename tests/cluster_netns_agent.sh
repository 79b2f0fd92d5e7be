#!/bin/sh
# Open MPI's remote launcher (plm_rsh_agent) for the namespaces of
# cluster_netns.sh, in place of ssh: "HOST COMMAND..." runs COMMAND (a
# node's daemon) inside the network namespace holding HOST's address, under
# a host name of its own (a UTS namespace) and with a temporary folder of
# its own: Open MPI names its session folders after the host. The tag comes
# from UNICL_NETNS_TAG; NET.(i+1) is namespace TAG-i.
host=$1
shift
i=$((${host##*.} - 1))
name="$UNICL_NETNS_TAG-$i"
mkdir -p "/tmp/$name"
exec ip netns exec "$name" unshare --uts sh -c "hostname $name && TMPDIR=/tmp/$name exec sh -c \"\$0\"" "$*"
