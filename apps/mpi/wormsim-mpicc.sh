#!/bin/bash
# wormsim-mpicc: compile the C files of an MPI program, unchanged, against
# the node MPI library (apps/mpi/include/mpi.h) and link them into a node
# image of one ISA, as mpicc does for a host. make writes
# build/bin/wormsim-mpicc, which sets the compilers, flags and the node's
# objects and runs this script; make run MPI='prog.c ...' calls it.
#
# usage: wormsim-mpicc [--arch arm|riscv] [-o IMAGE] [-DNAME[=V] | -IDIR | -O<n> | -g | -W...]... FILE.c...
#   --arch     the node ISA (default arm)
#   -o         the image to write, in a directory that exists (default: the
#              first file's name with .elf, here)
# Run the image with: wormsim --app mpi --kernel IMAGE --args "argv words".
set -u
die() { echo "wormsim-mpicc: $*" >&2; exit 2; }
USAGE="usage: wormsim-mpicc [--arch arm|riscv] [-o IMAGE] [-D.. -I.. -O.. -g -W..] FILE.c..."
for v in WMPICC_INCLUDE WMPICC_arm_CC WMPICC_riscv_CC; do
  [ -n "${!v:-}" ] || die "\$$v is not set: run build/bin/wormsim-mpicc, which make writes (make $(printf %s build/bin/wormsim-mpicc))"
done
arch=arm out= files=() flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --arch) [ -n "${2-}" ] || die "--arch needs a value: arm or riscv; $USAGE"
            [ "${2#-}" = "$2" ] || die "--arch needs a value: arm or riscv, not the option '$2'; $USAGE"
            arch=$2; shift 2 ;;
    --arch=*) arch=${1#--arch=}; shift ;;
    -o) [ -n "${2-}" ] || die "-o needs a file name; $USAGE"
        [ "${2#-}" = "$2" ] || die "-o needs a file name, not the option '$2' (a file whose name starts with '-': write ./$2); $USAGE"
        out=$2; shift 2 ;;
    -D*|-I*|-O*|-g|-W*|-std=*) flags+=("$1"); shift ;;
    -*) die "unknown option '$1'; $USAGE" ;;
    *.c) [ -f "$1" ] || die "no C file '$1'"; files+=("$1"); shift ;;
    *) die "'$1' is not a C file (.c); $USAGE" ;;
  esac
done
case "$arch" in arm|riscv) ;; *) die "--arch $arch is not known; accepted: arm, riscv" ;; esac
[ ${#files[@]} -gt 0 ] || die "no C file given; $USAGE"
name=$(basename "${files[0]}" .c)
[ -n "$out" ] || out=$name.elf
# as cc does, write into a directory that exists, and make none
outdir=$(dirname "$out")
[ -d "$outdir" ] || die "cannot write $out: no directory $outdir"
cc_v=WMPICC_${arch}_CC cflags_v=WMPICC_${arch}_CFLAGS ldflags_v=WMPICC_${arch}_LDFLAGS objs_v=WMPICC_${arch}_OBJS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wormsim-mpicc.XXXXXX") || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
objs=()
i=0
for f in "${files[@]}"; do
  o=$tmp/$i-$(basename "$f" .c).o; i=$((i + 1))
  # shellcheck disable=SC2086  # the flag lists are words
  ${!cc_v} ${!cflags_v} -I"$WMPICC_INCLUDE" "${flags[@]}" -c "$f" -o "$o" || exit 1
  objs+=("$o")
done
# argv[0] of the program: its name (apps/mpi_app.c)
printf 'const char mpi_program_name[] = "%s";\n' "$(printf %s "$name" | tr -c 'A-Za-z0-9_.+-' _)" > "$tmp/name.c"
${!cc_v} ${!cflags_v} -c "$tmp/name.c" -o "$tmp/name.o" || exit 1
# shellcheck disable=SC2086
${!cc_v} ${!ldflags_v} ${!objs_v} "${objs[@]}" "$tmp/name.o" -o "$out" || exit 1
