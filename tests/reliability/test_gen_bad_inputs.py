#!/usr/bin/env python3
"""The bad-input generator's own checks, each shown failing on a planted mistake (CTest:
bad_inputs.generator). The real header and facts must generate; a case that expects a status
the function's "Errors:" paragraph does not name, or an integer the model cannot judge and the
facts do not mention, must stop the generator with a message that says what to do."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "..", "include", "dccuda.h")
sys.path.insert(0, HERE)

import bad_input_facts  # noqa: E402
import gen_bad_inputs  # noqa: E402

failures = []


def generate(facts_change=None):
    saved = dict(bad_input_facts.FACTS)
    try:
        if facts_change:
            facts_change(bad_input_facts.FACTS)
        g = gen_bad_inputs.Generator(HEADER)
        g.run()
        return g, None
    except gen_bad_inputs.GenError as e:
        return None, str(e)
    finally:
        bad_input_facts.FACTS.clear()
        bad_input_facts.FACTS.update(saved)


def expect(label, ok, detail):
    print(("ok   " if ok else "FAIL ") + label + (f": {detail}" if detail else ""))
    if not ok:
        failures.append(label)


g, err = generate()
expect("the real header and facts generate", g is not None and len(g.cases) > 1000, err or f"{len(g.cases)} cases")

_, err = generate(lambda f: f.__setitem__("dc_buffer_size", dict(extra=[("planted", {}, "DC_ERROR_IO", "")])))
expect("a case expecting an undocumented status is refused",
       err is not None and "dc_buffer_size" in err and "DC_ERROR_IO" in err and "Errors paragraph" in err, err)

_, err = generate(lambda f: f["dc_buffer_fill"]["ints"].pop("element_size"))
expect("an integer of no family without facts is refused",
       err is not None and "element_size" in err and "no facts for integer parameter" in err, err)

sys.exit(1 if failures else 0)
