#!/usr/bin/env python3
"""Compares the plugin's newest snapshot with what Slurm's own tools say.

    check_snapshot.py LOG SINCE jobs|nodes|shares [JOBID...]

LOG is snapshot_listener.py's log; the newest snapshot whose "time" is at
least SINCE (Unix seconds) is compared with `scontrol show job -o`,
`scontrol show node -o` or `sshare -P -a`.  Prints one line per mismatch and
exits 1 if there is any, 2 if there is no such snapshot.

The JOBIDs of a jobs check are the pending jobs submitted with a node count
(-N): since 23.02 (seen on 24.11) scontrol shows a pending job that asked
none as NumNodes=LEAST-LEAST, the most it prints being at least the least, so
only the request tells "at most LEAST" from "no most".
"""
import json
import re
import subprocess
import sys
import time

FIELD = re.compile(r" (?=[A-Za-z][A-Za-z0-9_/:]*=)")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def records(text):
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        rec = {}
        for part in FIELD.split(line.strip()):
            key, _, value = part.partition("=")
            rec[key] = value.strip()
        out.append(rec)
    return out


def hostnames(expr):
    if not expr or expr == "(null)":
        return []
    return run("scontrol", "show", "hostnames", expr).split()


def count_tasks(expr):
    expr = expr.split("%")[0]
    n = 0
    for part in expr.split(","):
        if "-" in part:
            lo, hi = part.split("-")[:2]
            step = 1
            if ":" in hi:
                hi, step = hi.split(":")
            n += len(range(int(lo), int(hi) + 1, int(step)))
        elif part:
            n += 1
    return n


def minutes_text(text):
    if text in ("UNLIMITED", "Partition_Limit", "NONE"):
        return 0
    days = 0
    if "-" in text:
        d, text = text.split("-")
        days = int(d)
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return ((days * 24 + parts[0]) * 60 + parts[1]) * 60 + parts[2]


def epoch(text):
    if text in ("Unknown", "None", "(null)", "N/A"):
        return 0
    return int(time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S")))


def null(text):
    return "" if text in ("(null)", None) else text


def newest_snapshot(log, since):
    best = None
    with open(log) as f:
        for line in f:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("type") == "snapshot" and msg.get("time", 0) >= since:
                best = msg
    return best


class Diff:
    def __init__(self):
        self.problems = []

    def eq(self, what, got, want):
        if got != want:
            self.problems.append(f"{what}: snapshot has {got!r}, Slurm says {want!r}")

    def near(self, what, got, want, tol):
        if abs(got - want) > tol:
            self.problems.append(f"{what}: snapshot has {got!r}, Slurm says {want!r} (tolerance {tol})")


GRES_ENTRY = re.compile(r"(?:gres[:/])?([^:=/,]+(?::[^:=,]+)*?)(?:[:=](\d[^,]*))?")


def gres_entry(entry, count_one):
    """One TRES entry in 22.05's form "gres:NAME[:TYPE][:COUNT]", None for
    one that is no gres: 23.02 and later write "gres/NAME[:TYPE]:COUNT" and
    per task "gres/NAME[:TYPE]=COUNT" beside "cpu=2" and "license/x=1"."""
    prefixed = entry.startswith(("gres:", "gres/"))
    if not prefixed and re.match(r"[^:]*[=/]", entry):
        return None
    name, count = GRES_ENTRY.fullmatch(entry).groups()
    text = ("gres:" if prefixed else "") + name
    return text if count is None else f"{text}:{'1' if count_one else count}"


def node_gres(r):
    """What every node of the job must have, as the exporter composes it
    (plugin/node_gres.h): the per-node, per-task and per-socket gres
    requests, then each per-job one at 1."""
    parts = []
    for key in ("TresPerNode", "TresPerTask", "TresPerSocket", "TresPerJob"):
        for e in filter(None, null(r.get(key)).split(",")):
            g = gres_entry(e, key == "TresPerJob")
            if g:
                parts.append(g)
    return ",".join(parts)


def mib(text):
    """scontrol's memory sizes (\"1000M\", \"2G\") in MiB."""
    units = {"M": 1, "G": 1024, "T": 1024 ** 2}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1:] in units else int(text)


