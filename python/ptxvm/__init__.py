"""Load, validate and run NVIDIA PTX on the CPU, with NumPy arrays as device memory.

After cupy's RawModule: ``Module(code=...)`` or ``Module(path=...)``, then
``get_function(name)(grid, block, args, shared_mem=0)``. The classes and exceptions
are defined in the Rust extension ``ptxvm._ptxvm`` (python/src/).
"""

from ptxvm._ptxvm import Function, KernelFault, Module, PtxError, SanitizerError, __version__

__all__ = ["Function", "KernelFault", "Module", "PtxError", "SanitizerError", "__version__"]
