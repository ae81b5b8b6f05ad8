# Configures the test cloud through the services' REST APIs (seconds, where
# the openstack CLI needs minutes).  Run by openstack.sh:
#
#   os_setup.py identity STATE_DIR   service project and users, catalog,
#                                    "demo" project + user, an application
#                                    credential for demo
#   os_setup.py compute STATE_DIR    flavors, image, demo's instance quota;
#                                    needs Nova and Glance up
#   os_setup.py project STATE_DIR NAME QUOTA
#                                    one more project NAME with a member user
#                                    NAME, an application credential and an
#                                    instance quota of QUOTA: a test of its own
#                                    in a cloud that other tests share
#   os_setup.py names STATE_DIR TAG  "ID NAME BATCH" of each server (any
#                                    project) tagged TAG: the names burstd's
#                                    provider never reads, and the burst-batch
#                                    tag (one per POST) or "-"
#
# STATE_DIR/setup.json holds the ports and passwords (written by openstack.sh)
# and gets the ids this script creates.
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def die(msg):
    sys.exit('os_setup.py: ' + msg)


def call(method, url, token=None, body=None, headers=None, expect=(200, 201, 202, 204)):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header('Content-Type', 'application/json')
    if token:
        req.add_header('X-Auth-Token', token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            raw = resp.read()
            return resp.status, dict(resp.headers), (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        if e.code in expect:
            return e.code, dict(e.headers), None
        die('%s %s -> HTTP %d: %s' % (method, url, e.code, e.read()[:400].decode(errors='replace')))


def token(keystone, user, password, project):
    body = {'auth': {'identity': {'methods': ['password'], 'password': {'user': {
        'name': user, 'domain': {'id': 'default'}, 'password': password}}},
        'scope': {'project': {'name': project, 'domain': {'id': 'default'}}}}}
    _, headers, _ = call('POST', keystone + '/v3/auth/tokens', body=body)
    return headers['X-Subject-Token']


def find(keystone, tok, kind, name):
    _, _, d = call('GET', '%s/v3/%s?name=%s' % (keystone, kind, name), tok)
    items = d[kind]
    return items[0]['id'] if items else None


def ensure(keystone, tok, kind, name, body):
    existing = find(keystone, tok, kind, name)
    if existing:
        return existing
    _, _, d = call('POST', '%s/v3/%s' % (keystone, kind), tok, {kind[:-1]: body})
    return d[kind[:-1]]['id']


def identity(st):
    ks = 'http://127.0.0.1:%d' % st['ports']['keystone']
    adm = token(ks, 'admin', st['admin_password'], 'admin')
    admin_role = find(ks, adm, 'roles', 'admin')
    member_role = find(ks, adm, 'roles', 'member')
    service = ensure(ks, adm, 'projects', 'service', {'name': 'service', 'domain_id': 'default'})
    for user in ('nova', 'glance', 'placement', 'neutron'):
        uid = ensure(ks, adm, 'users', user,
                     {'name': user, 'domain_id': 'default', 'password': st['service_password']})
        call('PUT', '%s/v3/projects/%s/users/%s/roles/%s' % (ks, service, uid, admin_role), adm)
    catalog = {'nova': ('compute', 'nova'), 'glance': ('image', 'glance'),
               'placement': ('placement', 'placement'), 'neutron': ('network', 'neutron')}
    urls = {'compute': 'http://127.0.0.1:%d/v2.1' % st['ports']['nova'],
            'image': 'http://127.0.0.1:%d' % st['ports']['glance'],
            'placement': 'http://127.0.0.1:%d' % st['ports']['placement'],
            'network': 'http://127.0.0.1:%d' % st['ports']['neutron']}
    for name, (kind, _) in catalog.items():
        sid = ensure(ks, adm, 'services', name, {'name': name, 'type': kind})
        for interface in ('public', 'internal', 'admin'):
            call('POST', ks + '/v3/endpoints', adm, {'endpoint': {
                'service_id': sid, 'interface': interface, 'region_id': 'RegionOne', 'url': urls[kind]}})
    demo = ensure(ks, adm, 'projects', 'demo', {'name': 'demo', 'domain_id': 'default'})
    demo_user = ensure(ks, adm, 'users', 'demo',
                       {'name': 'demo', 'domain_id': 'default', 'password': st['demo_password']})
    call('PUT', '%s/v3/projects/%s/users/%s/roles/%s' % (ks, demo, demo_user, member_role), adm)
    demo_tok = token(ks, 'demo', st['demo_password'], 'demo')
    _, _, d = call('POST', '%s/v3/users/%s/application_credentials' % (ks, demo_user), demo_tok,
                   {'application_credential': {'name': 'burstd-test'}})
    st['demo_project_id'] = demo
    st['app_credential_id'] = d['application_credential']['id']
    st['app_credential_secret'] = d['application_credential']['secret']


def compute(st):
    ks = 'http://127.0.0.1:%d' % st['ports']['keystone']
    nova = 'http://127.0.0.1:%d/v2.1' % st['ports']['nova']
    glance = 'http://127.0.0.1:%d' % st['ports']['glance']
    adm = token(ks, 'admin', st['admin_password'], 'admin')
    mv = {'OpenStack-API-Version': 'compute 2.79'}
    _, _, d = call('POST', glance + '/v2/images', adm, {
        'name': 'burst-test', 'disk_format': 'raw', 'container_format': 'bare', 'visibility': 'public'})
    image = d['id']
    req = urllib.request.Request('%s/v2/images/%s/file' % (glance, image), data=b'not-a-real-disk',
                                 method='PUT', headers={'X-Auth-Token': adm,
                                                        'Content-Type': 'application/octet-stream'})
    urllib.request.urlopen(req, timeout=60).read()
    call('POST', nova + '/flavors', adm, {'flavor': {
        'name': 'burst.small', 'id': 'burst.small', 'ram': 512, 'vcpus': 1, 'disk': 1}}, mv)
    # A trait no resource provider has: Placement finds no candidate, so the
    # scheduler answers "No valid host was found" and the server goes ERROR.
    call('POST', nova + '/flavors', adm, {'flavor': {
        'name': 'burst.nowhere', 'id': 'burst.nowhere', 'ram': 512, 'vcpus': 1, 'disk': 1}}, mv)
    call('POST', nova + '/flavors/burst.nowhere/os-extra_specs', adm, {'extra_specs': {
        'trait:CUSTOM_BURST_NOWHERE': 'required'}}, mv)
    call('PUT', '%s/os-quota-sets/%s' % (nova, st['demo_project_id']), adm, {'quota_set': {
        'instances': st['demo_instance_quota'], 'cores': 100, 'ram': 1000000}}, mv)
    st['image_id'] = image
    # nova-compute registers itself; the scheduler only sees it once the cell
    # discovery (discover_hosts_in_cells_interval) has mapped it.
    deadline = time.time() + 120
    while True:
        _, _, d = call('GET', nova + '/os-hypervisors', adm, headers=mv)
        if d['hypervisors'] and all(h['state'] == 'up' for h in d['hypervisors']):
            break
        if time.time() > deadline:
            die('nova-compute was not discovered within 120 s: %s' % d)
        time.sleep(1)


def project(st, name, quota):
    if not name.isidentifier() or name in ('admin', 'service', 'demo'):
        die("project name '%s': expected a new identifier (not admin, service or demo)" % name)
    if not quota.isdigit():
        die("project %s: quota '%s' is not a non-negative integer" % (name, quota))
    ks = 'http://127.0.0.1:%d' % st['ports']['keystone']
    nova = 'http://127.0.0.1:%d/v2.1' % st['ports']['nova']
    adm = token(ks, 'admin', st['admin_password'], 'admin')
    member_role = find(ks, adm, 'roles', 'member')
    pid = ensure(ks, adm, 'projects', name, {'name': name, 'domain_id': 'default'})
    password = os.urandom(12).hex()
    uid = find(ks, adm, 'users', name)
    if uid:
        call('PATCH', '%s/v3/users/%s' % (ks, uid), adm, {'user': {'password': password}})
    else:
        uid = ensure(ks, adm, 'users', name, {'name': name, 'domain_id': 'default', 'password': password,
                                               'default_project_id': pid})
    call('PUT', '%s/v3/projects/%s/users/%s/roles/%s' % (ks, pid, uid, member_role), adm)
    call('PUT', '%s/os-quota-sets/%s' % (nova, pid), adm, {'quota_set': {
        'instances': int(quota), 'cores': max(100, int(quota)), 'ram': max(1000000, 512 * int(quota))}},
        {'OpenStack-API-Version': 'compute 2.79'})
    tok = token(ks, name, password, name)
    _, _, d = call('POST', '%s/v3/users/%s/application_credentials' % (ks, uid), tok,
                   {'application_credential': {'name': 'burstd-test-%s' % os.urandom(4).hex()}})
    st.setdefault('projects', {})[name] = {
        'project_id': pid, 'app_credential_id': d['application_credential']['id'],
        'app_credential_secret': d['application_credential']['secret']}


def names(st, tag):
    ks = 'http://127.0.0.1:%d' % st['ports']['keystone']
    nova = 'http://127.0.0.1:%d/v2.1' % st['ports']['nova']
    adm = token(ks, 'admin', st['admin_password'], 'admin')
    _, _, d = call('GET', '%s/servers/detail?all_tenants=1&limit=1000&tags=%s' % (nova, urllib.parse.quote(tag)), adm,
                   headers={'OpenStack-API-Version': 'compute 2.79'})
    for s in d['servers']:
        batch = [t for t in s.get('tags', []) if t.startswith('burst-batch=')]
        print(s['id'], s['name'], batch[0] if batch else '-')


def main():
    commands = {'identity': (identity, 0), 'compute': (compute, 0), 'project': (project, 2), 'names': (names, 1)}
    if len(sys.argv) < 3 or sys.argv[1] not in commands or len(sys.argv) != 3 + commands[sys.argv[1]][1]:
        die('usage: os_setup.py identity|compute STATE_DIR | project STATE_DIR NAME QUOTA | names STATE_DIR TAG')
    path = os.path.join(sys.argv[2], 'setup.json')
    with open(path) as f:
        st = json.load(f)
    commands[sys.argv[1]][0](st, *sys.argv[3:])
    tmp = path + '.tmp'
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 'w') as f:
        json.dump(st, f, indent=1)
    os.replace(tmp, path)


main()
