# calheld.awk: the emulated times of held-out cells, from a sweep's
# results.csv, for experiments/calibrate.sh --heldout.
#
#   awk -F, -v file=CSV -v name=PRESET_NAME -v topo=TOPO -v pm=PORT_MODEL -f calheld.awk CSV
#
# Output: "app dims len seconds" of each row ok, with no net setting, run
# on topo with port model pm and the preset of that name (its preset
# column as a sweep gives it: NAME, NAME.conf or a path to NAME.conf);
# every other row is another machine's. A file without the columns read
# is refused on stderr, exit 2.
NR == 1 {
  for (i = 1; i <= NF; i++) c[$i] = i
  n = split("app dims len preset topo port_model net status coll_ns", need, " ")
  for (i = 1; i <= n; i++) if (!(need[i] in c)) {
    printf "calibrate: --heldout %s has no column %s; accepted: the results.csv of a sweep (experiments/sweep.sh)\n", file, need[i] > "/dev/stderr"
    bad = 1; exit 2
  }
  next
}
{ p = $c["preset"]; sub(/.*\//, "", p); sub(/\.conf$/, "", p) }
p == name && $c["topo"] == topo && $c["port_model"] == pm && $c["net"] == "" && $c["status"] == "ok" {
  print $c["app"], $c["dims"], $c["len"], $c["coll_ns"] / 1e9
}
END { if (bad) exit 2 }
