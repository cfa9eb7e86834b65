#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine (localhost only): munge, slurmctld
# and slurmd from Debian's packages, one node with this machine's cores, one partition.
# Used by scripts/test-slurm.sh (CI) and by hand; needs root. Idempotent: stops a
# cluster it started before and starts it again.
#   scripts/slurm-local.sh          start (installs the packages when missing)
#   scripts/slurm-local.sh stop     stop the daemons
set -euo pipefail

stop() {
    pkill -x slurmd 2>/dev/null || true
    pkill -x slurmctld 2>/dev/null || true
    sleep 1
}

if [ "${1:-start}" = stop ]; then
    stop
    exit 0
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "error: Slurm is not installed; run as root: apt-get install -y slurmctld slurmd slurm-client munge" >&2
        exit 2
    fi
    echo "installing slurmctld slurmd slurm-client munge ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null \
        || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null; }
fi
if [ "$(id -u)" != 0 ]; then
    echo "error: starting the Slurm daemons needs root" >&2
    exit 2
fi

stop
node=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf <<CONF
# Written by gpu-makespan scripts/slurm-local.sh: a single-node cluster on localhost.
ClusterName=local
SlurmctldHost=${node}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=${node} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=local Nodes=${node} Default=YES MaxTime=INFINITE State=UP
CONF
if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --force 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
fi
chown munge:munge /etc/munge/munge.key /run/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- munged 2>/dev/null || munged --force
fi
slurmctld
slurmd
for _ in $(seq 1 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        echo "slurm: node ${node} up ($(sinfo -h -o '%T %c CPUs'))" >&2
        exit 0
    fi
    sleep 1
done
echo "error: the Slurm node did not come up; see /var/log/slurm/slurmctld.log and slurmd.log" >&2
tail -5 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
