// Window titles and app names leave through the egress (architecture §3b): a terminal's title often
// holds the command it runs, token included. On a real desktop (Xvfb + openbox + a Chromium window
// whose title carries a GitHub token), list_windows and a window capture's label give a model that
// is not on this computer the title with the token hidden.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { openDesktop, waitForWindows, type Desktop } from '../support/desktop.ts';
import { engineSuite, ofType } from '../chat/engineHarness.ts';

const TOKEN = 'ghp_R8c2Lq0ZxW4vT7bN1mK9pJ3sD6fH5gY2aE0u';
const TERMINAL = { title: `deploy --token ${TOKEN}`, color: '#203040', x: 80, y: 80, width: 600, height: 400 };

let desktop: Desktop;
const suite = engineSuite();
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  desktop = await openDesktop({ width: 1280, height: 720 }, [TERMINAL], { thisProcess: true });
  await waitForWindows(capturer, [TERMINAL]);
}, 120_000);

afterAll(async () => {
  await desktop?.close();
});

describe('window titles through the egress', () => {
  it('list_windows and a window capture give the title with its token hidden', async () => {
    const h = await suite.harness({ capturer, privacy: { ...defaultSettings().privacy, redact: 'always' } });
    suite.server().script({ toolCalls: [{ name: 'list_windows', arguments: {} }] }, { toolCalls: [{ name: 'screenshot_desktop', arguments: { window: 'deploy' } }] }, { text: 'done' });
    const turn = await h.turn({ model: 'llava-seer', text: 'Which windows are open?' });
    expect(turn.outcome.status, turn.outcome.error?.message).toBe('done');
    const listed = ofType(turn.events, 'tool_result').find((r) => r.name === 'list_windows')!;
    expect(listed.text).toContain('deploy --token');
    expect(listed.text).not.toContain(TOKEN.slice(4, 20));
    expect(listed.text).toMatch(/hidden: github token/);
    // Everything the model server received: tool results and the window capture's label.
    const sent = JSON.stringify(suite.server().requests.map((r) => r.body));
    expect(sent).toContain('deploy --token');
    expect(sent).not.toContain(TOKEN.slice(4, 20));
  }, 180_000);
});
