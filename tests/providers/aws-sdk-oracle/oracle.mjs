// Holds burstd's EC2 requests against the official AWS SDK for JavaScript.
// The SDK sends each logical request to a capture server on 127.0.0.1 with
// fixed credentials and a fixed clock; ec2-sign-check builds the same logical
// request through burstd's builders, Ec2Client and SigV4 signer.  Checks, per
// request, as TAP lines:
//   1. our signer, over the headers the SDK signed, reproduces the SDK's
//      Authorization byte for byte;
//   2. our form body has the same parameters, encoded the same way (the SDK
//      emits them in its model's member order, we in our builders' order;
//      EC2 does not care, so both are compared as multisets, and the order
//      difference is only reported);
//   3. method, path, host, X-Amz-Date and the credential scope agree;
//   4. the SDK's own signer (@smithy/signature-v4), given our request as we
//      send it, computes the Authorization we sent.
// Usage: node oracle.mjs PATH/TO/ec2-sign-check
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
    EC2Client, RunInstancesCommand, DescribeInstancesCommand, TerminateInstancesCommand, CreateFleetCommand,
} from '@aws-sdk/client-ec2';
import { SignatureV4 } from '@smithy/signature-v4';

const checker = process.argv[2];
if (!checker) { console.error('usage: node oracle.mjs EC2_SIGN_CHECK'); process.exit(2); }

// The official suite's example key and instant (20150830T123600Z).
const T = 1440938160;
const region = 'us-east-1';
const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
Date.now = () => T * 1000; // the SDK signs with Date.now() + systemClockOffset

let failures = 0;
const ok = (cond, what, detail) => {
    console.log(`${cond ? 'ok' : 'not ok'} - ${what}`);
    if (!cond) { failures++; if (detail) console.log(String(detail).replace(/^/gm, '#   ')); }
};

