# Sourced by the tutorial's checkers (check-answers.sh, check-chapters.sh): their command
# line, one optional folder, the tutorial to check.
#
# tutorial_folder NAME ARGS...: sets `dir` to the folder named in ARGS, else the
# repository's tutorial/. --help prints the calling script's header; an unknown option, a
# second folder or a folder that does not exist is a usage error (exit 2).
tutorial_folder() {
  local name=$1 arg
  shift
  dir=
  for arg in "$@"; do
    case $arg in
      -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      -*) echo "$name: unknown option $arg (see --help)" >&2; exit 2 ;;
      *)
        if [ -n "$dir" ]; then
          echo "$name: one folder only (see --help)" >&2; exit 2
        fi
        dir=$arg ;;
    esac
  done
  [ -n "$dir" ] || dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tutorial
  if [ ! -d "$dir" ]; then
    echo "$name: no such folder: $dir" >&2
    exit 2
  fi
}
