#!/usr/bin/env python3
"""A plugin stream (doc/protocol.md, version 2) for bench/ingest_cycle without a
Slurm cluster: a hello, one whole snapshot, then rounds of deltas.

    bench/synthetic_stream.py JOBS [ROUNDS] > stream.ndjson

The site: 500 local nodes n[1-500] of 32 CPUs, all busy with 2,000 running
jobs; 64 powered-down CLOUD nodes c[1-64] (bench/ingest_cycle.conf's group);
JOBS pending jobs of 1-32 CPUs in 200 categories and 20 accounts, waiting on
Priority or Resources.  Each round (default 5) sends, as the plugin would:
a steady delta (nothing changed), a delta where one job changed, one where 1%
of the jobs changed their time limit, one where every priority moved (what a
PriorityCalcPeriod does), and one where 1% of the pending jobs ended and as
many were submitted.  Every delta carries its check.  Seeded: the same
arguments give the same stream.
"""
import json
import random
import sys

FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
MASK64 = (1 << 64) - 1
STATE_CODE = {"PENDING": 1, "RUNNING": 2, "SUSPENDED": 3, "COMPLETING": 4}
CLUSTER = "plugbench"


def fingerprint(job):
    h = FNV_OFFSET
    for v in (job["id"], job["priority"], job["array_tasks"], STATE_CODE[job["state"]]):
        h = ((h ^ v) * FNV_PRIME) & MASK64
    return h


class Site:
    def __init__(self, pending, rng):
        self.rng = rng
        self.time = 1795900000
        self.seq = 0
        self.next_id = 1
        self.nodes = [self.node("n%d" % i, 32, 32, "local", []) for i in range(1, 501)]
        self.nodes += [self.node("c%d" % i, 1, 0, "cloud", ["CLOUD", "POWERED_DOWN"]) for i in range(1, 65)]
        self.partitions = [
            {"name": "local", "nodes": ["n%d" % i for i in range(1, 501)], "state": "UP", "default": True,
             "max_time": 0, "priority_tier": 1},
            {"name": "cloud", "nodes": ["c%d" % i for i in range(1, 65)], "state": "UP", "default": False,
             "max_time": 0, "priority_tier": 1},
        ]
        self.shares = [{"account": "acct%d" % a, "user": "", "partition": "", "fairshare": 0.5,
                        "shares_norm": 0.05, "usage_norm": 0.05} for a in range(20)]
        self.jobs = {}
        for i in range(2000):
            self.add(self.job("RUNNING", ["n%d" % (i % 500 + 1)]))
        for _ in range(pending):
            self.add(self.job("PENDING", []))
        self.sum = sum(fingerprint(j) for j in self.jobs.values())

    @staticmethod
    def node(name, cpus, alloc, partition, flags):
        return {"name": name, "state": "ALLOCATED" if alloc else "IDLE", "flags": flags, "cpus": cpus,
                "alloc_cpus": alloc, "mem_mb": 1000 * cpus, "alloc_mem_mb": 1000 * alloc,
                "features": ["cloud"] if partition == "cloud" else [], "gres": "", "partitions": [partition],
                "weight": 1, "addr": "127.0.0.1"}

    def job(self, state, node_list):
        rng = self.rng
        jid = self.next_id
        self.next_id += 1
        cpus = rng.choice([1, 1, 1, 2, 4, 8, 16, 32])
        category = "cat%03d" % rng.randrange(200)
        return {"id": jid, "array_tasks": 1, "user": "u%d" % rng.randrange(100),
                "account": "acct%d" % rng.randrange(20), "partitions": ["local"], "qos": "normal",
                "name": "job-" + category, "category": category,
                "reason": "None" if state == "RUNNING" else rng.choice(["Priority", "Resources"]),
                "gres": "", "features": "", "dependency": "", "state": state,
                "priority": rng.randrange(1, 1 << 20), "submit_time": self.time - rng.randrange(86400),
                "eligible_time": self.time - rng.randrange(3600),
                "start_time": self.time - rng.randrange(3600) if state == "RUNNING" else 0,
                "time_limit": rng.choice([60, 240, 720, 1440]), "nodes_req": 1, "cpus": cpus,
                "cpus_per_task": 1, "node_cpus": cpus, "mem_mb": 1000 * cpus, "node_mem_mb": 0,
                "node_list": node_list, "burst": "allow", "threads": ""}

    def add(self, job):
        self.jobs[job["id"]] = job

    def message(self, kind, **body):
        self.seq += 1
        self.time += 5
        out = {"v": 2 if kind == "delta" else 1, "type": kind, "cluster": CLUSTER, "seq": self.seq,
               "time": self.time}
        out.update(body)
        return json.dumps(out, separators=(",", ":"))

    def snapshot(self):
        return self.message("snapshot", jobs=list(self.jobs.values()), nodes=self.nodes,
                            partitions=self.partitions, shares=self.shares)

    def delta(self, changed=(), priorities=(), removed=()):
        base = self.seq
        for jid in removed:
            self.sum -= fingerprint(self.jobs.pop(jid))
        for job in changed:
            old = self.jobs.get(job["id"])
            if old:
                self.sum -= fingerprint(old)
            self.jobs[job["id"]] = job
            self.sum += fingerprint(job)
        for jid, prio in priorities:
            self.sum -= fingerprint(self.jobs[jid])
            self.jobs[jid]["priority"] = prio
            self.sum += fingerprint(self.jobs[jid])
        body = {"base": base, "check": {"jobs": len(self.jobs), "nodes": len(self.nodes),
                                        "partitions": len(self.partitions), "shares": len(self.shares),
                                        "job_sum": self.sum % (1 << 64) & ((1 << 53) - 1)}}
        if changed:
            body["jobs"] = list(changed)
        if priorities:
            body["priorities"] = [[jid, prio] for jid, prio in priorities]
        if removed:
            body["jobs_removed"] = list(removed)
        return self.message("delta", **body)

    def pending_ids(self, share):
        ids = [jid for jid, j in self.jobs.items() if j["state"] == "PENDING"]
        return self.rng.sample(ids, max(1, int(len(ids) * share)))

    def with_time_limit(self, jid):
        job = dict(self.jobs[jid])
        job["time_limit"] += 1
        return job


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    pending = int(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 5
    site = Site(pending, random.Random(pending))
    out = sys.stdout
    out.write(json.dumps({"v": 1, "type": "hello", "cluster": CLUSTER, "seq": 0, "time": site.time,
                          "plugin_version": "synthetic", "slurm_version": "22.05.8", "versions": [1, 2]}) + "\n")
    out.write(site.snapshot() + "\n")
    rng = site.rng
    for _ in range(rounds):
        out.write(site.delta() + "\n")
        out.write(site.delta(changed=[site.with_time_limit(site.pending_ids(0)[0])]) + "\n")
        out.write(site.delta(changed=[site.with_time_limit(j) for j in site.pending_ids(0.01)]) + "\n")
        out.write(site.delta(priorities=[(jid, rng.randrange(1, 1 << 20)) for jid in site.jobs]) + "\n")
        gone = site.pending_ids(0.01)
        out.write(site.delta(changed=[site.job("PENDING", []) for _ in gone], removed=gone) + "\n")


if __name__ == "__main__":
    main()
