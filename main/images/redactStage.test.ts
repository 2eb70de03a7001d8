// Which copies the redact stage hides secrets in: the policy over where the model's server runs.
import { describe, expect, it } from 'vitest';
import { hidesFor, policyFor } from './redactStage.ts';

describe('redact policy', () => {
  const remote = { redact: 'remote' as const };
  it('"remote" hides for a named model off this machine or of unknown place, not for loopback', () => {
    expect(hidesFor({ vision: 'yes', remote: true }, remote)).toBe(true);
    expect(hidesFor({ vision: 'yes' }, remote)).toBe(true);
    expect(hidesFor({ vision: 'yes', remote: false }, remote)).toBe(false);
  });
  it('a copy for no model yet (a profile only) is hidden only when asked or known to be remote', () => {
    expect(hidesFor({}, remote)).toBe(false);
    expect(hidesFor({ remote: true }, remote)).toBe(true);
    expect(hidesFor({ redact: 'always' }, remote)).toBe(true);
  });
  it('the conversation or command policy wins over the settings', () => {
    expect(policyFor({ redact: 'never' }, { redact: 'always' })).toBe('never');
    expect(hidesFor({ vision: 'yes', remote: true, redact: 'never' }, { redact: 'always' })).toBe(false);
    expect(hidesFor({ vision: 'yes', remote: false, redact: 'always' }, remote)).toBe(true);
    expect(policyFor({}, { redact: 'always' })).toBe('always');
  });
});
