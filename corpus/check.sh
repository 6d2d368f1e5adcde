#!/usr/bin/env bash
# Run NVIDIA's ptxas on every corpus PTX file for its own target.
# ptxas 13 no longer accepts .target sm_70, so llc's sm_70 files are checked
# with only their `.target` line rewritten to sm_75 (nothing else changed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
NVBIN=$(python3 -c "import nvidia,os;print(os.path.dirname(nvidia.__path__[0]))")/nvidia/cu13/bin
export PATH="$NVBIN:$PATH"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok=0

for f in cuda/ptx/*/*.ptx; do
    arch=$(basename "$(dirname "$f")")
    # -rdc=true output references symbols defined elsewhere: assemble it as relocatable (-c).
    reloc=""
    case "$f" in */rdc_extern.ptx) reloc="-c" ;; esac
    if ptxas $reloc -arch="$arch" "$f" -o /dev/null 2>"$tmp/err"; then
        ok=$((ok + 1))
    else
        echo "FAIL $f"; cat "$tmp/err"; fail=$((fail + 1))
    fi
done

for f in llvm/ptx/*.ptx; do
    arch=${f%.ptx}
    arch=${arch##*.}
    file=$f
    if [ "$arch" = sm_70 ]; then
        sed 's/^\.target sm_70/.target sm_75/' "$f" >"$tmp/retarget.ptx"
        file=$tmp/retarget.ptx
        arch=sm_75
    fi
    if ptxas -arch="$arch" "$file" -o /dev/null 2>"$tmp/err"; then
        ok=$((ok + 1))
    else
        echo "FAIL $f"; cat "$tmp/err"; fail=$((fail + 1))
    fi
done

echo "ptxas: $ok accepted, $fail rejected"
[ "$fail" = 0 ]
