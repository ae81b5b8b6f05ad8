#!/usr/bin/env python3
"""A test-only EC2 Query API endpoint over HTTPS on 127.0.0.1.

Every request's SigV4 signature is verified again here, independently of
burstd's signer, with the known test key; a wrong one gets EC2's 401
AuthFailure.  Answers come from the recorded Libcloud fixtures
(tests/data/provider-fixtures/ec2) where one exists; the error
documents are EC2's documented shapes.  The node name chosen by the test
selects an error, so the server keeps no state:
  RunInstances for a node named capacity-*  -> 500 InsufficientInstanceCapacity
                                 limit-*     -> 400 InstanceLimitExceeded
                                 throttle-*  -> 503 RequestLimitExceeded
  CreateFleet whose first override type ends in ".short" -> 500 InsufficientInstanceCapacity
                                              ".half"  -> half the target capacity (rounded down) and an
                                                          InsufficientInstanceCapacity entry in errorSet;
                                                          none when that is below MinTargetCapacity, as EC2 does
  CreateFleet with a MinTargetCapacity but neither SingleInstanceType nor SingleAvailabilityZone, or a
  minimum above the target                                 -> 400 InvalidParameterCombination
Each handled request is logged as "Action verdict" to --log (and with its
time to --stamps); --latency delays every answer.
"""
import argparse
import datetime
import hashlib
import hmac
import http.server
import os
import ssl
import sys
import time
import urllib.parse

ALGORITHM = "AWS4-HMAC-SHA256"


def error_document(code, message):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>%s</Code><Message>%s</Message>"
            "</Error></Errors><RequestID>ea966190-f9aa-478e-9ede-example</RequestID></Response>" % (code, message))


def signing_key(secret, date, region, service):
    k = hmac.new(("AWS4" + secret).encode(), date.encode(), hashlib.sha256).digest()
    for part in (region, service, "aws4_request"):
        k = hmac.new(k, part.encode(), hashlib.sha256).digest()
    return k


def canonical_query(query):
    pairs = [p.split("=", 1) + [""] if "=" not in p else p.split("=", 1) for p in query.split("&") if p]
    pairs = [(urllib.parse.quote(urllib.parse.unquote(k), safe="-_.~"),
              urllib.parse.quote(urllib.parse.unquote(v), safe="-_.~")) for k, v, *_ in pairs]
    return "&".join("%s=%s" % kv for kv in sorted(pairs))


