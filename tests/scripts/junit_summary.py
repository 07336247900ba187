#!/usr/bin/env python3
"""Reads CTest's JUnit report (`ctest --output-junit FILE`) and prints one line of counts, then the
tests that did not pass, one per line (name and status). Exit 0 when every test that ran passed
(skipped ones are fine), 1 when one failed or none ran at all (a label or filter that selects
nothing checks nothing), 2 when the file cannot be read.

    tests/scripts/junit_summary.py build/ctest-junit.xml [--label asan]
"""

import argparse
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--label", default="", help="a word in front of the counts line")
    ap.add_argument("--max-listed", type=int, default=30)
    args = ap.parse_args()
    try:
        root = ET.parse(args.report).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"{args.label + ' ' if args.label else ''}no test report ({args.report}: {e})")
        return 2
    passed, failed, skipped = 0, [], 0
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        status = case.get("status", "")
        if case.find("skipped") is not None or status in ("notrun", "disabled"):
            skipped += 1
        elif case.find("failure") is not None or case.find("error") is not None or status == "fail":
            failed.append(name)
        else:
            passed += 1
    total = passed + len(failed) + skipped
    print(f"{args.label + ' ' if args.label else ''}{passed} passed, {len(failed)} failed, {skipped} skipped "
          f"of {total} tests")
    if total == 0:
        print("  FAILED: no test ran (does the label or filter select any?)")
        return 1
    for name in failed[:args.max_listed]:
        print(f"  FAILED {name}")
    if len(failed) > args.max_listed:
        print(f"  ... {len(failed) - args.max_listed} more")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
