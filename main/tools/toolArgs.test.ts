import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseToolArgs, RegionArgs, toolParameters } from './toolArgs.ts';

describe('tool arguments from one zod schema', () => {
  const Args = z.object({ ...RegionArgs, image: z.string().optional() });

  it('the model is offered the JSON Schema of the same schema the arguments are checked with', () => {
    const json = toolParameters(Args);
    expect(json).not.toHaveProperty('$schema');
    expect(json).toMatchObject({ type: 'object', required: ['x', 'y', 'width', 'height'], properties: { x: { type: 'number' }, image: { type: 'string' } } });
  });

  it('bad arguments are a tool error the model can read, not a throw', () => {
    const bad = parseToolArgs('zoom_image', Args, { x: 'left', y: 1, width: 2 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.text).toMatch(/^zoom_image was called with arguments it cannot use: x: .*height/);
    expect(parseToolArgs('zoom_image', Args, { x: 1, y: 2, width: 3, height: 4 })).toEqual({ ok: true, args: { x: 1, y: 2, width: 3, height: 4 } });
  });
});
