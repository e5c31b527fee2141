import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callbackUrlProblem, isCallbackUrlAllowed } from '../../src/tenants/index.ts';

describe('callback URL allow list (docs/decisions.md)', () => {
  const prefixes = ['https://shop.example/kyc', 'https://app.example:8443/', 'http://localhost:3000/cb/'];
  const cases: [string, boolean][] = [
    ['https://shop.example/kyc', true],
    ['https://shop.example/kyc/', true],
    ['https://shop.example/kyc/done?x=1', true],
    ['https://shop.example/kycx', false],
    ['https://shop.example/', false],
    ['https://SHOP.example/kyc', true],
    ['https://shop.example:443/kyc', true],
    ['http://shop.example/kyc', false],
    ['https://shop.example.evil/kyc', false],
    ['https://evil.example/shop.example/kyc', false],
    ['https://app.example:8443/anything', true],
    ['https://app.example/anything', false],
    ['http://localhost:3000/cb/x', true],
    ['http://localhost:3000/cb', false],
    ['not a url', false],
  ];
  for (const [url, allowed] of cases) {
    it(`${url} → ${allowed ? 'allowed' : 'refused'}`, () => {
      assert.equal(isCallbackUrlAllowed(url, prefixes), allowed);
    });
  }

  it('allows http only for localhost and 127.0.0.1 outside production', () => {
    assert.equal(callbackUrlProblem('http://localhost:1234/x', 'development'), undefined);
    assert.equal(callbackUrlProblem('http://127.0.0.1/x', 'staging'), undefined);
    assert.match(callbackUrlProblem('http://localhost/x', 'production') ?? '', /https/);
    assert.match(callbackUrlProblem('http://shop.example/x', 'development') ?? '', /https/);
    assert.equal(callbackUrlProblem('https://shop.example/x', 'production'), undefined);
    assert.match(callbackUrlProblem('https://u:p@shop.example/', 'production') ?? '', /credentials/);
  });
});

describe('callback URLs to private, loopback, link-local or metadata addresses (the SSRF guard rules)', () => {
  const refusedInProduction = [
    'https://169.254.169.254/latest',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/',
    'https://192.168.0.10/cb',
    'https://127.0.0.1/cb',
    'https://0x7f.1/cb', // 127.0.0.1 in hex notation
    'https://2130706433/cb', // 127.0.0.1 as one number
    'https://169.254.10.1/',
    'https://100.100.100.200/',
    'https://[::1]/cb',
    'https://[fe80::1]/cb',
    'https://[fd00:ec2::254]/',
    'https://[::ffff:10.0.0.1]/cb',
    'https://localhost/cb',
    'https://api.localhost/cb',
    // A fully qualified name's trailing dot is the same host (issue 46: it was refused only at delivery).
    'https://localhost./',
    'https://LOCALHOST../cb',
    'https://api.localhost./cb',
    'https://127.0.0.1./cb',
  ];
  for (const url of refusedInProduction) {
    it(`${url} is refused in production`, () => {
      assert.match(callbackUrlProblem(url, 'production') ?? '', /private or reserved address/);
    });
  }

  it('public addresses and host names stay allowed; localhost stays allowed outside production', () => {
    assert.equal(callbackUrlProblem('https://8.8.8.8/cb', 'production'), undefined);
    assert.equal(callbackUrlProblem('https://172.32.0.1/cb', 'production'), undefined);
    assert.equal(callbackUrlProblem('https://[2001:4860::8888]/cb', 'production'), undefined);
    assert.equal(callbackUrlProblem('https://shop.example/cb', 'production'), undefined);
    assert.equal(callbackUrlProblem('https://localhost:8443/cb', 'development'), undefined);
    assert.equal(callbackUrlProblem('http://127.0.0.1:3000/cb', 'staging'), undefined);
    // The guard refuses private addresses in every environment: so does the allow list.
    assert.match(callbackUrlProblem('https://10.0.0.1/hook', 'staging') ?? '', /private/);
  });
});
