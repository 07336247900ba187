#!/usr/bin/env python3
"""Prints one line per skipped test, with the reason the test gave, from CTest's JUnit file.

  list_skipped.py <junit.xml>      (ctest --output-junit junit.xml)

A test that skips says why in its output: GoogleTest's GTEST_SKIP() message
(the line after "Skipped"), a "SKIPPED: ..." line (dc_skip_test in
tests/CMakeLists.txt), or the message a SKIP_REGULAR_EXPRESSION matched.
The last line counts the skips by reason.
"""
import collections
import re
import sys
import xml.etree.ElementTree as ET


def shorten(reason):
    """A reason on one readable line: long lists of paths tried are counted, not shown."""
    reason = re.sub(r"\(tried ([^)]*)\)", lambda m: f"(tried {len(m.group(1).split(', '))} paths)", reason)
    return reason if len(reason) <= 220 else reason[:217] + "..."


def reason_of(output):
    lines = [l.strip() for l in output.splitlines()]
    for i, line in enumerate(lines):
        if line.startswith("SKIPPED:"):
            return line[len("SKIPPED:"):].strip()
        if re.search(r":\d+: Skipped$", line) and i + 1 < len(lines) and lines[i + 1]:
            return lines[i + 1]
    for line in lines:
        if "NVRTC is not available" in line or "needs NVRTC" in line:
            return line
    return "(the test printed no reason)"


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = ET.parse(sys.argv[1]).getroot()
    skipped = []
    for case in root.iter("testcase"):
        if case.find("skipped") is None and case.get("status") != "skipped":
            continue
        out = case.find("system-out")
        skipped.append((case.get("name"), shorten(reason_of(out.text if out is not None and out.text else ""))))
    if not skipped:
        print("no test skipped")
        return 0
    print(f"== skipped tests ({len(skipped)}), each with the reason it gave")
    by_reason = collections.Counter()
    for name, reason in skipped:
        print(f"SKIPPED {name}: {reason}")
        # Group by the reason's first clause (paths and details differ between tests).
        by_reason[re.split(r"[:(]", reason, maxsplit=1)[0].strip()] += 1
    print("skipped, by reason: " + "; ".join(f"{n} x {r}" for r, n in by_reason.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