class Ec2Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep the test's output to TAP lines
        pass

    def verify_signature(self, body):
        """None if the request is signed with the test key, else why not."""
        auth = self.headers.get("Authorization", "")
        if not auth.startswith(ALGORITHM + " "):
            return "no %s Authorization header" % ALGORITHM
        fields = dict(p.strip().split("=", 1) for p in auth[len(ALGORITHM) + 1:].split(","))
        try:
            key_id, date, region, service, terminator = fields["Credential"].split("/")
            signed = fields["SignedHeaders"].split(";")
            signature = fields["Signature"]
        except (KeyError, ValueError):
            return "malformed Authorization header"
        cfg = self.server.cfg
        if key_id != cfg.access_key or region != cfg.region or service != "ec2" or terminator != "aws4_request":
            return "credential scope %s is not %s/.../%s/ec2/aws4_request" % (fields["Credential"], cfg.access_key,
                                                                            cfg.region)
        amz_date = self.headers.get("X-Amz-Date", "")
        try:
            when = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        except ValueError:
            return "bad X-Amz-Date %r" % amz_date
        if not amz_date.startswith(date):
            return "X-Amz-Date and credential scope disagree"
        if abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) > 300:
            return "request time too skewed"
        if "host" not in signed:
            return "Host is not signed"
        canonical_headers = ""
        for name in signed:
            values = self.headers.get_all(name) or []
            canonical_headers += name + ":" + ",".join(" ".join(v.split()) for v in values) + "\n"
        path, _, query = self.path.partition("?")
        creq = "\n".join([self.command, path, canonical_query(query), canonical_headers, ";".join(signed),
                          hashlib.sha256(body).hexdigest()])
        sts = "\n".join([ALGORITHM, amz_date, "/".join([date, region, service, terminator]),
                         hashlib.sha256(creq.encode()).hexdigest()])
        expected = hmac.new(signing_key(cfg.secret, date, region, service), sts.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, signature):
            return "signature mismatch"
        return None

    def reply(self, status, text):
        if self.server.cfg.latency:
            time.sleep(self.server.cfg.latency)
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/xml;charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log(self, action, verdict):
        with open(self.server.cfg.log, "a") as f:
            f.write("%s %s\n" % (action, verdict))
        if self.server.cfg.stamps:
            with open(self.server.cfg.stamps, "a") as f:
                f.write("%.6f %s\n" % (time.monotonic(), action))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        form = dict(urllib.parse.parse_qsl(body.decode(), keep_blank_values=True))
        action = form.get("Action", "-")
        why = self.verify_signature(body)
        if why:
            self.log(action, "rejected: " + why)
            return self.reply(401, error_document("AuthFailure",
                                                  "AWS was not able to validate the provided access credentials"))
        self.log(action, "verified")
        handler = getattr(self, "action_" + action, None)
        if handler is None or form.get("Version") != "2016-11-15":
            return self.reply(400, error_document("InvalidAction", "The action %s is not valid" % action))
        return handler(form)

    def fixture(self, name):
        with open(os.path.join(self.server.cfg.fixtures, name)) as f:
            return f.read()

    def action_RunInstances(self, form):
        node = ""
        for key, value in form.items():
            if key.startswith("TagSpecification.1.Tag.") and key.endswith(".Key") and value == "slurm-burst:node":
                node = form[key[:-4] + ".Value"]
        if form.get("MinCount") != "1" or form.get("MaxCount") != "1" or not form.get("ClientToken"):
            return self.reply(400, error_document("InvalidParameterValue", "MinCount, MaxCount, ClientToken"))
        if node.startswith("capacity"):
            return self.reply(500, error_document("InsufficientInstanceCapacity", "We currently do not have "
                                                  "sufficient %s capacity in the Availability Zone you requested."
                                                  % form.get("InstanceType")))
        if node.startswith("limit"):
            return self.reply(400, error_document("InstanceLimitExceeded", "You have requested more instances "
                                                  "than your current instance limit allows."))
        if node.startswith("throttle"):
            return self.reply(503, error_document("RequestLimitExceeded", "Request limit exceeded."))
        return self.reply(200, self.fixture("run_instances.xml"))

    def action_CreateFleet(self, form):
        itype = form.get("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "")
        if itype.endswith(".short"):
            return self.reply(500, error_document("InsufficientInstanceCapacity",
                                                  "We currently do not have sufficient %s capacity." % itype))
        count = int(form.get("TargetCapacitySpecification.TotalTargetCapacity", "0"))
        market = "SpotOptions." if form.get("TargetCapacitySpecification.DefaultTargetCapacityType") == "spot" \
            else "OnDemandOptions."
        minimum = int(form.get(market + "MinTargetCapacity", "0"))
        if minimum and (minimum > count or "true" not in (form.get(market + "SingleInstanceType"),
                                                          form.get(market + "SingleAvailabilityZone"))):
            return self.reply(400, error_document("InvalidParameterCombination", "MinTargetCapacity needs "
                                                  "SingleInstanceType or SingleAvailabilityZone and at most "
                                                  "the target capacity"))
        errors = ""
        if itype.endswith(".half"):
            count = count // 2 if count // 2 >= minimum else 0
            errors = ("<item><errorCode>InsufficientInstanceCapacity</errorCode><errorMessage>We currently do "
                      "not have sufficient %s capacity.</errorMessage><lifecycle>on-demand</lifecycle></item>"
                      % itype)
        ids = "".join("<item>i-f%07d</item>" % n for n in range(1, count + 1))
        instances = ("<item><instanceIds>%s</instanceIds><instanceType>%s</instanceType>"
                     "<lifecycle>on-demand</lifecycle></item>" % (ids, itype)) if count else ""
        return self.reply(200, "<CreateFleetResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
                          "<requestId>r-f</requestId><fleetId>fleet-0a1b</fleetId><errorSet>%s</errorSet>"
                          "<fleetInstanceSet>%s</fleetInstanceSet></CreateFleetResponse>" % (errors, instances))

    def action_DescribeInstances(self, form):
        cfg_filters = {form.get("Filter.%d.Name" % n): form.get("Filter.%d.Value.1" % n) for n in (1, 2, 3)}
        if "tag:slurm-burst:cluster" not in cfg_filters or "tag:slurm-burst:burstd-id" not in cfg_filters:
            return self.reply(400, error_document("InvalidParameterCombination", "owner tag filters missing"))
        page = self.fixture("describe_instances.xml")
        if form.get("NextToken") != "page2":
            page = page.replace("</DescribeInstancesResponse>", "<nextToken>page2</nextToken></DescribeInstancesResponse>")
        return self.reply(200, page)

    def action_TerminateInstances(self, form):
        items = "".join("<item><instanceId>%s</instanceId><currentState><code>32</code><name>shutting-down</name>"
                        "</currentState><previousState><code>16</code><name>running</name></previousState></item>"
                        % v for k, v in sorted(form.items()) if k.startswith("InstanceId."))
        return self.reply(200, "<TerminateInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
                          "<requestId>r-t</requestId><instancesSet>%s</instancesSet></TerminateInstancesResponse>"
                          % items)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("cert", "key", "fixtures", "port-file", "log", "access-key", "secret", "region"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--latency", type=float, default=0, help="seconds every answer waits (a cloud's own latency)")
    p.add_argument("--stamps", help="append 'MONOTONIC_TIME ACTION' per request to this file")
    cfg = p.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ec2Handler)
    server.daemon_threads = True
    server.cfg = cfg
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cfg.cert, cfg.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(cfg.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(cfg.port_file + ".tmp", cfg.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
