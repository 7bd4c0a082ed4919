# caltable.awk: the measured-times table of experiments/calibrate.sh,
# checked whole before anything runs.
#
#   awk -F, -v file=TABLE -v tc=TIME_COLUMN -v apps='APP ..' -f caltable.awk TABLE
#
# Lines: '#' comments and blank lines are skipped; the first other line is
# the header, columns found by name (app, dims, len, tc, role, each once;
# others are ignored). Fields are trimmed of spaces, and a line of a CRLF
# file of its CR. Each row: role train or heldout, a positive time in seconds, len a
# whole number of bytes, dims a shape (4x4, 4x4x4, n=16), app one of apps
# (the node programs that take len), and no cell (app, dims, len) twice.
# Output, one line a row: "app dims len seconds role LINE", LINE the
# file's own line number. The first fault goes to stderr as
# "calibrate: TABLE:LINE: what is wrong; accepted: ..." and the exit is 2.
function bad(msg) { printf "calibrate: %s:%d: %s\n", file, FNR, msg > "/dev/stderr"; failed = 1; exit 2 }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
{ sub(/\r$/, "") }
/^[ \t]*(#|$)/ { next }
!head {
  head = 1; cols = ""
  n = split("app dims len " tc " role", need, " ")
  for (i = 1; i <= n; i++) needed[need[i]] = 1
  for (i = 1; i <= NF; i++) {
    $i = trim($i)
    # a column read twice would leave the reading to its last place
    if (($i in c) && ($i in needed))
      bad("the header names " $i " twice (columns " c[$i] " and " i "); accepted: app, dims, len, " tc " (--time-col) and role, each once")
    c[$i] = i; cols = cols (i > 1 ? ", " : "") $i
  }
  miss = ""
  for (i = 1; i <= n; i++) if (!(need[i] in c)) miss = miss (miss ? ", " : "") need[i]
  if (miss) bad("the header has no column " miss " (its columns: " cols "); accepted: a header naming app, dims, len, " tc " (--time-col) and role")
  ncol = NF; next
}
{
  for (i = 1; i <= NF; i++) $i = trim($i)
  if (NF != ncol) bad(NF " fields where the header has " ncol)
  app = $c["app"]; dims = $c["dims"]; len = $c["len"]; t = $c[tc]; role = $c["role"]
  if (role != "train" && role != "heldout") bad("role '" role "' is not train or heldout")
  if (t !~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ || t + 0 <= 0) bad(tc " '" t "' is not a positive number of seconds")
  if (len !~ /^(0|[1-9][0-9]*)$/) bad("len '" len "' is not a whole number of bytes")
  if (dims !~ /^[1-9][0-9]*(x[1-9][0-9]*)*$/ && dims !~ /^n=[1-9][0-9]*$/) bad("dims '" dims "' is not a shape; accepted: such as 4x4, 16x30, 4x4x4 or n=16")
  if (index(" " apps " ", " " app " ") == 0) bad("app '" app "' is unknown or takes no len; accepted: " apps)
  key = app " " dims " " len
  if (key in seen) bad(app " " dims " len " len " is also on line " seen[key] "; accepted: each cell once")
  seen[key] = FNR
  print app, dims, len, t, role, FNR
}
END {
  if (failed) exit 2
  if (!head) { printf "calibrate: %s has no header line; accepted: a CSV whose first line names app, dims, len, %s (--time-col) and role\n", file, tc > "/dev/stderr"; exit 2 }
}
