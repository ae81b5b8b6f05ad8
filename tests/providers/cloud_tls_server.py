#!/usr/bin/env python3
"""A test-only GCE, Azure Resource Manager and Keystone/Nova endpoint over HTTPS on 127.0.0.1.

It trusts nothing the client computed: every GCP service-account JWT is
verified again (RS256 with the test key's public half, iss/aud/scope/iat/exp),
Azure's client-credentials form is checked field by field, Keystone's
password body likewise, and every API call must carry a bearer token (or
X-Auth-Token) this server issued; Nova calls must also ask for microversion
"compute 2.79".  Resource shapes come from the recorded Libcloud fixtures
(tests/data/provider-fixtures/{gce,azure_arm,openstack,openstack_v1.1});
error bodies are the documented ones.  Instances are kept in memory, so
launch -> list -> terminate behaves like a cloud.  A node name's prefix picks
an error:
  capacity-*  GCE: operation error ZONE_RESOURCE_POOL_EXHAUSTED; bulkInsert skips it, or creates
              nothing when that leaves it short of minCount
              Azure: async operation Failed with AllocationFailed
              Nova: server goes ERROR with fault "No valid host was found."
  quota-*     GCE: operation error QUOTA_EXCEEDED; Azure: 409 OperationNotAllowed
              (quota); Nova: 403 "Quota exceeded for instances"
  throttle-*  GCE: 403 rateLimitExceeded; Azure: 429 + Retry-After: 7; Nova: 429 + Retry-After: 7
  once-*      the first create (GCE: also a bulkInsert naming it) is throttled (GCE: 403
              userRateLimitExceeded; Azure and Nova: 429 + Retry-After: 1), the next one succeeds
  flaky-*     503 from every API
  invalid-*   GCE: 400 invalid; Azure: 400 InvalidParameter; Nova: 400 badRequest
Nova creates max_count servers per POST, named NAME-1..NAME-N as Nova does (no quota); a flavor
named capacity-* sends all of a POST's servers to ERROR (No valid host).
Azure zone "1" has no capacity (ZonalAllocationFailed), and a deleted Azure
VM stays visible as Deleting until its delete operation has been polled to
its end; a PUT on it meanwhile is a 409 Conflict.
Each handled request is logged as "API what verdict" to --log (and with its
time to --stamps); a verdict other than "verified" means the request was
refused.  --latency delays every answer.
"""
import argparse
import base64
import copy
import datetime
import hmac
import http.server
import itertools
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

GCP_SCOPE = "https://www.googleapis.com/auth/compute"
AZURE_SCOPE = "https://management.azure.com/.default"
AZURE_FULL_ZONE = "1"  # Azure zone "1" has no capacity for anything (zone fallback tests)
NOVA_MICROVERSION = "compute 2.79"
counter = itertools.count(1)


def zone_is_full(zone_path):
    """A zone named full-* has no capacity for anything (zone fallback tests)."""
    return zone_path.rsplit("/", 1)[-1].startswith("full-")


