"""Reading the records of one GPU run (the folder tests/gpu/run.sh --bench
fills, or a copy of it under bench/results/): who ran what, where and when,
and the benchmarks' JSON, checked for what the plots need.

Every problem is an InputError whose message names the file, what is wrong
and what to do: a plot is never drawn from half its data.
"""
import json
import os
import re


class InputError(Exception):
    """A run's records lack something a plot needs, or hold something wrong."""


# Files and keys that mark made-up data: sample files written for the tests
# say so, and every plot drawn from one says so in red.
SYNTHETIC_KEY = "synthetic"


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not valid JSON ({e}); was the run cut short?") from None


def read_key_values(path):
    """`key: value` lines (host.txt, bundle.txt); {} when the file is absent."""
    values = {}
    if not os.path.exists(path):
        return values
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, sep, value = line.partition(":")
            if sep:
                values[key.strip()] = value.strip()
    return values


class GoogleBenchmarkFile:
    """One Google Benchmark JSON output: its context and its benchmarks by
    name (iterations only; aggregates are left out)."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
            raise InputError(f"{path}: not Google Benchmark JSON output (no \"benchmarks\" list)")
        self.context = data.get("context", {})
        # A run on the fake driver (announce.h names the device "... fake
        # ...") is a smoke run whose numbers mean nothing: drawn, but marked.
        fake = "fake" in str(self.context.get("device", "")).lower()
        self.synthetic = self.context.get(SYNTHETIC_KEY) or ("a fake-driver run" if fake else None)
        self.benchmarks = {}
        for entry in data["benchmarks"]:
            if entry.get("run_type", "iteration") == "iteration" and "name" in entry:
                self.benchmarks[entry["name"]] = entry

    def family(self, family):
        """[(first argument as int, entry)] of every benchmark named
        family/<number>/..., sorted by the argument."""
        found = []
        for name, entry in self.benchmarks.items():
            parts = name.split("/")
            if parts[0] == family and len(parts) > 1 and parts[1].isdigit():
                found.append((int(parts[1]), entry))
        return sorted(found, key=lambda item: item[0])

    def find(self, name_prefix):
        """The benchmark whose name is name_prefix or starts with
        name_prefix + "/", or None."""
        for name, entry in self.benchmarks.items():
            if name == name_prefix or name.startswith(name_prefix + "/"):
                return entry
        return None

    def counter(self, entry, key):
        """A counter of an entry that ran: a positive number, or InputError."""
        if entry.get("error_occurred"):
            raise InputError(f"{self.path}: {entry['name']} failed in the run "
                             f"({entry.get('error_message', 'no message')}); rerun the benchmark")
        value = entry.get(key)
        if not isinstance(value, (int, float)) or value <= 0:
            raise InputError(f"{self.path}: {entry['name']} has no positive '{key}' counter "
                             f"(found {value!r}); was it written by an older or another benchmark program?")
        return float(value)


class Run:
    """The records of one run folder. Missing optional records (host.txt,
    bundle.txt, peers.json) leave 'not recorded' in the captions; a missing
    benchmark file is an error only for the plot that needs it."""

    def __init__(self, folder):
        if not os.path.isdir(folder):
            raise InputError(f"{folder}: not a folder; give the folder of one run's results "
                             f"(tests/gpu/run.sh --bench output, e.g. bench/results/<date>-<gpu>)")
        self.folder = folder
        self.host_record = read_key_values(self.path("host.txt"))
        self.bundle_record = read_key_values(self.path("bundle.txt"))
        self.gpu_lines = self._read_gpu_txt()
        self._cache = {}

    def path(self, name):
        return os.path.join(self.folder, name)

    def has(self, name):
        return os.path.exists(self.path(name))

    def _read_gpu_txt(self):
        if not self.has("gpu.txt"):
            return []
        with open(self.path("gpu.txt"), encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]

    # -- the benchmark files ---------------------------------------------------

    def gbench(self, name, needed_for):
        """A Google Benchmark file of the run, which must exist."""
        if name not in self._cache:
            if not self.has(name):
                raise InputError(f"{self.path(name)}: missing; the {needed_for} needs it "
                                 f"(tests/gpu/run.sh --bench writes it)")
            self._cache[name] = GoogleBenchmarkFile(self.path(name))
        return self._cache[name]

    def passes(self, stem, needed_for):
        """[pass 1, pass 2, ...] of a benchmark program: stem.json, then
        stem-pass<N>.json in order of N."""
        first = self.gbench(stem + ".json", needed_for)
        numbered = []
        for entry in os.listdir(self.folder):
            match = re.fullmatch(re.escape(stem) + r"-pass(\d+)\.json", entry)
            if match:
                numbered.append((int(match.group(1)), entry))
        return [first] + [self.gbench(name, needed_for) for _, name in sorted(numbered)]

    def peers(self):
        """peers.json, or None when the run has none."""
        if "peers.json" not in self._cache:
            self._cache["peers.json"] = read_json(self.path("peers.json")) if self.has("peers.json") else None
        return self._cache["peers.json"]

    def json_file(self, name, needed_for):
        if not self.has(name):
            raise InputError(f"{self.path(name)}: missing; the {needed_for} needs it")
        if name not in self._cache:
            self._cache[name] = read_json(self.path(name))
        return self._cache[name]

    # -- the captions ----------------------------------------------------------

    def any_context(self):
        for cached in self._cache.values():
            if isinstance(cached, GoogleBenchmarkFile):
                return cached.context
        for name in sorted(os.listdir(self.folder)):
            if name.startswith("bench_") and name.endswith(".json"):
                try:
                    return GoogleBenchmarkFile(self.path(name)).context
                except InputError:
                    continue
        return {}

    def device(self):
        """'NVIDIA H100 80GB HBM3, driver 580.159.04' from gpu.txt (device 0
        and how many), else the benchmarks' context."""
        gpus = [line.split(",") for line in self.gpu_lines
                if line.count(",") >= 2 and not line.lower().startswith(SYNTHETIC_KEY + ":")]
        if gpus:
            name, driver = gpus[0][0].strip(), gpus[0][1].strip()
            count = f" (device 0 of {len(gpus)})" if len(gpus) > 1 else ""
            return f"{name}{count}, driver {driver}"
        context = self.any_context()
        if context.get("device"):
            return f"{context['device']}, driver CUDA {context.get('driver', 'not recorded')}"
        return "device not recorded"

    def host(self):
        """'AMD EPYC 9454 48-Core Processor, 16 cores, 128 GiB' from host.txt,
        else what Google Benchmark recorded (CPU count and clock)."""
        if self.host_record.get("cpu"):
            parts = [self.host_record["cpu"]]
            if self.host_record.get("cores"):
                parts.append(f"{self.host_record['cores']} cores")
            if self.host_record.get("memory"):
                parts.append(self.host_record["memory"])
            return ", ".join(parts)
        context = self.any_context()
        if context.get("num_cpus"):
            return (f"{context['num_cpus']} CPUs at {context.get('mhz_per_cpu', '?')} MHz "
                    f"(CPU model not recorded)")
        return "host not recorded"

    def date(self):
        """The run's date (UTC): host.txt, else gpu.txt's date line, else the
        benchmarks' date_utc."""
        if self.host_record.get("date"):
            return self.host_record["date"]
        for line in self.gpu_lines:
            if re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", line):
                return line
        context = self.any_context()
        return context.get("date_utc", "date not recorded")

    def commit(self):
        """The commit the bundle was built from (bundle.txt); a full hash is
        shortened to 12 digits."""
        commit = self.bundle_record.get("commit")
        if not commit:
            return "not recorded"
        match = re.match(r"([0-9a-f]{40})(.*)", commit)
        return match.group(1)[:12] + match.group(2) if match else commit

    def synthetic_records(self):
        """Record files (host.txt, bundle.txt, gpu.txt) that say they are made up."""
        marked = []
        for name, record in (("host.txt", self.host_record), ("bundle.txt", self.bundle_record)):
            if SYNTHETIC_KEY in record:
                marked.append(name)
        if any(line.lower().startswith(SYNTHETIC_KEY + ":") for line in self.gpu_lines):
            marked.append("gpu.txt")
        return marked

    def caption(self):
        return (f"{self.device()}  |  host: {self.host()}  |  {self.date()}  |  commit {self.commit()}")
