// The model asks to look: screenshot_desktop under a real X server (Xvfb) showing the
// known-answer chart in Chromium; the capture reaches the seeing fixture model as a user turn
// in the same user turn, then is retracted. DISPLAY is set for this file's own process
// (node-screenshots connects once per process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { engineSuite, ofType, type Harness } from './engineHarness.ts';
import { conversationFiles, hasBase64Run } from '../support/storedText.ts';

let x: XServer;
let screen: ScreenPage;
const suite = engineSuite();
const server = suite.server;
let h: Harness;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(capturer));
});

afterAll(async () => {
  await screen?.close();
  await x?.stop();
});

describe('screenshot_desktop', () => {
  it('shows the screen to the model in the same user turn, then retracts it', async () => {
    h = await suite.harness({ capturer });
    server().script({ toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] });
    const first = await h.turn({ model: 'llava-seer', text: 'What is on my screen?' });
    expect(first.outcome.status).toBe('done');
    expect(server().requests[0]!.toolNames).toContain('screenshot_desktop');
    const withImage = server().requests[1]!;
    expect(withImage.images).toHaveLength(1);
    expect(withImage.images[0]!.role).toBe('user');
    // Fitted to the Ollama profile: 1920×1080 → 1568×882.
    expect(withImage.images[0]).toMatchObject({ width: 1568, height: 882 });
    expect(withImage.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    expect(first.outcome.text).toMatch(/red, green, blue; tallest green, shortest blue/);
    const tool = ofType(first.events, 'tool_result')[0]!;
    expect(tool.text).toMatch(/1920×1080 pixels, shown to you as 1568×882/);
    expect(ofType(first.events, 'image_retracted')[0]!.attachmentIds).toEqual(tool.attachmentIds);

    const next = await h.turn({ conversationId: first.outcome.conversationId, model: 'llava-seer', text: 'Thanks.' });
    expect(next.outcome.status).toBe('done');
    expect(server().requests[2]!.images).toHaveLength(0);
    expect(server().requests[2]!.messages.some((m) => m.text.includes('no longer shown'))).toBe(true);
    for (const file of await conversationFiles(h.dataDir)) expect(hasBase64Run(file)).toBe(false);
  });

  it('captures anew on every call and zooms into a region at native resolution', async () => {
    h = await suite.harness({ capturer });
    // The chart sits at 40,40 and is 960×480 screen pixels: 784×392 in the 1568×882 view.
    // Zooming on its left part (the red and green bars: chart x 34–137) must return native pixels.
    server().script(
      { toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] },
      { toolCalls: [{ name: 'screenshot_desktop', arguments: { region: { x: 32, y: 32, width: 470, height: 400 } } }] },
    );
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Zoom in on the left of the chart.' });
    expect(outcome.status).toBe('done');
    const results = ofType(events, 'tool_result');
    expect(results).toHaveLength(2);
    expect(results[0]!.attachmentIds).not.toEqual(results[1]!.attachmentIds);
    const zoomed = server().requests[2]!.images.at(-1)!;
    // 470×400 view pixels × (1920/1568) ≈ 576×490 screen pixels, sent at native size.
    expect(zoomed.width).toBeGreaterThanOrEqual(574);
    expect(zoomed.width).toBeLessThanOrEqual(577);
    expect(zoomed.height).toBeGreaterThanOrEqual(488);
    expect(zoomed.height).toBeLessThanOrEqual(491);
    expect(zoomed.bars.map((b) => b.color)).toEqual(['red', 'green']);
    expect(results[1]!.text).toMatch(/sharper than the full view/);
    expect(ofType(events, 'image_delivered')).toHaveLength(2);
  });
});
