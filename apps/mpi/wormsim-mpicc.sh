#!/bin/bash
# wormsim-mpicc: compile the C files of an MPI program, unchanged, against
# the node MPI library (apps/mpi/include/mpi.h) and link them into a node
# image of one ISA, as mpicc does for a host. make writes
# build/bin/wormsim-mpicc, which sets the compilers, flags and the node's
# objects and runs this script; make run MPI='prog.c ...' calls it.
#
# usage: wormsim-mpicc [--arch arm|riscv] [-c] [-o FILE] [compile and link options] FILE.c|FILE.o|FILE.a...
#   --arch     the node ISA (default arm); objects are the ISA's own, so a
#              mixed machine's images are built once per ISA
#   -c         compile each C file to an object (FILE.o here, or -o's with
#              one C file), as cc -c does; no image
#   -o         the image (or, with -c, the object) to write, in a directory
#              that exists (default: the first file's name with .elf, here)
#   compile options: -DNAME[=V] -UNAME -IDIR (or -D NAME, -U NAME, -I DIR)
#                    -O<n> -g.. -W.. -w -std=.. -pedantic -f.. -MMD -MD -MP
#   link options:    -lNAME (-lm: the math functions are picolibc's own)
#                    -LDIR (or -l NAME, -L DIR) -Wl,.. (ignored with -c, as cc
#                    ignores them)
# Run the image with: wormsim --app mpi --kernel IMAGE --args "argv words".
set -u
die() { echo "wormsim-mpicc: $*" >&2; exit 2; }
USAGE="usage: wormsim-mpicc [--arch arm|riscv] [-c] [-o FILE] [-D.. -U.. -I.. -O.. -g -W.. -w -std=.. -pedantic -f.. -MMD -MD -MP -l.. -L.. -Wl,..] FILE.c|.o|.a..."
for v in WMPICC_INCLUDE WMPICC_arm_CC WMPICC_riscv_CC; do
  [ -n "${!v:-}" ] || die "\$$v is not set: run build/bin/wormsim-mpicc, which make writes (make $(printf %s build/bin/wormsim-mpicc))"
done
arch=arm out= files=() objs_in=() flags=() ldflags=() compile_only=0
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
    -c) compile_only=1; shift ;;
    -l|-L) [ -n "${2-}" ] && [ "${2#-}" = "$2" ] || die "$1 needs a value; $USAGE"
           ldflags+=("$1$2"); shift 2 ;;
    -Wl,*|-l?*|-L?*) ldflags+=("$1"); shift ;;
    -D|-U|-I) [ -n "${2-}" ] && [ "${2#-}" = "$2" ] || die "$1 needs a value; $USAGE"
              flags+=("$1$2"); shift 2 ;;
    -D?*|-U?*|-I?*|-O*|-g*|-W?*|-w|-std=*|-pedantic|-f?*|-MMD|-MD|-MP) flags+=("$1"); shift ;;
    -*) die "unknown option '$1'; $USAGE" ;;
    *.c) [ -f "$1" ] || die "no C file '$1'"; files+=("$1"); shift ;;
    *.o|*.a) [ -f "$1" ] || die "no object file '$1'"; objs_in+=("$1"); shift ;;
    *) die "'$1' is not a C file (.c) or an object (.o, .a); $USAGE" ;;
  esac
done
case "$arch" in arm|riscv) ;; *) die "--arch $arch is not known; accepted: arm, riscv" ;; esac
if [ $compile_only = 1 ]; then
  [ ${#files[@]} -gt 0 ] || die "-c needs a C file to compile; $USAGE"
  [ ${#objs_in[@]} = 0 ] || die "-c compiles C files; '${objs_in[0]}' is an object, to link without -c"
  [ -z "$out" ] || [ ${#files[@]} = 1 ] || die "-o with -c names one object: give one C file, or no -o"
fi
[ ${#files[@]} -gt 0 ] || [ ${#objs_in[@]} -gt 0 ] || die "no C file or object given; $USAGE"
first=${files[0]:-${objs_in[0]}}
name=$(basename "${first%.*}")
[ -n "$out" ] || [ $compile_only = 1 ] || out=$name.elf
# as cc does, write into a directory that exists, and make none
if [ -n "$out" ]; then
  outdir=$(dirname "$out")
  [ -d "$outdir" ] || die "cannot write $out: no directory $outdir"
fi
cc_v=WMPICC_${arch}_CC cflags_v=WMPICC_${arch}_CFLAGS ldflags_v=WMPICC_${arch}_LDFLAGS objs_v=WMPICC_${arch}_OBJS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wormsim-mpicc.XXXXXX") || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
if [ $compile_only = 1 ]; then
  for f in "${files[@]}"; do
    o=${out:-$(basename "$f" .c).o}
    # shellcheck disable=SC2086  # the flag lists are words
    ${!cc_v} ${!cflags_v} -I"$WMPICC_INCLUDE" "${flags[@]}" -c "$f" -o "$o" || exit 1
  done
  exit 0
fi
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
# The image's entry calls main weakly (apps/mpi_app.c), so that an image
# without a program links; a program's image must define it, as cc requires.
# A program's stack is 1 MiB (the project's own images have 64 KiB,
# linker/*.ld): C programs keep arrays of tens of KiB as locals.
# shellcheck disable=SC2086
${!cc_v} ${!ldflags_v} ${!objs_v} "${objs[@]}" "${objs_in[@]}" "$tmp/name.o" "${ldflags[@]}" -Wl,--require-defined=main \
  -Wl,--defsym=__stack_size=0x100000 -o "$out" || exit 1
