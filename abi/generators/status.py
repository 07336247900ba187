"""src/core/status_names.inc: the library's own list of its statuses (dc_status_name), one
DC_STATUS_NAME(x) line per member of the dc_status family."""

from __future__ import annotations

from .common import GENERATED_MARK, Ctx, GenError


def generate(ctx: Ctx) -> None:
    fam = ctx.api.family("dc_status")
    if fam is None:
        raise GenError("no DC_CONSTANTS(dc_status, ...) family in the header")
    out = [f"/* {GENERATED_MARK} from {ctx.header_rel}: every status, for dc_status_name",
           "   (core/status.cpp defines DC_STATUS_NAME). Do not edit: run abi/gen.py. */"]
    out += [f"DC_STATUS_NAME({n})" for n in fam.members]
    ctx.add("src/core/status_names.inc", "\n".join(out) + "\n")