const tags = (cluster, burstdId, node) => [
    { Key: 'slurm-burst:cluster', Value: cluster }, { Key: 'slurm-burst:burstd-id', Value: burstdId },
    { Key: 'slurm-burst:node', Value: node }, { Key: 'Name', Value: node },
];
const cluster = 'site a&b', burstdId = 'burstd/01', node = 'cloud-c5-01';
const scenarios = [
    {
        name: 'RunInstances (spot, launch template id, subnet, tags, client token)',
        sdk: new RunInstancesCommand({
            LaunchTemplate: { LaunchTemplateId: 'lt-0123456789abcdef0', Version: '$Latest' },
            InstanceType: 'c5.large', SubnetId: 'subnet-0a1b2c3d', MinCount: 1, MaxCount: 1,
            InstanceMarketOptions: { MarketType: 'spot',
                SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' } },
            ClientToken: 'tok:01/a+b=c',
            TagSpecifications: [{ ResourceType: 'instance', Tags: tags(cluster, burstdId, node) },
                { ResourceType: 'volume', Tags: tags(cluster, burstdId, node) }],
        }),
        ours: ['run-instances', '--lt-id', 'lt-0123456789abcdef0', '--lt-version', '$Latest', '--type', 'c5.large',
            '--subnet', 'subnet-0a1b2c3d', '--spot', '--node', node, '--cluster', cluster, '--burstd-id', burstdId,
            '--token', 'tok:01/a+b=c'],
    },
    {
        name: 'RunInstances (on-demand, launch template name)',
        sdk: new RunInstancesCommand({
            LaunchTemplate: { LaunchTemplateName: 'burst-compute' }, InstanceType: 'm6i.xlarge',
            MinCount: 1, MaxCount: 1, ClientToken: 'c1-0001',
            TagSpecifications: [{ ResourceType: 'instance', Tags: tags('c1', 'b1', 'n1') },
                { ResourceType: 'volume', Tags: tags('c1', 'b1', 'n1') }],
        }),
        ours: ['run-instances', '--lt-name', 'burst-compute', '--type', 'm6i.xlarge', '--node', 'n1',
            '--cluster', 'c1', '--burstd-id', 'b1', '--token', 'c1-0001'],
    },
    {
        name: 'DescribeInstances (tag filters, state filter, NextToken)',
        sdk: new DescribeInstancesCommand({
            Filters: [{ Name: 'tag:slurm-burst:cluster', Values: [cluster] },
                { Name: 'tag:slurm-burst:burstd-id', Values: [burstdId] },
                { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped', 'shutting-down'] }],
            MaxResults: 1000, NextToken: 'eyJ2IjoiMiJ9+/=',
        }),
        ours: ['describe-instances', '--cluster', cluster, '--burstd-id', burstdId, '--next-token', 'eyJ2IjoiMiJ9+/='],
    },
    {
        name: 'TerminateInstances (two ids)',
        sdk: new TerminateInstancesCommand({ InstanceIds: ['i-0abc', 'i-0def'] }),
        ours: ['terminate-instances', 'i-0abc', 'i-0def'],
    },
    {
        name: 'CreateFleet (instant, 1000 nodes, types x subnets, owner tags only, client token)',
        sdk: new CreateFleetCommand({
            Type: 'instant',
            LaunchTemplateConfigs: [{
                LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0123456789abcdef0', Version: '$Latest' },
                Overrides: [{ InstanceType: 'c5.large', SubnetId: 'subnet-a' }, { InstanceType: 'c5.large', SubnetId: 'subnet-b' },
                    { InstanceType: 'c5a.large', SubnetId: 'subnet-a' }, { InstanceType: 'c5a.large', SubnetId: 'subnet-b' }],
            }],
            TargetCapacitySpecification: { TotalTargetCapacity: 1000, OnDemandTargetCapacity: 1000,
                DefaultTargetCapacityType: 'on-demand' },
            OnDemandOptions: { AllocationStrategy: 'lowest-price' },
            ClientToken: 'f00d',
            TagSpecifications: [{ ResourceType: 'instance', Tags: tags(cluster, burstdId, node).slice(0, 2) }],
        }),
        ours: ['create-fleet', '--lt-id', 'lt-0123456789abcdef0', '--lt-version', '$Latest', '--type', 'c5.large',
            '--type', 'c5a.large', '--subnet', 'subnet-a', '--subnet', 'subnet-b', '--capacity', '1000',
            '--cluster', cluster, '--burstd-id', burstdId, '--token', 'f00d'],
    },
    {
        name: "CreateFleet (one job's nodes: spot, minimum of all, one type and zone)",
        sdk: new CreateFleetCommand({
            Type: 'instant',
            LaunchTemplateConfigs: [{
                LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0123456789abcdef0', Version: '3' },
                Overrides: [{ InstanceType: 'c5.large' }],
            }],
            TargetCapacitySpecification: { TotalTargetCapacity: 4, SpotTargetCapacity: 4,
                DefaultTargetCapacityType: 'spot' },
            SpotOptions: { AllocationStrategy: 'price-capacity-optimized', MinTargetCapacity: 4,
                SingleInstanceType: true, SingleAvailabilityZone: true },
            ClientToken: 'job-17',
            TagSpecifications: [{ ResourceType: 'instance', Tags: tags('c1', 'b1', 'n1').slice(0, 2) }],
        }),
        ours: ['create-fleet', '--lt-id', 'lt-0123456789abcdef0', '--lt-version', '3', '--type', 'c5.large',
            '--capacity', '4', '--min', '4', '--spot', '--cluster', 'c1', '--burstd-id', 'b1', '--token', 'job-17'],
    },
    {
        name: 'CreateFleet (a fleet of one carries its node tags)',
        sdk: new CreateFleetCommand({
            Type: 'instant',
            LaunchTemplateConfigs: [{
                LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0123456789abcdef0', Version: '$Latest' },
                Overrides: [{ InstanceType: 'c5.large' }],
            }],
            TargetCapacitySpecification: { TotalTargetCapacity: 1, OnDemandTargetCapacity: 1,
                DefaultTargetCapacityType: 'on-demand' },
            OnDemandOptions: { AllocationStrategy: 'lowest-price' },
            ClientToken: 'one',
            TagSpecifications: [{ ResourceType: 'instance', Tags: tags(cluster, burstdId, node) }],
        }),
        ours: ['create-fleet', '--lt-id', 'lt-0123456789abcdef0', '--lt-version', '$Latest', '--type', 'c5.large',
            '--capacity', '1', '--cluster', cluster, '--burstd-id', burstdId, '--node', node, '--token', 'one'],
    },
];

let captured = [];
const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', d => { body += d; });
    req.on('end', () => {
        captured.push({ method: req.method, url: req.url, rawHeaders: req.rawHeaders, body });
        // Any well-formed reply will do: only the request matters here.
        // A Date at the fixed instant: the SDK corrects its clock by the
        // server's Date header, which would otherwise undo the fixed clock.
        res.sendDate = false;
        res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8', date: new Date(T * 1000).toUTCString() });
        res.end('<Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId></Response>');
    });
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const endpoint = `http://127.0.0.1:${server.address().port}`;
const client = new EC2Client({ region, endpoint, credentials: creds, maxAttempts: 1 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aws-sdk-oracle-'));
const env = { ...process.env, AWS_ACCESS_KEY_ID: creds.accessKeyId, AWS_SECRET_ACCESS_KEY: creds.secretAccessKey };
delete env.AWS_SESSION_TOKEN;
const run = args => execFileSync(checker, ['--time', String(T), '--region', region, '--endpoint', endpoint, ...args],
    { env, encoding: 'utf8' });

// "Name:value" lines of burstd's text form (to_text) back into a request.
function parseOurs(text) {
    const sep = text.indexOf('\n\n');
    const lines = text.slice(0, sep).split('\n');
    const [method, target] = lines[0].split(' ');
    const headers = lines.slice(1).map(l => { const c = l.indexOf(':'); return [l.slice(0, c), l.slice(c + 1)]; });
    return { method, url: target, headers, body: text.slice(sep + 2) };
}
const header = (hs, name) => (hs.find(([n]) => n.toLowerCase() === name) || [])[1];
const authParts = a => Object.fromEntries(a.replace(/^AWS4-HMAC-SHA256 /, '').split(', ').map(p => p.split('=')));

class Sha256 {
    constructor(secret) { this.h = secret ? crypto.createHmac('sha256', secret) : crypto.createHash('sha256'); }
    update(d) { this.h.update(d); }
    async digest() { return new Uint8Array(this.h.digest()); }
}
const sdkSigner = new SignatureV4({ service: 'ec2', region, credentials: creds, sha256: Sha256, applyChecksum: false });

for (const s of scenarios) {
    captured = [];
    try { await client.send(s.sdk); } catch { /* the reply is irrelevant; the request was captured */ }
    if (captured.length !== 1) { ok(false, `${s.name}: the SDK sent one request`, `captured ${captured.length}`); continue; }
    const sdk = captured[0];
    const sdkHeaders = [];
    for (let i = 0; i < sdk.rawHeaders.length; i += 2) sdkHeaders.push([sdk.rawHeaders[i], sdk.rawHeaders[i + 1]]);
    const sdkAuth = header(sdkHeaders, 'authorization');

    // 1. our signer over the SDK's bytes
    const file = path.join(tmp, 'sdk-request.http');
    fs.writeFileSync(file, `${sdk.method} ${sdk.url} HTTP/1.1\n` + sdkHeaders.map(([n, v]) => `${n}:${v}`).join('\n') +
        `\n\n${sdk.body}`);
    let resigned = '';
    try { resigned = execFileSync(checker, ['--time', String(T), '--region', region, 'resign', file],
        { env, encoding: 'utf8' }).trim(); } catch (e) { resigned = `failed: ${e.stderr || e.message}`; }
    ok(resigned === sdkAuth, `${s.name}: our signer reproduces the SDK's signature over the SDK's request ` +
        `(SignedHeaders=${authParts(sdkAuth).SignedHeaders})`, `SDK:  ${sdkAuth}\nours: ${resigned}`);

    // 2. parameters and their encoding
    let ours;
    try { ours = parseOurs(run(s.ours)); } catch (e) { ok(false, `${s.name}: ec2-sign-check builds it`, e.stderr || e.message); continue; }
    const sdkPairs = sdk.body.split('&'), ourPairs = ours.body.split('&');
    const same = JSON.stringify([...sdkPairs].sort()) === JSON.stringify([...ourPairs].sort());
    const missing = sdkPairs.filter(p => !ourPairs.includes(p)), extra = ourPairs.filter(p => !sdkPairs.includes(p));
    ok(same, `${s.name}: same ${sdkPairs.length} form parameters, same percent-encoding` +
        (same && sdk.body !== ours.body ? ' (order differs: SDK member order vs ours)' : ''),
        `only SDK: ${missing.join('&')}\nonly ours: ${extra.join('&')}`);

    // 3. envelope
    const oa = authParts(header(ours.headers, 'authorization') || ''), sa = authParts(sdkAuth);
    const env3 = { method: ours.method, path: ours.url, host: header(ours.headers, 'host'),
        date: header(ours.headers, 'x-amz-date'), scope: oa.Credential,
        type: (header(ours.headers, 'content-type') || '').split(';')[0] };
    const sdk3 = { method: sdk.method, path: sdk.url, host: header(sdkHeaders, 'host'),
        date: header(sdkHeaders, 'x-amz-date'), scope: sa.Credential,
        type: (header(sdkHeaders, 'content-type') || '').split(';')[0] };
    ok(JSON.stringify(env3) === JSON.stringify(sdk3), `${s.name}: same method, path, Host, X-Amz-Date, credential scope, media type`,
        `SDK:  ${JSON.stringify(sdk3)}\nours: ${JSON.stringify(env3)}`);

    // 4. the SDK's signer over our bytes
    const u = new URL(endpoint);
    const toSign = { method: ours.method, protocol: u.protocol, hostname: u.hostname, port: Number(u.port), path: ours.url,
        headers: Object.fromEntries(ours.headers.filter(([n]) => !['authorization', 'x-amz-date'].includes(n.toLowerCase()))),
        body: ours.body };
    const signed = await sdkSigner.sign(toSign, { signingDate: new Date(T * 1000) });
    ok(signed.headers.authorization === header(ours.headers, 'authorization'),
        `${s.name}: the SDK's signer computes the Authorization we send (SignedHeaders=${oa.SignedHeaders})`,
        `SDK signer: ${signed.headers.authorization}\nours:       ${header(ours.headers, 'authorization')}`);
}
server.close();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failures ? 1 : 0);
