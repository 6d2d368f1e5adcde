#!/usr/bin/env bash
# Makes a CUDA 12 nvcc in folder $1 for the tests that build programs with CUDA 12
# (runtime/tests/programs.rs), from what the registries carry, and prints the path
# of its nvcc. pip has no CUDA 12 nvcc (nvidia-cuda-nvcc-cu12 carries ptxas and
# libNVVM only), so the compiler comes from Debian's nvidia-cuda-toolkit (trixie,
# non-free: CUDA 12.4's nvcc, cicc, cudafe++, fatbinary, nvlink, ptxas, libdevice),
# and the headers, CCCL and the static runtime (libcudart_static.a) from pip's CUDA
# 12 wheels in the Python environment $2. nvcc 12.4 links libcudadevrt, whose only
# CUDA 12 copy on PyPI (12.9's) is newer than its nvlink takes; ptxvm provides the
# device runtime itself, so an empty archive stands in for it. `-cudart shared`
# links against NVIDIA's libcudart.so.12 from the same wheel.
#
#     tools/cuda12.sh target/cuda12-toolkit target/cuda12-venv/bin/python
set -euo pipefail
dir=$1
python=$2
if [ -x "$dir/bin/nvcc" ] && [ -f "$dir/.ptxvm-ready" ]; then
    echo "$dir/bin/nvcc"
    exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/debs" "$dir/bin" "$dir/include" "$dir/lib" "$dir/libdevice"
# The .deb files of nvidia-cuda-toolkit and libnvvm4, found in trixie's index.
"$python" - "$dir/debs" <<'PY'
import lzma, sys, urllib.request
mirror = "http://deb.debian.org/debian/"
index = urllib.request.urlopen(mirror + "dists/trixie/non-free/binary-amd64/Packages.xz", timeout=120).read()
want = {"nvidia-cuda-toolkit", "libnvvm4"}
for stanza in lzma.decompress(index).decode().split("\n\n"):
    fields = dict(l.split(": ", 1) for l in stanza.splitlines() if ": " in l and not l.startswith(" "))
    if fields.get("Package") in want:
        name = fields["Filename"].rsplit("/", 1)[1]
        with open(f"{sys.argv[1]}/{name}", "wb") as out:
            out.write(urllib.request.urlopen(mirror + fields["Filename"], timeout=600).read())
        want.discard(fields["Package"])
if want:
    sys.exit(f"not in trixie's index: {want}")
PY
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/debs/root"; done
root="$dir/debs/root"
cp "$root/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$root/usr/lib/nvidia-cuda-toolkit/bin/cicc" "$dir/bin/"
cp -r "$root/usr/lib/nvidia-cuda-toolkit/bin/crt" "$dir/bin/"
cp "$root/usr/bin/cudafe++" "$root/usr/bin/fatbinary" "$root/usr/bin/nvlink" "$root/usr/bin/ptxas" "$dir/bin/"
cp "$root/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" "$dir/libdevice/"
cp "$root"/usr/lib/x86_64-linux-gnu/libnvvm.so.4* "$dir/lib/"
nvidia="$("$python" -c 'import nvidia, os; print(list(nvidia.__path__)[0])')"
cp -r "$nvidia"/cuda_runtime/include/. "$dir/include/"
cp -rn "$nvidia"/cuda_nvcc/include/. "$dir/include/"
cp -rn "$nvidia"/cuda_cccl/include/. "$dir/include/"
cp "$nvidia/cuda_runtime/lib/libcudart_static.a" "$nvidia/cuda_runtime/lib/libcudart.so.12" "$dir/lib/"
# `-cudart shared` links against NVIDIA's libcudart.so.12, as a CUDA 12 program is:
# its calls ask for the version libcudart.so.12, which ptxvm's runtime answers.
ln -s libcudart.so.12 "$dir/lib/libcudart.so"
ar rcs "$dir/lib/libcudadevrt.a"
cat >"$dir/bin/nvcc.profile" <<'PROFILE'
TOP = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/libdevice
LD_LIBRARY_PATH += $(TOP)/lib:
PATH += $(_HERE_):
INCLUDES += "-I$(TOP)/include" $(_SPACE_)
LIBRARIES =+ $(_SPACE_) "-L$(TOP)/lib"
PROFILE
rm -rf "$dir/debs"
"$dir/bin/nvcc" --version >/dev/null
touch "$dir/.ptxvm-ready"
echo "$dir/bin/nvcc"