BOUNDED_JOBS = set()


def most_nodes(r):
    """The most nodes a job may get, 0 when none is set."""
    least, _, most = r["NumNodes"].partition("-")
    if not most.isdigit():
        return 0
    if most == least and r["JobState"] == "PENDING" and r["JobId"] not in BOUNDED_JOBS:
        return 0
    return int(most)


def node_cpus(r):
    """The CPUs each node of a pending job must have (plugin/node_cpus.h):
    MinCPUsNode, and when NumNodes has a most, the tasks over it, rounded
    up, times CPUs/Task (without a task count, NumCPUs over it), unless the
    job overcommits (-O: sbatch asks fewer CPUs than its tasks have)."""
    cpt = int(r["CPUs/Task"])
    cpus = max(int(r["MinCPUsNode"]), cpt)
    most = most_nodes(r)
    tasks = int(r["NumTasks"]) if r.get("NumTasks", "").isdigit() else 0
    overcommit = tasks and int(r["NumCPUs"]) < tasks * cpt
    if most > 0 and not overcommit:
        cpus = max(cpus, -(-tasks // most) * cpt if tasks else -(-int(r["NumCPUs"]) // most))
    return cpus


def node_mem(r):
    """What each node of a pending job must have: MinMemoryNode, or
    MinMemoryCPU times its node_cpus."""
    if r.get("MinMemoryNode"):
        return mib(r["MinMemoryNode"])
    if r.get("MinMemoryCPU"):
        return mib(r["MinMemoryCPU"]) * node_cpus(r)
    return 0


def check_jobs(snap, d):
    live = [r for r in records(run("scontrol", "show", "job", "-o"))
            if r.get("JobState") in ("PENDING", "RUNNING", "SUSPENDED", "COMPLETING")]
    by_id = {j["id"]: j for j in snap["jobs"]}
    d.eq("job count", sorted(by_id), sorted(int(r["JobId"]) for r in live))
    for r in live:
        jid = int(r["JobId"])
        j = by_id.get(jid)
        if j is None:
            continue
        w = f"job {jid}"
        d.eq(f"{w} state", j["state"], r["JobState"])
        d.eq(f"{w} user", j["user"], r["UserId"].split("(")[0])
        d.eq(f"{w} account", j["account"], r["Account"])
        d.eq(f"{w} partitions", j["partitions"], r["Partition"].split(","))
        d.eq(f"{w} qos", j["qos"], r["QOS"])
        d.eq(f"{w} name", j["name"], r["JobName"])
        d.eq(f"{w} reason", j["reason"], r["Reason"])
        d.eq(f"{w} dependency", j["dependency"], null(r["Dependency"]))
        d.eq(f"{w} gres", j["gres"], node_gres(r))
        d.eq(f"{w} features", j["features"], null(r.get("Features")))
        if r["JobState"] == "PENDING":
            d.eq(f"{w} node_cpus", j["node_cpus"], node_cpus(r))
            d.eq(f"{w} node_mem_mb", j["node_mem_mb"], node_mem(r))
        d.eq(f"{w} priority", j["priority"], int(r["Priority"]))
        d.eq(f"{w} cpus", j["cpus"], int(r["NumCPUs"]))
        d.eq(f"{w} cpus_per_task", j["cpus_per_task"], int(r["CPUs/Task"]))
        d.eq(f"{w} nodes_req", j["nodes_req"], int(r["NumNodes"].split("-")[0]))
        d.eq(f"{w} node_list", j["node_list"], hostnames(r["NodeList"]))
        d.eq(f"{w} time_limit", j["time_limit"], minutes_text(r["TimeLimit"]))
        d.eq(f"{w} submit_time", j["submit_time"], epoch(r["SubmitTime"]))
        tags = dict(w.split(":", 1) for w in null(r.get("AdminComment")).split() if ":" in w)
        d.eq(f"{w} category", j["category"], tags.get("category", ""))
        d.eq(f"{w} burst", j["burst"], tags.get("burst", "allow"))
        d.eq(f"{w} threads", j["threads"], tags.get("threads", ""))
        d.eq(f"{w} size", j.get("size"), float(tags["size"]) if "size" in tags else None)
        tasks = r.get("ArrayTaskId", "")
        if r["JobState"] == "PENDING" and tasks and not tasks.isdigit():
            d.eq(f"{w} array_tasks", j["array_tasks"], count_tasks(tasks))
        else:
            d.eq(f"{w} array_tasks", j["array_tasks"], 1)


def check_nodes(snap, d):
    nodes = records(run("scontrol", "show", "node", "-o"))
    by_name = {n["name"]: n for n in snap["nodes"]}
    d.eq("node names", sorted(by_name), sorted(r["NodeName"] for r in nodes))
    known = {"CLOUD", "POWERED_DOWN", "POWERING_UP", "POWERING_DOWN", "POWER_DOWN", "DRAIN",
             "NOT_RESPONDING", "COMPLETING", "FAIL", "RESERVED", "MAINTENANCE"}
    for r in nodes:
        n = by_name.get(r["NodeName"])
        if n is None:
            continue
        w = f"node {r['NodeName']}"
        parts = r["State"].split("+")
        base = parts[0].rstrip("*~#%!$@^-")
        d.eq(f"{w} state", n["state"], base)
        d.eq(f"{w} flags", sorted(n["flags"]), sorted(p for p in parts[1:] if p in known))
        d.eq(f"{w} cpus", n["cpus"], int(r["CPUTot"]))
        d.eq(f"{w} alloc_cpus", n["alloc_cpus"], int(r["CPUAlloc"]))
        d.eq(f"{w} mem_mb", n["mem_mb"], int(r["RealMemory"]))
        d.eq(f"{w} alloc_mem_mb", n["alloc_mem_mb"], int(r["AllocMem"]))
        d.eq(f"{w} weight", n["weight"], int(r["Weight"]))
        d.eq(f"{w} addr", n["addr"], r["NodeAddr"])
        d.eq(f"{w} partitions", n["partitions"], null(r.get("Partitions")).split(",") if null(r.get("Partitions")) else [])
        feats = null(r.get("AvailableFeatures"))
        d.eq(f"{w} features", n["features"], feats.split(",") if feats else [])
        d.eq(f"{w} gres", n["gres"], null(r.get("Gres")))


def check_shares(snap, d):
    rows = run("sshare", "-P", "-a", "-n", "-o", "Account,User,RawShares,NormShares,RawUsage,FairShare")
    by_key = {(s["account"], s["user"]): s for s in snap["shares"]}
    seen = 0
    for line in rows.splitlines():
        acct, user, raw, norm, usage, fs = line.split("|")
        acct = acct.strip()
        s = by_key.get((acct, user))
        if s is None:
            d.problems.append(f"sshare row {acct}/{user or '-'} missing from snapshot shares")
            continue
        seen += 1
        w = f"share {acct}/{user or '-'}"
        if raw.isdigit():
            d.eq(f"{w} raw_shares", s["raw_shares"], float(raw))
        if raw:
            d.eq(f"{w} fairshare_parent", s.get("fairshare_parent"), raw == "parent")
        if norm:
            d.near(f"{w} norm_shares", s["norm_shares"], float(norm), 1e-3)
        if usage:
            d.near(f"{w} raw_usage", s["raw_usage"], float(usage), 0.1 * float(usage) + 60)
        if fs:
            d.near(f"{w} fs_factor", s["fs_factor"], float(fs), 0.05)
    if not seen:
        d.problems.append("sshare printed no rows")


def main():
    log, since, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    BOUNDED_JOBS.update(sys.argv[4:])
    snap = newest_snapshot(log, since)
    if snap is None:
        print(f"no snapshot with time >= {since} in {log}")
        return 2
    d = Diff()
    {"jobs": check_jobs, "nodes": check_nodes, "shares": check_shares}[what](snap, d)
    for p in d.problems:
        print(p)
    return 1 if d.problems else 0


if __name__ == "__main__":
    sys.exit(main())
