# Type stubs of the `ptxvm` package (its extension module is python/src/), for
# editors and type checkers; maturin puts them and py.typed in the wheel.

import os
from typing import Any, Optional, Sequence, Tuple, Union

__version__: str

Dim = Union[int, Tuple[int], Tuple[int, int], Tuple[int, int, int]]

class PtxError(Exception):
    """Invalid PTX, or a kernel that uses something ptxvm cannot run yet."""

    diagnostics: list[Tuple[int, int, str]]
    """Each diagnostic as (line, column, message)."""

class KernelFault(Exception):
    """A launch stopped on undefined behaviour or on its step or time limit."""

    kernel: str
    ctaid: Tuple[int, int, int]
    tid: Tuple[int, int, int]
    line: Optional[int]
    column: Optional[int]
    instruction: Optional[str]
    cause: str
    source: Optional[str]
    calls: list[Tuple[Optional[int], Optional[int], Optional[str], Optional[str]]]
    notes: list[Tuple[Optional[int], Optional[int], Optional[str], str]]

class SanitizerError(Exception):
    """A launch with sanitize=["racecheck", "initcheck"] found shared-memory hazards."""

    hazards: list[dict[str, Any]]

class Module:
    """A PTX module, parsed and validated as `ptxvm check` does."""

    def __init__(self, code: Optional[str] = None, *, path: Union[str, os.PathLike[str], None] = None) -> None: ...
    @property
    def kernel_names(self) -> list[str]: ...
    def get_function(self, name: str) -> Function: ...

class Function:
    """A kernel of a module, ready to launch."""

    @property
    def name(self) -> str: ...
    @property
    def param_types(self) -> list[str]: ...
    def __call__(
        self,
        grid: Dim,
        block: Dim,
        args: Sequence[object],
        *,
        shared_mem: int = 0,
        max_steps: Optional[int] = None,
        timeout: Optional[float] = None,
        check: Sequence[str] = (),
        sanitize: Sequence[str] = (),
    ) -> None: ...

class Texture:
    """A texture object over NumPy texels (one array, or a list of mipmap levels),
    for a `cudaTextureObject_t` parameter; the keywords are the launch spec's."""

    def __init__(
        self,
        data: object,
        *,
        channels: int = 1,
        shape: Optional[str] = None,
        memory: str = "array",
        filter: str = "point",
        mip_filter: str = "point",
        address: Union[str, Sequence[str], None] = None,
        read: str = "element",
        srgb: bool = False,
        normalized_coords: bool = False,
        seamless: bool = False,
        border: Optional[Sequence[float]] = None,
        lod_bias: float = 0.0,
        min_lod: float = 0.0,
        max_lod: float = 0.0,
    ) -> None: ...

class Surface:
    """A surface object over a NumPy array, for a `cudaSurfaceObject_t` parameter;
    the array holds what the kernel wrote after the launch."""

    def __init__(self, array: object, *, channels: int = 1, shape: Optional[str] = None) -> None: ...

def driver_library() -> str: ...
