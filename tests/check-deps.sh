#!/usr/bin/env bash
# Checks the Debian packages a step needs. Run as root (and with apt-get on
# PATH), it installs what is missing; otherwise it says what to install.
#   host     the router/run tool: a C compiler, make, libjansson-dev
#   node     the node image: gcc-arm-none-eabi, picolibc-arm-none-eabi
#   run      running nodes and the tests: qemu-system-arm, jq, gdb-multiarch
#   all      all of the above
#   install  apt-get install every package the project uses
# WORMSIM_NO_INSTALL=1 turns the automatic install off.
set -u
ALL_PKGS="build-essential libjansson-dev gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm gdb-multiarch jq"
missing=(); pkgs=()

need_cmd()  { command -v "$1" >/dev/null 2>&1 || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }
need_file() { [ -e "$1" ] || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }

check() {
  missing=(); pkgs=()
  case "$1" in
    host) need_cmd cc build-essential; need_cmd make make; need_file /usr/include/jansson.h libjansson-dev ;;
    node) need_cmd arm-none-eabi-gcc gcc-arm-none-eabi
          need_file /usr/lib/picolibc/arm-none-eabi/picolibc.specs picolibc-arm-none-eabi ;;
    run)  need_cmd qemu-system-arm qemu-system-arm; need_cmd jq jq; need_cmd gdb-multiarch gdb-multiarch ;;
    all)  check host; local m=("${missing[@]}") p=("${pkgs[@]}"); check node; m+=("${missing[@]}"); p+=("${pkgs[@]}")
          check run; missing+=("${m[@]}"); pkgs+=("${p[@]}") ;;
    *) echo "usage: $0 host|node|run|all|install" >&2; exit 2 ;;
  esac
}

apt_install() {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

step=${1:-all}
if [ "$step" = install ]; then
  if [ "$EUID" = 0 ]; then apt_install $ALL_PKGS; else sudo apt-get update && sudo apt-get install -y $ALL_PKGS; fi
  exit $?
fi
check "$step"
[ ${#missing[@]} = 0 ] && exit 0
if [ "$EUID" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${WORMSIM_NO_INSTALL:-}" ]; then
  echo "Installing what this step needs: ${pkgs[*]}" >&2
  apt_install "${pkgs[@]}" >&2 && check "$step"
  [ ${#missing[@]} = 0 ] && exit 0
fi
echo "Missing what this step needs:" >&2
for m in "${missing[@]}"; do echo "  - $m" >&2; done
echo "Install everything with:  make deps   (or: sudo apt-get install -y $ALL_PKGS)" >&2
exit 1
