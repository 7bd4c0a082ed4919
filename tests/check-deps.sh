#!/usr/bin/env bash
# Checks the Debian packages a step needs. Run as root (and with apt-get on
# PATH), it installs what is missing; otherwise it says what to install.
#   host            the router/run tool: a C compiler, make, libjansson-dev
#   node            both node images (node-arm and node-riscv)
#   node-arm        the ARM image: gcc-arm-none-eabi, picolibc-arm-none-eabi
#   node-riscv      the RISC-V image: gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf
#   run [ARCH..]    running nodes and the tests: jq, gdb-multiarch and the
#                   QEMU of each ARCH (arm: qemu-system-arm, riscv:
#                   qemu-system-misc); no ARCH means arm
#   sweep           sweeps (make sweep, make reproduce, make test): GNU parallel, jq
#   plot            plots and heatmaps (make results, make heatmap): gnuplot-nox
#   mpi             wormsim-mpi, a machine over several hosts: openmpi-bin,
#                   libopenmpi-dev, pkg-config
#   fuzz            the router's fuzzer (make test, make fuzz): clang, libclang-rt-14-dev
#                   (libFuzzer and the sanitizer runtimes)
#   all             all of the above
#   install         apt-get install every package the project uses
# WORMSIM_NO_INSTALL=1 turns the automatic install off.
set -u
ALL_PKGS="build-essential libjansson-dev gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-arm qemu-system-misc gdb-multiarch jq gnuplot-nox time parallel clang libclang-rt-14-dev openmpi-bin libopenmpi-dev pkg-config"
missing=(); pkgs=()

need_cmd()  { command -v "$1" >/dev/null 2>&1 || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }
need_file() { [ -e "$1" ] || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }
need_glob() { compgen -G "$1" >/dev/null || { missing+=("$1 (package $2)"); pkgs+=("$2"); }; }

check_one() {
  case "$1" in
    host) need_cmd cc build-essential; need_cmd make make; need_file /usr/include/jansson.h libjansson-dev ;;
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
    sweep) need_cmd parallel parallel; need_cmd jq jq ;;
    *) echo "usage: $0 host|node|node-arm|node-riscv|plot|sweep|fuzz|mpi|run [arm|riscv|mixed ..]|all|install" >&2; exit 2 ;;
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
    all)  for s in host node-arm node-riscv run run-arm run-riscv plot sweep fuzz mpi; do check_one $s; done ;;
    *)    check_one "$step" ;;
  esac
}

# Steps of a parallel make check at once: one apt-get at a time, waiting
# for the others (apt's own lock would fail them instead).
apt_install() {
  ( flock 9; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" ) 9>/tmp/wormsim-apt.lock
}

step=${1:-all}; shift $(( $# > 0 ))
if [ "$step" = install ]; then
  if [ "$EUID" = 0 ]; then apt_install $ALL_PKGS; else sudo apt-get update && sudo apt-get install -y $ALL_PKGS; fi
  exit $?
fi
check "$step" "$@"
[ ${#missing[@]} = 0 ] && exit 0
if [ "$EUID" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${WORMSIM_NO_INSTALL:-}" ]; then
  echo "Installing what this step needs: ${pkgs[*]}" >&2
  apt_install "${pkgs[@]}" >&2 && check "$step" "$@"
  [ ${#missing[@]} = 0 ] && exit 0
fi
echo "Missing what this step needs:" >&2
for m in "${missing[@]}"; do echo "  - $m" >&2; done
declare -A seen=(); uniq=()
for p in "${pkgs[@]}"; do [ -n "${seen[$p]:-}" ] || { seen[$p]=1; uniq+=("$p"); }; done
echo "Install them with:  sudo apt-get install -y ${uniq[*]}" >&2
echo "Install everything with:  make deps   (or: sudo apt-get install -y $ALL_PKGS)" >&2
exit 1
