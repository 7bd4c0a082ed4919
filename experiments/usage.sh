# Sourced by the tools of experiments/: a tool's usage is its header
# comment, from line 2 to its `set -u` line, and the one list of its
# options. --help prints it; a refusal of an unknown option names the
# options it lists (tests/sweep/run.sh experiment_scripts_take_the_options_they_list
# checks that each listed option is taken and each option taken is listed).
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
# The options of the usage: each line of it indented and starting with '-',
# up to the two spaces before its meaning, joined by "; ".
usage_options() { usage | sed -n 's/^  *\(-[^ ].*\)$/\1/p' | sed 's/  .*//' | paste -sd ';' | sed 's/;/; /g'; }
