#!/usr/bin/env bash
# Checks the Debian packages a step needs. Run as root with apt-get on PATH,
# a step that lacks something installs every package of ALL_PKGS not yet
# installed, so the first step that installs (make run, make test, ...)
# leaves nothing for the others to install; otherwise it names what is
# missing and the command that installs it.
#   host            the router/run tool: a C compiler, make, libjansson-dev, libssl-dev
#   node            both node images (node-arm and node-riscv)
#   node-arm        the ARM image: gcc-arm-none-eabi, picolibc-arm-none-eabi
#   node-riscv      the RISC-V image: gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf
#   run [ARCH..]    running nodes and the tests: jq, gdb-multiarch and the
#                   QEMU of each ARCH (arm: qemu-system-arm, riscv:
#                   qemu-system-misc); no ARCH means arm
#   sweep           sweeps (make sweep, make reproduce, make test): GNU parallel, jq,
#                   python3 (the check of a definition's compare and paper lines)
#   plot            plots and heatmaps (make results, make heatmap): gnuplot-nox
#   report          the report generator (make report): python3, gnuplot-nox
#   mpi             wormsim-mpi, a machine over several hosts: openmpi-bin,
#                   libopenmpi-dev, pkg-config
#   fuzz            the router's fuzzer (make test, make fuzz): clang, libclang-rt-14-dev
#                   (libFuzzer and the sanitizer runtimes)
#   all             all of the above
#   install         (make deps) apt-get install every package of ALL_PKGS
#                   not installed yet, as root or through sudo
# apt-get's output goes to WORMSIM_DEPS_LOG (default build/deps.log; the
# Makefile passes $(BUILD)/deps.log); V=1 shows it on the console instead.
# On a failed install the log's last lines and its path are printed.
# WORMSIM_NO_INSTALL=1 installs nothing: every step, make deps included,
# names what is missing and the command that installs it.
set -u
# The one list of the packages the project uses (make deps, .ci/run and the
# README's list name these).
ALL_PKGS="build-essential libjansson-dev libssl-dev gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-arm qemu-system-misc gdb-multiarch jq gnuplot-nox python3 time parallel clang libclang-rt-14-dev openmpi-bin libopenmpi-dev pkg-config"
TESTS_DIR=.; [[ $0 == */* ]] && TESTS_DIR=${0%/*}
DEPS_LOG=${WORMSIM_DEPS_LOG:-$TESTS_DIR/../build/deps.log}
APT_LOCK=/tmp/wormsim-apt-$EUID.lock
STEPS="host|node|node-arm|node-riscv|plot|report|sweep|fuzz|mpi|run [arm|riscv|mixed ..]|all|install"
missing=(); pkgs=()

case "${WORMSIM_NO_INSTALL:-0}" in
  0|1) ;;
  *) echo "check-deps: WORMSIM_NO_INSTALL='$WORMSIM_NO_INSTALL': expected 1 (install nothing, name what is missing) or 0 (install as root; the default)" >&2
     exit 2 ;;
esac

need_cmd()  { command -v "$1" >/dev/null 2>&1 || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }
need_file() { [ -e "$1" ] || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }
need_glob() { compgen -G "$1" >/dev/null || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }

check_one() {
  case "$1" in
    host) need_cmd cc build-essential; need_cmd make make; need_file /usr/include/jansson.h libjansson-dev
          need_file /usr/include/openssl/evp.h libssl-dev ;;
    node-arm) need_cmd arm-none-eabi-gcc gcc-arm-none-eabi
              need_file /usr/lib/picolibc/arm-none-eabi/picolibc.specs picolibc-arm-none-eabi ;;
    node-riscv) need_cmd riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
                need_file /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs picolibc-riscv64-unknown-elf ;;
    run-arm) need_cmd qemu-system-arm qemu-system-arm ;;
    run-riscv) need_cmd qemu-system-riscv64 qemu-system-misc ;;
    run) need_cmd jq jq; need_cmd gdb-multiarch gdb-multiarch; need_file /usr/bin/time time ;;
    mpi) need_cmd mpirun openmpi-bin; need_cmd pkg-config pkg-config
         pkg-config --exists ompi-c 2>/dev/null || { missing+=("ompi-c.pc (package libopenmpi-dev)"); pkgs+=(libopenmpi-dev); } ;;
    fuzz) need_cmd clang clang; need_glob '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' libclang-rt-14-dev ;;
    plot) need_cmd gnuplot gnuplot-nox; need_cmd jq jq ;;
    report) need_cmd python3 python3; need_cmd gnuplot gnuplot-nox ;;
    sweep) need_cmd parallel parallel; need_cmd jq jq; need_cmd python3 python3 ;;
    *) echo "check-deps: unknown step '$1'; usage: $0 $STEPS" >&2; exit 2 ;;
  esac
}

# check STEP [ARCH..]: fills missing[] and pkgs[].
check() {
  missing=(); pkgs=()
  local step=$1; shift
  case "$step" in
    node) check_one node-arm; check_one node-riscv ;;
    run)  check_one run
          [ $# = 0 ] && set -- arm
          for a in "$@"; do
            case "$a" in
              arm) check_one run-arm ;;
              riscv) check_one run-riscv ;;
              *) check_one run-arm; check_one run-riscv ;;   # mixed, or a list: both
            esac
          done ;;
    all)  for s in host node-arm node-riscv run run-arm run-riscv plot report sweep fuzz mpi; do check_one $s; done ;;
    *)    check_one "$step" ;;
  esac
}

verbose() { [ "${V:-0}" = 1 ]; }
may_install() { [ "$EUID" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ "${WORMSIM_NO_INSTALL:-0}" = 0 ]; }

# The packages of ALL_PKGS that dpkg does not list as installed, one a
# line (all of them where there is no dpkg).
not_installed() {
  local installed p
  if ! command -v dpkg-query >/dev/null 2>&1; then printf '%s\n' $ALL_PKGS; return; fi
  installed=" $(dpkg-query -W -f='${Package}=${Status}\n' $ALL_PKGS 2>/dev/null |
                sed -n 's/=install ok installed$//p' | tr '\n' ' ') "
  for p in $ALL_PKGS; do [[ $installed == *" $p "* ]] || echo "$p"; done
}

# apt-get ARGS.. as root, or through sudo; never asks a question.
apt_get() {
  if [ "$EUID" = 0 ]; then env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  else sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"; fi
}

# COMMAND.. holding the install lock: the steps of a parallel make take
# turns (apt's own lock would fail the others instead of making them wait),
# and a step that waited finds installed what the one before it installed.
with_apt_lock() { ( flock 9; "$@" ) 9>>"$APT_LOCK"; }

# apt_install PKG..: apt-get update, then install. Output to DEPS_LOG, or
# the console with V=1; on failure the log's last lines and its path.
apt_install() {
  if verbose; then
    { apt_get update && apt_get install -y "$@"; } >&2
    return
  fi
  mkdir -p "${DEPS_LOG%/*}"
  echo "== $(date '+%F %T') apt-get install $*" >> "$DEPS_LOG"
  if { apt_get -q update && apt_get -q install -y "$@"; } >> "$DEPS_LOG" 2>&1; then
    return 0
  fi
  echo "apt-get failed; the last lines of $DEPS_LOG:" >&2
  tail -n 15 "$DEPS_LOG" | sed 's/^/  | /' >&2
  return 1
}

# Installs every package of ALL_PKGS not installed yet (run it holding the
# install lock); 0 if none is left.
install_everything() {
  local todo; todo=$(not_installed)
  [ -n "$todo" ] || return 0
  echo "Installing the Debian packages the project needs: $(echo $todo)" >&2
  verbose || echo "  (apt-get's output: $DEPS_LOG)" >&2
  apt_install $todo
}

# Names what the step lacks and the commands that install it; exit 1.
report_missing() {
  echo "Missing what this step needs:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  declare -A seen=(); local uniq=() p
  for p in "${pkgs[@]}"; do [ -n "${seen[$p]:-}" ] || { seen[$p]=1; uniq+=("$p"); }; done
  echo "Install them with:  sudo apt-get install -y ${uniq[*]}" >&2
  echo "Install everything with:  make deps   (or: sudo apt-get install -y $ALL_PKGS)" >&2
  exit 1
}

# make deps: every package, as root or through sudo; with WORMSIM_NO_INSTALL=1
# only the names of those not installed and the command.
install_step() {
  local todo; todo=$(not_installed)
  if [ -z "$todo" ]; then
    echo "Every Debian package the project needs is installed ($(echo $ALL_PKGS | wc -w) packages)." >&2
    exit 0
  fi
  if [ "${WORMSIM_NO_INSTALL:-0}" = 1 ] || ! command -v apt-get >/dev/null 2>&1 ||
     { [ "$EUID" != 0 ] && ! command -v sudo >/dev/null 2>&1; }; then
    echo "Not installed: $(echo $todo)" >&2
    echo "Install them with:  sudo apt-get install -y $(echo $todo)" >&2
    exit 1
  fi
  with_apt_lock install_everything || exit 1
  echo "Installed: $(echo $todo)" >&2
  exit 0
}

step=${1:-all}; shift $(( $# > 0 ))
[ "$step" = install ] && install_step
check "$step" "$@"
[ ${#missing[@]} = 0 ] && exit 0
if may_install; then
  # The whole list at once; should one of its packages not exist here,
  # at least what this step needs.
  if ! with_apt_lock install_everything; then
    check "$step" "$@"
    echo "Installing only what this step needs: ${pkgs[*]}" >&2
    with_apt_lock apt_install "${pkgs[@]}"
  fi
  check "$step" "$@"
  [ ${#missing[@]} = 0 ] && exit 0
fi
report_missing
