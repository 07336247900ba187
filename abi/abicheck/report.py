"""Check results and the report that lists them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

PASS = "PASS"
FAIL = "FAIL"
NOT_PRESENT = "NOT PRESENT"


@dataclass
class Result:
    """One check: a name (group.what), a status, a one-line summary with the counts,
    the failures (each names the problem and what to do) and notes."""

    name: str
    status: str = PASS
    summary: str = ""
    failures: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.failures.append(message)
        self.status = FAIL

    def note(self, message: str) -> None:
        self.notes.append(message)

    def not_present(self, why: str) -> "Result":
        self.status = NOT_PRESENT
        self.summary = why
        return self

    def finish(self, summary: str) -> "Result":
        self.summary = summary
        if self.failures:
            self.status = FAIL
        return self


@dataclass
class Report:
    strict: bool = False
    results: List[Result] = field(default_factory=list)
    header_lines: List[str] = field(default_factory=list)

    def add(self, r: Result) -> Result:
        self.results.append(r)
        return r

    def failed(self) -> bool:
        return any(r.status == FAIL or (self.strict and r.status == NOT_PRESENT) for r in self.results)

    def render(self, max_lines_per_check: int = 200) -> str:
        out = ["== dccuda ABI check"]
        out += ["   " + h for h in self.header_lines]
        out.append("   mode: " + ("strict (a check that is not present fails)" if self.strict
                                   else "default (a check that is not present is shown, not failed; --strict fails it)"))
        out.append("")
        width = max([len(r.name) for r in self.results] + [10])
        for r in self.results:
            label = r.status
            if r.status == NOT_PRESENT and self.strict:
                label = "FAIL:ABSENT"
            elif r.status == NOT_PRESENT:
                label = "NOT PRESENT"
            out.append(f"{label:<11}  {r.name.ljust(width)}  {r.summary}")
            flat = []
            for prefix, msgs in (("      - ", r.failures), ("      note: ", r.notes)):
                for m in msgs:
                    first, *rest = m.split("\n")
                    flat.append(prefix + first)
                    flat += ["          " + ln for ln in rest]
            if len(flat) > max_lines_per_check:
                hidden = len(flat) - max_lines_per_check
                flat = flat[:max_lines_per_check] + [f"      ... {hidden} more lines"]
            out += flat
        passed = sum(r.status == PASS for r in self.results)
        failed = sum(r.status == FAIL for r in self.results)
        absent = sum(r.status == NOT_PRESENT for r in self.results)
        out.append("")
        verdict = "FAILED" if self.failed() else "OK"
        tail = (f"{absent} not present" + (" (failures: --strict)" if self.strict else " (not failures without --strict)"))
        out.append(f"ABI check {verdict}: {passed} checks passing, {failed} failing, {tail}")
        return "\n".join(out) + "\n"