def b64url_decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class State:
    def __init__(self, cfg):
        self.cfg = cfg
        self.lock = threading.Lock()
        self.tokens = {}  # issued token -> api
        self.gce = {}  # "projects/P/zones/Z/instances/NAME" -> instance
        self.gce_ops = {}  # name -> operation
        self.azure = {}  # name -> vm
        self.azure_ops = {}  # id -> [polls left, final status document, what happens when it ends (or None)]
        self.nova = {}  # id -> server
        self.metadata_mode = "normal"  # normal | short (expires_in 30) | down (503)
        self.throttled_once = set()  # once-* names already throttled

    def throttle_first(self, name):
        """True for a once-* name's first create: the client must retry it.  Called under self.lock."""
        if not name.startswith("once") or name in self.throttled_once:
            return False
        self.throttled_once.add(name)
        return True

    def fixture(self, path):
        with open(os.path.join(self.cfg.fixtures, path)) as f:
            return json.load(f)

    def issue(self, api):
        token = "%s-token-%d" % (api, next(counter))
        self.tokens[token] = api
        return token


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    # -- plumbing ---------------------------------------------------------
    @property
    def state(self):
        return self.server.state

    def origin(self):
        return "https://127.0.0.1:%d" % self.server.server_address[1]

    def log(self, api, what, verdict):
        with self.state.lock, open(self.state.cfg.log, "a") as f:
            f.write("%s %s %s\n" % (api, what, verdict))
        if self.state.cfg.stamps:
            with self.state.lock, open(self.state.cfg.stamps, "a") as f:
                f.write("%.6f %s %s\n" % (time.monotonic(), api, what))

    def reply(self, status, doc=None, headers=()):
        data = b"" if doc is None else (doc if isinstance(doc, bytes) else json.dumps(doc).encode())
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if doc is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def bearer(self, api):
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        return self.state.tokens.get(token) == api

    def do_GET(self):
        self.route("GET", b"")

    def do_DELETE(self):
        self.route("DELETE", b"")

    def do_POST(self):
        self.route("POST", self.body())

    def do_PUT(self):
        self.route("PUT", self.body())

    def route(self, method, body):
        if self.state.cfg.wire:  # every request as sent: method, path?query, body
            with self.state.lock, open(self.state.cfg.wire, "a") as f:
                f.write("%s %s %s\n" % (method, self.path, body.decode("utf-8", "replace")))
        if self.state.cfg.latency:  # received, then worked on: calls overlap as at a cloud
            time.sleep(self.state.cfg.latency)
        path, _, query = self.path.partition("?")
        q = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        try:
            if path == "/token":
                return self.gcp_token(body)
            if path.endswith("/oauth2/v2.0/token"):
                return self.azure_token(path, body)
            if path == "/v3/auth/tokens":
                return self.keystone(body)
            if path.startswith("/compute/v1/"):
                return self.gce(method, path[len("/compute/v1/"):], q, body)
            if path.startswith("/subscriptions/"):
                return self.arm(method, path, q, body)
            if path.startswith("/compute/v2.1/"):
                return self.nova(method, path[len("/compute/v2.1"):], q, body)
        except (KeyError, ValueError, TypeError) as e:  # a request of the wrong shape
            self.log("any", method + " " + path, "rejected: malformed request (%s)" % e)
            return self.reply(400, {"error": "malformed request: %s" % e})
        self.log("any", method + " " + path, "rejected: unknown path")
        return self.reply(404, {"error": "unknown path"})

    # -- GCP ----------------------------------------------------------------
    def jwt_problem(self, assertion):
        """None if the assertion is a JWT signed by the test key with the right claims, else why not."""
        parts = assertion.split(".")
        if len(parts) != 3:
            return "not a three-part JWT"
        header, claims = json.loads(b64url_decode(parts[0])), json.loads(b64url_decode(parts[1]))
        if header.get("alg") != "RS256" or header.get("typ") != "JWT":
            return "header %r is not RS256/JWT" % header
        if header.get("kid") != self.state.cfg_key["private_key_id"]:
            return "kid %r is not the key's id" % header.get("kid")
        try:
            self.state.gcp_public.verify(b64url_decode(parts[2]), (parts[0] + "." + parts[1]).encode(),
                                         padding.PKCS1v15(), hashes.SHA256())
        except Exception:
            return "RS256 signature does not verify with the test key"
        key = self.state.cfg_key
        if claims.get("iss") != key["client_email"]:
            return "iss %r" % claims.get("iss")
        if claims.get("aud") != self.origin() + "/token":
            return "aud %r is not this server's token URI" % claims.get("aud")
        if GCP_SCOPE not in claims.get("scope", "").split():
            return "scope %r lacks %s" % (claims.get("scope"), GCP_SCOPE)
        now = time.time()
        if abs(claims.get("iat", 0) - now) > 300 or not 0 < claims.get("exp", 0) - claims.get("iat", 0) <= 3600:
            return "iat/exp %r/%r not around now, or more than an hour apart" % (claims.get("iat"), claims.get("exp"))
        return None

    def gcp_token(self, body):
        form = dict(urllib.parse.parse_qsl(body.decode()))
        if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            self.log("gcp", "token", "rejected: grant_type %r" % form.get("grant_type"))
            return self.reply(400, {"error": "unsupported_grant_type"})
        why = self.jwt_problem(form.get("assertion", ""))
        if why:
            self.log("gcp", "token", "rejected: " + why)
            return self.reply(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
        self.log("gcp", "token", "verified")
        return self.reply(200, {"access_token": self.state.issue("gcp"), "expires_in": 3599, "token_type": "Bearer"})

    def gce_error(self, status, reason, message):
        return self.reply(status, {"error": {"code": status, "message": message,
                                             "errors": [{"domain": "usageLimits" if status in (403, 429) else "global",
                                                         "reason": reason, "message": message}]}})

    def gce_operation(self, kind, target, error_code=None, message=""):
        op = self.state.fixture("gce/operations_operation_zones_us-central1-a_instances_post.json")
        name = "operation-%d" % next(counter)
        op.update(name=name, operationType=kind, status="RUNNING", progress=0,
                  targetLink=self.origin() + "/compute/v1/" + target,
                  selfLink=self.origin() + "/compute/v1/" + target.rsplit("/instances", 1)[0] + "/operations/" + name)
        done = dict(op, status="DONE", progress=100)
        if error_code:
            done["error"] = {"errors": [{"code": error_code, "message": message}]}
        self.state.gce_ops[name] = done
        return op

    def gce_instance(self, zone, name, labels):
        inst = self.state.fixture("gce/zones_us-central1-a_instances_node-name.json")
        inst.update(name=name, labels=labels, status="RUNNING", id=str(next(counter)),
                    selfLink=self.origin() + "/compute/v1/" + zone + "/instances/" + name)
        inst["networkInterfaces"][0]["networkIP"] = "10.240.0.%d" % (len(self.state.gce) + 10)
        return inst

    def gce_create(self, zone, name, labels):
        """An operation (or an error reply already sent: None)."""
        if name.startswith("throttle"):
            self.gce_error(403, "rateLimitExceeded", "Rate Limit Exceeded")
            return None
        if self.state.throttle_first(name):
            self.gce_error(403, "userRateLimitExceeded", "User Rate Limit Exceeded")
            return None
        if name.startswith("flaky"):
            self.gce_error(503, "backendError", "Backend Error")
            return None
        if name.startswith("invalid"):
            self.gce_error(400, "invalid", "Invalid value for field 'resource.machineType'")
            return None
        target = zone + "/instances/" + name
        if name.startswith("capacity") or zone_is_full(zone):
            return self.gce_operation("insert", target, "ZONE_RESOURCE_POOL_EXHAUSTED",
                                      "The zone '%s' does not have enough resources available to fulfill the request."
                                      % zone)
        if name.startswith("quota"):
            return self.gce_operation("insert", target, "QUOTA_EXCEEDED", "Quota 'CPUS' exceeded.  Limit: 24.0")
        self.state.gce[target] = self.gce_instance(zone, name, labels)
        return self.gce_operation("insert", target)

    def gce(self, method, rest, q, body):
        what = method + " " + rest.split("/", 3)[-1]  # zone/...
        if not self.bearer("gcp"):
            self.log("gcp", what, "rejected: no bearer token issued by this server")
            return self.gce_error(401, "authError", "Invalid Credentials")
        parts = rest.split("/")  # projects P zones Z (instances|operations) ...
        if len(parts) < 5 or parts[0] != "projects" or parts[2] != "zones":
            self.log("gcp", what, "rejected: not a zonal path")
            return self.gce_error(404, "notFound", "not found")
        zone = "/".join(parts[:4])
        tail = parts[4:]
        self.log("gcp", what, "verified")
        with self.state.lock:
            if tail[0] == "operations" and method == "GET":
                op = self.state.gce_ops.get(tail[1])
                return self.reply(200, op) if op else self.gce_error(404, "notFound", "operation not found")
            if tail == ["instances"] and method == "GET":
                labels = {}
                for clause in q["filter"].split(" AND "):
                    k, v = clause.split("=", 1)
                    labels[k[len("labels."):]] = v.strip('"')
                items = sorted((i for key, i in self.state.gce.items() if key.startswith(zone + "/instances/")
                                and all(i["labels"].get(k) == v for k, v in labels.items())), key=lambda i: i["name"])
                start = int(q.get("pageToken", "0"))
                # One per page by default, so the client must follow nextPageToken.
                size = min(int(q.get("maxResults", "500")), self.state.cfg.gce_page_size)
                page = {"kind": "compute#instanceList", "items": items[start:start + size]}
                if start + size < len(items):
                    page["nextPageToken"] = str(start + size)
                return self.reply(200, page)
            if tail == ["instances"] and method == "POST":
                doc = json.loads(body)
                if not q.get("requestId"):
                    return self.gce_error(400, "invalid", "requestId missing")
                if zone + "/instances/" + doc["name"] in self.state.gce:
                    return self.gce_error(409, "alreadyExists", "The resource '%s' already exists" % doc["name"])
                op = self.gce_create(zone, doc["name"], doc.get("labels", {}))
                return op and self.reply(200, op)
            if tail == ["instances", "bulkInsert"] and method == "POST":
                doc = json.loads(body)
                names = sorted(doc["perInstanceProperties"])
                minimum = doc.get("minCount")
                if not isinstance(minimum, int) or not 1 <= minimum <= len(names) or \
                        doc.get("count") != len(names) or not q.get("requestId"):
                    return self.gce_error(400, "invalid", "count/minCount/requestId")
                if any([self.state.throttle_first(n) for n in names]):  # each once-* name: this call only
                    return self.gce_error(403, "userRateLimitExceeded", "User Rate Limit Exceeded")
                labels = doc["instanceProperties"].get("labels", {})
                made = [n for n in names if not n.startswith("capacity") and not zone_is_full(zone)]
                if len(made) < minimum:  # GCE deletes what it made short of minCount
                    made = []
                for n in made:
                    self.state.gce[zone + "/instances/" + n] = \
                        self.gce_instance(zone, n, dict(labels, **{"slurm-burst-node": n}))
                if not made:
                    return self.reply(200, self.gce_operation("bulkInsert", zone + "/instances",
                                                              "ZONE_RESOURCE_POOL_EXHAUSTED", "no capacity"))
                return self.reply(200, self.gce_operation("bulkInsert", zone + "/instances"))
            if len(tail) == 2 and tail[0] == "instances":
                inst = self.state.gce.get(zone + "/instances/" + tail[1])
                if not inst:
                    return self.gce_error(404, "notFound", "The resource '%s' was not found" % tail[1])
                if method == "GET":
                    return self.reply(200, inst)
                if method == "DELETE":
                    del self.state.gce[zone + "/instances/" + tail[1]]
                    return self.reply(200, self.gce_operation("delete", zone + "/instances/" + tail[1]))
        return self.gce_error(404, "notFound", "not found")

    # -- Azure --------------------------------------------------------------
    def azure_token(self, path, body):
        form = dict(urllib.parse.parse_qsl(body.decode()))
        cfg = self.state.cfg
        tenant = path.split("/")[1]
        expected = {"grant_type": "client_credentials", "client_id": cfg.azure_client, "scope": AZURE_SCOPE}
        bad = [k for k, v in expected.items() if form.get(k) != v]
        if tenant != cfg.azure_tenant:
            bad.append("tenant")
        if bad or self.headers.get("Content-Type") != "application/x-www-form-urlencoded":
            self.log("azure", "token", "rejected: wrong " + ",".join(bad or ["Content-Type"]))
            return self.reply(400, {"error": "invalid_request", "error_description": "AADSTS900144"})
        if not hmac.compare_digest(form.get("client_secret", ""), cfg.azure_secret):
            self.log("azure", "token", "rejected: wrong client_secret")
            return self.reply(401, {"error": "invalid_client",
                                    "error_description": "AADSTS7000215: Invalid client secret provided."})
        self.log("azure", "token", "verified")
        return self.reply(200, {"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599,
                                "access_token": self.state.issue("azure")})

    def arm_error(self, status, code, message, headers=()):
        return self.reply(status, {"error": {"code": code, "message": message}}, headers)

    def arm_async(self, status_doc, polls=1, on_done=None):
        op_id = "op-%d" % next(counter)
        self.state.azure_ops[op_id] = [polls, status_doc, on_done]
        return ("Azure-AsyncOperation", self.origin() + "/subscriptions/%s/providers/Microsoft.Compute/locations/"
                "eastus/operations/%s?api-version=2024-03-01" % (self.state.cfg.azure_subscription, op_id))

    def arm_vm_body_problem(self, doc, name):
        p = doc["properties"]
        nic = p["networkProfile"]["networkInterfaceConfigurations"][0]
        if doc["tags"].get("slurm-burst-node") != name or not doc["tags"].get("slurm-burst-token"):
            return "tags lack the node or the idempotency token"
        if nic["properties"].get("deleteOption") != "Delete" or p["storageProfile"]["osDisk"].get("deleteOption") != "Delete":
            return "NIC or OS disk would outlive the VM (deleteOption)"
        if not nic["properties"]["ipConfigurations"][0]["properties"]["subnet"]["id"].endswith("/subnets/burst"):
            return "NIC not in the configured subnet"
        return None

    def arm(self, method, path, q, body):
        what = method + " " + path.split("/providers/", 1)[-1]
        if not self.bearer("azure"):
            self.log("azure", what, "rejected: no bearer token issued by this server")
            return self.arm_error(401, "InvalidAuthenticationToken", "The access token is invalid.")
        if not q.get("api-version"):
            self.log("azure", what, "rejected: no api-version")
            return self.arm_error(400, "MissingApiVersionParameter", "The api-version query parameter is required")
        self.log("azure", what, "verified")
        parts = path.split("/")
        with self.state.lock:
            if "/operations/" in path:
                op = self.state.azure_ops.get(parts[-1])
                if not op:
                    return self.arm_error(404, "NotFound", "operation not found")
                if op[0] > 0:
                    op[0] -= 1
                    return self.reply(200, {"status": "InProgress"})
                if op[2]:
                    op[2]()
                    op[2] = None
                return self.reply(200, op[1])
            if "/networkInterfaces/" in path and method == "GET":
                name = parts[-1][:-len("-nic")]
                if name not in self.state.azure:
                    return self.arm_error(404, "NotFound", "NIC not found")
                nic = self.state.fixture("azure_arm/_subscriptions_99999999_resourceGroups_000000_providers_"
                                         "Microsoft_Network_networkInterfaces_test_node_1_nic.json")
                nic["properties"]["ipConfigurations"][0]["properties"]["privateIPAddress"] = \
                    self.state.azure[name]["_ip"]
                return self.reply(200, nic)
            if path.endswith("/Microsoft.Compute/virtualMachines") and method == "GET":
                vms = sorted(self.state.azure.values(), key=lambda v: v["name"])
                start = int(q.get("skipToken", "0"))
                page = {"value": [{k: v for k, v in vm.items() if k != "_ip"} for vm in vms[start:start + 1]]}
                if start + 1 < len(vms):
                    page["nextLink"] = self.origin() + path + "?api-version=%s&skipToken=%d" % (q["api-version"],
                                                                                                start + 1)
                return self.reply(200, page)
            if "/virtualMachines/" in path:
                name = parts[-1]
                vm = self.state.azure.get(name)
                if method == "GET":
                    return self.reply(200, {k: v for k, v in vm.items() if k != "_ip"}) if vm else \
                        self.arm_error(404, "ResourceNotFound", "The Resource '%s' was not found." % name)
                if method == "DELETE":
                    if not vm:
                        return self.reply(204)
                    # Like ARM, the VM stays visible as Deleting while its delete
                    # operation runs (two polls); it goes when the operation ends.
                    vm["properties"]["provisioningState"] = "Deleting"
                    return self.reply(202, None, [self.arm_async({"status": "Succeeded"}, 2,
                                                                 lambda: self.state.azure.pop(name, None))])
                if method == "PUT":
                    if vm and vm["properties"]["provisioningState"] == "Deleting":
                        return self.arm_error(409, "Conflict", "The VM '%s' is being deleted." % name)
                    if name.startswith("throttle"):
                        return self.arm_error(429, "TooManyRequests", "The request is being throttled.",
                                              [("Retry-After", "7")])
                    if self.state.throttle_first(name):
                        return self.arm_error(429, "TooManyRequests", "The request is being throttled.",
                                              [("Retry-After", "1")])
                    if name.startswith("flaky"):
                        return self.arm_error(503, "ServiceUnavailable", "The service is unavailable.")
                    if name.startswith("quota"):
                        return self.arm_error(409, "OperationNotAllowed", "Operation could not be completed as it "
                                              "results in exceeding approved standardDSv5Family Cores quota.")
                    if name.startswith("invalid"):
                        return self.arm_error(400, "InvalidParameter", "The value of parameter vmSize is invalid.")
                    doc = json.loads(body)
                    why = self.arm_vm_body_problem(doc, name)
                    if why:
                        return self.arm_error(400, "InvalidParameter", why)
                    vm = {"id": path, "name": name, "type": "Microsoft.Compute/virtualMachines",
                          "location": doc["location"], "tags": doc["tags"],
                          "properties": dict(doc["properties"], provisioningState="Creating"),
                          "_ip": "10.0.0.%d" % (len(self.state.azure) + 4)}
                    on_done = None
                    if name.startswith("capacity"):
                        final = {"status": "Failed", "error": {"code": "AllocationFailed", "message": "Allocation "
                                 "failed. We do not have sufficient capacity for the requested VM size in this region."}}
                    elif doc.get("zones") == [AZURE_FULL_ZONE]:
                        final = {"status": "Failed", "error": {"code": "ZonalAllocationFailed", "message": "Allocation "
                                 "failed. We do not have sufficient capacity for the requested VM size in this zone."}}
                    else:
                        final = {"status": "Succeeded"}
                        vm["properties"]["provisioningState"] = "Succeeded"
                    if final["status"] == "Failed":
                        on_done = lambda: vm["properties"].update(provisioningState="Failed")
                    self.state.azure[name] = vm
                    return self.reply(201, {k: v for k, v in vm.items() if k != "_ip"},
                                      [self.arm_async(final, on_done=on_done)])
        return self.arm_error(404, "NotFound", "not found")

    # -- Keystone and Nova --------------------------------------------------
    def keystone(self, body):
        cfg = self.state.cfg
        auth = json.loads(body)["auth"]
        user = auth["identity"]["password"]["user"]
        scope = auth["scope"]["project"]
        if (auth["identity"]["methods"] != ["password"] or user["name"] != cfg.os_user or
                user["domain"].get("name") != "Default" or scope["name"] != cfg.os_project):
            self.log("keystone", "auth", "rejected: wrong identity or scope")
            return self.reply(400, {"error": {"code": 400, "message": "wrong identity", "title": "Bad Request"}})
        if not hmac.compare_digest(user["password"], cfg.os_password):
            self.log("keystone", "auth", "rejected: wrong password")
            return self.reply(401, {"error": {"code": 401, "message": "The request you have made requires "
                                              "authentication.", "title": "Unauthorized"}})
        self.log("keystone", "auth", "verified")
        token = self.state.fixture("openstack/_v3__auth.json")["token"]
        expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
        token["expires_at"] = expires.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
        token["catalog"] = [{"type": "compute", "name": "nova", "id": "c0", "endpoints": [
            {"url": self.origin() + "/compute/v2.1", "region": "RegionOne", "interface": "public", "id": "e0"}]}]
        return self.reply(201, {"token": token}, [("X-Subject-Token", self.state.issue("keystone"))])

    def nova_error(self, status, kind, message, headers=()):
        return self.reply(status, {kind: {"code": status, "message": message}}, headers)

    def nova_server(self, doc):
        server = copy.deepcopy(self.state.nova_template)
        sid = "%08x-0000-4000-8000-%012x" % (next(counter), len(self.state.nova))
        server.update(id=sid, name=doc["name"], status="ACTIVE", metadata=doc["metadata"], tags=doc["tags"],
                      addresses={"private": [{"addr": "10.1.%d.%d" % divmod(len(self.state.nova) + 5, 250),
                                              "version": 4, "OS-EXT-IPS:type": "fixed"}]})
        server["OS-EXT-STS:task_state"] = None
        server.pop("fault", None)
        if doc["name"].startswith("capacity"):
            self.nova_no_valid_host(server)
        return server

    @staticmethod
    def nova_no_valid_host(server):
        server["status"] = "ERROR"
        server["fault"] = {"code": 500, "message": "No valid host was found. There are not enough hosts "
                           "available.", "created": "2026-11-22T10:00:00Z"}

    def nova(self, method, rest, q, body):
        what = method + " " + rest
        if self.state.tokens.get(self.headers.get("X-Auth-Token", "")) != "keystone":
            self.log("nova", what, "rejected: no token issued by keystone")
            return self.nova_error(401, "unauthorized", "The request you have made requires authentication.")
        if self.headers.get("OpenStack-API-Version") != NOVA_MICROVERSION:
            self.log("nova", what, "rejected: microversion %r" % self.headers.get("OpenStack-API-Version"))
            return self.nova_error(400, "badRequest", "this test cloud speaks only " + NOVA_MICROVERSION)
        self.log("nova", what, "verified")
        with self.state.lock:
            if rest == "/servers" and method == "POST":
                doc = json.loads(body)["server"]
                name = doc["name"]
                lo, hi = doc.get("min_count"), doc.get("max_count")
                if (not isinstance(lo, int) or not isinstance(hi, int) or not 1 <= lo <= hi or
                        not doc["metadata"].get("burst-token")):
                    return self.nova_error(400, "badRequest", "min_count/max_count/metadata")
                if name.startswith("quota"):
                    return self.nova_error(403, "forbidden", "Quota exceeded for instances: Requested 1, but already "
                                           "used 10 of 10 instances")
                if name.startswith("throttle"):
                    return self.nova_error(429, "overLimit", "This request was rate-limited.", [("Retry-After", "7")])
                if self.state.throttle_first(name):
                    return self.nova_error(429, "overLimit", "This request was rate-limited.", [("Retry-After", "1")])
                if name.startswith("flaky"):
                    return self.nova_error(503, "computeFault", "The server is currently unavailable.")
                if name.startswith("invalid"):
                    return self.nova_error(400, "badRequest", "Flavor's disk is too small for requested image.")
                first = None
                for i in range(hi):
                    server = self.nova_server(dict(doc, name=name if hi == 1 else "%s-%d" % (name, i + 1)))
                    if doc["flavorRef"].startswith("capacity"):  # a batch's servers share one name: the flavor picks
                        self.nova_no_valid_host(server)
                    self.state.nova[server["id"]] = server
                    first = first or server
                created = self.state.fixture("openstack_v1.1/_servers_create.json")
                created["server"]["id"] = first["id"]
                return self.reply(202, created)
            if rest == "/servers/detail" and method == "GET":
                want = set(q.get("tags", "").split(","))
                servers = sorted((s for s in self.state.nova.values() if want <= set(s["tags"])),
                                 key=lambda s: s["id"])
                if q.get("marker"):
                    servers = [s for s in servers if s["id"] > q["marker"]]
                limit = int(q.get("limit", "1000"))
                page = {"servers": [{k: v for k, v in s.items() if k != "fault"} for s in servers[:limit]]}
                if len(servers) > limit:
                    page["servers_links"] = [{"rel": "next", "href": self.origin() + "/compute/v2.1/servers/detail"}]
                return self.reply(200, page)
            if rest.startswith("/servers/"):
                server = self.state.nova.get(rest[len("/servers/"):])
                if not server:
                    return self.nova_error(404, "itemNotFound", "Instance could not be found.")
                if method == "GET":
                    return self.reply(200, {"server": server})
                if method == "DELETE":
                    del self.state.nova[server["id"]]
                    return self.reply(204)
        return self.nova_error(404, "itemNotFound", "not found")


class MetadataHandler(http.server.BaseHTTPRequestHandler):
    """The GCE metadata server's token endpoint, as on a VM: plain HTTP, and
    only for requests carrying Metadata-Flavor: Google.  The token it hands
    out is good for the compute API of the HTTPS server.  A token whose
    expires_in is short makes the client come back early (caching tests)."""
    protocol_version = "HTTP/1.1"
    PATH = "/computeMetadata/v1/instance/service-accounts/default/token"

    def log_message(self, fmt, *args):
        pass

    def answer(self, status, doc, verdict):
        with self.server.state.lock, open(self.server.state.cfg.log, "a") as f:
            f.write("metadata %s\n" % verdict)
        data = doc.encode() if isinstance(doc, str) else json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Metadata-Flavor", "Google")
        self.send_header("Content-Type", "application/json" if not isinstance(doc, str) else "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_PUT(self):
        """PUT /_test/mode/{normal,short,down}: how the next token requests are answered."""
        mode = self.path[len("/_test/mode/"):]
        if not self.path.startswith("/_test/mode/") or mode not in ("normal", "short", "down"):
            return self.answer(404, "<h1>Not Found</h1>", "control rejected: " + self.path)
        with self.server.state.lock:
            self.server.state.metadata_mode = mode
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path = self.path.partition("?")[0]
        if path != self.PATH:
            return self.answer(404, "<h1>Not Found</h1>", "path rejected: " + path)
        if self.headers.get("Metadata-Flavor") != "Google":
            return self.answer(403, "Missing required header: Metadata-Flavor", "token rejected: no Metadata-Flavor")
        with self.server.state.lock:
            token = self.server.state.issue("gcp")
            mode = self.server.state.metadata_mode
        if mode == "down":
            return self.answer(503, "<h1>Service Unavailable</h1>", "token-503 verified")
        return self.answer(200, {"access_token": token, "expires_in": 3599 if mode == "normal" else 30,
                                 "token_type": "Bearer"}, "token verified")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("cert", "key", "fixtures", "port-file", "log", "gcp-key", "azure-tenant", "azure-client",
                 "azure-secret", "azure-subscription", "os-user", "os-password", "os-project"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--wire", help="append every request (method, path?query, body) to this file")
    p.add_argument("--gce-page-size", type=int, default=1,
                   help="most instances per GCE list page (the client's maxResults caps it too)")
    p.add_argument("--metadata-port-file", help="also serve a GCE metadata server over plain HTTP on loopback")
    p.add_argument("--latency", type=float, default=0, help="seconds every answer waits (a cloud's own latency)")
    p.add_argument("--stamps", help="append 'MONOTONIC_TIME API WHAT' per request to this file")
    cfg = p.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state = State(cfg)
    with open(cfg.gcp_key) as f:
        state.cfg_key = json.load(f)
    state.gcp_public = serialization.load_pem_private_key(state.cfg_key["private_key"].encode(), None).public_key()
    state.nova_template = state.fixture("openstack_v1.1/_servers_detail.json")["servers"][0]
    server.state = state
    if cfg.metadata_port_file:
        metadata = http.server.ThreadingHTTPServer(("127.0.0.1", 0), MetadataHandler)
        metadata.daemon_threads = True
        metadata.state = state
        threading.Thread(target=metadata.serve_forever, daemon=True).start()
        with open(cfg.metadata_port_file + ".tmp", "w") as f:
            f.write(str(metadata.server_address[1]))
        os.rename(cfg.metadata_port_file + ".tmp", cfg.metadata_port_file)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cfg.cert, cfg.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(cfg.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(cfg.port_file + ".tmp", cfg.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
