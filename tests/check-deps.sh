#!/usr/bin/env bash
# Checks (or, with "install", installs) the Debian packages the project needs.
#   host     the router/run tool: a C compiler, make, libjansson-dev
#   node     the node image: gcc-arm-none-eabi, picolibc-arm-none-eabi
#   run      running nodes: qemu-system-arm (and gdb-multiarch for GDB=)
#   all      all of the above
#   install  apt-get install everything (as root)
set -u
PKGS="build-essential libjansson-dev pkg-config gcc-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm gdb-multiarch jq"
missing=()

need_cmd() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 (package $2)"); }
need_file() { [ -e "$1" ] || missing+=("$1 (package $2)"); }

check_host() { need_cmd cc build-essential; need_cmd make make; need_file /usr/include/jansson.h libjansson-dev; }
check_node() { need_cmd arm-none-eabi-gcc gcc-arm-none-eabi; need_file /usr/lib/picolibc/arm-none-eabi/picolibc.specs picolibc-arm-none-eabi; }
check_run()  { need_cmd qemu-system-arm qemu-system-arm; need_cmd jq jq; }

case "${1:-all}" in
  host) check_host ;;
  node) check_node ;;
  run) check_run ;;
  all) check_host; check_node; check_run; need_cmd gdb-multiarch gdb-multiarch ;;
  install)
    if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y $PKGS
    exit $? ;;
  *) echo "usage: $0 host|node|run|all|install" >&2; exit 2 ;;
esac

if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing what this step needs:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  echo "Install everything with:  make deps   (or: sudo apt-get install -y $PKGS)" >&2
  exit 1
fi
exit 0
