# Shared start of the `ladder plot` tests: each is run as NAME.sh LADDER FIXTURES_DIR.
# Gives $ladder, $fixtures, a scratch folder $work (removed at exit) and fail().
set -euo pipefail
ladder=$1
fixtures=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
