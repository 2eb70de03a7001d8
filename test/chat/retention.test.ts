import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testServices } from '../support/testServices.ts';
import { sweepAttachments } from '../../main/chat/retention.ts';
import { profileFor } from '../../main/images/profiles.ts';
import { makeBarChart } from '../fixtures/chart.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-retention-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('attachment retention', () => {
  it('deletes old unreferenced images and keeps referenced or recent ones', async () => {
    const core = testServices({ dataDir });
    const put = async (width: number) => {
      const p = await core.intake.admit({ source: await makeBarChart({ width }), origin: 'user', requestedBy: 'user' }, { profile: profileFor('ollama') }, 'check');
      if (!p.ok) throw new Error(p.message);
      return core.attachments.put(p.image, 'user');
    };
    const referenced = await put(200);
    const orphan = await put(210);
    const conversation = core.conversations.create('kept');
    conversation.messages.push({ role: 'user', id: 'u1', text: 'look', attachmentIds: [referenced.id], createdAt: new Date().toISOString() });
    await core.conversations.save(conversation);

    // Not old enough yet: nothing goes.
    expect((await sweepAttachments({ ...core, retentionDays: 90 })).removed).toEqual([]);
    // A year later the orphan goes, the referenced one stays.
    const later = new Date(Date.now() + 365 * 86_400_000);
    const swept = await sweepAttachments({ ...core, retentionDays: 90, now: later });
    expect(swept.removed).toEqual([orphan.id]);
    expect(await core.attachments.get(orphan.id)).toBeUndefined();
    expect(await core.attachments.get(referenced.id)).toBeDefined();
    // "Keep forever" deletes nothing.
    await core.conversations.delete(conversation.id);
    expect((await sweepAttachments({ ...core, retentionDays: null, now: later })).removed).toEqual([]);
    expect((await sweepAttachments({ ...core, retentionDays: 90, now: later })).removed).toEqual([referenced.id]);
  });

  it("runs from the composition with the settings' retention period (what the app and glance mcp serve call)", async () => {
    const dir = join(dataDir, 'composed');
    // 0 days (below what Settings accepts) makes an image stored a moment ago old enough to go.
    const composed = testServices({ dataDir: dir, settings: { attachments: { retentionDays: 0 } } });
    const p = await composed.intake.admit({ source: await makeBarChart({ width: 220 }), origin: 'user', requestedBy: 'user' }, { profile: profileFor('ollama') }, 'check');
    if (!p.ok) throw new Error(p.message);
    const orphan = await composed.attachments.put(p.image, 'user');
    await new Promise((r) => setTimeout(r, 5));
    expect((await composed.sweepAttachments()).removed).toEqual([orphan.id]);
    const kept = testServices({ dataDir: dir, settings: { attachments: { retentionDays: null } } });
    const again = await kept.attachments.put(p.image, 'user');
    expect((await kept.sweepAttachments()).removed).toEqual([]);
    expect(await kept.attachments.get(again.id)).toBeDefined();
    await Promise.all([composed.close(), kept.close()]);
  });
});
