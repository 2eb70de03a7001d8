import { describe, expect, it } from 'vitest';
import { failed } from './mcpErrors.ts';

describe('failed', () => {
  it('scrubs key shapes and payloads from a failed call where it is made', () => {
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const outcome = failed('protocol', `The MCP tool s__t failed: upstream said Authorization: Bearer ${token} and data:image/png;base64,${'iVBORw0KGgo'.repeat(40)}`);
    expect(outcome.text).not.toContain(token);
    expect(outcome.text).not.toContain('iVBORw0KGgoiVBORw0KGgo');
    expect(outcome).toMatchObject({ ok: false, failure: 'protocol', images: [] });
  });
});
