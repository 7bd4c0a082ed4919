#!/usr/bin/env bash
# pool-memory.sh POOL [RUN | --settled]: the host memory held by the node pool POOL (the
# pid of wormsim --serve) and its QEMUs, in MiB, as if nothing else ran:
# each process's proportional set size (PSS), except that the shared pages
# of mapped files (the QEMU binary, the shared libraries) count as shared
# among the pool's QEMUs alone (their resident size over the QEMUs; a
# file's private pages, its relocated data, count whole), so that other
# QEMUs on the host, which share those pages and lower the PSS, do not
# move the figure. With RUN, the pid of a run on the pool: the largest
# figure sampled every 0.2 s from now until 2 s after RUN has ended. With
# --settled, the figure once the kernel's samepage merging has done with
# the pool's merged nodes: two full scans of its pages since the call (the
# first finds equal pages, the second merges them; a host busy elsewhere
# delays ksmd, and a figure still for 2 s then meant only that it had not
# started) and the figure within 2 MiB over 2 s; after 60 s at most.
# The memory check's estimate is compared with it (tests/qemu/suite-pool.sh
# memory_estimate_is_close, make bench).
set -u
pool=$1 run=${2:-}

held() {
  local qemus n p
  qemus=$(pgrep -P "$pool" | tr '\n' ' ')
  n=$(echo $qemus | wc -w)
  for p in $pool $qemus; do
    awk -v qemu=$([ "$p" = "$pool" ] && echo 0 || echo 1) '
      function flush() { if (file) print "P", priv, "F", rss - priv; else print "P", pss, "F", 0 }
      /^[0-9a-f]+-[0-9a-f]+ / { if (seen) flush(); seen = 1; rss = pss = priv = 0
                                file = qemu && $6 ~ /^\// && $6 !~ /^\/memfd:/ }
      /^Rss:/ { rss = $2 }
      /^Pss:/ { pss = $2 }
      /^Private_(Clean|Dirty):/ { priv += $2 }
      END { if (seen) flush() }' "/proc/$p/smaps" 2>/dev/null
  done | awk -v n="$n" '{ s += $2; f += $4 } END { printf "%d\n", (s + (n ? f / n : 0)) / 1024 }'
}

[ -n "$run" ] || { held; exit 0; }
if [ "$run" = --settled ]; then
  scans=/sys/kernel/mm/ksm/full_scans
  prev=0 scan0=$(cat $scans 2>/dev/null || echo 0)
  for i in $(seq 30); do
    sleep 2; now=$(held)
    [ "$(cat $scans 2>/dev/null || echo 0)" -ge $((scan0 + 2)) ] &&
      [ $((now - prev)) -le 2 ] && [ $((prev - now)) -le 2 ] && break
    prev=$now
  done
  echo "$now"; exit 0
fi
peak=0 after=0
while [ $after -lt 10 ]; do
  kill -0 "$run" 2>/dev/null || after=$((after + 1))
  s=$(held); [ "$s" -gt "$peak" ] && peak=$s
  sleep 0.2
done
echo "$peak"
