"""Load, validate and run NVIDIA PTX on the CPU, with NumPy arrays as device memory.

After cupy's RawModule: ``Module(code=...)`` or ``Module(path=...)``, then
``get_function(name)(grid, block, args, shared_mem=0)``. The classes and exceptions
are defined in the Rust extension ``ptxvm._ptxvm`` (python/src/).
"""

import os as _os

from ptxvm._ptxvm import Function, KernelFault, Module, PtxError, SanitizerError, Surface, Texture, __version__

__all__ = [
    "Function",
    "KernelFault",
    "Module",
    "PtxError",
    "SanitizerError",
    "Surface",
    "Texture",
    "__version__",
    "driver_library",
]


def driver_library():
    """The path of ptxvm's ``libcuda.so.1`` shipped in this package (``ptxvm/lib``,
    beside the runtime ``libcudart.so.13``): put its folder first on a program's
    ``LD_LIBRARY_PATH``, or use ``python -m ptxvm exec -- PROGRAM``.

    Raises ``FileNotFoundError`` when the package was built without it.
    """
    path = _os.path.join(_os.path.dirname(__file__), "lib", "libcuda.so.1")
    if not _os.path.exists(path):
        raise FileNotFoundError(f"{path} is missing: build the package with `pip install .` (release)")
    return path
