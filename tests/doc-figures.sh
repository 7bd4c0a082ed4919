# shellcheck shell=bash
# A simulated figure a page of the docs quotes, reproduced by a test
# (sourced by the test runners; uses their expect). Simulated figures are
# deterministic, so the run, the test's table and the page must agree:
#   doc_figure PAGE WHAT GOT WANT CONTEXT
# GOT is what the run gave, WANT the figure the test's table holds, and
# PAGE must quote WANT where CONTEXT matches: an extended regular
# expression holding one @, which stands for WANT taken literally. A run
# that moves the figure fails on the table, a page that quotes another
# figure on the page, each naming WHAT.
doc_figure() {
  local page=$1 what=$2 got=$3 want=$4 context=$5 literal re
  literal=$(printf '%s' "$want" | sed 's/[][\\.|$^*+?(){}]/\\&/g')
  # shellcheck disable=SC2034  # read by expect's eval
  re=${context%%@*}$literal${context#*@}
  expect '[ "$got" = "$want" ]' "$what: the run gives $got, the test's table says $want"
  expect 'grep -qE -- "$re" "$page"' "$page does not quote $what as $want (where $context matches)"
}
# A number as the docs write it, thousands apart: 185841 is 185,841,
# 4438.2 is 4,438.2.
thousands() { printf '%s\n' "$1" | sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta'; }
