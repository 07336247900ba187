"""dccuda-info's telemetry against the fake driver and the fake NVML: the human
report, --json, and --watch SECONDS --count N (exactly N samples of every
device, then exit 0); without NVML every field is reported unavailable with
the reason. Usage: check_info_telemetry.py <dccuda-info> <fake driver> <fake NVML>"""
import json
import os
import subprocess
import sys

info, driver, nvml = sys.argv[1:4]
failures = []


def run(args, **env):
    e = dict(os.environ, DCCUDA_DRIVER_LIBRARY=driver, DCFAKE_DEVICES="2", DCCUDA_NVML_LIBRARY=nvml)
    e.update(env)
    return subprocess.run([info] + args, env=e, capture_output=True, text=True, timeout=60)


def expect(condition, what, output=""):
    if not condition:
        failures.append(what + ("\n" + output if output else ""))


r = run([])
expect(r.returncode == 0, f"dccuda-info exited {r.returncode}", r.stdout + r.stderr)
expect("nvml     " + nvml in r.stdout, "the report does not name the NVML loaded", r.stdout)
expect("temperature        41 C" in r.stdout, "device 1's temperature (41 C) is missing", r.stdout)

r = run(["--json"])
d = json.loads(r.stdout)
expect(d["nvml"] == {"library": nvml}, f"--json nvml: {d['nvml']}")
t1 = d["devices"][1]["telemetry"]
expect(t1["temperature_c"] == 41 and t1["nvml_index"] == 0 and t1["unavailable"] == {}
       and t1["nvlink_tx_kib"] == 5001 and t1["nvlink_rx_kib"] == 7001,
       f"--json device 1 telemetry: {t1}")

r = run(["--json"], DCFAKE_NVML_UNSUPPORTED="fan")
t0 = json.loads(r.stdout)["devices"][0]["telemetry"]
expect(t0["fan_speed_percent"] is None and t0["unavailable"] == {"fan_speed": "not supported"},
       f"--json with the fan unsupported: {t0}")

r = run(["--watch", "0.1", "--count", "3"])
rows = [l for l in r.stdout.splitlines() if l and l[0].isdigit()]
expect(r.returncode == 0 and len(rows) == 6, f"--watch 0.1 --count 3: {len(rows)} rows, exit {r.returncode}",
       r.stdout + r.stderr)
expect(all(row.split()[1] in ("0", "1") for row in rows), "--watch rows without a device column", r.stdout)
expect(any(row.split()[1] == "1" and row.split()[2] == "41" for row in rows), "--watch: device 1 is not 41 C",
       r.stdout)

r = run(["--json"], DCCUDA_NVML_LIBRARY="/nonexistent/libnvidia-ml.so.1")
d = json.loads(r.stdout)
expect("could not load /nonexistent/libnvidia-ml.so.1" in d["nvml"].get("error", ""), f"no NVML: {d['nvml']}")
un = d["devices"][0]["telemetry"]["unavailable"]
expect(len(un) == 14 and set(un.values()) == {"no NVML"}, f"no NVML: unavailable {un}")

for bad in (["--watch", "0"], ["--watch", "x"], ["--watch", "1", "--count", "0"], ["--count", "2"],
            ["--watch", "1", "--json"]):
    r = run(bad)
    expect(r.returncode == 1 and r.stderr, f"{bad} was accepted (exit {r.returncode})", r.stdout + r.stderr)

if failures:
    print("FAIL:\n" + "\n".join(failures))
    sys.exit(1)
print("dccuda-info telemetry: report, --json, --watch and the refusals as expected")
