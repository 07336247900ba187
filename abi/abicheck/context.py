"""Where every input of the check comes from. Each can be pointed elsewhere (a header copy,
another library, an nm listing, a bindings tree), which is how tests/abi runs the checks on
planted mistakes without rebuilding anything."""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # abi/
sys.path.insert(0, HERE)
import api as api_mod  # noqa: E402  (abi/api.py)

BINDINGS = ("csharp", "swig", "rust", "zig")
VERSION_NODE = "DCCUDA_1.0"


@dataclass
class Context:
    root: str
    header: str
    library: Optional[str] = None
    nm_file: Optional[str] = None
    symbols_file: str = ""
    baseline: str = ""
    bindings_root: str = ""
    unbound_file: str = ""
    build_dir: Optional[str] = None
    work_dir: Optional[str] = None
    layout_files: Dict[str, str] = field(default_factory=dict)   # binding -> layout output file
    constants_files: Dict[str, str] = field(default_factory=dict)   # binding -> constants output file
    swig_generated: Optional[str] = None
    swig_library: Optional[str] = None
    only_bindings: Optional[List[str]] = None
    version_node: str = VERSION_NODE
    strict: bool = False
    _api: Optional[api_mod.Api] = None
    _tmp: Optional[tempfile.TemporaryDirectory] = None

    @property
    def api(self) -> api_mod.Api:
        if self._api is None:
            self._api = api_mod.parse_header(self.header)
        return self._api

    @property
    def header_dir(self) -> str:
        return os.path.dirname(os.path.abspath(self.header))

    def work(self, sub: str) -> str:
        """A folder for generated test programs: --work-dir, else <build>/abi-check, else a temporary
        folder removed at exit."""
        if self.work_dir is None:
            if self.build_dir and os.path.isdir(self.build_dir):
                self.work_dir = os.path.join(self.build_dir, "abi-check")
            else:
                self._tmp = tempfile.TemporaryDirectory(prefix="dccuda-abi-")
                self.work_dir = self._tmp.name
        path = os.path.join(self.work_dir, sub)
        os.makedirs(path, exist_ok=True)
        return path

    def exported_list(self) -> Optional[List[str]]:
        """abi/dccuda.symbols as a list, or None when it does not exist."""
        if not os.path.isfile(self.symbols_file):
            return None
        with open(self.symbols_file, encoding="utf-8") as f:
            return [ln.strip() for ln in f if ln.strip()]

    def exported(self) -> Set[str]:
        names = self.exported_list()
        return set(names) if names is not None else {f.name for f in self.api.functions}

    def rel(self, path: str) -> str:
        from .util import rel
        return rel(path, self.root)

    def binding_enabled(self, name: str) -> bool:
        return self.only_bindings is None or name in self.only_bindings
