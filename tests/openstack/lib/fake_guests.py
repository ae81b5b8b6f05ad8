# The guests of the fake virt driver's servers.  Nova's fake driver makes a
# server ACTIVE without booting anything, so this plays what cloud-init does
# on a real instance: every ACTIVE server tagged for a Slurm cluster boots
# its node's slurmd (its burst-node metadata; a batch's server, named
# NAME-K, is the K-th node of its burst-nodes hostlist) (`slurmd -D -b -N NODE -f SLURM_CONF`, in a session of
# its own), and a server that is deleted, going away or no longer ACTIVE
# takes its slurmd down with it (SIGTERM to the session, SIGKILL after 5 s).
# A slurmd belongs to one server id: a node whose server is replaced gets a
# fresh slurmd, as a new machine would.
#
#   fake_guests.py --credentials FILE --cluster NAME --owner BURSTD_ID
#                  --slurm-conf FILE [--interval SECONDS]
#
# Lists the servers by the provider's owner tags (burst-cluster=NAME,
# burst-id=BURSTD_ID) every INTERVAL seconds with one cached Keystone token.
# Prints one line per event to stdout:
#   TIME boot NODE SERVER PID | TIME halt NODE SERVER PID | TIME exited NODE SERVER PID STATUS
#   TIME double NODE SERVER,SERVER...   two live servers for one node (a double launch)
#   TIME list-error MESSAGE
# and stops every slurmd it started on SIGTERM/SIGINT.
import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

MICROVERSION = {'OpenStack-API-Version': 'compute 2.79'}


def log(*words):
    print('%.3f' % time.time(), *words, flush=True)


def read_credentials(path):
    creds = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            key, sep, value = line.partition('=')
            if not sep:
                sys.exit('fake_guests.py: %s:%d: expected Key=Value' % (path, n))
            creds[key] = value
    for key in ('AuthUrl', 'AuthType'):
        if key not in creds:
            sys.exit('fake_guests.py: %s: %s= missing' % (path, key))
    return creds


class Nova:
    def __init__(self, creds):
        self.creds = creds
        self.token = None
        self.compute = None

    def _request(self, method, url, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        if data is not None:
            req.add_header('Content-Type', 'application/json')
        with urllib.request.urlopen(req, timeout=30) as resp:
            return dict(resp.headers), json.loads(resp.read() or b'null')

    def authenticate(self):
        c = self.creds
        if c['AuthType'] == 'application_credential':
            identity = {'methods': ['application_credential'], 'application_credential': {
                'id': c['ApplicationCredentialId'], 'secret': c['ApplicationCredentialSecret']}}
            auth = {'identity': identity}
        else:
            identity = {'methods': ['password'], 'password': {'user': {
                'name': c['Username'], 'domain': {'name': c.get('UserDomainName', 'Default')},
                'password': c['Password']}}}
            auth = {'identity': identity, 'scope': {'project': {
                'name': c['ProjectName'], 'domain': {'name': c.get('ProjectDomainName', 'Default')}}}}
        headers, body = self._request('POST', c['AuthUrl'].rstrip('/') + '/auth/tokens', {'auth': auth})
        self.token = headers['X-Subject-Token']
        for service in body['token']['catalog']:
            if service['type'] == 'compute':
                for endpoint in service['endpoints']:
                    if endpoint['interface'] == 'public':
                        self.compute = endpoint['url'].rstrip('/')
        if not self.compute:
            raise RuntimeError('no public compute endpoint in the catalog')

    def servers(self, tags):
        """Every server carrying all `tags` (one call; the test clusters are small)."""
        for attempt in (1, 2):
            if self.token is None:
                self.authenticate()
            url = '%s/servers/detail?%s' % (self.compute, urllib.parse.urlencode({'tags': ','.join(tags)}))
            try:
                _, body = self._request('GET', url, headers=dict(MICROVERSION, **{'X-Auth-Token': self.token}))
                return body['servers']
            except urllib.error.HTTPError as e:
                if e.code != 401 or attempt == 2:
                    raise
                self.token = None


def live(server):
    """A server that still exists as a machine: the provider's is_gone() negated."""
    return server['status'] not in ('DELETED', 'SOFT_DELETED') and server.get('OS-EXT-STS:task_state') != 'deleting'


class Guests:
    def __init__(self, slurm_conf):
        self.slurm_conf = slurm_conf
        self.running = {}  # server id -> (node, Popen)
        self.expanded = {}  # hostlist -> node names

    def node_of(self, server):
        """What a guest's boot reads to know which node it is."""
        md = server.get('metadata') or {}
        if 'burst-node' in md:
            return md['burst-node']
        nodes, token = md.get('burst-nodes'), md.get('burst-token', '')
        if not nodes or len(token) < 12:
            return server['name']
        if nodes not in self.expanded:
            out = subprocess.run(['scontrol', 'show', 'hostnames', nodes], capture_output=True, text=True,
                                 env=dict(os.environ, SLURM_CONF=self.slurm_conf))
            self.expanded[nodes] = out.stdout.split()
        order = self.expanded[nodes]
        base = 'burst-' + token[:12]
        if server['name'] == base and order:
            return order[0]
        k = server['name'][len(base) + 1:]
        if server['name'].startswith(base + '-') and k.isdigit() and 1 <= int(k) <= len(order):
            return order[int(k) - 1]
        return server['name']

    def boot(self, node, server):
        proc = subprocess.Popen(['slurmd', '-D', '-b', '-N', node, '-f', self.slurm_conf],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        self.running[server] = (node, proc)
        log('boot', node, server, proc.pid)

    def halt(self, server):
        node, proc = self.running.pop(server)
        log('halt', node, server, proc.pid)
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            proc.wait()

    def reap(self):
        for server, (node, proc) in list(self.running.items()):
            if proc.poll() is not None:
                del self.running[server]
                log('exited', node, server, proc.pid, proc.returncode)

    def follow(self, servers):
        by_node = {}
        for s in servers:
            if live(s):
                by_node.setdefault(self.node_of(s), []).append(s)
        active = {s['id']: node for node, ss in by_node.items() for s in ss if s['status'] == 'ACTIVE'}
        for node, ss in by_node.items():
            if len(ss) > 1:
                log('double', node, ','.join(sorted(s['id'] for s in ss)))
        # Machines that are gone go down first: a replacement's slurmd needs the port.
        for server in [s for s in self.running if s not in active]:
            self.halt(server)
        self.reap()
        booted = {node for node, _ in self.running.values()}
        for server, node in sorted(active.items()):
            if server not in self.running and node not in booted:
                self.boot(node, server)
                booted.add(node)

    def stop(self):
        for server in list(self.running):
            self.halt(server)


def main():
    p = argparse.ArgumentParser(description='boots a slurmd for every ACTIVE server of a Slurm cluster')
    p.add_argument('--credentials', required=True)
    p.add_argument('--cluster', required=True)
    p.add_argument('--owner', required=True)
    p.add_argument('--slurm-conf', required=True)
    p.add_argument('--interval', type=float, default=1.0)
    a = p.parse_args()
    nova = Nova(read_credentials(a.credentials))
    guests = Guests(a.slurm_conf)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    tags = ['burst-cluster=' + a.cluster, 'burst-id=' + a.owner]
    try:
        while not stopping:
            try:
                servers = nova.servers(tags)
            except (OSError, ValueError, KeyError, RuntimeError) as e:
                log('list-error', str(e).replace('\n', ' ')[:300])
            else:
                guests.follow(servers)
            time.sleep(a.interval)
    finally:
        guests.stop()


main()
