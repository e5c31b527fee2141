import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callbackUrlProblem, isCallbackUrlAllowed } from '../../src/tenants/index.ts';

describe('callback URL allow list (design.md)', () => {
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
